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
 * {@code io_submit_mode=offload} with {@code ioengine=null} (fio's t/jobs t0010, t0013):
 * {@code iodepth} submit workers, each with a null engine at depth 1 (rate-submit.c), and
 * {@code serialize_overlap}, which with the null engine has nothing to wait for (an I/O
 * completes inside its queue call) and elsewhere is refused.
 */
@Timeout(120)
class FioNullOffloadTest {
  @TempDir Path tmp;

  private MainTest.Result run(String job) throws IOException {
    Path f = tmp.resolve("j.fio");
    Files.writeString(f, "[j]\nioengine=null\nsize=1g\n" + job);
    return MainTest.cli("run", f.toString(), "--set", "max-time=10ms", "--threads");
  }

  private static int threads(String out) {
    Matcher m = Pattern.compile("(?m)^  j\\s+(\\d+)\\s").matcher(out);
    assertTrue(m.find(), out);
    return Integer.parseInt(m.group(1));
  }

  @Test
  void offload_runsFromIodepthWorkers_andKeepsAtMostIodepthOut() throws IOException {
    MainTest.Result r = run("iodepth=4\nio_submit_mode=offload\n");
    assertEquals(0, r.code(), r.err());
    assertEquals(1 + 4, threads(r.out()), r.out());
    assertTrue(r.out().contains("IO depths    : 1="), r.out());
    assertTrue(r.out().matches("(?s).*IO depths[^\\n]*8=0\\.0%, 16=0\\.0%.*"), r.out());
    Matcher m = Pattern.compile("issued rwts: total=(\\d+),").matcher(r.out());
    assertTrue(m.find() && Integer.parseInt(m.group(1)) > 1000, r.out());
  }

  @Test
  void serializeOverlap_withTheNullEngine_runs_elsewhereIsRefused() throws IOException {
    MainTest.Result ok = run("iodepth=1\nio_submit_mode=offload\nserialize_overlap=1\n"
        + "numjobs=2\nsize=4k\nloops=1000\n");
    assertEquals(0, ok.code(), ok.err());
    Path f = tmp.resolve("aio.fio");
    Files.writeString(f, "[j]\nfilename=/dev/nullb0\nioengine=libaio\niodepth=4\nsize=4m\n"
        + "serialize_overlap=1\n");
    MainTest.Result no = MainTest.cli("run", f.toString(), "--set", "max-time=10ms");
    assertEquals(2, no.code(), no.err());
    assertTrue(no.err().contains("aio.fio:6: job 'j': serialize_overlap"), no.err());
  }
}
