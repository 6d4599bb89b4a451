package blksim.kernel.locking;

import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;

/**
 * A sleeping mutex ({@code struct mutex}, kernel/locking/mutex.c, 6.5-6.8): {@code mutex_lock()},
 * {@code mutex_trylock()}, {@code mutex_unlock()} on the base of {@link SleepingLock}: spinning on
 * a running owner ({@code mutex_optimistic_spin()}), FIFO sleepers in D state. Its hand-off
 * differs from the rwsem's: no timeout, the first waiter that is woken and still finds the lock
 * taken sets {@code MUTEX_FLAG_HANDOFF} at once ({@code __mutex_trylock_or_handoff()}), then spins
 * on a running owner, and the next unlock gives it the lock ({@code __mutex_handoff()}).
 */
public final class Mutex extends SleepingLock {

  /** An unlocked mutex named {@code name} ({@code mutex_init()}). */
  public Mutex(String name, LockParams params) {
    super(name, name, params);
  }

  /**
   * An unlocked lock named {@code name} (its {@code wchan}) whose waits are accounted under
   * {@code lockClass}, shared by all locks of one kind (every inode's {@code i_rwsem}).
   */
  public Mutex(String name, String lockClass, LockParams params) {
    super(name, lockClass, params);
  }

  /** {@code mutex_lock()} as a step; see {@link RwSemaphore#downWrite}. */
  public boolean lock(Task t, TaskCpu cpu) {
    return acquire(t, cpu, true);
  }

  /** {@code mutex_trylock()}: takes a free mutex nobody waits for. */
  public boolean tryLock(Task t) {
    if (writer != null || handoff || !waitList.isEmpty()) {
      return false;
    }
    writer = t;
    OwnerWatch.of(t).held.add(this);
    t.lockAccount(lockClass).acquisitions++;
    return true;
  }

  /** {@code mutex_unlock()}: returns the CPU time owed for the task it woke. */
  public long unlock(Task t, CpuComponent on) {
    return releaseWrite(t, on);
  }

  @Override
  boolean handoffDue(Waiter w, long now) {
    return w.slept;
  }
}
