package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.workload.fio.stats.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio's flow control (HOWTO {@code flow}: "if one job has flow=3, another job has flow=2 and
 * another with flow=1, then there will be a roughly 3:2:1 ratio in how much one runs vs the
 * others"; flow.c {@code flow_threshold_exceeded()}).
 */
@Timeout(60)
class FlowTest {
  @TempDir Path dir;

  RunResult run(String jobs) throws IOException {
    Path p = dir.resolve("f.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 4, threads-per-core = 1 }\n"
        + "  devices = [ { type = brd, name = ram0, size = 64M } ]\n"
        + "  fio.jobs = [\"\"\"\n[global]\nfilename=/dev/ram0\ndirect=1\nbs=4k\nrw=randread\n"
        + "runtime=3ms\ntime_based\n" + jobs + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0);
  }

  @Test
  void weights_setTheRatioOfIos_spinningOrSleeping() throws IOException {
    RunResult free = run("[a]\n[b]\nrw=read\nbs=64k\n");
    long fa = free.jobs().get(0).totalIos(0);
    long fb = free.jobs().get(1).totalIos(0);
    assertTrue(fa > 2 * fb, "unregulated, 4k random reads outrun 64k ones: " + fa + " " + fb);
    // The same jobs in one flow with weights 1 and 2: the 4k job is held to half the 64k one's
    // I/O count.
    RunResult spin = run("[a]\nflow=1\n[b]\nrw=read\nbs=64k\nflow=2\n");
    long a = spin.jobs().get(0).totalIos(0);
    long b = spin.jobs().get(1).totalIos(0);
    assertEquals(0.5, (double) a / b, 0.05, "I/Os " + a + " : " + b);
    // Without flow_sleep the held job spins: its CPU is busy in user space all the while.
    assertTrue(spin.jobs().get(0).usrNs() > 0.5 * 3_000_000L,
        "spinning: usr " + spin.jobs().get(0).usrNs());
    RunResult sleep = run("[a]\nflow=1\nflow_sleep=20\n[b]\nrw=read\nbs=64k\nflow=2\n");
    long sa = sleep.jobs().get(0).totalIos(0);
    long sb = sleep.jobs().get(1).totalIos(0);
    assertTrue((double) sa / sb <= 0.55, "I/Os " + sa + " : " + sb);
    assertTrue(sleep.jobs().get(0).usrNs() < spin.jobs().get(0).usrNs() / 2,
        "flow_sleep sleeps instead of spinning");
    // Another flow_id is another flow: no regulation between the two.
    RunResult apart = run("[a]\nflow=1\n[b]\nrw=read\nbs=64k\nflow=2\nflow_id=1\n");
    assertTrue(apart.jobs().get(0).totalIos(0) > 2 * apart.jobs().get(1).totalIos(0));
  }
}
