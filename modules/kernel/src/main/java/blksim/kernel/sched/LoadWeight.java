package blksim.kernel.sched;

/**
 * Load weights of the fair scheduler: mirrors {@code sched_prio_to_weight[]} (kernel/sched/core.c)
 * and {@code calc_delta_fair()} (kernel/sched/fair.c).
 *
 * <p>Simplified: the kernel computes {@code delta * NICE_0_LOAD / weight} with the fixed-point
 * inverse table {@code sched_prio_to_wmult[]} ({@code __calc_delta()}); this model divides exactly
 * (floor), which differs from the kernel by at most a nanosecond of virtual time per update. The
 * 64-bit kernel's extra {@code SCHED_FIXEDPOINT_SHIFT} load resolution cancels out of every ratio
 * used here and is left out.
 */
public final class LoadWeight {
  /** {@code NICE_0_LOAD} (scale_load_down): the weight of a nice-0 task. */
  public static final long NICE_0_LOAD = 1024;
  /** {@code MIN_NICE}. */
  public static final int MIN_NICE = -20;
  /** {@code MAX_NICE}. */
  public static final int MAX_NICE = 19;

  /**
   * {@code sched_prio_to_weight[40]}, index {@code nice - MIN_NICE}: each nice step is about a
   * factor 1.25, so that one nice level is about 10% of CPU between two competing tasks.
   */
  private static final int[] SCHED_PRIO_TO_WEIGHT = {
    /* -20 */ 88761, 71755, 56483, 46273, 36291,
    /* -15 */ 29154, 23254, 18705, 14949, 11916,
    /* -10 */ 9548, 7620, 6100, 4904, 3906,
    /*  -5 */ 3121, 2501, 1991, 1586, 1277,
    /*   0 */ 1024, 820, 655, 526, 423,
    /*   5 */ 335, 272, 215, 172, 137,
    /*  10 */ 110, 87, 70, 56, 45,
    /*  15 */ 36, 29, 23, 18, 15,
  };

  private LoadWeight() {}

  /** The weight of a task of nice value {@code nice} ({@code set_load_weight()}). */
  public static long ofNice(int nice) {
    if (nice < MIN_NICE || nice > MAX_NICE) {
      throw new IllegalArgumentException("nice must be in [" + MIN_NICE + ", " + MAX_NICE
          + "], was " + nice);
    }
    return SCHED_PRIO_TO_WEIGHT[nice - MIN_NICE];
  }

  /**
   * {@code calc_delta_fair()}: {@code deltaNs} of real time in the virtual time of an entity of
   * weight {@code weight}, {@code delta * NICE_0_LOAD / weight}; the identity at nice 0.
   */
  public static long calcDeltaFair(long deltaNs, long weight) {
    if (weight == NICE_0_LOAD) {
      return deltaNs;
    }
    return deltaNs * NICE_0_LOAD / weight;
  }

  /** {@code __calc_delta()}: {@code deltaNs * weight / loadWeight}. */
  public static long calcDelta(long deltaNs, long weight, long loadWeight) {
    return deltaNs * weight / loadWeight;
  }
}
