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
 * fio's own offset work (issue 10 item 8): {@code costs.fio.user-per-io} is a uniform random job's
 * with the map; the map's share ({@code random-map-per-io}) and the draw's
 * ({@code random-draw-per-io}) are saved by the jobs that do not do that work, and zipf and pareto
 * pay their own draw; with the defaults (0) nothing changes.
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

  static final String SHARES = "  costs.fio { user-per-io = 400ns, random-map-per-io = 110ns,"
      + " random-draw-per-io = 20ns, zipf-draw-per-io = 140ns, pareto-draw-per-io = 60ns }";

  @Test
  void theCalibratedRandomJobKeepsUserPerIo_othersPayTheirOwnOffsetWork() throws IOException {
    // user-per-io is a uniform random job's with the map: it pays it whatever the shares are.
    double calibrated = usrNsPerIo(run("rw=randread", ""));
    assertEquals(calibrated, usrNsPerIo(run("rw=randread", SHARES)), 1.0);
    double fixed = calibrated - 130;
    assertEquals(fixed, usrNsPerIo(run("rw=read", SHARES)), 1.0, "sequential: no draw, no map");
    assertEquals(fixed + 20, usrNsPerIo(run("rw=randread\nnorandommap", SHARES)), 1.0,
        "norandommap: the draw only");
    assertEquals(fixed + 20, usrNsPerIo(run("rw=randread\nrandom_generator=lfsr", SHARES)), 1.0,
        "lfsr: its own draw, no map");
    assertEquals(fixed + 140, usrNsPerIo(run("rw=randread\nrandom_distribution=zipf:1.2",
        SHARES)), 1.0, "zipf_next() instead of the uniform draw, no map");
    assertEquals(fixed + 60, usrNsPerIo(run("rw=randread\nrandom_distribution=pareto:0.2",
        SHARES)), 1.0);
    assertEquals(fixed + 65, usrNsPerIo(run("rw=randread\npercentage_random=50", SHARES)), 1.0,
        "half the I/Os random: half the draw and map");
  }

  @Test
  void sharesNearUserPerIo_leaveASequentialJobItsFixedPart() throws IOException {
    // user-per-io 150 ns with 130 ns of shares: a sequential job pays the 20 ns left.
    String tight = "  costs.fio { user-per-io = 150ns, random-map-per-io = 110ns,"
        + " random-draw-per-io = 20ns }";
    double seq = usrNsPerIo(run("rw=read", tight));
    double rand = usrNsPerIo(run("rw=randread", tight));
    assertEquals(130, rand - seq, 1.0);
  }

  @Test
  void sharesBeyondUserPerIo_areAnInputError() {
    blksim.engine.InputException e = org.junit.jupiter.api.Assertions.assertThrows(
        blksim.engine.InputException.class, () -> run("rw=randread",
            "  costs.fio { user-per-io = 100ns, random-map-per-io = 110ns }"));
    assertTrue(e.getMessage().contains("costs.fio.random-draw-per-io"), e.getMessage());
  }

  @Test
  void theDefaultChangesNothing() throws IOException {
    RunResult a = run("rw=randread", "");
    RunResult b = run("rw=randread\nnorandommap", "");
    assertEquals(usrNsPerIo(a), usrNsPerIo(b), 1.0);
  }
}
