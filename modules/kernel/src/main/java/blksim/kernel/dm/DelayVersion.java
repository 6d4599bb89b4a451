package blksim.kernel.dm;

/**
 * Which dm-delay the simulated kernel has (kernel-model.md §8.4, §12.3): the rule that picks
 * {@link DelayMode timer or kthread mode} from a table line's delays, and the kthread's loop.
 *
 * <p>The rule of 6.7 and later, from {@code delay_ctr()}: kthread mode when the largest
 * configured delay is below {@link #KTHREAD_THRESHOLD_MS} ms, timer mode otherwise.
 */
public enum DelayVersion {
  /** Up to 6.6: timer + workqueue for every delay (the "Previous" column of §12.3). */
  PRE_6_7,
  /**
   * The v1 patch (dm-devel, 19 Oct 2023): the busy-polling kthread for every delay, however
   * large.
   */
  V1,
  /**
   * 6.7 as merged (v2 with Mike Snitzer's fixes): the 50 ms rule; the kthread busy-polls with
   * {@code cond_resched()} between passes while any bio is pending (the "Kthread" column of
   * §12.3).
   */
  V6_7,
  /**
   * A later revision [S, version not verified]: the 50 ms rule; between passes the kthread
   * sleeps {@code fsleep(worker_sleep_us)} (see {@link #workerSleepUs}).
   */
  FSLEEP;

  /**
   * {@code delay_ctr()}: {@code if (max_delay < 50)} use the kthread. Source:
   * drivers/md/dm-delay.c since 6.7.
   */
  public static final long KTHREAD_THRESHOLD_MS = 50;
  /**
   * {@code SLEEP_SHIFT} of the fsleep revision: the kthread sleeps 1/8 of the smallest non-zero
   * delay between passes.
   */
  public static final int SLEEP_SHIFT = 3;
  /**
   * The fsleep revision's longest sleep between passes, 1000 µs, used once the smallest non-zero
   * delay reaches {@code 1 << SLEEP_SHIFT} = 8 ms.
   */
  public static final long MAX_WORKER_SLEEP_US = 1_000;
  /** {@code USEC_PER_MSEC}. */
  public static final long USEC_PER_MSEC = 1_000;

  /** The mode a target with delays {@code maxDelayMs} (the largest of its classes) runs in. */
  public DelayMode mode(long maxDelayMs) {
    switch (this) {
      case PRE_6_7:
        return DelayMode.TIMER;
      case V1:
        return DelayMode.KTHREAD;
      default:
        return maxDelayMs < KTHREAD_THRESHOLD_MS ? DelayMode.KTHREAD : DelayMode.TIMER;
    }
  }

  /** Whether the kthread sleeps {@code fsleep(worker_sleep_us)} between passes. */
  public boolean kthreadSleeps() {
    return this == FSLEEP;
  }

  /**
   * {@code dc->worker_sleep_us} of the fsleep revision: {@value #MAX_WORKER_SLEEP_US} µs if
   * {@code min_delay >> SLEEP_SHIFT} is non-zero (the smallest non-zero delay is at least 8 ms),
   * else {@code (min_delay * 1000) >> SLEEP_SHIFT}.
   *
   * @param minNonZeroDelayMs the smallest non-zero delay of the target's classes, ms (0 if all
   *     are 0, when the kthread never has work)
   */
  public static long workerSleepUs(long minNonZeroDelayMs) {
    if ((minNonZeroDelayMs >> SLEEP_SHIFT) != 0) {
      return MAX_WORKER_SLEEP_US;
    }
    return (minNonZeroDelayMs * USEC_PER_MSEC) >> SLEEP_SHIFT;
  }

  /** The version named {@code s} ({@code pre-6.7}, {@code v1}, {@code v6.7}, {@code fsleep}). */
  public static DelayVersion parse(String s) {
    switch (s) {
      case "pre-6.7":
        return PRE_6_7;
      case "v1":
        return V1;
      case "v6.7":
        return V6_7;
      case "fsleep":
        return FSLEEP;
      default:
        throw new IllegalArgumentException("dm-delay version must be one of pre-6.7, v1, v6.7,"
            + " fsleep, was '" + s + "'");
    }
  }
}
