package blksim.kernel.workqueue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import blksim.engine.Event;
import blksim.engine.kryo.KryoRoundTrip;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every workqueue message survives a Kryo round trip (ids 1100-1139). */
class WqKryoTest {
  static final WorkRef REF = new WorkRef((3L << 32) | 7, "chunk", WorkScript.of(
      new WorkStep.Run(10), new WorkStep.Sleep(20), new WorkStep.Requeue(),
      new WorkStep.CondResched()), 3, true);

  @Test
  void everyWorkqueueMessage_survivesAKryoRoundTrip() {
    for (Object m : new Object[] {
        new WqMessage.QueueWork(4, -1, REF),
        new WqMessage.QueueAtHome(12L, 2, 5, -1),
        new WqMessage.RunWork((193L << 32) | 4, 193, 4, 17, REF, 99L, true),
        new WqMessage.WorkDone((193L << 32) | 4, 193, 4, 17, 12L, 99L, false),
        new WqMessage.WorkStarted(12L, 97, 4, 17, 123_456L),
        new WqMessage.WorkFinished(12L),
        new WqMessage.SpawnWorker(193, 5, 100_000L),
        new WqMessage.WorkerReady(193, 5),
        new WqMessage.DestroyWorker(193, 5),
        new WqMessage.Flush(1L << 33, 8, 4, true),
        new WqMessage.FlushDone(1L << 33),
        new WqMessage.HostTimer(3),
        REF,
        WorkScript.cpu(5),
        WorkScript.of(),
        WorkScript.blocking(1, 2)}) {
      assertEquals(m, KryoRoundTrip.standalone(m), m.toString());
    }
  }

  @Test
  void sampleAndSnapshot_surviveAKryoRoundTrip() {
    long[] c = new long[2 * PwqStat.COUNT];
    c[3] = 42;
    WqMessage.Sample s = KryoRoundTrip.standalone(new WqMessage.Sample(1_000_000L, c));
    assertEquals(1_000_000L, s.timeNs());
    assertArrayEquals(c, s.counters());
    WqMonitorSnapshot snap = new WqMonitorSnapshot(5L, List.of(
        new WqMonitorSnapshot.Row("a", true, false, new long[PwqStat.COUNT])));
    assertEquals(snap, KryoRoundTrip.standalone(snap));
    assertEquals(snap, WqMonitorSnapshot.decode(snap.encode()));
  }

  @Test
  void workqueueMessageInsideAnEvent_survivesAKryoRoundTrip() {
    Event e = new Event(1_000L, 3, 4, 99L, new WqMessage.QueueWork(1, 2, REF));
    assertEquals(e, KryoRoundTrip.standalone(e));
  }
}
