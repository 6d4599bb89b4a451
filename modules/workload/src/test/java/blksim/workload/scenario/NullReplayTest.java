package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.workload.fio.stats.JobStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code read_iolog} on fio's null engine (fio's t/jobs t0038): the log's reads, writes and
 * trims are issued as io_us of the logged offsets and lengths, whatever file the log names, with
 * the logged timing; the job ends with the log.
 */
@Timeout(60)
class NullReplayTest {
  @TempDir Path dir;

  JobStats run(String log, String job) throws IOException {
    Path l = dir.resolve("t.iolog");
    Files.writeString(l, log);
    Path p = dir.resolve("n.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = brd, name = ram0, size = 64M } ]\n"
        + "  fio.jobs = [\"\"\"\n[test]\nread_iolog=" + l + "\nioengine=null\n" + job
        + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0).jobs().get(0);
  }

  /** fio iolog v3: µs since the log's start, file, action, offset, length. */
  static String log(int pairs, long gapUs, long trimLen) {
    StringBuilder b = new StringBuilder("fio version 3 iolog\n30 /some/file add\n40 /some/file open\n");
    long t = 50;
    for (int i = 0; i < pairs; i++) {
      b.append(t).append(" /some/file trim ").append(4096L * i).append(' ').append(trimLen)
          .append('\n');
      t += gapUs;
      b.append(t).append(" /some/file write ").append(4096L * i).append(" 4096\n");
      t += gapUs;
      b.append(t).append(" /some/file read ").append(4096L * i).append(" 512\n");
      t += gapUs;
    }
    return b.append(t).append(" /some/file close\n").toString();
  }

  @Test
  void replay_issuesTheLogsIos_evenTrimsBeyondAnInt_withTheLogsTiming() throws IOException {
    JobStats s = run(log(10, 1000, 2L << 30), "iodepth=128");
    assertEquals(10, s.totalIos(0));
    assertEquals(10, s.totalIos(1));
    assertEquals(10, s.totalIos(2));
    assertEquals(10 * 512, s.ioBytes(0));
    assertEquals(10 * 4096, s.ioBytes(1));
    assertEquals(10 * (2L << 30), s.ioBytes(2), "the null engine has no device to bound a trim");
    // 30 I/Os 1 ms apart: the run lasts the log's ~30 ms (from the open at 40 µs).
    long runNs = s.runtimeNs();
    assertTrue(runNs > 28_000_000L && runNs < 32_000_000L, "runtime " + runNs);
    JobStats fast = run(log(10, 1000, 4096), "iodepth=1\nreplay_no_stall=1");
    assertEquals(30, fast.totalIos(0) + fast.totalIos(1) + fast.totalIos(2));
    assertTrue(fast.runtimeNs() < 1_000_000L, "replay_no_stall: " + fast.runtimeNs());
    JobStats noTrim = run(log(5, 10, 4096), "replay_skip=trim");
    assertEquals(0, noTrim.totalIos(2));
    assertEquals(5, noTrim.totalIos(1));
  }

  @Test
  void otherDisklessEngines_stillRefuseAReplay() {
    InputException e = assertThrows(InputException.class,
        () -> run(log(1, 10, 4096), "ioengine=cpuio\ncpuload=50"));
    assertTrue(e.getMessage().contains("read_iolog"), e.getMessage());
  }
}
