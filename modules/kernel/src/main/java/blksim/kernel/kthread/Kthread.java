package blksim.kernel.kthread;

import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;

/**
 * A kernel thread running the canonical kthread loop of kernel-model.md §2; mirrors
 * {@code kthread()} running a thread function of the form
 *
 * <pre>{@code
 * while (!kthread_should_stop()) {
 *         set_current_state(TASK_INTERRUPTIBLE);
 *         if (!condition) {
 *                 schedule();
 *                 continue;
 *         }
 *         __set_current_state(TASK_RUNNING);
 *         do_one_unit_of_work();
 * }
 * }</pre>
 *
 * <p>Each {@link #step} is one pass: if {@link #kthreadStop} was called the thread exits;
 * otherwise, if {@link #hasWork()} is false, it sleeps; otherwise {@link #doWork} takes one
 * action. Because the condition is tested in the same instant the thread goes to sleep, and a
 * waker changes the condition before it wakes the thread, no wakeup is lost; a
 * {@code wake_up_process()} ({@link CpuComponent#wake}) of the thread while it runs has no effect,
 * since the thread re-tests the condition after its current unit of work anyway.
 *
 * <p>Creation: {@code kthread_run()} is {@link CpuComponent#spawn(Task, long)} with the creation
 * delay of the machine profile ([A] tens to hundreds of us, including the hop through
 * {@code kthreadd}), or {@link CpuComponent#addTask} for threads that exist when the run starts.
 *
 * <p>Simplified: {@code kthread_create()} without a wake, {@code kthread_park()} and
 * {@code kthread_stop()}'s wait for the exit are not modelled; a stop request is made on the
 * thread's own CPU. Owned by the {@link CpuComponent} it runs on.
 */
public abstract class Kthread extends Task {
  private boolean shouldStop;

  /**
   * @param comm the thread's name ({@code kworker/3:1H}, {@code dm-delay-flush-worker})
   * @param pid its thread id
   * @param nice its nice value
   */
  protected Kthread(String comm, int pid, int nice) {
    super(comm, pid, nice);
  }

  /** The wait condition: whether there is work to do now. */
  protected abstract boolean hasWork();

  /**
   * Does one unit of work, with exactly one action of {@code cpu} (usually a system-mode
   * burst). {@link #hasWork()} must stay true while a multi-step unit is in progress.
   */
  protected abstract void doWork(TaskCpu cpu);

  /** Called once when the thread function returns after a stop request; default: nothing. */
  protected void onStop() {}

  @Override
  protected final void step(TaskCpu cpu) {
    if (shouldStop) {
      onStop();
      cpu.exit();
      return;
    }
    if (!hasWork()) {
      cpu.sleep();
      return;
    }
    doWork(cpu);
  }

  /** {@code kthread_should_stop()}. */
  public final boolean kthreadShouldStop() {
    return shouldStop;
  }

  /**
   * {@code kthread_stop()}: asks the thread to stop and wakes it; it exits at its next pass.
   * Call from code running on the thread's CPU ({@code caller}).
   */
  public final void kthreadStop(CpuComponent caller) {
    if (caller != cpu()) {
      throw new IllegalStateException(comm() + " runs on "
          + (cpu() == null ? "no CPU" : cpu().id()) + "; stop it from there, not from "
          + caller.id());
    }
    shouldStop = true;
    caller.wake(this);
  }
}
