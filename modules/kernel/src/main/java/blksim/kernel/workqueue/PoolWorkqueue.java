package blksim.kernel.workqueue;

import java.util.ArrayDeque;

/**
 * A {@code struct pool_workqueue} (kernel-model.md §4.1, §4.3, §4.7, §4.11): the link between one
 * wq and one pool, with {@code nr_active}, the {@code inactive_works} FIFO and statistics.
 *
 * <p>Slot rules by mode: per-CPU wqs in every mode, and unbound wqs before 6.9, take a slot while
 * {@code nr_active < max_active} of this pwq; unbound wqs from 6.9 take it from their node's
 * {@link NodeNrActive} ({@code pwq_tryinc_nr_active()}), and a pwq already waiting for one does
 * not jump the line.
 *
 * <p>Owned by the component that owns its pool: the {@link WorkqueueCpu} of its CPU for a per-CPU
 * wq, the {@link UnboundPoolHost} of its pool for an unbound one. The execution statistics of an
 * unbound pwq (started, completed, CPU time, rescued) are counted where its items run, on the
 * workers' CPUs; this object holds the ones its owner sees.
 */
public final class PoolWorkqueue {
  final Workqueue wq;
  final WorkerPool pool;
  final int key;
  final NodeNrActive nna;
  int nrActive;
  final ArrayDeque<QueuedWork> inactiveWorks = new ArrayDeque<>();
  /** On {@code nna->pending_pwqs} ({@code !list_empty(&pwq->pending_node)}). */
  boolean pendingNode;
  /** On the wq's mayday list ({@code !list_empty(&pwq->mayday_node)}). */
  boolean onMayday;
  final long[] stats = new long[PwqStat.COUNT];

  PoolWorkqueue(Workqueue wq, WorkerPool pool, int key, NodeNrActive nna) {
    this.wq = wq;
    this.pool = pool;
    this.key = key;
    this.nna = nna;
    pool.refcnt++;
  }

  /** The workqueue. */
  public Workqueue wq() {
    return wq;
  }

  /** The pool. */
  public WorkerPool pool() {
    return pool;
  }

  /** The pwq's key: its CPU (per-CPU pwqs, unbound from 6.5), node (before 6.5) or -1 (default). */
  public int key() {
    return key;
  }

  /** {@code pwq->nr_active}. */
  public int nrActive() {
    return nrActive;
  }

  /** Number of items on {@code pwq->inactive_works}. */
  public int nrInactive() {
    return inactiveWorks.size();
  }

  /** The statistic {@code s} as this pwq's owner counted it. */
  public long stat(PwqStat s) {
    return stats[s.ordinal()];
  }

  /** {@code pwq_tryinc_nr_active(pwq, false)}. */
  boolean tryincNrActive() {
    boolean obtained;
    if (nna == null) {
      obtained = nrActive < wq.maxActive();
    } else {
      if (pendingNode) {
        return false;
      }
      obtained = nna.tryinc();
      if (!obtained) {
        pendingNode = true;
        nna.pendingPwqs.addLast(this);
      }
    }
    if (obtained) {
      nrActive++;
    }
    return obtained;
  }

  /**
   * {@code __queue_work()}'s insertion: an item that gets a slot (and finds no inactive item
   * ahead of it) goes on the pool's worklist and the pool is kicked; otherwise it waits on
   * {@code inactive_works}.
   */
  void queue(QueuedWork w) {
    if (inactiveWorks.isEmpty() && tryincNrActive()) {
      pool.worklist.addLast(w);
      pool.kick();
    } else {
      inactiveWorks.addLast(w);
    }
  }

  /**
   * {@code pwq_dec_nr_active()}: releases a slot when an item finishes; may activate an inactive
   * item of this pwq (per-pwq limit) or of the first pending pwq of the node counter (6.9+).
   */
  void decNrActive() {
    nrActive--;
    if (nna == null) {
      activateFirstInactive();
      return;
    }
    if (--nna.nr >= nna.max) {
      return;
    }
    if (!nna.pendingPwqs.isEmpty()) {
      nna.activatePending(pool);
    }
  }

  /** {@code pwq_activate_first_inactive()}: moves the first inactive item to the worklist. */
  boolean activateFirstInactive() {
    QueuedWork w = inactiveWorks.peekFirst();
    if (w != null && tryincNrActive()) {
      inactiveWorks.pollFirst();
      pool.worklist.addLast(w);
      return true;
    }
    return false;
  }
}
