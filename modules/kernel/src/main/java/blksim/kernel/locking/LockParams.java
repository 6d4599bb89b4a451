package blksim.kernel.locking;

/**
 * The costs and switches of the sleeping locks (kernel/locking/rwsem.c, mutex.c, 6.5-6.8).
 *
 * @param spinOnOwner optimistic spinning while the owner runs ({@code CONFIG_RWSEM_SPIN_ON_OWNER},
 *     {@code CONFIG_MUTEX_SPIN_ON_OWNER}, both default y on SMP x86)
 * @param spinNoticeNs time for a spinner to see the lock word change, a cache-line transfer
 *     between cores ([A] about 100 ns within a socket; the spinner polls the owner field, so
 *     there is no wakeup)
 * @param wakeCostNs CPU time the releaser spends per task it wakes ({@code wake_up_q()} →
 *     {@code try_to_wake_up()}, [A] about 1 µs); the wakee's own cost, the wakeup latency and
 *     the context switch, comes from the scheduler, and together they form the hand-off time
 *     t_wake of kernel-model.md §15.3.4
 * @param hz the kernel's HZ: the anti-starvation timeout is {@code RWSEM_WAIT_TIMEOUT =
 *     DIV_ROUND_UP(HZ, 250)} jiffies (4 ms at HZ 250 and 1000)
 * @param readersQueueBehindWriters readers that find a sleeper queued wait behind it
 *     ({@code RWSEM_READ_FAILED_MASK} includes {@code RWSEM_FLAG_WAITERS}; default on); off, a
 *     reader takes the lock whenever no writer holds it (a reader-preferring lock, for
 *     experiments)
 * @param waitLock the contended {@code sem->wait_lock} ({@code lock->wait_lock}), or null: not
 *     modelled (every slow-path entry, release with sleepers and woken writer's retry then costs
 *     nothing beyond the calibrated path costs and wakes its wakees at once); see
 *     {@link WaitLock}
 */
public record LockParams(boolean spinOnOwner, long spinNoticeNs, long wakeCostNs, int hz,
    boolean readersQueueBehindWriters, WaitLock waitLock) {

  /** The defaults: spinning on, 100 ns notice, 1 µs per wakeup, HZ 250, readers queue. */
  public static final LockParams DEFAULT = new LockParams(true, 100, 1_000, 250, true, null);

  /**
   * The sleeping locks' internal raw spinlock ({@code raw_spinlock_t wait_lock}, a qspinlock, a
   * {@link SpinLock} per sleeping lock) and the work done under it (kernel/locking/rwsem.c,
   * 6.5-6.8): taken by a writer queueing in {@code rwsem_down_write_slowpath()} (with its first
   * {@code rwsem_try_write_lock()}), by a queued writer each time it wakes and retries, by a
   * reader queueing in {@code rwsem_down_read_slowpath()}, and by every release that finds
   * waiters ({@code rwsem_wake()} → {@code rwsem_mark_wake()}). {@code rwsem_mark_wake()} walks
   * the whole wait list when the first waiter is a reader (it skips writers to wake every
   * reader, up to {@code MAX_READERS_WAKEUP}), one waiter's cache line per entry (each
   * {@code struct rwsem_waiter} lives on its task's stack). The wakeups are issued after
   * {@code wait_lock} is dropped, one {@code try_to_wake_up()} after another
   * ({@code wake_up_q()}): the k-th wakee is woken {@code k} wake costs later.
   *
   * @param handoff the qspinlock's hand-off costs by distance ({@code costs.spinlock.handoff-*})
   * @param holdNs the hold of one critical section without the walk (list insert or delete,
   *     the count's atomic, the waiter's fields: a few cache lines)
   * @param entryNs the walk's cost per wait-list entry visited (one cache-line miss)
   */
  public record WaitLock(SpinLockParams handoff, long holdNs, long entryNs) {
    /** Validates. */
    public WaitLock {
      if (handoff == null || holdNs < 0 || entryNs < 0) {
        throw new IllegalArgumentException("wait_lock costs must be given and >= 0");
      }
    }
  }

  /** Validates. */
  public LockParams {
    if (spinNoticeNs < 0 || wakeCostNs < 0) {
      throw new IllegalArgumentException("lock costs must be >= 0");
    }
    if (hz <= 0) {
      throw new IllegalArgumentException("hz must be > 0, was " + hz);
    }
  }

  /** {@code RWSEM_WAIT_TIMEOUT} in jiffies: {@code DIV_ROUND_UP(HZ, 250)}. */
  public long waitTimeoutJiffies() {
    return (hz + 249) / 250;
  }

  /** One jiffy, ns. */
  public long jiffyNs() {
    return 1_000_000_000L / hz;
  }

  /** These parameters with HZ {@code hz}. */
  public LockParams withHz(int hz) {
    return new LockParams(spinOnOwner, spinNoticeNs, wakeCostNs, hz, readersQueueBehindWriters,
        waitLock);
  }

  /** These parameters with spinning on or off. */
  public LockParams withSpin(boolean spin) {
    return new LockParams(spin, spinNoticeNs, wakeCostNs, hz, readersQueueBehindWriters,
        waitLock);
  }

  /** These parameters with readers queueing behind sleepers or not. */
  public LockParams withReadersQueueBehindWriters(boolean q) {
    return new LockParams(spinOnOwner, spinNoticeNs, wakeCostNs, hz, q, waitLock);
  }

  /** These parameters with {@code wait_lock} modelled ({@code w}) or not (null). */
  public LockParams withWaitLock(WaitLock w) {
    return new LockParams(spinOnOwner, spinNoticeNs, wakeCostNs, hz, readersQueueBehindWriters,
        w);
  }
}
