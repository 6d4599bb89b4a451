package blksim.kernel.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Shared tag maps: hctx_may_queue()'s fair share, active accounting, tag waits. */
@Timeout(10)
class BlkMqTagsTest {
  static final long SERVICE_NS = 10_000;

  final FakeCpus loop = new FakeCpus();
  final List<Request> held = new ArrayList<>();

  /** A driver that holds every request until {@link #completeAll}. */
  final MqDriver holding = (rq, cpu) -> held.add(rq);

  static RequestQueueParams params(String name, RequestQueueParams.Scheduler s, int depth,
      int nr) {
    return new RequestQueueParams(name, 1L << 30, 512, depth, nr, s, 512 * 1024, 128,
        MqDeadlineParams.DEFAULTS, BlkMqRules.V6, 0, 0);
  }

  RequestQueue queue(String name, DriverCpu cpu, MqDriver driver) {
    RequestQueue q = new RequestQueue(params(name, RequestQueueParams.Scheduler.NONE, 64, 64),
        driver, Kblockd.INLINE, true);
    q.attach(cpu);
    return q;
  }

  void completeAll() {
    List<Request> l = new ArrayList<>(held);
    held.clear();
    for (Request r : l) {
      r.queue().endRequestInline(r, r.submitCpu());
    }
  }

  /** Submits reads until one is refused; returns how many got a tag. */
  static int fill(RequestQueue q, DriverCpu cpu, int max, List<Runnable> wakes) {
    for (int i = 0; i < max; i++) {
      int n = i;
      if (!q.submitBio(cpu, null, new Bio(ReqOp.READ, i * 1024L, 4096, 0), (b, e) -> { },
          () -> wakes.add(() -> { }))) {
        return n;
      }
    }
    return max;
  }

  @Test
  void twoActiveQueuesOnASharedSetOfDepth64GetHalfEach_oneAloneGetsAll() {
    DriverCpu c0 = loop.cpu(0);
    RequestQueue a = queue("nullb0", c0, holding);
    RequestQueue b = queue("nullb1", c0, holding);
    BlkMqTags tags = new BlkMqTags("tags0", 64).queueShared(true);
    a.shareTags(tags.newSharer());
    b.shareTags(tags.newSharer());
    List<Runnable> wakes = new ArrayList<>();

    // Alone (one active queue): the whole depth.
    assertEquals(64, fill(a, c0, 100, wakes));
    assertEquals(1, tags.activeQueues());
    completeAll();
    assertEquals(0, tags.inUse());
    // a stayed active (no timeout work has idled it): two users now, 32 each.
    assertEquals(32, fill(b, c0, 100, wakes));
    assertEquals(2, tags.activeQueues());
    assertEquals(32, tags.fairShare());
    assertEquals(32, fill(a, c0, 100, wakes));
    assertEquals(64, tags.inUse());
    assertEquals(32, a.sharer().nrActive());
    assertEquals(32, b.sharer().nrActive());
    assertTrue(tags.fairShareRefusals() > 0 || tags.inUse() == 64);
  }

