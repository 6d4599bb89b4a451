package blksim.kernel.timer;

/**
 * Timer parameters of the simulated machine (kernel-model.md §3.6).
 *
 * @param hz {@code CONFIG_HZ}; must equal the scheduler's HZ ({@code SchedParams.hz()})
 * @param tickOffsetNs the phase of the first tick, in {@code [0, TICK_NSEC)}
 * @param timerSoftirqLatencyNs [A] from the tick that expires a {@code timer_list} to its
 *     callback: the tick interrupt and the {@code TIMER_SOFTIRQ} entry, charged as interrupt time
 *     to the CPU the timer runs on (a few us)
 * @param hrtimerLatencyNs [A] from an hrtimer's expiry to the woken task being runnable: the
 *     {@code hrtimer_interrupt()} cost, charged as interrupt time (about a microsecond)
 */
public record TimerParams(int hz, long tickOffsetNs, long timerSoftirqLatencyNs,
    long hrtimerLatencyNs) {

  /** [A] Default {@link #timerSoftirqLatencyNs}: "a few us" (kernel-model.md §3.6). */
  public static final long DEFAULT_TIMER_SOFTIRQ_LATENCY_NS = 2_000L;
  /** [A] Default {@link #hrtimerLatencyNs}: one hardirq entry and exit on a modern x86 core. */
  public static final long DEFAULT_HRTIMER_LATENCY_NS = 1_000L;

  public TimerParams {
    new Jiffies(hz, tickOffsetNs);
    if (timerSoftirqLatencyNs < 0) {
      throw new IllegalArgumentException("timerSoftirqLatencyNs must be >= 0, was "
          + timerSoftirqLatencyNs);
    }
    if (hrtimerLatencyNs < 0) {
      throw new IllegalArgumentException("hrtimerLatencyNs must be >= 0, was " + hrtimerLatencyNs);
    }
  }

  /** HZ {@code hz}, tick 0 at time 0, default latencies. */
  public static TimerParams defaults(int hz) {
    return new TimerParams(hz, 0, DEFAULT_TIMER_SOFTIRQ_LATENCY_NS, DEFAULT_HRTIMER_LATENCY_NS);
  }

  /** The jiffies clock these parameters define. */
  public Jiffies jiffies() {
    return new Jiffies(hz, tickOffsetNs);
  }
}
