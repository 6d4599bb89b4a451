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
import blksim.workload.fio.stats.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** fio's {@code ioengine=null}: no device, only fio's own per-I/O work. */
@Timeout(60)
class NullEngineTest {
  @TempDir Path dir;

  static final long RUNTIME_NS = 10_000_000;

  Scenario load(String job, String devices) throws IOException {
    Path p = dir.resolve("n.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [" + devices + "]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nioengine=null\nbs=4k\nrw=randread\n"
        + job + "\n\"\"\"]\n}\n");
    return ScenarioLoader.load(p, List.of(), Map.of());
  }

  JobStats run(Scenario s) {
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    RunResult r = ScenarioResults.toRunResult(out, 0);
    return r.jobs().get(0);
  }

  @Test
  void depthOne_runsOneIoPerUserCost_withoutAnyDevice() throws IOException {
    Scenario s = load("size=1g\nruntime=10ms\ntime_based", "");
    JobStats j = run(s);
    long u = s.fioCosts().userNsPerIo();
    double expected = (double) RUNTIME_NS / u;
    assertTrue(Math.abs(j.totalIos(0) - expected) <= 0.02 * expected + 2,
        j.totalIos(0) + " I/Os, expected " + expected);
    assertEquals(0, j.clat(0).max(), "a synchronous null I/O completes in its queue call");
    assertEquals(0, j.sysNs(), "no system call");
    assertTrue(j.usrNs() >= j.totalIos(0) * u, "usr " + j.usrNs());
  }

  @Test
  void deeperQueue_sameRate_clatIsTheUserTimeOfTheIosQueuedAfter() throws IOException {
    Scenario s = load("size=1g\nruntime=10ms\ntime_based\niodepth=8", "");
    JobStats j = run(s);
    long u = s.fioCosts().userNsPerIo();
    double expected = (double) RUNTIME_NS / u;
    assertTrue(Math.abs(j.totalIos(0) - expected) <= 0.02 * expected + 8,
        j.totalIos(0) + " I/Os, expected " + expected);
    assertEquals(7 * u, j.clat(0).max());
    assertEquals(3.5 * u, j.clat(0).mean(), 0.05 * u);
  }

  @Test
  void sizeBounded_endsAfterSizeOverBs() throws IOException {
    JobStats j = run(load("size=4m", "{ type = brd, name = ram0, size = 16M }"));
    assertEquals(1024, j.totalIos(0));
  }

  @Test
  void withoutSize_isRefused() {
    InputException e = assertThrows(InputException.class, () -> load("runtime=1ms", ""));
    assertEquals("size", e.key(), e.getMessage());
    assertTrue(e.getMessage().contains("ioengine=null"), e.getMessage());
  }

  @Test
  void pvsync2_runsAsPvsync_andHipriChangesNothing() throws IOException {
    Path p = dir.resolve("p.conf");
    String head = "blksim {\n  devices = [ { type = brd, name = ram0, size = 16M } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/dev/ram0\ndirect=1\nbs=4k\nsize=1m\n";
    Files.writeString(p, head + "ioengine=pvsync2\n\"\"\"]\n}\n");
    JobStats j = run(ScenarioLoader.load(p, List.of(), Map.of()));
    assertEquals(256, j.totalIos(0));
    // Linux 5.19 (9650b453a3d4) ignores RWF_HIPRI on synchronous I/O: the same run.
    Files.writeString(p, head + "ioengine=pvsync2\nhipri\n\"\"\"]\n}\n");
    JobStats h = run(ScenarioLoader.load(p, List.of(), Map.of()));
    assertEquals(256, h.totalIos(0));
    assertEquals(j.clat(0).mean(), h.clat(0).mean());
    assertEquals(j.sysNs(), h.sysNs());
  }
}
