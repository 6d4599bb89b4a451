package blksim.kernel.locking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.topology.Cpu;
import blksim.kernel.topology.Topology;
import blksim.kernel.topology.TopologyParams;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The contended spinlock's queueing: FIFO hand-offs, time growing with contenders, distance. */
@Timeout(10)
class SpinLockTest {
  static final long HOLD = 200;
  static final SpinLockParams COSTS = SpinLockParams.DEFAULT;

  /** 2 sockets x 1 node x 2 LLCs x 4 cores x 2 threads: 32 CPUs. */
  final List<Cpu> cpus = Topology.of(new TopologyParams(2, 1, 2, 4, 2)).cpus();
  /** One LLC of 16 cores. */
  final List<Cpu> llc = Topology.of(new TopologyParams(1, 1, 1, 16, 1)).cpus();

  @Test
  void anUncontendedAcquisitionSpinsNot() {
    SpinLock l = new SpinLock("l", COSTS);
    assertEquals(0, l.acquire(cpus.get(0), 1_000, HOLD));
    assertEquals(0, l.acquire(cpus.get(1), 1_200, HOLD)); // free again at 1,200
    assertEquals(0, l.contended());
  }

  @Test
  void queueingTimeGrowsWithTheContenders() {
    // n CPUs of one LLC (different cores) arrive together: the k-th waits k holds and k
    // hand-offs, so the mean spin grows linearly with n.
    double previous = -1;
    for (int n : new int[] {1, 2, 4, 8}) {
      SpinLock l = new SpinLock("l", COSTS);
      long total = 0;
      for (int k = 0; k < n; k++) {
        total += l.acquire(llc.get(k), 10_000, HOLD);
      }
      double mean = (double) total / n;
      assertTrue(mean > previous, n + " contenders: mean spin " + mean + " after " + previous);
      previous = mean;
      assertEquals(Math.max(0, n - 1), l.contended());
      assertEquals((n - 1) * n / 2 * (HOLD + COSTS.llcNs()), total);
      assertEquals(n, l.holdersAndWaiters(10_000));
    }
  }

  @Test
  void handOffIsFifo_inArrivalOrder() {
    SpinLock l = new SpinLock("l", COSTS);
    List<Long> acquiredAt = new ArrayList<>();
    long t = 5_000;
    for (int k = 0; k < 5; k++) {
      long arrive = t + k * 10; // all arrive while the first holds it
      acquiredAt.add(arrive + l.acquire(llc.get(k), arrive, HOLD));
    }
    for (int k = 1; k < 5; k++) {
      assertEquals(acquiredAt.get(k - 1) + HOLD + COSTS.llcNs(), acquiredAt.get(k),
          "waiter " + k + " takes the lock one hold and one hand-off after waiter " + (k - 1));
    }
    assertEquals(4, l.maxQueued());
  }

  @Test
  void aHandOffAcrossSocketsCostsMoreThanWithinAnLlc() {
    Cpu a = cpus.get(0);
    Cpu sameLlc = cpus.stream().filter(c -> c.llc() == a.llc() && c.core() != a.core())
        .findFirst().orElseThrow();
    Cpu otherSocket = cpus.stream().filter(c -> c.socket() != a.socket()).findFirst()
        .orElseThrow();
    Cpu sibling = cpus.stream().filter(c -> c.core() == a.core() && c.id() != a.id())
        .findFirst().orElseThrow();
    SpinLock near = new SpinLock("near", COSTS);
    near.acquire(a, 0, HOLD);
    long spinNear = near.acquire(sameLlc, 0, HOLD);
    SpinLock far = new SpinLock("far", COSTS);
    far.acquire(a, 0, HOLD);
    long spinFar = far.acquire(otherSocket, 0, HOLD);
    SpinLock smt = new SpinLock("smt", COSTS);
    smt.acquire(a, 0, HOLD);
    long spinSmt = smt.acquire(sibling, 0, HOLD);
    assertEquals(HOLD + COSTS.llcNs(), spinNear);
    assertEquals(HOLD + COSTS.socketNs(), spinFar);
    assertEquals(HOLD + COSTS.smtNs(), spinSmt);
    assertTrue(spinSmt < spinNear && spinNear < spinFar);
  }
}
