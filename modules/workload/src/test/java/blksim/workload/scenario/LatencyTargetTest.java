package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * fio's latency profile (HOWTO {@code latency_target}, {@code latency_window},
 * {@code latency_percentile}, {@code latency_run}; io_u.c {@code lat_target_*()}): fio looks for
 * the deepest queue depth, up to {@code iodepth}, at which the given percentile of I/Os completes
 * within the target, and reports it as {@code latency_depth}.
 */
@Timeout(120)
class LatencyTargetTest {
  @TempDir Path dir;

  JobStats run(String job) throws IOException {
    Path p = dir.resolve("l.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = ssd, name = sda, size = 1G } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/dev/sda\ndirect=1\nbs=4k\nrw=randread\n"
        + "ioengine=libaio\n" + job + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0).jobs().get(0);
  }

  @Test
  void aTargetEveryDepthMeets_doublesUpToIodepth_thenEndsAfterOneMoreWindow() throws IOException {
    JobStats s = run("iodepth=32\nlatency_target=1s\nlatency_window=2ms\nruntime=1s\ntime_based");
    assertEquals(32, s.latencyDepth());
    // 1, 2, 4, 8, 16, 32: six windows; 32 again (clamped): the final run, one window, done.
    long runtimeMs = s.runtimeMs(0);
    assertTrue(runtimeMs >= 2 && runtimeMs < 50, "the final run is one window: " + runtimeMs);
    assertEquals(1_000_000_000L, s.latencyTargetNs());
    assertEquals(2000, s.latencyWindowUs());
    assertEquals(0, s.error());
  }

  @Test
  void aTargetBetweenDepths_settlesBelowIodepth_whereThePercentileMeetsIt() throws IOException {
    // This SSD: mean latency ~77 µs at depth 4, ~210 µs at 16, ~820 µs at 64.
    JobStats s = run("iodepth=64\nlatency_target=150us\nlatency_window=2ms\n"
        + "latency_percentile=90\nruntime=1s\ntime_based");
    int d = s.latencyDepth();
    assertTrue(d > 1 && d < 16, "settled depth " + d);
    // The statistics are those of the final window only, at the settled depth.
    assertTrue(s.lat(0).mean() < 150_000, "mean lat " + s.lat(0).mean());
    JobStats deeper = run("iodepth=" + 2 * d + "\nruntime=20ms\ntime_based");
    assertTrue(deeper.lat(0).mean() > s.lat(0).mean(), "depth " + 2 * d + " is slower");
    // latency_run=1 keeps probing for the whole runtime.
    JobStats keep = run("iodepth=64\nlatency_target=150us\nlatency_window=2ms\n"
        + "latency_percentile=90\nruntime=40ms\ntime_based\nlatency_run=1");
    assertTrue(keep.runtimeMs(0) >= 39, "latency_run=1 runs on: " + keep.runtimeMs(0));
  }

  @Test
  void percentile100_missedAtDepth1_failsTheJobWithEtimedout() throws IOException {
    JobStats s = run("iodepth=8\nlatency_target=1us\nlatency_window=2ms\nruntime=1s\ntime_based");
    assertEquals(110, s.error()); // lat_fatal(): td_verror(td, ETIMEDOUT, "max latency exceeded")
    assertEquals(1, s.latencyDepth());
    assertTrue(s.totalIos(0) <= 1, "it stops at the first I/O over the target");
  }
}
