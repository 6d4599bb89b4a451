package blksim.cli;

import static blksim.cli.DeterminismTest.json;
import static blksim.cli.DeterminismTest.local;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.RunOutcome;
import blksim.workload.fio.stats.RunResult;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import blksim.workload.scenario.ScenarioResults;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code kernel.wake-placement = sis} with the costs of running apart (SMT slowdown, cache-line
 * transfers, remote wakeups): CPUs of an LLC read each other's state directly, so a run must not
 * depend on a partitioning that keeps each LLC whole (issue 12 item 7).
 */
@Timeout(180)
class PlacementDeterminismTest {
  static final List<String> SIS = List.of("kernel.wake-placement=sis",
      "costs.sched.smt-slowdown=1.5", "costs.sched.cacheline=40ns",
      "costs.sched.cacheline-remote=110ns", "costs.sched.wake-remote=200ns");

  @Test
  void selectIdleSibling_givesIdenticalResults_forPartitioningsThatKeepLlcsWhole() {
    Scenario s = ScenarioLoader.load(MainTest.resource("det/placement.conf"), SIS);
    RunOutcome one = local(s, "one", 1);
    RunResult r = ScenarioResults.toRunResult(one, DeterminismTest.FIXED_WALL_CLOCK);
    long moves = r.threads().stream().mapToLong(t -> t.migrations()).sum();
    assertTrue(moves > 100, "tasks did move between CPUs: " + moves);
    String reference = json(one);
    for (String p : new String[] {"node", "llc"}) {
      RunOutcome o = local(s, p, 2);
      assertTrue(o.stats().partitions() > 1, p);
      assertEquals(reference, json(o), "partitioning " + p);
    }
    Scenario llc = ScenarioLoader.load(MainTest.resource("det/placement.conf"), List.of());
    assertNotEquals(reference, json(local(llc, "one", 1)), "sis is not the llc rule");
  }

  @Test
  void sisAndSmtSlowdown_refusePartitioningsThatSplitAnLlc_andSlowdownsOutOfRange() {
    String scen = MainTest.resource("det/nowait.conf").toString();
    MainTest.Result sis = MainTest.cli("run", scen, "--host", "local", "--set",
        "kernel.wake-placement=sis", "--partitions", "cpu");
    assertEquals(2, sis.code(), sis.out());
    assertTrue(sis.err().contains("kernel.wake-placement") && sis.err().contains("sis"),
        sis.err());
    MainTest.Result smt = MainTest.cli("run", scen, "--host", "local", "--set",
        "costs.sched.smt-slowdown=1.5", "--partitions", "cpu");
    assertEquals(2, smt.code(), smt.out());
    assertTrue(smt.err().contains("costs.sched.smt-slowdown"), smt.err());
    MainTest.Result range = MainTest.cli("run", scen, "--host", "local", "--set",
        "costs.sched.smt-slowdown=0.5");
    assertEquals(2, range.code(), range.out());
    assertTrue(range.err().contains("costs.sched.smt-slowdown"), range.err());
  }

  @Test
  void cacheLineTransfers_costTheIoUringThreadsSystemTime_onlyWhenTheyAreNotFree() {
    double free = uringSys(List.of("kernel.wake-placement=sis"));
    double paid = uringSys(List.of("kernel.wake-placement=sis", "costs.sched.cacheline=1us",
        "costs.sched.cacheline-remote=2us"));
    assertTrue(paid > free * 1.02, "completions pulled from the workers' cores cost the"
        + " submitters: " + free + " -> " + paid);
  }

  /** Total sys % of the io_uring jobs of det/placement.conf with {@code sets}. */
  static double uringSys(List<String> sets) {
    Scenario s = ScenarioLoader.load(MainTest.resource("det/placement.conf"), sets);
    RunResult r = ScenarioResults.toRunResult(local(s, "one", 1), DeterminismTest.FIXED_WALL_CLOCK);
    return r.jobs().stream().filter(j -> j.info().jobname().equals("uring"))
        .mapToDouble(j -> j.sysCpuPercent()).sum();
  }
}
