package blksim.engine;

import static blksim.engine.TestModels.PING_SPEC;
import static blksim.engine.TestModels.assertSameOutcome;
import static blksim.engine.TestModels.ping;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.synthetic.PingModelFactory.PingStats;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class LocalRunnerTest {

  @Test
  void everyPartitioningAndThreadCount_givesTheSameOutcome() {
    RunOutcome reference = LocalRunner.run(ping(PING_SPEC), Partitioning.ONE, 1,
        ProgressListener.NONE);
    assertEquals(48, reference.reports().size());
    assertTrue(reference.stats().events() > 5_000, "events " + reference.stats().events());
    for (String p : List.of("one", "node", "llc", "cpu", "3")) {
      for (int threads : new int[] {1, 2}) {
        RunOutcome o = LocalRunner.run(ping(PING_SPEC), Partitioning.parse(p), threads,
            ProgressListener.NONE);
        assertSameOutcome(reference, o, false);
      }
    }
  }

  @Test
  void localityGroups_giveTheSameOutcome() {
    RunOutcome reference = LocalRunner.run(ping(PING_SPEC), Partitioning.ONE, 1,
        ProgressListener.NONE);
    for (int groups : new int[] {2, 3, 8}) {
      Model m = ping(PING_SPEC + " groups=" + groups);
      assertEquals(groups, new Partition(0, m, new int[m.components().size()]).localityGroups());
      RunOutcome o = LocalRunner.run(m, Partitioning.ONE, 1, ProgressListener.NONE);
      assertSameOutcome(reference, o, false);
      assertEquals(reference.stats().events(), o.stats().events(), "groups " + groups);
      // The lone partition steps through its windows itself: the host sees the same windows.
      assertEquals(reference.stats().windows(), o.stats().windows(), "groups " + groups);
      // With several partitions each runs the groups of its own components (8 CPUs, 2 nodes:
      // node 0 holds CPUs 0 to 3, so groups of 8 give it 4, of 3 it holds 2, of 2 one).
      assertEquals(groups == 8 ? 4 : groups == 3 ? 2 : 1,
          new Partition(0, m, Partitioning.parse("node").place(m.components()))
              .localityGroups(), "groups " + groups + " in node 0's partition");
      RunOutcome node = LocalRunner.run(ping(PING_SPEC + " groups=" + groups),
          Partitioning.parse("node"), 2, ProgressListener.NONE);
      assertSameOutcome(reference, node, false);
      assertEquals(reference.stats().events(), node.stats().events(), "node, groups " + groups);
    }
  }

  @Test
  void localityGroups_sendBelowTheLookaheadToAnotherGroup_failsTheRun() {
    Model v = new TestModels.ViolationModelFactory().build("");
    Model grouped = new Model(v.components(), v.lookaheadNs(), v.maxTimeNs(), v.expectedEndNs(),
        v.seed(), 2);
    LookaheadViolation e = assertThrows(LookaheadViolation.class,
        () -> LocalRunner.run(grouped, Partitioning.ONE, 1, ProgressListener.NONE));
    assertTrue(e.getMessage().contains("cpu/0") && e.getMessage().contains("cpu/1"),
        e.getMessage());
    // Without groups the same model runs in one partition.
    LocalRunner.run(new TestModels.ViolationModelFactory().build(""), Partitioning.ONE, 1,
        ProgressListener.NONE);
  }

  @Test
  void sameSeed_sameBytes_otherSeed_otherChecksums() {
    RunOutcome a = LocalRunner.run(ping(PING_SPEC), Partitioning.parse("node"), 2,
        ProgressListener.NONE);
    RunOutcome b = LocalRunner.run(ping(PING_SPEC.replace("seed=7", "seed=8")),
        Partitioning.parse("node"), 2, ProgressListener.NONE);
    assertTrue(PingStats.decode(a.reports().get(0).report()).checksum()
        != PingStats.decode(b.reports().get(0).report()).checksum());
  }

  @Test
  void stopRule_runEndsOneLookaheadAfterTheLastDone_forEveryPartitioning() {
    for (String p : List.of("one", "node", "cpu", "3", "one/groups", "node/groups", "2/groups")) {
      RunOutcome o = LocalRunner.run(ping(PING_SPEC + (p.endsWith("groups") ? " groups=4" : "")),
          Partitioning.parse(p.replace("/groups", "")), 2, ProgressListener.NONE);
      long lastDone = -1;
      int doneCount = 0;
      for (IndexedReport r : o.reports()) {
        PingStats s = PingStats.decode(r.report());
        if (s.doneAtNs() >= 0) {
          doneCount++;
          lastDone = Math.max(lastDone, s.doneAtNs());
        }
      }
      assertEquals(8, doneCount, "live components done, partitioning " + p);
      assertEquals(lastDone + 1000, o.stats().simulatedTimeNs(), "end time, partitioning " + p);
      assertTrue(o.stats().simulatedTimeNs() < 2_000_000, "ended by the stop rule");
    }
  }

  @Test
  void noLiveComponents_runEndsAtTheModelsMaximumTime() {
    String spec = "components=16 cpus=4 lookahead=500 inflight=1 endNs=50000 seed=3";
    RunOutcome one = LocalRunner.run(ping(spec), Partitioning.ONE, 1, ProgressListener.NONE);
    RunOutcome cpu = LocalRunner.run(ping(spec), Partitioning.parse("cpu"), 2,
        ProgressListener.NONE);
    assertEquals(50_000, one.stats().simulatedTimeNs());
    assertSameOutcome(one, cpu, false);
  }

  @Test
  void liveComponentsWithoutEvents_stallIsReportedWithTheirIds() {
    for (String p : List.of("one", "cpu")) {
      SimulationException e = assertThrows(SimulationException.class,
          () -> LocalRunner.run(new TestModels.StallModelFactory().build(""),
              Partitioning.parse(p), 1, ProgressListener.NONE));
      assertEquals("the run stalled at virtual time 5000 ns: no event is left but 1"
          + " component(s) have not finished: cpu/0", e.getMessage());
    }
  }

  @Test
  void lookaheadViolation_acrossPartitions_failsTheRun() {
    LookaheadViolation e = assertThrows(LookaheadViolation.class,
        () -> LocalRunner.run(new TestModels.ViolationModelFactory().build(""),
            Partitioning.parse("cpu"), 2, ProgressListener.NONE));
    assertTrue(e.getMessage().startsWith("cross-partition send from cpu/0 to cpu/1"),
        e.getMessage());
  }
}
