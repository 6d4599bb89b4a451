package blksim.kernel.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** mq-deadline's I/O priority classes (dd_per_prio) and prio_aging_expire. */
@Timeout(10)
class MqDeadlinePrioTest {
  static final long MS = 1_000_000;
  static final int RT = Bio.ioprioValue(Bio.IOPRIO_CLASS_RT, 0);
  static final int BE = Bio.ioprioValue(Bio.IOPRIO_CLASS_BE, 4);
  static final int IDLE = Bio.ioprioValue(Bio.IOPRIO_CLASS_IDLE, 7);

  final FakeCpus loop = new FakeCpus();
  final DriverCpu cpu = loop.cpu(0);

  MqDeadline elevator(MqDeadlineParams p) {
    RequestQueue q = new RequestQueue(new RequestQueueParams("sdb", 1L << 30, 512, 32, 64,
        RequestQueueParams.Scheduler.MQ_DEADLINE, 512 * 1024, 128, p, BlkMqRules.V6, 0, 0),
        (rq, c) -> { }, Kblockd.INLINE);
    return new MqDeadline(q, p);
  }

  Request rq(long sector, int ioprio) {
    return new Request(null, new Bio(ReqOp.READ, sector, 4096, 0, ioprio), (b, e) -> { }, cpu, 0);
  }

  @Test
  void classNoneIsBestEffort() {
    assertEquals(MqDeadline.DD_BE_PRIO, MqDeadline.prio(0));
    assertEquals(MqDeadline.DD_BE_PRIO, MqDeadline.prio(BE));
    assertEquals(MqDeadline.DD_RT_PRIO, MqDeadline.prio(RT));
    assertEquals(MqDeadline.DD_IDLE_PRIO, MqDeadline.prio(IDLE));
  }

  @Test
  void dispatchesRealTimeThenBestEffortThenIdle() {
    MqDeadline e = elevator(MqDeadlineParams.DEFAULTS);
    // Inserted lowest class first and at the lowest sectors: sector order alone would invert.
    e.insert(rq(100, IDLE), 0);
    e.insert(rq(200, 0), 0);
    e.insert(rq(300, RT), 0);
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Request r = e.dispatch(1 * MS);
      out.add(r.sector());
      e.finishRequest(r);
    }
    assertEquals(List.of(300L, 200L, 100L), out);
    assertNull(e.dispatch(1 * MS));
    assertEquals(1, e.dispatched(MqDeadline.DD_RT_PRIO));
    assertEquals(1, e.dispatched(MqDeadline.DD_IDLE_PRIO));
  }

  @Test
  void aLowerClassWaitsWhileAHigherOneIsInFlight() {
    MqDeadline e = elevator(MqDeadlineParams.DEFAULTS);
    e.insert(rq(100, RT), 0);
    e.insert(rq(200, BE), 0);
    Request rt = e.dispatch(0);
    assertEquals(100, rt.sector());
    // dd_queued(RT) counts the dispatched RT request until it completes.
    assertNull(e.dispatch(0));
    e.finishRequest(rt);
    assertEquals(200, e.dispatch(0).sector());
  }

  @Test
  void aStarvedRequestGoesFirstAfterPrioAgingExpire() {
    MqDeadline e = elevator(new MqDeadlineParams(500 * MS, 5000 * MS, 16, 2, true, 100 * MS));
    e.insert(rq(1000, IDLE), 0);
    long now = 0;
    // A steady stream of RT requests: the IDLE one waits until it is 100 ms old.
    long idleAt = -1;
    for (int i = 0; i < 40 && idleAt < 0; i++) {
      e.insert(rq(10 + 8 * i, RT), now);
      Request r = e.dispatch(now);
      if (r.ioprio() == IDLE) {
        idleAt = now;
      }
      e.finishRequest(r);
      now += 10 * MS;
    }
    assertEquals(100 * MS, idleAt);
  }

  @Test
  void requestsOfDifferentPrioritiesDoNotMerge() {
    MqDeadline e = elevator(MqDeadlineParams.DEFAULTS);
    e.insert(rq(0, RT), 0);
    Bio bio = new Bio(ReqOp.READ, 8, 4096, 0, IDLE);
    assertEquals(false, e.bioMerge(bio, (b, err) -> { }));
    Bio same = new Bio(ReqOp.READ, 8, 4096, 0, RT);
    assertEquals(true, e.bioMerge(same, (b, err) -> { }));
  }
}
