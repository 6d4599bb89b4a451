package blksim.cli;

import static blksim.cli.DeterminismTest.json;
import static blksim.cli.DeterminismTest.local;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.RunOutcome;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The SMT factor (rescaled when a sibling starts or stops mid-burst) and the NUMA distance
 * costs (issue 15 item 4) give the same results for every partitioning that keeps LLCs whole.
 */
@Timeout(240)
class SmtNumaDeterminismTest {
  static final List<String> ON = List.of("costs.sched.smt-slowdown=1.54",
      "costs.sched.cacheline=47ns", "costs.sched.cacheline-remote=134ns",
      "costs.sched.wakeup-cross-llc=500ns", "costs.sched.wakeup-cross-node=500ns");

  private static void sameForEveryPartitioning(String resource) {
    Scenario s = ScenarioLoader.load(MainTest.resource(resource), ON);
    String reference = json(local(s, "one", 1));
    for (String p : new String[] {"node", "llc"}) {
      RunOutcome o = local(s, p, 2);
      assertTrue(o.stats().partitions() > 1, p);
      assertEquals(reference, json(o), resource + ", partitioning " + p);
    }
    Scenario off = ScenarioLoader.load(MainTest.resource(resource), List.of());
    assertNotEquals(reference, json(local(off, "one", 1)), resource + ": the costs act");
  }

  @Test
  void movingTasksOnTwoNodes_identicalAcrossPartitionings() {
    sameForEveryPartitioning("det/placement.conf");
  }

  @Test
  void pinnedJobsOnTwoNodesOfTwoLlcs_identicalAcrossPartitionings() {
    sameForEveryPartitioning("det/two-node.conf");
  }

  @Test
  void smtFactor_needsWholeLlcs_onlyOnAnSmtMachine() {
    List<String> sets = new ArrayList<>(ON);
    sets.add("partitions=cpu");
    MainTest.Result smt = MainTest.cli("run", MainTest.resource("det/two-node.conf").toString(),
        "--host", "local", "--set", "costs.sched.smt-slowdown=1.54", "--partitions", "cpu");
    assertEquals(2, smt.code(), smt.out());
    assertTrue(smt.err().contains("costs.sched.smt-slowdown"), smt.err());
    sets.add("machine.threads-per-core=1");
    Scenario noSmt = ScenarioLoader.load(MainTest.resource("det/two-node.conf"), sets);
    assertEquals(json(local(noSmt, "one", 1)), json(local(noSmt, "cpu", 2)),
        "without SMT the factor never applies, so any partitioning will do");
  }
}
