package blksim.kernel.timer;

/**
 * When a {@code timer_list} armed with a given {@code expires} actually runs: the expiry rule of
 * the hierarchical timer wheel (kernel/time/timer.c since 4.8, kernel-model.md §3.3).
 *
 * <p>The wheel has {@link #LVL_DEPTH_HZ_ABOVE_100} levels (8 at HZ 100) of {@link #LVL_SIZE}
 * buckets. Level {@code n} has a granularity of {@code 8^n} jiffies ({@link #LVL_CLK_SHIFT}). The
 * level is chosen from {@code delta = expires - jiffies} against {@link #lvlStart}: level 0 below
 * 63, level 1 below 504, level 2 below 4032, and so on ({@code calc_wheel_index()}). A timer never
 * fires early: {@code calc_index()} rounds the expiry up to the next granule boundary strictly
 * after {@code expires}, {@code ((expires >> 3n) + 1) << 3n}, so a level-0 timer whose
 * {@code expires} is E runs at tick E+1.
 *
 * <p>Simplified: delta is taken from the current {@code jiffies} (the kernel uses
 * {@code base->clk}, which equals {@code jiffies} or one more while the CPU is not idle); an
 * already expired timer runs at the next tick; timers beyond {@code WHEEL_TIMEOUT_CUTOFF} are capped
 * at {@code WHEEL_TIMEOUT_MAX} as in the kernel.
 */
public final class TimerWheel {
  /** {@code LVL_CLK_SHIFT}: each level is 8 times coarser than the one below. */
  public static final int LVL_CLK_SHIFT = 3;
  /** {@code LVL_BITS}: 64 buckets per level. */
  public static final int LVL_BITS = 6;
  /** {@code LVL_SIZE}. */
  public static final int LVL_SIZE = 1 << LVL_BITS;
  /** {@code LVL_DEPTH} for HZ above 100. */
  public static final int LVL_DEPTH_HZ_ABOVE_100 = 9;
  /** {@code LVL_DEPTH} for HZ 100 and below. */
  public static final int LVL_DEPTH_HZ_100 = 8;

  private TimerWheel() {}

  /** {@code LVL_DEPTH} for {@code hz}. */
  public static int lvlDepth(int hz) {
    return hz > 100 ? LVL_DEPTH_HZ_ABOVE_100 : LVL_DEPTH_HZ_100;
  }

  /** {@code LVL_SHIFT(n)}: {@code n * LVL_CLK_SHIFT}. */
  public static int lvlShift(int n) {
    return n * LVL_CLK_SHIFT;
  }

  /** {@code LVL_GRAN(n)}: the granularity of level {@code n}, {@code 8^n} jiffies. */
  public static long lvlGran(int n) {
    return 1L << lvlShift(n);
  }

  /**
   * {@code LVL_START(n)}: the smallest delta that goes to level {@code n} ({@code n >= 1}):
   * {@code (LVL_SIZE - 1) << ((n - 1) * LVL_CLK_SHIFT)}, so 63, 504, 4032, 32256...
   */
  public static long lvlStart(int n) {
    return (long) (LVL_SIZE - 1) << ((n - 1) * LVL_CLK_SHIFT);
  }

  /** {@code WHEEL_TIMEOUT_CUTOFF}: deltas at or beyond it are capped. */
  public static long wheelTimeoutCutoff(int hz) {
    return lvlStart(lvlDepth(hz));
  }

  /** {@code WHEEL_TIMEOUT_MAX}: the longest delta the wheel holds. */
  public static long wheelTimeoutMax(int hz) {
    return wheelTimeoutCutoff(hz) - lvlGran(lvlDepth(hz) - 1);
  }

  /** The wheel level a timer with {@code delta = expires - jiffies >= 0} goes to. */
  public static int level(long delta, int hz) {
    int depth = lvlDepth(hz);
    for (int n = 1; n < depth; n++) {
      if (delta < lvlStart(n)) {
        return n - 1;
      }
    }
    return depth - 1;
  }

  /**
   * The tick at which a timer armed at {@code jiffiesNow} with {@code expires} runs
   * ({@code calc_wheel_index()} + {@code calc_index()}'s bucket expiry): {@code expires + 1} at
   * level 0, {@code ((expires >> 3n) + 1) << 3n} at level n, the next tick if already expired.
   */
  public static long expiryTick(long jiffiesNow, long expires, int hz) {
    long delta = expires - jiffiesNow;
    if (delta < 0) {
      return jiffiesNow + 1;
    }
    long e = expires;
    if (delta >= wheelTimeoutCutoff(hz)) {
      e = jiffiesNow + wheelTimeoutMax(hz);
      delta = wheelTimeoutMax(hz);
    }
    int shift = lvlShift(level(delta, hz));
    return ((e >> shift) + 1) << shift;
  }
}
