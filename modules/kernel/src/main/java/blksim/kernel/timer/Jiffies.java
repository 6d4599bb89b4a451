package blksim.kernel.timer;

/**
 * The tick counter {@code jiffies} and the kernel's conversions to it (kernel-model.md §3.1, §3.2;
 * include/linux/jiffies.h, kernel/time/time.c).
 *
 * <p>Tick {@code j} happens at virtual time {@code tickOffsetNs + j * tickNs()}; between two ticks
 * {@code jiffies} keeps the value of the last one. The kernel starts {@code jiffies} at
 * {@code INITIAL_JIFFIES} (five minutes before the 32-bit wrap) to catch wrap bugs; the model counts
 * from 0 at the first tick, which changes no interval. Before the first tick (a virtual time below
 * the offset) {@code jiffies} is -1.
 *
 * <p>Conversions round <b>up</b> as the kernel's do ({@code msecs_to_jiffies()},
 * {@code usecs_to_jiffies()}): a delay is never shortened. The kernel computes them with
 * per-HZ constants ({@code MSEC_TO_HZ_MUL32} and friends) whose result is the exact ceiling for
 * every HZ it supports; the model computes the ceiling directly.
 *
 * @param hz {@code CONFIG_HZ}: one of {@link #CONFIG_HZ_CHOICES}
 * @param tickOffsetNs the phase of the tick grid: time of tick 0, in {@code [0, tickNs())}
 */
public record Jiffies(int hz, long tickOffsetNs) {

  /** The values kernel/Kconfig.hz offers for {@code CONFIG_HZ}. */
  public static final int[] CONFIG_HZ_CHOICES = {100, 250, 300, 1000};
  /** {@code MSEC_PER_SEC}. */
  public static final long MSEC_PER_SEC = 1_000L;
  /** {@code USEC_PER_SEC}. */
  public static final long USEC_PER_SEC = 1_000_000L;
  /** {@code NSEC_PER_SEC}. */
  public static final long NSEC_PER_SEC = 1_000_000_000L;
  /** {@code NSEC_PER_USEC}. */
  public static final long NSEC_PER_USEC = 1_000L;
  /** {@code NSEC_PER_MSEC}. */
  public static final long NSEC_PER_MSEC = 1_000_000L;

  public Jiffies {
    boolean known = false;
    for (int h : CONFIG_HZ_CHOICES) {
      known |= h == hz;
    }
    if (!known) {
      throw new IllegalArgumentException("hz must be one of 100, 250, 300, 1000 (CONFIG_HZ), was "
          + hz);
    }
    long tick = tickNs(hz);
    if (tickOffsetNs < 0 || tickOffsetNs >= tick) {
      throw new IllegalArgumentException("tickOffsetNs must be in [0, " + tick + "), was "
          + tickOffsetNs);
    }
  }

  /** Jiffies of {@code CONFIG_HZ = hz} with tick 0 at virtual time 0. */
  public static Jiffies of(int hz) {
    return new Jiffies(hz, 0);
  }

  /** {@code TICK_NSEC}: {@code (NSEC_PER_SEC + HZ/2) / HZ}, the tick period of {@code hz}. */
  public static long tickNs(int hz) {
    return (NSEC_PER_SEC + hz / 2) / hz;
  }

  /** {@code TICK_NSEC} of this HZ. */
  public long tickNs() {
    return tickNs(hz);
  }

  /** {@code TICK_USEC}: the tick period in microseconds, {@code (USEC_PER_SEC + HZ/2) / HZ}. */
  public long tickUs() {
    return (USEC_PER_SEC + hz / 2) / hz;
  }

  /** The value of {@code jiffies} at virtual time {@code nowNs}. */
  public long at(long nowNs) {
    return Math.floorDiv(nowNs - tickOffsetNs, tickNs());
  }

  /** The virtual time of tick {@code j}, ns. */
  public long tickTimeNs(long j) {
    return tickOffsetNs + j * tickNs();
  }

  /** {@code msecs_to_jiffies(ms)}: {@code ceil(ms * HZ / 1000)}; 1 ms is 1 jiffy at HZ 250. */
  public long msecsToJiffies(long ms) {
    requireNonNegative("ms", ms);
    return ceilDiv(ms * hz, MSEC_PER_SEC);
  }

  /** {@code usecs_to_jiffies(us)}: {@code ceil(us * HZ / 1000000)}. */
  public long usecsToJiffies(long us) {
    requireNonNegative("us", us);
    return ceilDiv(us * hz, USEC_PER_SEC);
  }

  /** {@code nsecs_to_jiffies64()} rounded up: the jiffies covering {@code ns}. */
  public long nsecsToJiffies(long ns) {
    requireNonNegative("ns", ns);
    return ceilDiv(ns, tickNs());
  }

  /** {@code jiffies_to_msecs(j)}: {@code j * 1000 / HZ}, rounded down. */
  public long jiffiesToMsecs(long j) {
    return j * MSEC_PER_SEC / hz;
  }

  /** {@code jiffies_to_usecs(j)}: {@code j * 1000000 / HZ}, rounded down. */
  public long jiffiesToUsecs(long j) {
    return j * USEC_PER_SEC / hz;
  }

  /** The length of {@code j} jiffies in virtual ns ({@code j * TICK_NSEC}). */
  public long jiffiesToNs(long j) {
    return j * tickNs();
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  private static void requireNonNegative(String name, long v) {
    if (v < 0) {
      throw new IllegalArgumentException(name + " must be >= 0, was " + v);
    }
  }
}
