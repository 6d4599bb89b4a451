package blksim.kernel.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.locking.SpinLock;
import blksim.kernel.locking.SpinLockParams;
import blksim.kernel.topology.Cpu;
import blksim.kernel.topology.Topology;
import blksim.kernel.topology.TopologyParams;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** mq-deadline's dd->lock as a contended spinlock on a queue shared by several CPUs. */
@Timeout(10)
class SchedulerLockTest {
  static final long SUBMIT_NS = 1_000;
  static final long HOLD_NS = 200;

  final FakeCpus loop = new FakeCpus();
  final List<Cpu> cpus = Topology.of(new TopologyParams(1, 1, 1, 8, 1)).cpus();

  RequestQueue queue() {
    return queue(64, (rq, cpu) -> { });
  }

  RequestQueue queue(int nrRequests, MqDriver driver) {
    return new RequestQueue(new RequestQueueParams("sda", 1L << 30, 512, 32, nrRequests,
        RequestQueueParams.Scheduler.MQ_DEADLINE, 512 * 1024, 128, MqDeadlineParams.DEFAULTS,
        BlkMqRules.V6, SUBMIT_NS, 0), driver, Kblockd.INLINE);
  }

  /**
   * dd_insert_requests() takes dd->lock after the request got its scheduler tag: four CPUs
   * issuing at once all hold their tags at once, and their requests are inserted (and
   * dispatched) one lock hold plus hand-off apart, in order. The submit cost is the path alone.
   */
  @Test
  void submissionsAtTheSameTimeQueueOnTheLock_afterTakingTheirTags() {
    List<Long> dispatchedAt = new ArrayList<>();
    RequestQueue q = queue(64, (rq, cpu) -> dispatchedAt.add(cpu.now()));
    List<BlockQueue> views = new ArrayList<>();
    for (int c = 0; c < 4; c++) {
      views.add(q.attach(loop.cpu(c)));
    }
    q.modelSchedulerLock(new SpinLock("sda/dd->lock", SpinLockParams.DEFAULT), cpus, HOLD_NS);
    for (BlockQueue v : views) {
      Bio bio = new Bio(ReqOp.READ, 0, 4096, 0);
      assertEquals(SUBMIT_NS, v.submitCostNs(bio));
      assertTrue(v.issue(bio, (b, e) -> { }, () -> { }));
    }
    assertEquals(4, q.requestsInUse(), "every submitter holds its scheduler tag while spinning");
    loop.runUntil(0);
    assertEquals(List.of(0L), dispatchedAt, "only the holder inserted at once");
    loop.runAll();
    long step = HOLD_NS + SpinLockParams.DEFAULT.llcNs();
    assertEquals(List.of(0L, step, 2 * step, 3 * step), dispatchedAt);
    DiskCounters.Snapshot s = q.counters().snapshot(loop.now());
    assertEquals(3, s.lockSpins());
    assertEquals((1 + 2 + 3) * step, s.lockSpinNs());
    assertEquals(0, s.tagWaits());
    assertEquals(4, q.schedulerLock().acquisitions());
  }

  /**
   * With fewer scheduler tags than submitters and the lock contended, some submitters sleep
   * for a tag while others, holding theirs, spin on dd->lock: both counters move, and every
   * bio completes.
   */
  @Test
  void fewerTagsThanSubmitters_tagWaitsAndLockSpinsBothOccur() {
    RequestQueue[] holder = new RequestQueue[1];
    RequestQueue q = queue(2, (rq, cpu) -> cpu.callAfter(5_000, () -> holder[0].hardwareDone(rq)));
    holder[0] = q;
    q.modelSchedulerLock(new SpinLock("sda/dd->lock", SpinLockParams.DEFAULT), cpus, HOLD_NS);
    int cpusUsed = 6;
    int perCpu = 5;
    int[] done = new int[1];
    List<BlockQueue> views = new ArrayList<>();
    for (int c = 0; c < cpusUsed; c++) {
      views.add(q.attach(loop.cpu(c)));
    }
    for (BlockQueue v : views) {
      new Object() {
        int left = perCpu;

        void submit() {
          Bio bio = new Bio(ReqOp.READ, 8L * left, 4096, 0);
          if (!v.issue(bio, (b, e) -> next(), this::retry)) {
            return;
          }
        }

        void retry() {
          submit();
        }

        void next() {
          done[0]++;
          if (--left > 0) {
            submit();
          }
        }
      }.submit();
    }
    loop.runAll();
    assertEquals(cpusUsed * perCpu, done[0]);
    DiskCounters.Snapshot s = q.counters().snapshot(loop.now());
    assertTrue(s.tagWaits() > 0, "tag waits: " + s.tagWaits());
    assertTrue(s.lockSpins() > 0, "lock spins: " + s.lockSpins());
    assertEquals(0, q.requestsInUse());
  }

  @Test
  void withoutTheModelTheCostIsThePathsAlone() {
    RequestQueue q = queue();
    BlockQueue a = q.attach(loop.cpu(0));
    BlockQueue b = q.attach(loop.cpu(1));
    Bio bio = new Bio(ReqOp.READ, 0, 4096, 0);
    assertEquals(SUBMIT_NS, a.submitCostNs(bio));
    assertEquals(SUBMIT_NS, b.submitCostNs(bio));
    assertTrue(q.schedulerLock() == null);
  }
}
