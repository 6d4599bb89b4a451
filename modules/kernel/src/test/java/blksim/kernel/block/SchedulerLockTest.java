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
    return new RequestQueue(new RequestQueueParams("sda", 1L << 30, 512, 32, 64,
        RequestQueueParams.Scheduler.MQ_DEADLINE, 512 * 1024, 128, MqDeadlineParams.DEFAULTS,
        BlkMqRules.V6, SUBMIT_NS, 0), (rq, cpu) -> { }, Kblockd.INLINE);
  }

  @Test
  void submissionsAtTheSameTimeQueueOnTheLock_inOrder_andTheSpinIsCounted() {
    RequestQueue q = queue();
    List<BlockQueue> views = new ArrayList<>();
    for (int c = 0; c < 4; c++) {
      views.add(q.attach(loop.cpu(c)));
    }
    q.modelSchedulerLock(new SpinLock("sda/dd->lock", SpinLockParams.DEFAULT), cpus, HOLD_NS);
    Bio bio = new Bio(ReqOp.READ, 0, 4096, 0);
    List<Long> costs = new ArrayList<>();
    for (BlockQueue v : views) {
      costs.add(v.submitCostNs(bio));
    }
    long step = HOLD_NS + SpinLockParams.DEFAULT.llcNs();
    for (int k = 0; k < 4; k++) {
      assertEquals(SUBMIT_NS + k * step, costs.get(k), "submitter " + k);
    }
    DiskCounters.Snapshot s = q.counters().snapshot(0);
    assertEquals(3, s.lockSpins());
    assertEquals((1 + 2 + 3) * step, s.lockSpinNs());
    assertEquals(4, q.schedulerLock().acquisitions());
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
