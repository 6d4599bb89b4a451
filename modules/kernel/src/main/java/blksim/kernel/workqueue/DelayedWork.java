package blksim.kernel.workqueue;

import blksim.kernel.timer.TimerList;

/**
 * A {@code struct delayed_work}: a work item plus a {@code timer_list} that queues it when it
 * expires (kernel-model.md §3.4). The timer runs on the item's home CPU
 * ({@code delayed_work_timer_fn()} → {@code __queue_work()} from that CPU). Owned by the home
 * CPU, like its item.
 */
public final class DelayedWork {
  private final WorkItem work;
  TimerList timer;
  Workqueue timerWq;

  /** A delayed work around {@code work}. */
  public DelayedWork(WorkItem work) {
    if (work.isOneShot()) {
      throw new IllegalArgumentException("a delayed work cannot wrap one-shot " + work);
    }
    this.work = work;
  }

  /** The work item. */
  public WorkItem work() {
    return work;
  }

  /** Whether its timer is pending ({@code timer_pending(&dwork->timer)}). */
  public boolean timerPending() {
    return timer != null && timer.timerPending();
  }
}
