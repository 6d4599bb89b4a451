package blksim.kernel.locking;

import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;

/**
 * A read-write semaphore ({@code struct rw_semaphore}, kernel/locking/rwsem.c, 6.5-6.8):
 * {@code down_read()}, {@code down_write()}, their trylocks, {@code up_read()},
 * {@code up_write()}. Writers spin on a running owner, sleepers queue FIFO in D state, readers
 * queue behind a sleeping writer, and the first waiter claims the lock after
 * {@code RWSEM_WAIT_TIMEOUT} (the anti-starvation hand-off). Semantics and simplifications: see
 * {@link SleepingLock}. Readers do not spin (reader optimistic spinning was removed in 5.11).
 */
public final class RwSemaphore extends SleepingLock {

  /** An unlocked rwsem named {@code name} ({@code init_rwsem()}). */
  public RwSemaphore(String name, LockParams params) {
    super(name, name, params);
  }

  /**
   * An unlocked lock named {@code name} (its {@code wchan}) whose waits are accounted under
   * {@code lockClass}, shared by all locks of one kind (every inode's {@code i_rwsem}).
   */
  public RwSemaphore(String name, String lockClass, LockParams params) {
    super(name, lockClass, params);
  }

  /**
   * {@code down_write()} as a step: true when {@code t} holds the lock (no action taken); false
   * when it took an action (a spin or a sleep) and must call again at its next step.
   */
  public boolean downWrite(Task t, TaskCpu cpu) {
    return acquire(t, cpu, true);
  }

  /** {@code down_read()} as a step, as {@link #downWrite}. */
  public boolean downRead(Task t, TaskCpu cpu) {
    return acquire(t, cpu, false);
  }

  /** {@code down_write_trylock()}: takes a free lock nobody waits for, never waits. */
  public boolean downWriteTrylock(Task t) {
    if (writer != null || readers > 0 || handoff || !waitList.isEmpty()) {
      return false;
    }
    writer = t;
    OwnerWatch.of(t).held.add(this);
    t.lockAccount(lockClass).acquisitions++;
    return true;
  }

  /** {@code down_read_trylock()}: joins when no writer holds or waits, never waits. */
  public boolean downReadTrylock(Task t) {
    if (writer != null || handoff || !waitList.isEmpty()) {
      return false;
    }
    readers++;
    t.lockAccount(lockClass).acquisitions++;
    return true;
  }

  /**
   * {@code up_write()} by {@code t} on CPU {@code on} (the one handling the current message):
   * returns the CPU time {@code t} owes for the tasks it woke, to spend before its next action.
   */
  public long upWrite(Task t, CpuComponent on) {
    return releaseWrite(t, on);
  }

  /** {@code up_read()}, as {@link #upWrite}. */
  public long upRead(Task t, CpuComponent on) {
    return releaseRead(t, on);
  }

  /** Readers holding it. */
  public int readers() {
    return readers;
  }

  @Override
  boolean handoffDue(Waiter w, long now) {
    return timedOut(w, now);
  }
}
