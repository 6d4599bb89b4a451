package blksim.kernel.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** blk-wbt's limits, scaling and wake-up rules ({@link Wbt}) and its place in blk-mq. */
@Timeout(10)
class WbtTest {
  static final int HZ = 250;

  @Test
  void kernelDefaultsOnASataDisk() {
    // RWB_DEF_DEPTH 16 on a queue_depth of 32: calc_wb_limits() gives 16 / 8 / 4.
    Wbt w = new Wbt(Wbt.ROTATIONAL_LAT_NS, 32, false, HZ);
    assertEquals(16, w.maxDepth());
    assertEquals(8, w.wbNormal());
    assertEquals(4, w.wbBackground());
    // A shallow queue caps the depth: min(16, 8) = 8 -> 4 / 2.
    Wbt shallow = new Wbt(Wbt.ROTATIONAL_LAT_NS, 8, false, HZ);
    assertEquals(8, shallow.maxDepth());
    assertEquals(4, shallow.wbNormal());
    assertEquals(2, shallow.wbBackground());
    // QD=1 devices get a depth of 2 (rq_depth_calc_max_depth()): normal 2, background 1.
    Wbt qd1 = new Wbt(Wbt.ROTATIONAL_LAT_NS, 1, false, HZ);
    assertEquals(2, qd1.maxDepth());
    assertEquals(2, qd1.wbNormal());
    assertEquals(1, qd1.wbBackground());
    assertThrows(IllegalArgumentException.class, () -> new Wbt(0, 32, false, HZ));
  }

  @Test
  void scalingHalvesDownToOneAndBoostsToThreeQuartersOfTheQueue() {
    Wbt w = new Wbt(Wbt.ROTATIONAL_LAT_NS, 32, false, HZ);
    int[] depths = {8, 4, 2, 1};
    for (int d : depths) {
      w.scaleDown(true);
      assertEquals(d, w.maxDepth());
    }
    int step = w.scaleStep();
    w.scaleDown(true);
    assertEquals(step, w.scaleStep(), "no scaling below a depth of 1");
    assertEquals(1, w.wbNormal());
    assertEquals(1, w.wbBackground());
    FakeCpus loop = new FakeCpus();
    DriverCpu cpu = loop.cpu(0);
    while (w.scaleStep() > 0) {
      w.scaleUp(cpu);
    }
    assertEquals(16, w.maxDepth());
    // Writes only: past step 0, 1 + (15 << 1) = 31 is capped at 3 * 32 / 4 = 24.
    w.scaleUp(cpu);
    assertEquals(-1, w.scaleStep());
    assertEquals(24, w.maxDepth());
    assertEquals(12, w.wbNormal());
    assertEquals(6, w.wbBackground());
    w.scaleUp(cpu);
    assertEquals(-1, w.scaleStep(), "the ceiling was hit: scale_up() stops");
    // A hard throttle from a negative step goes back to step 0 first.
    w.scaleDown(true);
    assertEquals(0, w.scaleStep());
    assertEquals(16, w.maxDepth());
  }

  @Test
  void intSqrtIsTheFloor() {
    for (long x = 0; x < 5000; x++) {
      long r = Wbt.intSqrt(x);
      assertTrue(r * r <= x && (r + 1) * (r + 1) > x, "int_sqrt(" + x + ") = " + r);
    }
  }

  final FakeCpus loop = new FakeCpus();
  final DriverCpu cpu = loop.cpu(0);
  final RequestQueueTest.HoldingDriver driver = new RequestQueueTest.HoldingDriver();
  final List<Bio> ended = new ArrayList<>();
  final List<Integer> woken = new ArrayList<>();

  RequestQueue queue() {
    RequestQueue q = new RequestQueue(RequestQueueTest.params(RequestQueueParams.Scheduler.NONE,
        32, 32, 512 * 1024, BlkMqRules.V6), driver, Kblockd.INLINE);
    q.enableWbt(new Wbt(Wbt.ROTATIONAL_LAT_NS, 32, false, HZ));
    q.attach(cpu);
    return q;
  }

  /** Submits a 4 KiB bio at a sector of its own (no merges); records its wake-up. */
  boolean submit(RequestQueue q, ReqOp op, int i, int flags) {
    Bio b = new Bio(op, 100_000L * (i + 1), 4096, flags);
    bios.put(i, b);
    return resubmit(q, i);
  }

  final java.util.Map<Integer, Bio> bios = new java.util.TreeMap<>();

  /** Submits bio {@code i} again, the same object (a woken submitter retries with its bio). */
  boolean resubmit(RequestQueue q, int i) {
    return q.submitBio(cpu, null, bios.get(i), (x, e) -> ended.add(x), () -> woken.add(i));
  }

