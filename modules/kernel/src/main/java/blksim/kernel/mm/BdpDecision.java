package blksim.kernel.mm;

import blksim.kernel.timer.Jiffies;

/**
 * The outcome of one iteration of {@code balance_dirty_pages()} for one task (what 4.3's
 * {@code trace_balance_dirty_pages} shows, plus the task's new fields).
 *
 * @param freerun dirty pages were at or below the freerun ceiling: no throttling
 * @param sleep the task sleeps {@code io_schedule_timeout(pauseJiffies)}, TASK_KILLABLE
 * @param pauseJiffies the sleep if {@link #sleep}; otherwise the (short or negative) pause that was
 *     carried forward as time debt, or 0 in freerun
 * @param periodJiffies {@code HZ * pages_dirtied / task_ratelimit} ({@code max_pause} when the
 *     rate is 0; 0 in freerun)
 * @param posRatio the position ratio, {@code 1 << RATELIMIT_CALC_SHIFT} = 1.0 (0 in freerun)
 * @param dirtyRatelimit the wb's {@code dirty_ratelimit} used, pages/s (0 in freerun)
 * @param taskRatelimit {@code dirty_ratelimit * pos_ratio >> RATELIMIT_CALC_SHIFT}, pages/s
 * @param maxPauseJiffies {@code wb_max_pause()} (0 in freerun)
 * @param minPauseJiffies {@code wb_min_pause()} (0 in freerun)
 * @param kickBackgroundWriteback the caller must start background writeback on the wb
 *     ({@code wb_start_background_writeback()})
 * @param dirtyExceeded the wb is over its share and the domain over its threshold
 * @param loopAgain the kernel loops for another iteration (the rate was 0 and the wb still holds
 *     more than {@code wb_stat_error()} dirty pages); the caller re-reads the state after the
 *     sleep and calls again with the same {@code pages_dirtied}
 * @param task the task's fields after this iteration
 */
public record BdpDecision(boolean freerun, boolean sleep, long pauseJiffies, long periodJiffies,
    long posRatio, long dirtyRatelimit, long taskRatelimit, long maxPauseJiffies,
    long minPauseJiffies, boolean kickBackgroundWriteback, boolean dirtyExceeded,
    boolean loopAgain, TaskDirtyState task) {

  /**
   * The sleep in virtual ns at {@code hz}: {@code pauseJiffies * TICK_NSEC}, 0 if the task does
   * not sleep. A {@code schedule_timeout()} wakes on the timer wheel's tick, which the caller's
   * timer adds.
   */
  public long pauseNs(int hz) {
    return sleep ? pauseJiffies * Jiffies.tickNs(hz) : 0;
  }
}
