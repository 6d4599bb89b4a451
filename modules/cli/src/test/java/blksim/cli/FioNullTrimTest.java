package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trims with {@code ioengine=null}, as fio's t/jobs t0023 and t0024 expect: with
 * {@code trimwrite}/{@code randtrimwrite} every trim is followed by a write to the same offset
 * with the same size, the trim direction's ({@code bs=R,W,T}); the job writes {@code size}
 * (fio's budget counts a trimwrite job's writes).
 */
@Timeout(120)
class FioNullTrimTest {
  @TempDir Path tmp;

  private String run(String job) throws IOException {
    Path f = tmp.resolve("t.fio");
    Files.writeString(f, "[j]\nioengine=null\nfilesize=1M\n" + job);
    MainTest.Result r = MainTest.cli("run", f.toString(), "--set", "max-time=20ms");
    assertEquals(0, r.code(), r.err());
    return r.out();
  }

  private static long[] issued(String out) {
    Matcher m = Pattern.compile("issued rwts: total=(\\d+),(\\d+),(\\d+),").matcher(out);
    assertTrue(m.find(), out);
    return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
        Long.parseLong(m.group(3))};
  }

  @Test
  void trimwrite_pairsEachTrimWithAWrite_ofTheTrimSize() {
    assertPairs("rw=trimwrite\n", 256);
    assertPairs("rw=randtrimwrite\n", 256);
    // bs=4k,4k,8k: "block sizes 8k for both write and trim" (t0023 [bs_no_rm])
    assertPairs("rw=randtrimwrite\nbs=4k,4k,8k\nnorandommap=1\n", 128);
  }

  private void assertPairs(String job, long n) {
    try {
      String out = run(job);
      long[] io = issued(out);
      assertEquals(0, io[0], out);
      assertEquals(n, io[1], out);
      assertEquals(n, io[2], out);
      assertTrue(out.contains("trim: IOPS="), out);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void trimOnly_issuesTrimsOnly() throws IOException {
    long[] io = issued(run("rw=randtrim\nbs=8k\n"));
    assertEquals(0, io[0]);
    assertEquals(0, io[1]);
    assertEquals(128, io[2]);
  }
}
