package blksim.engine.pekko;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.Event;
import blksim.engine.TestModels;
import blksim.engine.synthetic.PingModelFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Protocol tests of one partition entity, spawned directly (no sharding, no cluster). */
@Timeout(30)
class PartitionEntityTest {
  private static final String SPEC = "components=40 cpus=4 nodes=2 lookahead=1000 inflight=20"
      + " endNs=1000000 seed=5";
  private static ActorTestKit testKit;
  static final java.util.concurrent.atomic.AtomicBoolean FORGED_INITIALISED =
      new java.util.concurrent.atomic.AtomicBoolean();

  @BeforeAll
  static void start() {
    testKit = ActorTestKit.create();
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  private static ActorRef<PartitionEntity.Command> partition(int index, int maxPerChunk,
      TestProbe<RunCoordinator.Command> coordinator) {
    ActorRef<PartitionEntity.Command> p = testKit.spawn(PartitionEntity.create(maxPerChunk));
    p.tell(new PartitionEntity.Init("t1", PingModelFactory.class.getName(), SPEC, "node", index,
        coordinator.getRef()));
    RunCoordinator.Ready ready = coordinator.expectMessageClass(RunCoordinator.Ready.class);
    assertEquals(index, ready.partition());
    return p;
  }

  @Test
  void start_shipsBatchesInBoundedChunks_andReportsWhatItSent() {
    TestProbe<RunCoordinator.Command> coordinator = testKit.createTestProbe();
    TestProbe<PartitionEntity.Command> peer = testKit.createTestProbe();
    ActorRef<PartitionEntity.Command> p0 = partition(0, 7, coordinator);
    p0.tell(new PartitionEntity.Start(List.of(p0, peer.getRef())));
    List<Event> received = new ArrayList<>();
    int chunks = -1;
    do {
      PartitionEntity.Chunk c = peer.expectMessageClass(PartitionEntity.Chunk.class);
      assertEquals(0, c.window());
      assertEquals(0, c.from());
      assertEquals(received.size() / 7, c.seq(), "chunks arrive in order from one sender");
      assertTrue(c.events().size() <= 7);
      chunks = c.chunks();
      received.addAll(c.events());
    } while (received.size() / 7 < chunks && received.size() % 7 == 0);
    RunCoordinator.WindowDone done =
        coordinator.expectMessageClass(RunCoordinator.WindowDone.class);
    assertEquals(0, done.window());
    assertEquals(received.size(), done.sentTo()[1]);
    assertEquals(0, done.sentTo()[0]);
    assertTrue(received.size() > 100, "20 components x 20 pings, about half to the other node");
    assertEquals((received.size() + 6) / 7, chunks);
  }

  @Test
  void missingEvents_partitionWaits_andItsStatusNamesTheLoss() {
    TestProbe<RunCoordinator.Command> coordinator = testKit.createTestProbe();
    ActorRef<PartitionEntity.Command> p0 = partition(0, 2000, coordinator);
    ActorRef<PartitionEntity.Command> p1 = partition(1, 2000, coordinator);
    List<ActorRef<PartitionEntity.Command>> peers = List.of(p0, p1);
    p0.tell(new PartitionEntity.Start(peers));
    p1.tell(new PartitionEntity.Start(peers));
    long[] expected = new long[2];
    for (int i = 0; i < 2; i++) {
      RunCoordinator.WindowDone d =
          coordinator.expectMessageClass(RunCoordinator.WindowDone.class);
      expected[1 - d.partition()] = d.sentTo()[1 - d.partition()];
    }
    // Partition 1 is told one more event was sent to it than really was: it must wait.
    p0.tell(new PartitionEntity.RunWindow(1, 2000, Long.MAX_VALUE, expected[0]));
    p1.tell(new PartitionEntity.RunWindow(1, 2000, Long.MAX_VALUE, expected[1] + 1));
    RunCoordinator.WindowDone d0 =
        coordinator.expectMessageClass(RunCoordinator.WindowDone.class);
    assertEquals(0, d0.partition());
    coordinator.expectNoMessage(Duration.ofMillis(200));
    p1.tell(new PartitionEntity.Probe(coordinator.getRef()));
    RunCoordinator.Status s = coordinator.expectMessageClass(RunCoordinator.Status.class);
    assertEquals(1, s.partition());
    assertEquals("waiting to run window 1: received " + expected[1] + " of the "
        + (expected[1] + 1) + " events sent to it in window 0 (a message was lost)",
        s.description());
  }

  @Test
  void badSpec_isReportedAsAnInputError() {
    TestProbe<RunCoordinator.Command> coordinator = testKit.createTestProbe();
    ActorRef<PartitionEntity.Command> p = testKit.spawn(PartitionEntity.create(10));
    p.tell(new PartitionEntity.Init("t2", PingModelFactory.class.getName(), "components=1",
        "one", 0, coordinator.getRef()));
    RunCoordinator.Failed f = coordinator.expectMessageClass(RunCoordinator.Failed.class);
    assertEquals(PartitionError.Type.INPUT, f.error().type());
    assertEquals("components must be in [2, 10000000], was 1",
        f.error().toException().getMessage());
  }

  @Test
  void lookaheadViolation_isReportedWithTheSameMessage() {
    TestProbe<RunCoordinator.Command> coordinator = testKit.createTestProbe();
    TestProbe<PartitionEntity.Command> peer = testKit.createTestProbe();
    ActorRef<PartitionEntity.Command> p = testKit.spawn(PartitionEntity.create(10));
    p.tell(new PartitionEntity.Init("t3", TestModels.ViolationModelFactory.class.getName(), "",
        "cpu", 0, coordinator.getRef()));
    coordinator.expectMessageClass(RunCoordinator.Ready.class);
    p.tell(new PartitionEntity.Start(List.of(p, peer.getRef())));
    coordinator.expectMessageClass(RunCoordinator.WindowDone.class);
    p.tell(new PartitionEntity.RunWindow(1, 10_000, Long.MAX_VALUE, 0));
    RunCoordinator.Failed f = coordinator.expectMessageClass(RunCoordinator.Failed.class);
    assertEquals(PartitionError.Type.LOOKAHEAD, f.error().type());
    assertTrue(f.error().message().startsWith("cross-partition send from cpu/0 to cpu/1 with"
        + " delay 10 ns"), f.error().message());
  }

  @Test
  void forgedFactoryName_isRefusedBeforeItsClassIsLoaded() {
    TestProbe<RunCoordinator.Command> coordinator = testKit.createTestProbe();
    ActorRef<PartitionEntity.Command> p = testKit.spawn(PartitionEntity.create(10));
    // The name is spelled out, not taken from ForgedFactory.class, which would load the class.
    p.tell(new PartitionEntity.Init("t4", "blksim.engine.pekko.ForgedFactory", "", "one", 0,
        coordinator.getRef()));
    RunCoordinator.Failed f = coordinator.expectMessageClass(RunCoordinator.Failed.class);
    assertTrue(f.error().message().contains("blksim.engine.pekko.ForgedFactory is not on the"
        + " allow-list blksim.engine.model-factories"), f.error().message());
    p = testKit.spawn(PartitionEntity.create(10));
    p.tell(new PartitionEntity.Init("t5", "java.lang.Runtime", "", "one", 0,
        coordinator.getRef()));
    f = coordinator.expectMessageClass(RunCoordinator.Failed.class);
    assertTrue(f.error().message().contains("java.lang.Runtime is not on the allow-list"),
        f.error().message());
    assertEquals(false, FORGED_INITIALISED.get(), "the forged class was initialised");
  }
}
