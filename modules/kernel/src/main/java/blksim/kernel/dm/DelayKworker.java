package blksim.kernel.dm;

import blksim.kernel.kthread.Kthread;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.sched.TaskReport;

/**
 * The kdelayd worker of a dm-delay target in timer mode, on this CPU: a kworker of the per-CPU
 * normal pool (nice 0) running the target's one work item, {@code flush_expired_bios()} →
 * {@code flush_delayed_bios(dc, false)} (kernel-model.md §4.3, §8.4).
 *
 * <p>{@link #queueWork} is {@code queue_work(dc->kdelayd_wq, &dc->flush_expired_bios)} from the
 * timer softirq: it marks the item pending (a no-op if it already is) and wakes the worker. A run
 * is a system-mode burst of {@link DmCostParams#delayWorkNs} plus the walk, then the due bios'
 * resubmission in this worker's context, then {@code cond_resched()} as
 * {@code process_one_work()} ends; an item queued again while it ran runs again.
 *
 * <p>The {@link Kdelayd#STANDALONE} binding, for models without a workqueue system: one worker
 * per target and CPU, named like a per-CPU kworker running the item
 * ({@code kworker/C:0-kdelayd}, as {@code wq_worker_comm()} shows it), instead of the CPU's
 * shared pool with concurrency management and a rescuer ({@link Kdelayd#on}). Owned by its
 * {@link DelayTarget}'s CPU.
 */
public final class DelayKworker extends Kthread {
  /** Nice value of a per-CPU normal-pool kworker. */
  public static final int NICE = 0;

  private final DelayTarget target;
  private boolean workPending;
  /** The run of the work item in progress, {@code null} between runs. */
  private FlushDelayedBios run;

  DelayKworker(DelayTarget target) {
    super("kworker/" + target.cpu().cpu().id() + ":0-" + Kdelayd.KDELAYD, DelayTarget.WORKER_PID,
        NICE);
    this.target = target;
  }

  /** {@code queue_work()}: marks the work item pending and wakes the worker. */
  void queueWork() {
    workPending = true;
    target.cpu().wake(this);
  }

  @Override
  protected boolean hasWork() {
    return workPending || run != null;
  }

  @Override
  protected void doWork(TaskCpu cpu) {
    if (run == null) {
      // process_one_work(): PENDING is cleared as the callback starts.
      workPending = false;
      run = target.beginWork();
    }
    if (run.step(FlushActions.of(cpu, this))) {
      return;
    }
    run = null;
    cpu.condResched();
  }

  @Override
  public TaskReport report(long endNs) {
    return new TaskReport(comm() + "/" + target.device(), DelayWorkerReport.KIND,
        new DelayWorkerReport(comm(), target.device(), cpu().cpu().id(), DelayMode.TIMER,
            utimeNs(), stimeNs(), nvcsw(), nivcsw(), target.workRuns(), target.released())
            .encode());
  }
}
