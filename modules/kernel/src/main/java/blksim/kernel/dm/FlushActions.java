package blksim.kernel.dm;

import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.workqueue.WorkerCpu;

/**
 * The actions {@link FlushDelayedBios} needs from the task that runs it: a system-mode burst, a
 * sleep, and the wakeup that ends the sleep. One adapter per kind of task: a
 * {@link blksim.kernel.sched.TaskCpu} for the dm-delay kthread and the stand-in kdelayd worker, a
 * {@link WorkerCpu} for the work item run by a kworker of the workqueue model.
 */
interface FlushActions {

  /** Runs for {@code ns} of system-mode CPU time (one action). */
  void runFor(long ns);

  /** Blocks until {@link #waker()} runs (one action). */
  void sleep();

  /** What ends a {@link #sleep}, to run on the task's CPU (a freed tag). */
  Runnable waker();

  /** The actions of task {@code self} through {@code cpu}. */
  static FlushActions of(TaskCpu cpu, Task self) {
    CpuComponent c = cpu.cpu();
    return new FlushActions() {
      @Override
      public void runFor(long ns) {
        cpu.runFor(CpuMode.SYSTEM, ns);
      }

      @Override
      public void sleep() {
        cpu.sleep();
      }

      @Override
      public Runnable waker() {
        return () -> c.wake(self);
      }
    };
  }

  /** The actions of the kworker running a work item through {@code w}. */
  static FlushActions of(WorkerCpu w) {
    return new FlushActions() {
      @Override
      public void runFor(long ns) {
        w.runFor(ns);
      }

      @Override
      public void sleep() {
        w.sleep();
      }

      @Override
      public Runnable waker() {
        return w.waker();
      }
    };
  }
}
