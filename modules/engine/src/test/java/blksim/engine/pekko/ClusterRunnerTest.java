package blksim.engine.pekko;

import static blksim.engine.TestModels.PING_SPEC;
import static blksim.engine.TestModels.assertSameOutcome;
import static blksim.engine.TestModels.ping;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.LookaheadViolation;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.engine.SimulationException;
import blksim.engine.TestModels;
import blksim.engine.synthetic.PingModelFactory;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** ClusterRunner on an embedded single-node cluster, one actor system per run. */
@Timeout(60)
class ClusterRunnerTest {

  @ParameterizedTest
  @ValueSource(strings = {"one", "node", "cpu", "one/groups"})
  void embeddedNode_givesLocalRunnersOutcome(String p) {
    Partitioning partitioning = Partitioning.parse(p.replace("/groups", ""));
    RunOutcome local = LocalRunner.run(ping(PING_SPEC), partitioning, 1, ProgressListener.NONE);
    AtomicLong progressCalls = new AtomicLong();
    AtomicLong lastEvents = new AtomicLong();
    String spec = PING_SPEC + (p.endsWith("groups") ? " groups=4" : "");
    RunOutcome cluster = ClusterRunner.run(PingModelFactory.class.getName(), spec,
        partitioning, (t, e) -> {
          progressCalls.incrementAndGet();
          lastEvents.set(e);
        });
    assertSameOutcome(local, cluster, true);
    assertEquals(cluster.stats().windows(), progressCalls.get(), "progress after each window");
    assertEquals(cluster.stats().events(), lastEvents.get());
  }

  @ParameterizedTest
  @ValueSource(strings = {"one", "cpu"})
  void launchersModel_isRunByOnePartitionOfThisJvm_notBuiltAgain(String p) {
    Partitioning partitioning = Partitioning.parse(p);
    RunOutcome local = LocalRunner.run(ping(PING_SPEC), partitioning, 1, ProgressListener.NONE);
    blksim.engine.Model mine = ping(PING_SPEC);
    RunOutcome cluster = ClusterRunner.run(PingModelFactory.class.getName(), PING_SPEC, mine,
        partitioning, ProgressListener.NONE);
    assertSameOutcome(local, cluster, true);
    // The partition that took the launcher's model ran its components: their reports now equal
    // the run's; the components of the partitions that built their own never left time 0.
    int[] placement = partitioning.place(mine.components());
    java.util.TreeSet<Integer> took = new java.util.TreeSet<>();
    java.util.TreeSet<Integer> didNot = new java.util.TreeSet<>();
    for (blksim.engine.IndexedReport r : cluster.reports()) {
      byte[] after = mine.components().get(r.index()).report(cluster.stats().simulatedTimeNs())
          .payload();
      (java.util.Arrays.equals(after, r.report().payload()) ? took : didNot)
          .add(placement[r.index()]);
    }
    assertEquals(1, took.size(), "one partition ran the launcher's model: " + took);
    assertTrue(!didNot.contains(took.first()), "all of that partition's components ran in it");
  }

  @Test
  void nodeStartedWhileTheModelIsBuilt_givesTheSameOutcome_andIsShutDownAfter() throws Exception {
    Partitioning partitioning = Partitioning.parse("cpu");
    RunOutcome local = LocalRunner.run(ping(PING_SPEC), partitioning, 1, ProgressListener.NONE);
    java.util.concurrent.CompletableFuture<org.apache.pekko.actor.typed.ActorSystem<Void>>
        starting = ClusterRunner.startEmbeddedNodeAsync();
    blksim.engine.Model mine = ping(PING_SPEC);
    RunOutcome cluster = ClusterRunner.run(starting, PingModelFactory.class.getName(), PING_SPEC,
        mine, java.util.List.of(), partitioning, ProgressListener.NONE);
    assertSameOutcome(local, cluster, true);
    assertTrue(starting.get().whenTerminated().isCompleted(), "the run shut its node down");
  }

  @Test
  void spareModels_eachRunOneOtherPartition() throws Exception {
    Partitioning partitioning = Partitioning.parse("3");
    RunOutcome local = LocalRunner.run(ping(PING_SPEC), partitioning, 1, ProgressListener.NONE);
    blksim.engine.Model mine = ping(PING_SPEC);
    java.util.List<java.util.concurrent.CompletableFuture<blksim.engine.Model>> spares =
        ClusterRunner.buildSpares(PingModelFactory.class.getName(), PING_SPEC, 2);
    RunOutcome cluster = ClusterRunner.run(ClusterRunner.startEmbeddedNodeAsync(),
        PingModelFactory.class.getName(), PING_SPEC, mine, spares, partitioning,
        ProgressListener.NONE);
    assertSameOutcome(local, cluster, true);
    int[] placement = partitioning.place(mine.components());
    java.util.List<blksim.engine.Model> models = new java.util.ArrayList<>();
    models.add(mine);
    for (java.util.concurrent.CompletableFuture<blksim.engine.Model> f : spares) {
      models.add(f.get());
    }
    java.util.TreeSet<Integer> all = new java.util.TreeSet<>();
    for (blksim.engine.Model m : models) {
      java.util.TreeSet<Integer> ran = new java.util.TreeSet<>();
      for (blksim.engine.IndexedReport r : cluster.reports()) {
        byte[] after = m.components().get(r.index()).report(cluster.stats().simulatedTimeNs())
            .payload();
        if (java.util.Arrays.equals(after, r.report().payload())) {
          ran.add(placement[r.index()]);
        }
      }
      assertEquals(1, ran.size(), "each model ran one partition: " + ran);
      all.addAll(ran);
    }
    assertEquals(java.util.Set.of(0, 1, 2), all, "no partition built its own");
  }

  @Test
  void abandonedNode_isShutDownOnceUp() throws Exception {
    java.util.concurrent.CompletableFuture<org.apache.pekko.actor.typed.ActorSystem<Void>>
        starting = ClusterRunner.startEmbeddedNodeAsync();
    ClusterRunner.abandon(starting);
    assertTrue(starting.get().whenTerminated().isCompleted());
  }

  @Test
  void lookaheadViolation_failsTheRunWithBothComponentNames() {
    LookaheadViolation e = assertThrows(LookaheadViolation.class,
        () -> ClusterRunner.run(TestModels.ViolationModelFactory.class.getName(), "",
            Partitioning.parse("cpu"), ProgressListener.NONE));
    LookaheadViolation local = assertThrows(LookaheadViolation.class,
        () -> LocalRunner.run(new TestModels.ViolationModelFactory().build(""),
            Partitioning.parse("cpu"), 1, ProgressListener.NONE));
    assertEquals(local.getMessage(), e.getMessage());
    assertTrue(e.getMessage().contains("cpu/0") && e.getMessage().contains("cpu/1"));
  }

  @Test
  void badSpec_failsBeforeAnyNodeStarts() {
    InputException e = assertThrows(InputException.class,
        () -> ClusterRunner.run(PingModelFactory.class.getName(), "components=10 cpus=three",
            Partitioning.ONE, ProgressListener.NONE));
    assertEquals("cpus must be an integer, was 'three'", e.getMessage());
  }

  @Test
  void stall_isReportedAsLocalRunnerReportsIt() {
    SimulationException e = assertThrows(SimulationException.class,
        () -> ClusterRunner.run(TestModels.StallModelFactory.class.getName(), "",
            Partitioning.parse("cpu"), ProgressListener.NONE));
    assertEquals("the run stalled at virtual time 5000 ns: no event is left but 1"
        + " component(s) have not finished: cpu/0", e.getMessage());
  }
}
