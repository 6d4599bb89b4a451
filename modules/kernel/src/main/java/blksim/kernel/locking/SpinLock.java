package blksim.kernel.locking;

import blksim.kernel.topology.Cpu;
import java.util.ArrayDeque;

/**
 * A contended spinlock ({@code spinlock_t} on x86: the queued spinlock of
 * kernel/locking/qspinlock.c) with a queueing cost model: CPUs that find the lock held wait in
 * FIFO order (the MCS queue: each waiter spins on its own node, so waiting costs no traffic),
 * and each hand-off from the holder to the next waiter costs one transfer of the lock's cache
 * line, whose latency grows with the distance between the two CPUs ({@link SpinLockParams}:
 * SMT sibling, same LLC, another LLC of the node, another node, another socket). So the
 * queueing time of an acquisition grows with the number of CPUs queued before it: each adds its
 * hold time and one hand-off.
 *
 * <p>Model: an acquisition is a reservation. The caller says when it reaches the lock and how
 * long it will hold it, and gets back how long it spins first; it charges the spin as system
 * time with its critical section (interrupts and preemption are off while a spinlock is held or
 * spun on, so the spin is one stretch of CPU time). No event is scheduled at all: not at the
 * contention start, not at the hand-off, and never a poll. An uncontended acquisition costs
 * nothing extra (its cost is in the calibrated path costs that contain it), so a run without
 * contention is unchanged by the lock.
 *
 * <p>Simplified: reservations are served in the order the calls are made, which is the order
 * of arrival as long as callers reach the lock at their call time (the discrete-event order);
 * qspinlock's pending bit (the first contender spins on the lock word, not on an MCS node) is
 * folded into the same FIFO; lock stealing by a CPU arriving while the lock is between holders
 * is not modelled (qspinlock hands over in queue order too); hold times are what the caller
 * says, not lengthened by cache misses inside the critical section.
 *
 * <p>Sharing: the lock is called directly by every CPU that takes it, so its users must share a
 * partition (DEVELOPERS.md, the one-partition rule).
 *
 * <p>Where blksim takes one: mq-deadline's {@code dd->lock} in {@code dd_insert_requests()},
 * after the request took its scheduler tag (once per request, or once per plug batch), on a
 * request queue with a scheduler
 * that several CPUs submit to (a {@code disk}, {@code ssd} or {@code zoned-disk}, a null_blk
 * with fewer hardware queues than CPUs and mq-deadline), when
 * {@code kernel.spinlock-contention = on} ({@code RequestQueue.modelSchedulerLock}; off by
 * default so calibrated figures do not move). Locks of modelled paths not (yet) charged this
 * way, each a candidate: dd->lock in {@code dd_bio_merge()} (before the tag), in the dispatch and
 * in the completion;
 * {@code hctx->lock} (the dispatch list); {@code tags->lock} in {@code blk_mq_tag_busy()} and
 * {@code blk_mq_tag_idle()} (once per active/idle transition, rare); the sbitmap wait-queue
 * lock on tag sleeps and wakeups; the page cache's {@code xa_lock}; the zone write lock of
 * mq-deadline; the workqueue pool's {@code pool->lock} per {@code queue_work()} (on the
 * dm-delay path: charging it there would move validated figures).
 */
public final class SpinLock {
  private final String name;
  private final SpinLockParams costs;
  /** When the last reservation releases the lock. */
  private long freeAtNs = Long.MIN_VALUE;
  private Cpu lastHolder;
  /** Release times of the reservations not yet over, oldest first. */
  private final ArrayDeque<long[]> pending = new ArrayDeque<>();
  private long acquisitions;
  private long contended;
  private long spinNs;
  private long maxSpinNs;
  private int maxQueued;

  /** A lock named {@code name} (for statistics) with hand-off costs {@code costs}. */
  public SpinLock(String name, SpinLockParams costs) {
    this.name = name;
    this.costs = costs;
  }

  /**
   * {@code spin_lock()} by {@code cpu} reaching the lock at {@code arriveNs}, holding it for
   * {@code holdNs}: returns the time it spins before it holds the lock (0 if free). The lock is
   * held from {@code arriveNs} plus the spin to that plus {@code holdNs}
   * ({@code spin_unlock()}).
   */
  public long acquire(Cpu cpu, long arriveNs, long holdNs) {
    if (holdNs < 0) {
      throw new IllegalArgumentException("hold time must be >= 0, was " + holdNs);
    }
    while (!pending.isEmpty() && pending.peekFirst()[0] <= arriveNs) {
      pending.pollFirst();
    }
    acquisitions++;
    long start;
    if (freeAtNs <= arriveNs) {
      start = arriveNs;
    } else {
      // Queued behind pending.size() reservations: the last one's release, then the hand-off.
      contended++;
      start = freeAtNs + costs.handoffNs(lastHolder, cpu);
    }
    long spin = start - arriveNs;
    spinNs += spin;
    maxSpinNs = Math.max(maxSpinNs, spin);
    freeAtNs = start + holdNs;
    lastHolder = cpu;
    pending.addLast(new long[] {freeAtNs});
    maxQueued = Math.max(maxQueued, pending.size() - 1);
    return spin;
  }

  /** CPUs holding or queued for the lock at {@code now} (after the reservations so far). */
  public int holdersAndWaiters(long now) {
    int n = 0;
    for (long[] p : pending) {
      if (p[0] > now) {
        n++;
      }
    }
    return n;
  }

  /** The name. */
  public String name() {
    return name;
  }

  /** Acquisitions so far. */
  public long acquisitions() {
    return acquisitions;
  }

  /** Acquisitions that found the lock held. */
  public long contended() {
    return contended;
  }

  /** Total time spun, ns. */
  public long spinNs() {
    return spinNs;
  }

  /** Longest spin, ns. */
  public long maxSpinNs() {
    return maxSpinNs;
  }

  /** Most CPUs ever queued behind a holder. */
  public int maxQueued() {
    return maxQueued;
  }

  @Override
  public String toString() {
    return name + "[" + acquisitions + " acquisitions, " + contended + " contended, " + spinNs
        + " ns spun]";
  }
}
