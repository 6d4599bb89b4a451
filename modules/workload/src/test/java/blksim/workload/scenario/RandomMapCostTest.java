package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/**
 * fio's random map ({@code costs.fio.random-map-per-io}, issue 10 item 8): a random job with the
 * map pays it per I/O as user time; with {@code norandommap}, or sequential, it does not; with
 * the default (0) nothing changes.
 */
@Timeout(60)
class RandomMapCostTest {
  @TempDir Path dir;

  RunResult run(String fio, String extra) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n" + extra + "\n  devices = [ { type = null_blk,"
        + " name = nullb0, size = 1G, irqmode = timer, scheduler = none } ]\n"
        + "  fio.jobs = [\"\"\"\n[global]\ndirect=1\ntime_based\nruntime=5ms\nbs=4k\n"
        + "filename=/dev/nullb0\nioengine=psync\n[j]\n" + fio + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0);
  }

  static double usrNsPerIo(RunResult r) {
    JobStats j = r.jobs().get(0);
    return (double) j.usrNs() / (j.totalIos(0) + j.totalIos(1));
  }

  static final String MAP = "  costs.fio.random-map-per-io = 200ns";

  @Test
  void randomWithTheMapPaysItAndNorandommapDoesNot() throws IOException {
    double withMap = usrNsPerIo(run("rw=randread", MAP));
    double without = usrNsPerIo(run("rw=randread\nnorandommap", MAP));
    double seq = usrNsPerIo(run("rw=read", MAP));
    assertTrue(without < withMap - 150, "with map " + withMap + " ns, norandommap " + without);
    assertTrue(seq < withMap - 150, "with map " + withMap + " ns, sequential " + seq);
  }

  @Test
  void theDefaultChangesNothing() throws IOException {
    RunResult a = run("rw=randread", "");
    RunResult b = run("rw=randread\nnorandommap", "");
    assertEquals(usrNsPerIo(a), usrNsPerIo(b), 1.0);
  }
}