  @Test
  void fairShareIsAtLeastFour_andRoundsUp() {
    BlkMqTags t = new BlkMqTags("t", 10).queueShared(true);
    DriverCpu c0 = loop.cpu(0);
    List<BlkMqTags.Sharer> s = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      s.add(t.newSharer());
      t.busy(s.get(i), c0);
    }
    assertEquals(4, t.fairShare()); // ceil(10 / 3) = 4
    for (int i = 0; i < 2; i++) {
      s.add(t.newSharer());
      t.busy(s.get(3 + i), c0);
    }
    assertEquals(4, t.fairShare()); // ceil(10 / 5) = 2, raised to 4
    BlkMqTags notShared = new BlkMqTags("u", 10);
    BlkMqTags.Sharer x = notShared.newSharer();
    notShared.busy(x, c0);
    assertEquals(0, notShared.activeQueues());
    assertEquals(10, notShared.fairShare());
  }

  @Test
  void anIdleQueueIsDroppedByTheTimeoutWork_andTheOtherGetsTheWholeDepthBack() {
    DriverCpu c0 = loop.cpu(0);
    RequestQueue a = queue("nullb0", c0, holding);
    RequestQueue b = queue("nullb1", c0, holding);
    BlkMqTags tags = new BlkMqTags("tags0", 64).queueShared(true);
    a.shareTags(tags.newSharer());
    b.shareTags(tags.newSharer());
    List<Runnable> wakes = new ArrayList<>();
    fill(a, c0, 1, wakes);
    fill(b, c0, 1, wakes);
    completeAll();
    assertEquals(2, tags.activeQueues());
    loop.runUntil(BlkMqTags.BLK_MAX_TIMEOUT_NS + 1);
    assertEquals(0, tags.activeQueues());
    assertEquals(64, fill(a, c0, 100, wakes));
  }

  @Test
  void aTagWaiterIsWokenWhenATagIsFreed_andTheWaitIsCounted() {
    DriverCpu c0 = loop.cpu(0);
    DriverCpu c1 = loop.cpu(1);
    RequestQueue a = queue("nullb0", c0, holding);
    RequestQueue b = queue("nullb1", c1, holding);
    BlkMqTags tags = new BlkMqTags("tags", 8).queueShared(true);
    a.shareTags(tags.newSharer());
    b.shareTags(tags.newSharer());
    List<Runnable> wakes = new ArrayList<>();
    assertEquals(4, fill(a, c0, 4, wakes));
    assertEquals(4, fill(b, c1, 100, wakes)); // over its share of 4 (8 / 2): sleeps
    assertEquals(1, tags.waiters());
    assertTrue(wakes.isEmpty());
    loop.runUntil(3_000);
    // One of a's requests ends on cpu 0 at 3 us: b's sleeper is woken (an event on cpu 1).
    Request r = held.remove(0);
    r.queue().endRequestInline(r, c0);
    assertEquals(0, tags.waiters());
    loop.runUntil(4_000);
    assertEquals(1, wakes.size());
    DiskCounters.Snapshot s = b.counters().snapshot(loop.now());
    assertEquals(1, s.tagWaits());
    assertEquals(3_000, s.tagWaitNs());
    assertEquals(0, a.counters().snapshot(loop.now()).tagWaits());
  }

  @Test
  void aNowaitBioOverItsShareEndsWithEagain() {
    DriverCpu c0 = loop.cpu(0);
    RequestQueue a = queue("nullb0", c0, holding);
    RequestQueue b = queue("nullb1", c0, holding);
    BlkMqTags tags = new BlkMqTags("tags", 8).queueShared(true);
    a.shareTags(tags.newSharer());
    b.shareTags(tags.newSharer());
    fill(a, c0, 1, new ArrayList<>());
    fill(b, c0, 4, new ArrayList<>());
    List<Integer> errs = new ArrayList<>();
    assertTrue(b.submitBio(c0, null, new Bio(ReqOp.READ, 0, 4096, Bio.REQ_NOWAIT),
        (bio, e) -> errs.add(e), () -> { }));
    assertEquals(List.of(-Errno.EAGAIN), errs);
    assertEquals(0, tags.waiters());
  }

  @Test
  void withASchedulerTheDriverTagIsTakenAtDispatch_andABlockedContextIsRerunOnFree() {
    DriverCpu c0 = loop.cpu(0);
    RequestQueue a = new RequestQueue(params("sda", RequestQueueParams.Scheduler.MQ_DEADLINE,
        4, 16), holding, Kblockd.INLINE, false);
    a.attach(c0);
    RequestQueue b = new RequestQueue(params("sdb", RequestQueueParams.Scheduler.MQ_DEADLINE,
        4, 16), holding, Kblockd.INLINE, false);
    b.attach(c0);
    BlkMqTags host = new BlkMqTags("host0", 4).queueShared(true);
    a.shareTags(host.newSharer());
    b.shareTags(host.newSharer());
    List<Runnable> wakes = new ArrayList<>();
    assertEquals(16, fill(a, c0, 16, wakes));
    loop.runUntil(1_000);
    assertEquals(4, a.driverTagsInUse()); // alone: the host's 4
    assertEquals(8, fill(b, c0, 8, wakes));
    loop.runUntil(2_000);
    assertEquals(0, b.driverTagsInUse()); // none free: b waits for a driver tag
    completeAll();
    loop.runUntil(3_000);
    // Two active users of 4 tags: max(ceil(4 / 2), 4) = 4 each, first come first served.
    assertEquals(4, a.driverTagsInUse() + b.driverTagsInUse());
    assertTrue(b.driverTagsInUse() > 0, "the freed tags re-ran b's dispatch");
    assertFalse(held.isEmpty());
  }
}
