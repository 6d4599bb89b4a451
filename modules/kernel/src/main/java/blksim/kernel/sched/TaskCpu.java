package blksim.kernel.sched;

import java.util.SplittableRandom;

/**
 * What a task may do when the CPU hands it control (see {@link Task#step}). Each step takes
 * exactly one action: {@link #runFor}, {@link #sleep}, {@link #condResched},
 * {@link #mightResched} or {@link #exit}; the queries may be called freely.
 *
 * <p>Modes and preemption points (kernel-model.md §1.2, see {@link PreemptModel}): a task is in
 * kernel mode after it is switched in and during SYSTEM bursts, in user mode during USER bursts.
 * {@code runFor(USER, ns)} is therefore also the return to user space
 * ({@code exit_to_user_mode_loop()}): if need-resched is set, the task is preempted there, in
 * every model, and the USER burst runs when it is next switched in. A USER burst is preemptible
 * throughout; a SYSTEM burst only under {@link PreemptModel#FULL}. A preempted burst is cut at
 * the preemption time, the time run is charged, and the remainder resumes later without a new
 * step.
 */
public interface TaskCpu {

  /** Current virtual time, ns. */
  long now();

  /** The CPU the task runs on. */
  CpuComponent cpu();

  /**
   * Runs for {@code ns} of CPU time in {@code mode}; {@link Task#step} is called again after.
   * Under FULL preemption, or for a USER burst, a pending need-resched first preempts the task.
   */
  void runFor(CpuMode mode, long ns);

  /**
   * Blocks the task (a voluntary context switch). It runs again after someone wakes it; if that
   * already happened during this step, it continues at once. {@link Task#schedSubmitWork} runs
   * first.
   */
  void sleep();

  /**
   * Spins on a lock's owner (optimistic spinning, kernel/locking): system time, the CPU held,
   * until the lock ends the spin ({@link CpuComponent#stopSpin}) or need-resched is set; then
   * {@link Task#step} is called again and asks the lock how it ended. One event at its start and
   * one at its end, whatever its length. With need-resched already set it ends at once.
   * (Default: unsupported, for test CPUs that do not schedule.)
   */
  default void spin() {
    throw new UnsupportedOperationException("this CPU cannot spin");
  }

  /** Ends the task. */
  void exit();

  /**
   * {@code cond_resched()}: if need-resched is set, the task gives up the CPU while staying
   * runnable (an involuntary context switch if another task is picked); otherwise it goes on at
   * once. Either way {@link Task#step} is called again when it continues. Does not call
   * {@link Task#schedSubmitWork}: a plug is not flushed here (kernel-model.md §1.4); a caller
   * that wants to flush first tests {@link #needResched()}.
   */
  void condResched();

  /**
   * {@code might_resched()} (inside {@code might_sleep()}): a preemption point only under
   * {@link PreemptModel#VOLUNTARY} (and FULL, where a set need-resched has already acted);
   * otherwise like {@link #condResched} without need-resched. {@link Task#step} is called again.
   */
  void mightResched();

  /** {@code need_resched()}: whether the CPU wants the current task to give way. */
  boolean needResched();

  /** The CPU component's random stream. */
  SplittableRandom random();
}