  @Test
  void buffered_writes_wait_over_wb_normal_and_wake_when_room_reaches_half_background() {
    RequestQueue q = queue();
    Wbt w = q.wbt();
    loop.runUntil(Wbt.WINDOW_NS * 50); // well away from the start: no read is "close"
    int taken = 0;
    for (int i = 0; i < 20; i++) {
      if (submit(q, ReqOp.WRITE, i, 0)) {
        taken++;
      }
    }
    assertEquals(8, taken, "wb_normal writes get a request");
    assertEquals(8, w.inflight());
    assertEquals(12, w.waiting());
    // A WB_SYNC_ALL write may go to max_depth, but a newcomer does not pass the sleepers.
    assertFalse(submit(q, ReqOp.WRITE, 20, Bio.REQ_SYNC));
    // O_DIRECT writes (REQ_SYNC | REQ_IDLE) are not throttled.
    assertTrue(submit(q, ReqOp.WRITE, 21, Bio.REQ_SYNC | Bio.REQ_IDLE));
    assertEquals(8, w.inflight());
    // One completion: 7 in flight, room 1 < wb_background / 2: nobody is woken.
    q.hardwareDone(driver.got.get(0));
    loop.runUntil(loop.now() + 1000);
    assertTrue(woken.isEmpty());
    assertEquals(7, w.inflight());
    // A second: room 2 >= 2, the first sleepers take tokens in order up to wb_normal.
    q.hardwareDone(driver.got.get(1));
    loop.runUntil(loop.now() + 1000);
    assertEquals(List.of(8, 9), woken, "woken in order, up to wb_normal");
    assertEquals(8, w.inflight());
    // A woken bio holds its token: resubmitted, it gets its request without waiting again.
    int before = driver.got.size();
    assertTrue(resubmit(q, 8));
    assertEquals(before + 1, driver.got.size());
    assertEquals(8, w.inflight());
  }

  @Test
  void a_read_within_a_tenth_of_a_second_limits_buffered_writes_to_wb_background() {
    RequestQueue q = queue();
    loop.runUntil(Wbt.WINDOW_NS * 50);
    assertTrue(submit(q, ReqOp.READ, 0, 0), "reads are not throttled");
    q.hardwareDone(driver.got.get(0));
    loop.runUntil(loop.now() + 1_000_000);
    int taken = 0;
    for (int i = 1; i < 11; i++) {
      if (submit(q, ReqOp.WRITE, i, 0)) {
        taken++;
      }
    }
    assertEquals(4, taken, "close_io(): wb_background");
    // WB_SYNC_ALL writeback (REQ_SYNC) would have max_depth, but waits behind the sleepers.
    assertFalse(submit(q, ReqOp.WRITE, 20, Bio.REQ_SYNC));
  }

  @Test
  void background_writeback_is_limited_to_wb_background() {
    RequestQueue q = queue();
    loop.runUntil(Wbt.WINDOW_NS * 50);
    int taken = 0;
    for (int i = 0; i < 10; i++) {
      if (submit(q, ReqOp.WRITE, i, Bio.REQ_BACKGROUND)) {
        taken++;
      }
    }
    assertEquals(4, taken);
  }

  @Test
  void a_slow_read_scales_the_depth_down_and_writes_only_scale_it_up() {
    RequestQueue q = queue();
    Wbt w = q.wbt();
    loop.runUntil(Wbt.WINDOW_NS * 50);
    for (int i = 0; i < 4; i++) {
      assertTrue(submit(q, ReqOp.WRITE, i, 0));
    }
    // The read reaches the driver and stays there longer than the 100 ms window.
    assertTrue(submit(q, ReqOp.READ, 10, 0));
    loop.runUntil(loop.now() + Wbt.WINDOW_NS + 1);
    assertEquals(1, w.scaleStep(), "a sync issue older than the window: LAT_EXCEEDED");
    assertEquals(4, w.wbNormal());
    // The read completes; from then on only writes complete: LAT_UNKNOWN_WRITES scales up.
    for (Request r : new ArrayList<>(driver.got)) {
      q.hardwareDone(r);
    }
    loop.runUntil(loop.now() + 1000);
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 4; j++) {
        submit(q, ReqOp.WRITE, 100 + 10 * i + j, 0);
      }
      loop.runUntil(loop.now() + Wbt.WINDOW_NS / 4);
      for (Request r : new ArrayList<>(driver.got)) {
        if (r.started()) {
          q.hardwareDone(r);
        }
      }
      driver.got.clear();
      loop.runUntil(loop.now() + Wbt.WINDOW_NS);
    }
    assertTrue(w.scaleStep() < 1, "scaled back up, step " + w.scaleStep());
    assertTrue(w.stats().scaleUps >= 1);
  }
}
