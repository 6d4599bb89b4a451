package blksim.engine.pekko;

import static blksim.engine.TestModels.PING_SPEC;
import static blksim.engine.TestModels.assertSameOutcome;
import static blksim.engine.TestModels.ping;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.engine.SimulationException;
import blksim.engine.synthetic.PingModelFactory;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.BehaviorInterceptor;
import org.apache.pekko.actor.typed.TypedActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two clustered actor systems in one JVM (provider cluster, 127.0.0.1, port 0, joined
 * programmatically), with every message serialized as if it crossed JVMs.
 */
class TwoNodeClusterTest {
  private static List<ActorSystem<Void>> systems;

  /** {@code n} nodes with every message serialized as if it crossed JVMs. */
  static List<ActorSystem<Void>> startCluster(int n) {
    return ClusterRunner.startLocalCluster(n,
        ConfigFactory.parseString("pekko.actor.serialize-messages = on"));
  }

  @BeforeAll
  static void start() {
    systems = startCluster(2);
  }

  @AfterAll
  static void stop() {
    for (int i = systems.size() - 1; i >= 0; i--) {
      ClusterRunner.shutdown(systems.get(i));
    }
  }

  @Test
  @Timeout(60)
  void partitionsSpreadOverBothNodes_giveLocalRunnersOutcome() {
    Set<String> hosts = ConcurrentHashMap.newKeySet();
    RunOutcome local = LocalRunner.run(ping(PING_SPEC), Partitioning.parse("cpu"), 1,
        ProgressListener.NONE);
    RunOutcome cluster = ClusterRunner.run(systems, PingModelFactory.class.getName(), PING_SPEC,
        Partitioning.parse("cpu"), ProgressListener.NONE, "blksim-partition-spy",
        b -> Behaviors.setup(ctx -> {
          hosts.add(ctx.getSystem().address().toString());
          return b;
        }), null);
    assertSameOutcome(local, cluster, true);
    assertEquals(8, cluster.stats().partitions());
    assertEquals(2, hosts.size(), "partitions on both nodes: " + hosts);
  }

  @Test
  @Timeout(60)
  void publicEntryPoint_twoNodes_nodePartitioning_givesLocalRunnersOutcome() {
    RunOutcome local = LocalRunner.run(ping(PING_SPEC), Partitioning.parse("node"), 1,
        ProgressListener.NONE);
    for (int i = 0; i < 2; i++) {
      RunOutcome cluster = ClusterRunner.run(systems, PingModelFactory.class.getName(),
          PING_SPEC, Partitioning.parse("node"), ProgressListener.NONE);
      assertSameOutcome(local, cluster, true);
    }
  }

  @Test
  @Timeout(60)
  void lostChunk_failsTheRunNamingThePartitionThatWaits() {
    AtomicBoolean dropped = new AtomicBoolean();
    SimulationException e = assertThrows(SimulationException.class,
        () -> ClusterRunner.run(systems, PingModelFactory.class.getName(), PING_SPEC,
            Partitioning.parse("node"), ProgressListener.NONE, "blksim-partition-lossy",
            b -> Behaviors.intercept(() -> new DropOneChunk(dropped), b), Duration.ofSeconds(2)));
    assertTrue(dropped.get());
    String m = e.getMessage();
    assertTrue(m.matches("run \\S+: window \\d+ did not complete within 2\\.0 s of wall time"
        + " \\(blksim\\.engine\\.watchdog\\); partition\\(s\\) \\[\\d\\] did not report\\."
        + " Partition \\d \\(pekko://blksim@127\\.0\\.0\\.1:\\d+\\): waiting to run window \\d+:"
        + " received \\d+ of the \\d+ events sent to it in window \\d+"
        + " \\(a message was lost\\)\\."),
        m);
  }

  @Test
  @Timeout(60)
  void memberLeavingMidRun_failsTheRunWithAClearMessage() throws Exception {
    List<ActorSystem<Void>> pair = startCluster(2);
    try {
      AtomicLong windows = new AtomicLong();
      String endless = "components=48 cpus=8 nodes=2 lookahead=1000 inflight=3"
          + " endNs=100000000000 seed=1";
      CompletableFuture<RunOutcome> run = CompletableFuture.supplyAsync(
          () -> ClusterRunner.run(pair, PingModelFactory.class.getName(), endless,
              Partitioning.parse("cpu"), (t, ev) -> windows.incrementAndGet()));
      while (windows.get() < 50) {
        assertTrue(!run.isDone(), "the run ended early");
        sleep(5);
      }
      pair.get(1).terminate();
      ExecutionException e = assertThrows(ExecutionException.class,
          () -> run.get(30, TimeUnit.SECONDS));
      String m = e.getCause().getMessage();
      assertTrue(e.getCause() instanceof SimulationException, String.valueOf(e.getCause()));
      assertTrue(m.contains("left the cluster") || m.contains("became unreachable")
          || m.contains("stopped during window"), m);
      assertTrue(m.contains(Cluster.get(pair.get(1)).selfMember().address().toString()), m);
    } finally {
      // The leaving member first: the other one then shuts down alone, without waiting for it.
      ClusterRunner.shutdown(pair.get(1));
      ClusterRunner.shutdown(pair.get(0));
    }
  }

  /** Drops the first chunk of window 2 or later that reaches any partition of the run. */
  private static final class DropOneChunk
      extends BehaviorInterceptor<PartitionEntity.Command, PartitionEntity.Command> {
    private final AtomicBoolean dropped;

    DropOneChunk(AtomicBoolean dropped) {
      super(PartitionEntity.Command.class);
      this.dropped = dropped;
    }

    @Override
    public Behavior<PartitionEntity.Command> aroundReceive(
        TypedActorContext<PartitionEntity.Command> ctx, PartitionEntity.Command msg,
        ReceiveTarget<PartitionEntity.Command> target) {
      if (msg instanceof PartitionEntity.Chunk c && c.window() >= 2 && !c.events().isEmpty()
          && dropped.compareAndSet(false, true)) {
        return Behaviors.same();
      }
      return target.apply(ctx, msg);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
