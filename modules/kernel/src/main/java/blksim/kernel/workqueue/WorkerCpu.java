package blksim.kernel.workqueue;

import blksim.kernel.sched.CpuComponent;

/**
 * What a work item's callback may do on the kworker running it: the kernel-mode actions of a
 * {@link blksim.kernel.sched.TaskCpu}, plus queueing work from this CPU. Each
 * {@link WorkRun#step} calls exactly one action ({@link #runFor}, {@link #sleep},
 * {@link #sleepFor}, {@link #condResched}) or {@link #finish}.
 *
 * <p>Blocking ({@link #sleep}, {@link #sleepFor}) goes through {@code schedule()}, so a per-CPU
 * pool's concurrency management sees it ({@code wq_worker_sleeping()}) and may start another
 * worker; a CPU burst does not.
 */
public interface WorkerCpu {

  /** Current virtual time, ns. */
  long now();

  /** The CPU the worker runs on. */
  CpuComponent cpu();

  /** The kworker (or rescuer) running the item. */
  Worker worker();

  /** The item being run. */
  WorkRef work();

  /** The workqueue it was queued on. */
  Workqueue workqueue();

  /** Runs for {@code ns} of system-mode CPU time. */
  void runFor(long ns);

  /** Blocks until {@link #waker()} is run (an I/O completion, a lock release). */
  void sleep();

  /** Blocks for {@code ns} (a wait whose end is known), woken by a timer on this CPU. */
  void sleepFor(long ns);

  /** {@code cond_resched()}. */
  void condResched();

  /** {@code need_resched()}: whether the CPU wants the worker to give way. Not an action. */
  boolean needResched();

  /** The callback returns; the worker goes on with its next item. Not an action. */
  void finish();

  /** Wakes this worker from {@link #sleep}; run it on the worker's CPU. */
  Runnable waker();

  /** {@code queue_work(wq, item)} from this CPU; see {@link WorkqueueSystem#queueWork}. */
  boolean queueWork(Workqueue wq, WorkItem item);

  /**
   * {@code queue_work(wq, work)} of the item being run, from its own callback: it runs again after
   * this run (non-reentrancy, kernel-model.md §4.3 step 3).
   */
  void requeue();

  /**
   * A sleeping lock's acquisition by the kworker ({@code down_write()}, {@code down_read()},
   * {@code mutex_lock()} of {@code blksim.kernel.locking}, passed as {@code lock::downWrite}):
   * true when the worker holds it (no action taken: the step goes on); false when the lock took
   * the step's action (the worker spins or sleeps in D state) and the callback must call again
   * at its next step. The release's wakeup cost is the callback's to spend ({@link #runFor}).
   */
  default boolean acquire(LockStep lock) {
    throw new UnsupportedOperationException("this WorkerCpu cannot take sleeping locks");
  }

  /** One acquisition step of a sleeping lock by task {@code t} on {@code cpu}. */
  @FunctionalInterface
  interface LockStep {
    /** True when {@code t} holds the lock; false when the lock took an action. */
    boolean step(blksim.kernel.sched.Task t, blksim.kernel.sched.TaskCpu cpu);
  }
}
