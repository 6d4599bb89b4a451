package blksim.kernel.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MqDeadlineTest {
  static final long MS = 1_000_000;

  final FakeCpus loop = new FakeCpus();
  final DriverCpu cpu = loop.cpu(0);

  MqDeadline elevator(MqDeadlineParams p) {
    RequestQueue q = new RequestQueue(new RequestQueueParams("sdb", 1L << 30, 512, 32, 64,
        RequestQueueParams.Scheduler.MQ_DEADLINE, 512 * 1024, 128, p, BlkMqRules.V6, 0, 0),
        (rq, c) -> { }, Kblockd.INLINE);
    return new MqDeadline(q, p);
  }

  Request rq(ReqOp op, long sector) {
    return new Request(null, new Bio(op, sector, 4096, 0), (b, e) -> { }, cpu, 0);
  }

  static List<Long> sectors(List<Request> l) {
    return l.stream().map(Request::sector).toList();
  }

  @Test
  void dispatchesInSectorOrderWithinABatch() {
    MqDeadline e = elevator(MqDeadlineParams.DEFAULTS);
    for (long s : new long[] {300, 100, 200}) {
      e.insert(rq(ReqOp.READ, s), 0);
    }
    List<Request> out = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      out.add(e.dispatch(0));
    }
    assertEquals(List.of(100L, 200L, 300L), sectors(out));
    assertNull(e.dispatch(0));
  }

  @Test
  void anExpiredRequestIsServedBeforeTheNextInSectorOrder() {
    // fifo_batch 1: every dispatch starts a batch and checks the FIFO; read_expire 10 ms.
    MqDeadline e = elevator(new MqDeadlineParams(10 * MS, 5000 * MS, 1, 2, true));
    e.insert(rq(ReqOp.READ, 1000), 0);
    assertEquals(1000, e.dispatch(0).sector()); // last position now 1008
    e.insert(rq(ReqOp.READ, 10), 0);            // deadline 10 ms
    e.insert(rq(ReqOp.READ, 2000), 5 * MS);     // deadline 15 ms
    // At 6 ms nothing has expired: the next request at or after 1008 is 2000.
    assertEquals(2000, e.dispatch(6 * MS).sector());
    e.insert(rq(ReqOp.READ, 3000), 6 * MS);
    // At 20 ms the request at 10 (deadline 10 ms) has expired: it goes before 3000.
    assertEquals(10, e.dispatch(20 * MS).sector());
    assertEquals(3000, e.dispatch(20 * MS).sector());
  }

  @Test
  void writesWaitAtMostWritesStarvedReadBatches() {
    // fifo_batch 1, writes_starved 2: reads are preferred twice, then a write batch.
    MqDeadline e = elevator(new MqDeadlineParams(500 * MS, 5000 * MS, 1, 2, true));
    for (long s = 0; s < 5; s++) {
      e.insert(rq(ReqOp.READ, 1000 + s * 100), 0);
    }
    e.insert(rq(ReqOp.WRITE, 50), 0);
    List<ReqOp> ops = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      ops.add(e.dispatch(0).op());
    }
    // The very first dispatch continues the (empty) batch of the initial direction, reads, from
    // position 0 without a starvation check (batching 0 < fifo_batch). Then each dispatch starts
    // a batch: starved 0 -> read (starved 1), 1 -> read (2), 2 >= 2 -> write (starved 0), read.
    assertEquals(List.of(ReqOp.READ, ReqOp.READ, ReqOp.READ, ReqOp.WRITE, ReqOp.READ,
        ReqOp.READ), ops);
  }

  @Test
  void aBatchContinuesInSectorOrderUpToFifoBatchThenChecksTheFifo() {
    // fifo_batch 2, read_expire 10 ms.
    for (long when : new long[] {5 * MS, 30 * MS}) {
      MqDeadline e = elevator(new MqDeadlineParams(10 * MS, 5000 * MS, 2, 2, true));
      e.insert(rq(ReqOp.READ, 500), 0);      // deadline 10 ms
      e.insert(rq(ReqOp.READ, 100), 1 * MS); // deadline 11 ms
      e.insert(rq(ReqOp.READ, 200), 1 * MS);
      e.insert(rq(ReqOp.READ, 300), 1 * MS);
      List<Request> out = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        out.add(e.dispatch(when));
      }
      // A batch of two in sector order (100, 200); the next batch checks the FIFO: at 5 ms
      // nothing expired, so 300 then 500 in sector order; at 30 ms the FIFO head 500 (queued
      // first) has expired and goes next, then the batch goes on from 508: nothing there, so a
      // new batch takes the FIFO head, 300.
      List<Long> expected = when == 5 * MS ? List.of(100L, 200L, 300L, 500L)
          : List.of(100L, 200L, 500L, 300L);
      assertEquals(expected, sectors(out), "dispatch at " + when + " ns");
    }
  }
}
