package blksim.engine.pekko;

import static blksim.engine.TestModels.PING_SPEC;
import static blksim.engine.TestModels.assertSameOutcome;
import static blksim.engine.TestModels.ping;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.engine.synthetic.PingModelFactory;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.BehaviorInterceptor;
import org.apache.pekko.actor.typed.TypedActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The two window protocols (blksim.engine.window-protocol): the coordinator's RunWindow round
 * trip and peer windows (marks exchanged among the partitions), over two clustered actor systems
 * with every message serialized, against LocalRunner.
 */
@Timeout(60)
class WindowProtocolTest {
  private static final String SPEC = "components=40 cpus=4 nodes=2 lookahead=1000 inflight=20"
      + " endNs=200000 seed=3";
  private static ActorTestKit testKit;

  @BeforeAll
  static void start() {
    testKit = ActorTestKit.create();
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @ParameterizedTest
  @CsvSource({"coordinator, node", "coordinator, cpu", "peer, node", "peer, cpu"})
  void bothProtocols_overTwoNodes_giveLocalRunnersOutcome(String protocol, String p) {
    List<ActorSystem<Void>> systems = ClusterRunner.startLocalCluster(2, ConfigFactory.parseString(
        "pekko.actor.serialize-messages = on\nblksim.engine.window-protocol = " + protocol));
    Set<String> marks = ConcurrentHashMap.newKeySet();
    AtomicLong runWindows = new AtomicLong();
    int before = PartitionEntity.reportBytes;
    PartitionEntity.reportBytes = 300; // a few reports per part: cut into several Reports
    try {
      Partitioning partitioning = Partitioning.parse(p);
      RunOutcome local = LocalRunner.run(ping(PING_SPEC), partitioning, 1, ProgressListener.NONE);
      RunOutcome cluster = ClusterRunner.run(systems, PingModelFactory.class.getName(),
          PING_SPEC, partitioning, ProgressListener.NONE, "blksim-protocol-" + protocol + p,
          b -> Behaviors.intercept(() -> new BehaviorInterceptor<PartitionEntity.Command,
              PartitionEntity.Command>(PartitionEntity.Command.class) {
            @Override
            public org.apache.pekko.actor.typed.Behavior<PartitionEntity.Command> aroundReceive(
                TypedActorContext<PartitionEntity.Command> ctx, PartitionEntity.Command msg,
                ReceiveTarget<PartitionEntity.Command> target) {
              if (msg instanceof PartitionEntity.WindowMark m) {
                marks.add(m.done().partition() + "@" + m.done().window());
              } else if (msg instanceof PartitionEntity.RunWindow) {
                runWindows.incrementAndGet();
              }
              return target.apply(ctx, msg);
            }
          }, b), null);
      assertSameOutcome(local, cluster, true);
      int n = cluster.stats().partitions();
      assertTrue(n >= 2, "partitions: " + n);
      if (protocol.equals("peer")) {
        assertEquals(0, runWindows.get(), "no RunWindow under peer windows");
        // every partition marks windows 0..windows to its peers; the last mark may still be on
        // its way to a peer when the run's result is back (the run ends on the coordinator's
        // count, not on that delivery), so it is allowed to be missing here
        long windows = cluster.stats().windows();
        for (int part = 0; part < n; part++) {
          for (long w = 0; w < windows; w++) {
            assertTrue(marks.contains(part + "@" + w), "mark " + part + "@" + w + ": " + marks);
          }
        }
        assertTrue(marks.size() <= n * (windows + 1), "marks: " + marks);
      } else {
        assertEquals(0, marks.size(), "no marks under the coordinator's protocol");
        assertEquals(n * cluster.stats().windows(), runWindows.get());
      }
    } finally {
      PartitionEntity.reportBytes = before;
      for (int i = systems.size() - 1; i >= 0; i--) {
        ClusterRunner.shutdown(systems.get(i));
      }
    }
  }

  private static ActorRef<PartitionEntity.Command> partition(int index,
      TestProbe<RunCoordinator.Command> coordinator) {
    ActorRef<PartitionEntity.Command> p = testKit.spawn(PartitionEntity.create(2000));
    p.tell(new PartitionEntity.Init("t1", PingModelFactory.class.getName(), SPEC, "node", index,
        coordinator.getRef()));
    assertEquals(index, coordinator.expectMessageClass(RunCoordinator.Ready.class).partition());
    return p;
  }

  @Test
  void peerWindows_runToTheEndWithoutTheCoordinator_windowForWindowAsLocalRunner() {
    RunOutcome local = LocalRunner.run(ping(SPEC), Partitioning.parse("node"), 1,
        ProgressListener.NONE);
    TestProbe<RunCoordinator.Command> coordinator = testKit.createTestProbe();
    ActorRef<PartitionEntity.Command> p0 = partition(0, coordinator);
    ActorRef<PartitionEntity.Command> p1 = partition(1, coordinator);
    int live = 0;
    for (var c : ping(SPEC).components()) {
      live += c.keepsRunAlive() ? 1 : 0;
    }
    List<ActorRef<PartitionEntity.Command>> peers = List.of(p0, p1);
    p0.tell(new PartitionEntity.Start(peers, true, live));
    p1.tell(new PartitionEntity.Start(peers, true, live));
    long[] last = {-1, -1};
    long events = 0;
    // The coordinator only listens: the partitions plan every window themselves.
    while (true) {
      RunCoordinator.Command c = coordinator.receiveMessage(Duration.ofSeconds(10));
      RunCoordinator.WindowDone d = (RunCoordinator.WindowDone) c;
      assertEquals(last[d.partition()] + 1, d.window(), "windows in order per partition");
      last[d.partition()] = d.window();
      events += d.events();
      if (last[0] == local.stats().windows() && last[1] == local.stats().windows()) {
        break;
      }
    }
    coordinator.expectNoMessage(Duration.ofMillis(300));
    assertEquals(local.stats().events(), events, "the same events as LocalRunner");
  }

  @Test
  void peerWindows_aMissingMark_keepsThePartitionWaiting_andItsStatusNamesThePeer() {
    TestProbe<RunCoordinator.Command> coordinator = testKit.createTestProbe();
    TestProbe<PartitionEntity.Command> silentPeer = testKit.createTestProbe();
    ActorRef<PartitionEntity.Command> p0 = partition(0, coordinator);
    p0.tell(new PartitionEntity.Start(List.of(p0, silentPeer.getRef()), true, 40));
    assertEquals(0, coordinator.expectMessageClass(RunCoordinator.WindowDone.class).window());
    PartitionEntity.Command m;
    do {
      m = silentPeer.receiveMessage(Duration.ofSeconds(5));
    } while (m instanceof PartitionEntity.Chunk);
    PartitionEntity.WindowMark mark = (PartitionEntity.WindowMark) m;
    assertEquals(0, mark.done().partition());
    coordinator.expectNoMessage(Duration.ofMillis(200));
    p0.tell(new PartitionEntity.Probe(coordinator.getRef()));
    RunCoordinator.Status s = coordinator.expectMessageClass(RunCoordinator.Status.class);
    assertTrue(s.description().startsWith("waiting to run window 1: no mark of window 0 from "
        + "partition(s) [1] yet; received 0 events"), s.description());
  }
}
