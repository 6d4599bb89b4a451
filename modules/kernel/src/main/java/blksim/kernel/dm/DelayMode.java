package blksim.kernel.dm;

/**
 * How a dm-delay target releases its delayed bios (kernel-model.md §8.4): {@code delay_is_fast()}
 * is true in {@link #KTHREAD} mode.
 */
public enum DelayMode {
  /**
   * Timer + workqueue: one {@code timer_list} per target; its softirq queues the target's work on
   * the per-CPU {@code kdelayd} workqueue, and the work resubmits the due bios in a kworker.
   */
  TIMER,
  /**
   * A per-target kthread, {@code dm-delay-flush-worker}, woken on map, that polls the list
   * until it is empty.
   */
  KTHREAD
}
