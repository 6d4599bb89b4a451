package blksim.kernel.dm;

import blksim.kernel.kthread.Kthread;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.sched.TaskReport;
import blksim.kernel.timer.HrtimerSleep;

/**
 * The kthread of a dm-delay target in kthread mode, {@code dm-delay-flush-worker}: mirrors
 * {@code flush_worker_fn()} (kernel-model.md §8.4):
 *
 * <pre>{@code
 * while (!kthread_should_stop()) {
 *         flush_delayed_bios(dc, false);
 *         if (list_empty(&dc->delayed_bios)) {
 *                 set_current_state(TASK_INTERRUPTIBLE);
 *                 schedule();
 *         } else {
 *                 fsleep(dc->worker_sleep_us);   // FSLEEP revision only
 *                 cond_resched();
 *         }
 * }
 * }</pre>
 *
 * <p>One pass is a system-mode burst of {@link DmCostParams#delayPollNs} plus the walk, after
 * which the due bios leave the list and are resubmitted one by one in this thread's context
 * (each paying its device's submission cost). In 6.7 this is a busy poll on jiffies for as long
 * as a bio is pending: its CPU time is system time of this thread, never of the submitter.
 * With {@link DmParams#pollBatchNs} above 0, consecutive passes with nothing due are one burst
 * (see {@link DelayTarget#batchPasses}).
 *
 * <p>{@code fsleep(us)} is {@link HrtimerSleep#fsleep}: for the sleeps this loop asks for
 * (125 µs to 1 ms) it is {@code usleep_range(us, 2 * us)}, which wakes at its hard expiry; a
 * wakeup before then (a new bio's {@code wake_up_process()}) does not end it.
 *
 * <p>Nice 0, not bound (kernel-model.md §2); in this model it stays on its target's CPU. Owned
 * by its {@link DelayTarget}'s CPU.
 */
public final class DelayFlushWorker extends Kthread {
  /** Nice value of {@code kthread_run()} threads. */
  public static final int NICE = 0;

  private enum Phase {
    /** Top of the loop: the next pass starts with the walk. */
    TOP,
    /** The walk's burst is over: take the due bios and resubmit them. */
    FLUSHING,
    /** In {@code fsleep()} between passes (the FSLEEP revision). */
    SLEEPING
  }

  private final DelayTarget target;
  private Phase phase = Phase.TOP;
  private FlushDelayedBios run;
  private final HrtimerSleep sleep;
  private long passes;

  DelayFlushWorker(DelayTarget target) {
    super(DelayTarget.FLUSH_WORKER_COMM, DelayTarget.WORKER_PID, NICE);
    this.target = target;
    this.sleep = target.newSleeper();
  }

  /** The loop has work while a bio is delayed or a pass is under way. */
  @Override
  protected boolean hasWork() {
    return phase != Phase.TOP || target.hasDelayed();
  }

  @Override
  protected void doWork(TaskCpu cpu) {
    switch (phase) {
      case TOP: {
        long pass = target.walkNs(target.costs().delayPollNs());
        long n = target.batchPasses(pass);
        passes += n;
        phase = Phase.FLUSHING;
        run = FlushDelayedBios.afterWalk(target);
        cpu.runFor(CpuMode.SYSTEM, n * pass);
        return;
      }
      case FLUSHING:
        flush(cpu);
        return;
      case SLEEPING:
        if (sleep.continueSleep(cpu)) {
          return;
        }
        phase = Phase.TOP;
        cpu.condResched();
        return;
      default:
        throw new IllegalStateException(comm() + ": phase " + phase);
    }
  }

  private void flush(TaskCpu cpu) {
    if (run.step(FlushActions.of(cpu, this))) {
      return;
    }
    run = null;
    if (!target.hasDelayed()) {
      phase = Phase.TOP;
      cpu.sleep();
      return;
    }
    if (target.version().kthreadSleeps()) {
      phase = Phase.SLEEPING;
      sleep.fsleep(cpu, target.workerSleepUs());
      return;
    }
    phase = Phase.TOP;
    cpu.condResched();
  }

  /** Passes of the loop so far (bursts of {@link DelayTarget#batchPasses} count as many). */
  public long passes() {
    return passes;
  }

  @Override
  public TaskReport report(long endNs) {
    return new TaskReport(comm() + "/" + target.device(), DelayWorkerReport.KIND,
        new DelayWorkerReport(comm(), target.device(), cpu().cpu().id(), DelayMode.KTHREAD,
            utimeNs(), stimeNs(), nvcsw(), nivcsw(), passes, target.released()).encode());
  }
}
