package blksim.kernel.workqueue;

import java.util.ArrayDeque;

/**
 * {@code struct wq_node_nr_active} (6.9+, kernel-model.md §4.7): the active-slot counter shared by
 * every pwq of one unbound wq whose pool is tied to one NUMA node (or, for the default counter,
 * to none), and the FIFO of pwqs waiting for a slot.
 *
 * <p>Owned by the {@link UnboundPoolHost} of that node (or the node-less host), which also owns
 * every pool and pwq that uses it, so the counter is always touched by its one owner.
 */
final class NodeNrActive {
  final int node;
  final int max;
  int nr;
  final ArrayDeque<PoolWorkqueue> pendingPwqs = new ArrayDeque<>();

  NodeNrActive(int node, int max) {
    this.node = node;
    this.max = max;
  }

  /** {@code tryinc_node_nr_active()}. */
  boolean tryinc() {
    if (nr < max) {
      nr++;
      return true;
    }
    return false;
  }

  /**
   * {@code node_activate_pending_pwq()}: gives a freed slot to the first pending pwq's first
   * inactive item, rotates that pwq to the tail if it has more, and kicks its pool if it is not
   * the caller's. Round-robin across pwqs, not global FIFO.
   */
  void activatePending(WorkerPool callerPool) {
    while (true) {
      PoolWorkqueue pwq = pendingPwqs.peekFirst();
      if (pwq == null) {
        return;
      }
      QueuedWork w = pwq.inactiveWorks.peekFirst();
      if (w == null) {
        pendingPwqs.pollFirst();
        pwq.pendingNode = false;
        continue;
      }
      if (tryinc()) {
        pwq.nrActive++;
        pwq.inactiveWorks.pollFirst();
        pwq.pool.worklist.addLast(w);
        pendingPwqs.pollFirst();
        if (pwq.inactiveWorks.isEmpty()) {
          pwq.pendingNode = false;
        } else {
          pendingPwqs.addLast(pwq);
        }
        if (pwq.pool != callerPool) {
          pwq.pool.kick();
        }
      }
      return;
    }
  }
}
