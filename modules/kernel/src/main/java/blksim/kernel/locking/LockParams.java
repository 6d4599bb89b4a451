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
 */
public record LockParams(boolean spinOnOwner, long spinNoticeNs, long wakeCostNs, int hz,
    boolean readersQueueBehindWriters) {

  /** The defaults: spinning on, 100 ns notice, 1 µs per wakeup, HZ 250, readers queue. */
  public static final LockParams DEFAULT = new LockParams(true, 100, 1_000, 250, true);

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
    return new LockParams(spinOnOwner, spinNoticeNs, wakeCostNs, hz, readersQueueBehindWriters);
  }

  /** These parameters with spinning on or off. */
  public LockParams withSpin(boolean spin) {
    return new LockParams(spin, spinNoticeNs, wakeCostNs, hz, readersQueueBehindWriters);
  }

  /** These parameters with readers queueing behind sleepers or not. */
  public LockParams withReadersQueueBehindWriters(boolean q) {
    return new LockParams(spinOnOwner, spinNoticeNs, wakeCostNs, hz, q);
  }
}
