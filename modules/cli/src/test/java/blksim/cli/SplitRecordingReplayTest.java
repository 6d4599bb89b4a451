package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.workload.trace.TraceFormat;
import blksim.workload.trace.TraceReader;
import blksim.workload.trace.TraceRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * blksim's own recording of split bios (1 MiB O_DIRECT reads on null_blk, max_sectors 255: nine
 * requests each, the remainder split again each time) read back: every Q's recorded latency runs
 * to the last C among its sectors, from the blkparse text and from the binary alike.
 */
@Timeout(120)
class SplitRecordingReplayTest {
  @TempDir Path tmp;

  private static final String JOB = "[big]\nioengine=libaio\niodepth=2\ndirect=1\nbs=1m\n"
      + "rw=read\nfilename=/dev/nullb0\nsize=64m\nnumber_ios=12\n";

  /** Q time and sectors, and the C times by sector, from the blkparse text. */
  private static List<Long> expectedLatencies(Path text) throws IOException {
    List<long[]> qs = new ArrayList<>(); // time, start, end
    List<long[]> cs = new ArrayList<>(); // time, sector
    for (String l : Files.readAllLines(text)) {
      String[] f = l.trim().split("\\s+");
      if (f.length < 10 || !f[0].contains(",")) {
        continue;
      }
      String[] t = f[3].split("\\.");
      long ns = Long.parseLong(t[0]) * 1_000_000_000L + Long.parseLong(t[1]);
      long sector = Long.parseLong(f[7]);
      if (f[5].equals("Q")) {
        qs.add(new long[] {ns, sector, sector + Long.parseLong(f[9])});
      } else if (f[5].equals("C")) {
        cs.add(new long[] {ns, sector});
      }
    }
    List<Long> out = new ArrayList<>();
    for (long[] q : qs) {
      long last = -1;
      for (long[] c : cs) {
        if (c[1] >= q[1] && c[1] < q[2] && c[0] >= q[0]) {
          last = Math.max(last, c[0] - q[0]);
        }
      }
      out.add(last);
    }
    return out;
  }

  private static List<Long> recorded(Path trace, TraceFormat format) {
    List<Long> out = new ArrayList<>();
    try (TraceReader r = TraceFormat.open(trace, format)) {
      for (TraceRecord t = r.next(); t != null; t = r.next()) {
        out.add(t.latencyNs());
      }
    }
    return out;
  }

  @Test
  void recordedSplitReads_latencyRunsToTheLastPartsC() throws IOException {
    Path job = tmp.resolve("big.fio");
    Files.writeString(job, JOB);
    Path bt = tmp.resolve("bt");
    MainTest.Result r = MainTest.cli("run", job.toString(), "--blktrace", bt.toString(),
        "--host", "local");
    assertEquals(0, r.code(), r.err());
    Path text = bt.resolve("nullb0.blkparse.txt");
    List<String> lines = Files.readAllLines(text);
    assertEquals(12 * 8, lines.stream().filter(l -> l.matches(".* X +R\\S* .*")).count(),
        "eight splits per 1 MiB read");

    List<Long> expected = expectedLatencies(text);
    assertEquals(12, expected.size());
    assertTrue(expected.stream().allMatch(x -> x > 0), expected.toString());
    assertEquals(expected, recorded(text, TraceFormat.BLKPARSE));
    assertEquals(expected, recorded(bt.resolve("nullb0.blktrace.0"), TraceFormat.BLKTRACE));
  }
}
