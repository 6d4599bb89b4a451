package blksim.engine.kryo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.ComponentReport;
import blksim.engine.Event;
import blksim.engine.IndexedReport;
import blksim.engine.Message;
import blksim.engine.pekko.PartitionEntity;
import blksim.engine.pekko.PartitionError;
import blksim.engine.pekko.RunCoordinator;
import blksim.engine.synthetic.Ping;
import com.esotericsoftware.kryo.Kryo;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class KryoSerializerTest {
  private static ActorTestKit testKit;
  private static ActorRef<RunCoordinator.Command> coordinator;
  private static ActorRef<PartitionEntity.Command> partition;

  @BeforeAll
  static void start() {
    testKit = ActorTestKit.create();
    TestProbe<RunCoordinator.Command> c = testKit.createTestProbe();
    TestProbe<PartitionEntity.Command> p = testKit.createTestProbe();
    coordinator = c.getRef();
    partition = p.getRef();
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  private static <T> T trip(T value) {
    return KryoRoundTrip.viaPekko(testKit.system(), value);
  }

  private static List<Event> events(int n) {
    List<Event> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new Event(1_000_000L + i, i % 7, i % 5, i * 3L, new Ping(i, -i * 77L)));
    }
    return out;
  }

  @Test
  void partitionEntityProtocol_roundTrips() {
    PartitionEntity.Init init = new PartitionEntity.Init("run1x2", "a.b.Factory",
        "components=3 seed=1", "cpu", 3, coordinator);
    assertEquals(init, trip(init));
    PartitionEntity.Start start = new PartitionEntity.Start(List.of(partition, partition));
    assertEquals(start, trip(start));
    PartitionEntity.Start one = new PartitionEntity.Start(List.of(partition));
    assertEquals(one, trip(one));
    PartitionEntity.Start peer = new PartitionEntity.Start(List.of(partition, partition), true, 7);
    assertEquals(peer, trip(peer));
    PartitionEntity.WindowMark mark = trip(new PartitionEntity.WindowMark(
        new RunCoordinator.WindowDone(1, 9, 1234, 50_000, 49_500, 2, 40_000, Long.MAX_VALUE,
            49_000, new long[] {3, 0})));
    assertEquals(1, mark.done().partition());
    assertEquals(9, mark.done().window());
    assertEquals(49_500, mark.done().minSentTime());
    assertArrayEquals(new long[] {3, 0}, mark.done().sentTo());
    PartitionEntity.RunWindow rw = new PartitionEntity.RunWindow(12, 13_000, Long.MAX_VALUE, 77);
    assertEquals(rw, trip(rw));
    List<Event> ev = events(50);
    PartitionEntity.Chunk chunk = new PartitionEntity.Chunk(12, 1, 2, 3, ev.subList(10, 30));
    PartitionEntity.Chunk back = trip(chunk);
    assertEquals(chunk.window(), back.window());
    assertEquals(chunk.from(), back.from());
    assertEquals(chunk.seq(), back.seq());
    assertEquals(chunk.chunks(), back.chunks());
    assertEquals(ev.subList(10, 30), back.events());
    PartitionEntity.Probe probe = new PartitionEntity.Probe(coordinator);
    assertEquals(probe, trip(probe));
    assertEquals(new PartitionEntity.GetLiveComponents(),
        trip(new PartitionEntity.GetLiveComponents()));
    assertEquals(new PartitionEntity.CollectReports(5),
        trip(new PartitionEntity.CollectReports(5)));
    assertEquals(new PartitionEntity.Stop(), trip(new PartitionEntity.Stop()));
  }

  @Test
  void runCoordinatorProtocol_roundTrips() {
    RunCoordinator.Ready ready = new RunCoordinator.Ready(2, partition,
        "pekko://blksim@127.0.0.1:25521", 4);
    assertEquals(ready, trip(ready));
    RunCoordinator.WindowDone done = new RunCoordinator.WindowDone(1, 9, 1234, 50_000,
        Long.MAX_VALUE, 2, 40_000, Long.MAX_VALUE, 49_000, new long[] {0, 17, 4000});
    RunCoordinator.WindowDone doneBack = trip(done);
    assertEquals(done.partition(), doneBack.partition());
    assertEquals(done.window(), doneBack.window());
    assertEquals(done.events(), doneBack.events());
    assertEquals(done.nextEventTime(), doneBack.nextEventTime());
    assertEquals(done.minSentTime(), doneBack.minSentTime());
    assertEquals(done.doneCount(), doneBack.doneCount());
    assertEquals(done.maxDoneTime(), doneBack.maxDoneTime());
    assertEquals(done.stopAt(), doneBack.stopAt());
    assertEquals(done.lastEventTime(), doneBack.lastEventTime());
    assertArrayEquals(done.sentTo(), doneBack.sentTo());
    for (PartitionError err : List.of(
        new PartitionError(PartitionError.Type.LOOKAHEAD, "from a to b", null, 0, null, null),
        new PartitionError(PartitionError.Type.INPUT, "f:3: bs: rule", "f", 3, "bs", "rule"))) {
      RunCoordinator.Failed failed = new RunCoordinator.Failed(1, err);
      assertEquals(failed, trip(failed));
    }
    RunCoordinator.Status status = new RunCoordinator.Status(0, "waiting");
    assertEquals(status, trip(status));
    RunCoordinator.LiveComponents live =
        new RunCoordinator.LiveComponents(1, List.of("fio/job0", "fio/job1"));
    assertEquals(live, trip(live));
    assertEquals(new RunCoordinator.LiveComponents(1, List.of()),
        trip(new RunCoordinator.LiveComponents(1, List.of())));
    RunCoordinator.Reports reports = new RunCoordinator.Reports(0, List.of(
        new IndexedReport(3, new ComponentReport("cpu/3", "cpu", new byte[] {1, 2, 3})),
        new IndexedReport(9, new ComponentReport("dev/nullb0", "disk", new byte[0]))));
    RunCoordinator.Reports reportsBack = trip(reports);
    assertEquals(2, reportsBack.reports().size());
    for (int i = 0; i < 2; i++) {
      assertSameReport(reports.reports().get(i), reportsBack.reports().get(i));
    }
    RunCoordinator.Reports part = trip(new RunCoordinator.Reports(1, 2, 5, reports.reports()));
    assertEquals(1, part.partition());
    assertEquals(2, part.seq());
    assertEquals(5, part.parts());
  }

  @Test
  void engineRecords_roundTrip() {
    Event e = new Event(42, 1, 2, 3, new Ping(2, 99));
    assertEquals(e, trip(e));
    IndexedReport r = new IndexedReport(5, new ComponentReport("a", "k", new byte[] {9, 8}));
    assertSameReport(r, trip(r));
    ComponentReport cr = new ComponentReport("a", "k", new byte[] {7});
    ComponentReport crBack = trip(cr);
    assertEquals("a", crBack.componentId());
    assertArrayEquals(cr.payload(), crBack.payload());
    assertEquals(new Ping(1, 2), trip(new Ping(1, 2)));
    assertEquals(new Ping(1, 2), KryoRoundTrip.standalone(new Ping(1, 2)));
  }

  @Test
  void registrarAppendedByAnotherModule_isUsed() {
    TestKryoRegistrar.Probe p = new TestKryoRegistrar.Probe("x", 3);
    assertEquals(p, trip(p));
    assertEquals(p, KryoRoundTrip.standalone(p));
  }

  @Test
  void largestChunk_staysWellBelowTheFrameSize() {
    PartitionEntity.Chunk chunk = new PartitionEntity.Chunk(1_000_000, 511, 0, 1, events(2000));
    int bytes = KryoRoundTrip.size(testKit.system(), chunk);
    assertTrue(bytes < 200 * 1024, "chunk of 2000 pings takes " + bytes + " bytes");
  }

  @Test
  void unregisteredMessage_failsLoudly() {
    record Stray(int x) implements Message {}
    Exception e = assertThrows(Exception.class,
        () -> KryoRoundTrip.viaPekko(testKit.system(), new Stray(1)));
    assertTrue(String.valueOf(e.getMessage()).contains("Class is not registered"),
        e.getMessage());
  }

  @Test
  void clashingIds_areRefused() {
    Kryo kryo = new Kryo();
    KryoRegistrar.register(kryo, Ping.class, 500);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> KryoRegistrar.register(kryo, TestKryoRegistrar.Probe.class, 500));
    assertTrue(e.getMessage().contains("Kryo id 500 is already taken by "
        + Ping.class.getName()), e.getMessage());
    assertThrows(IllegalStateException.class, () -> KryoRegistrar.register(kryo, Ping.class, 501));
  }

  @Test
  void registrarList_appendsWhicheverOrderTheFilesMerge() {
    String engine = "blksim.kryo.registrars = ${?blksim.kryo.registrars} [\"E\"]";
    String kernel = "blksim.kryo.registrars = ${?blksim.kryo.registrars} [\"K\"]";
    Config kernelFirst = ConfigFactory.parseString(kernel)
        .withFallback(ConfigFactory.parseString(engine)).resolve();
    Config engineFirst = ConfigFactory.parseString(engine)
        .withFallback(ConfigFactory.parseString(kernel)).resolve();
    assertEquals(List.of("E", "K"), kernelFirst.getStringList("blksim.kryo.registrars"));
    assertEquals(List.of("K", "E"), engineFirst.getStringList("blksim.kryo.registrars"));
    List<KryoRegistrar> regs = KryoSerializer.registrars(ConfigFactory.load());
    assertInstanceOf(EngineKryoRegistrar.class, regs.get(0));
    assertEquals(2, regs.size(), "engine and test registrars, each once");
  }

  @Test
  void javaSerialization_isOff() {
    assertEquals("off",
        testKit.system().settings().config().getString("pekko.actor.allow-java-serialization"));
  }

  private static void assertSameReport(IndexedReport a, IndexedReport b) {
    assertEquals(a.index(), b.index());
    assertEquals(a.report().componentId(), b.report().componentId());
    assertEquals(a.report().kind(), b.report().kind());
    assertArrayEquals(a.report().payload(), b.report().payload());
  }
}
