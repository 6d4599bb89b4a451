package blksim.kernel.sched;

/**
 * Costs, latencies and tunables of the scheduler (kernel-model.md §1.2, §1.5, §1.7, §3.1).
 *
 * <p>The three fair-scheduler tunables are the values in force on the simulated machine, that is
 * after the kernel scaled its defaults by the CPU count ({@code update_sysctl()} with
 * {@code SCHED_TUNABLESCALING_LOG}); {@link #forCpus} computes them from the kernel's unscaled
 * defaults ({@code normalized_sysctl_sched_*}, kernel/sched/fair.c, up to 6.5).
 *
 * @param ctxSwitchNs CPU time of one context switch, charged as system time to the task switched
 *     in (direct cost plus cache refill)
 * @param idleExitNs time for an idle CPU to start handling an interrupt (idle-state exit)
 * @param wakeupLatencyNs time from a wakeup on one CPU to the wakeup arriving at another CPU (IPI);
 *     also the run's lookahead
 * @param preempt the preemption model ({@code kernel.preempt})
 * @param hz {@code CONFIG_HZ}: the scheduler tick runs every {@link #tickNs()}
 * @param schedLatencyNs {@code sysctl_sched_latency}: the period in which every runnable task
 *     should run once, while there are at most {@link #schedNrLatency()} of them
 * @param minGranularityNs {@code sysctl_sched_min_granularity} (renamed
 *     {@code sysctl_sched_base_slice} by EEVDF in 6.6): the shortest slice
 * @param wakeupGranularityNs {@code sysctl_sched_wakeup_granularity}: how much less virtual
 *     runtime (converted by the wakee's weight) a woken task needs to preempt the current one
 *     (CFS only)
 * @param scheduler the fair scheduler's algorithm, CFS (to 6.5) or EEVDF (6.6 on)
 * @param placement wakeup placement rule and the costs of running apart (issue 12 items 3, 4)
 */
public record SchedParams(long ctxSwitchNs, long idleExitNs, long wakeupLatencyNs,
    PreemptModel preempt, int hz, long schedLatencyNs, long minGranularityNs,
    long wakeupGranularityNs, SchedClass scheduler, PlacementParams placement) {

  /** These tunables with {@link PlacementParams#NONE}. */
  public SchedParams(long ctxSwitchNs, long idleExitNs, long wakeupLatencyNs,
      PreemptModel preempt, int hz, long schedLatencyNs, long minGranularityNs,
      long wakeupGranularityNs, SchedClass scheduler) {
    this(ctxSwitchNs, idleExitNs, wakeupLatencyNs, preempt, hz, schedLatencyNs,
        minGranularityNs, wakeupGranularityNs, scheduler, PlacementParams.NONE);
  }

  /** The fair scheduler's algorithm: CFS up to Linux 6.5, EEVDF from 6.6. */
  public enum SchedClass {
    /** The Completely Fair Scheduler ({@link CfsPolicy}). */
    CFS,
    /** Earliest Eligible Virtual Deadline First ({@link EevdfPolicy}). */
    EEVDF
  }

  /** These tunables with CFS. */
  public SchedParams(long ctxSwitchNs, long idleExitNs, long wakeupLatencyNs,
      PreemptModel preempt, int hz, long schedLatencyNs, long minGranularityNs,
      long wakeupGranularityNs) {
    this(ctxSwitchNs, idleExitNs, wakeupLatencyNs, preempt, hz, schedLatencyNs,
        minGranularityNs, wakeupGranularityNs, SchedClass.CFS);
  }

  /** {@code normalized_sysctl_sched_latency}: 6 ms before scaling (kernel/sched/fair.c). */
  public static final long NORMALIZED_SCHED_LATENCY_NS = 6_000_000L;
  /** {@code normalized_sysctl_sched_min_granularity}: 0.75 ms before scaling. */
  public static final long NORMALIZED_SCHED_MIN_GRANULARITY_NS = 750_000L;
  /** {@code normalized_sysctl_sched_wakeup_granularity}: 1 ms before scaling. */
  public static final long NORMALIZED_SCHED_WAKEUP_GRANULARITY_NS = 1_000_000L;
  /**
   * The CPU count at which tunable scaling saturates: {@code get_update_sysctl_factor()} uses
   * {@code min(num_online_cpus(), 8)}.
   */
  public static final int TUNABLE_SCALING_MAX_CPUS = 8;
  /** {@code NSEC_PER_SEC}. */
  public static final long NSEC_PER_SEC = 1_000_000_000L;
  /** Preemption model of {@link #SchedParams(long, long, long)}: the scenario default. */
  public static final PreemptModel DEFAULT_PREEMPT = PreemptModel.VOLUNTARY;
  /** HZ of {@link #SchedParams(long, long, long)}: the common distribution value. */
  public static final int DEFAULT_HZ = 250;
  /** Largest HZ accepted (the kernel offers 100 to 1000; some architectures 1024). */
  public static final int MAX_HZ = 10_000;

  public SchedParams {
    if (ctxSwitchNs < 0) {
      throw new IllegalArgumentException("ctxSwitchNs must be >= 0, was " + ctxSwitchNs);
    }
    if (idleExitNs < 0) {
      throw new IllegalArgumentException("idleExitNs must be >= 0, was " + idleExitNs);
    }
    if (wakeupLatencyNs <= 0) {
      throw new IllegalArgumentException("wakeupLatencyNs must be > 0, was " + wakeupLatencyNs);
    }
    if (preempt == null) {
      throw new IllegalArgumentException("preempt must be set");
    }
    if (hz < 1 || hz > MAX_HZ) {
      throw new IllegalArgumentException("hz must be in [1, " + MAX_HZ + "], was " + hz);
    }
    if (minGranularityNs <= 0) {
      throw new IllegalArgumentException("minGranularityNs must be > 0, was " + minGranularityNs);
    }
    if (schedLatencyNs < minGranularityNs) {
      throw new IllegalArgumentException("schedLatencyNs must be >= minGranularityNs ("
          + minGranularityNs + "), was " + schedLatencyNs);
    }
    if (wakeupGranularityNs < 0) {
      throw new IllegalArgumentException("wakeupGranularityNs must be >= 0, was "
          + wakeupGranularityNs);
    }
    if (scheduler == null) {
      throw new IllegalArgumentException("scheduler must be set");
    }
    if (placement == null) {
      throw new IllegalArgumentException("placement must be set");
    }
  }

  /** The same parameters with wakeup placement and running-apart costs {@code p}. */
  public SchedParams withPlacement(PlacementParams p) {
    return new SchedParams(ctxSwitchNs, idleExitNs, wakeupLatencyNs, preempt, hz, schedLatencyNs,
        minGranularityNs, wakeupGranularityNs, scheduler, p);
  }

  /** The same parameters with the fair scheduler {@code s}. */
  public SchedParams withScheduler(SchedClass s) {
    return new SchedParams(ctxSwitchNs, idleExitNs, wakeupLatencyNs, preempt, hz, schedLatencyNs,
        minGranularityNs, wakeupGranularityNs, s, placement);
  }

  /**
   * EEVDF's {@code sysctl_sched_base_slice}: 0.75 ms scaled like the CFS tunables (it replaced
   * {@code sysctl_sched_min_granularity}, with the same value), so {@link #minGranularityNs}.
   */
  public long baseSliceNs() {
    return minGranularityNs;
  }

  /**
   * Costs only, as issue 2 built them: voluntary preemption, HZ {@value #DEFAULT_HZ}, and the
   * tunables of a one-CPU machine (6 ms, 0.75 ms, 1 ms). Use {@link #forCpus} for a real machine.
   */
  public SchedParams(long ctxSwitchNs, long idleExitNs, long wakeupLatencyNs) {
    this(ctxSwitchNs, idleExitNs, wakeupLatencyNs, DEFAULT_PREEMPT, DEFAULT_HZ,
        NORMALIZED_SCHED_LATENCY_NS, NORMALIZED_SCHED_MIN_GRANULARITY_NS,
        NORMALIZED_SCHED_WAKEUP_GRANULARITY_NS);
  }

  /**
   * The parameters of a machine with {@code nrCpus} CPUs: the kernel's default tunables scaled
   * by {@link #tunableScalingFactor} (24 ms, 3 ms and 4 ms on 8 or more CPUs).
   */
  public static SchedParams forCpus(int nrCpus, PreemptModel preempt, int hz, long ctxSwitchNs,
      long idleExitNs, long wakeupLatencyNs) {
    long f = tunableScalingFactor(nrCpus);
    return new SchedParams(ctxSwitchNs, idleExitNs, wakeupLatencyNs, preempt, hz,
        NORMALIZED_SCHED_LATENCY_NS * f, NORMALIZED_SCHED_MIN_GRANULARITY_NS * f,
        NORMALIZED_SCHED_WAKEUP_GRANULARITY_NS * f);
  }

  /**
   * {@code get_update_sysctl_factor()} with the default {@code SCHED_TUNABLESCALING_LOG}:
   * {@code 1 + ilog2(min(nrCpus, 8))}, so 1, 2, 3 and 4 for 1, 2-3, 4-7 and 8+ CPUs.
   */
  public static int tunableScalingFactor(int nrCpus) {
    if (nrCpus < 1) {
      throw new IllegalArgumentException("nrCpus must be >= 1, was " + nrCpus);
    }
    int cpus = Math.min(nrCpus, TUNABLE_SCALING_MAX_CPUS);
    return 1 + (31 - Integer.numberOfLeadingZeros(cpus));
  }

  /** The same parameters with preemption model {@code p}. */
  public SchedParams withPreempt(PreemptModel p) {
    return new SchedParams(ctxSwitchNs, idleExitNs, wakeupLatencyNs, p, hz, schedLatencyNs,
        minGranularityNs, wakeupGranularityNs, scheduler, placement);
  }

  /** The same parameters with {@code CONFIG_HZ} = {@code newHz}. */
  public SchedParams withHz(int newHz) {
    return new SchedParams(ctxSwitchNs, idleExitNs, wakeupLatencyNs, preempt, newHz,
        schedLatencyNs, minGranularityNs, wakeupGranularityNs, scheduler, placement);
  }

  /** The same parameters with the given (already scaled) fair-scheduler tunables. */
  public SchedParams withTunables(long latencyNs, long minGranNs, long wakeupGranNs) {
    return new SchedParams(ctxSwitchNs, idleExitNs, wakeupLatencyNs, preempt, hz, latencyNs,
        minGranNs, wakeupGranNs, scheduler, placement);
  }

  /** {@code TICK_NSEC}: the tick period, {@code (NSEC_PER_SEC + HZ/2) / HZ}. */
  public long tickNs() {
    return (NSEC_PER_SEC + hz / 2) / hz;
  }

  /**
   * {@code sched_nr_latency}: how many tasks fit in {@link #schedLatencyNs} at
   * {@link #minGranularityNs} each, {@code DIV_ROUND_UP(latency, min_granularity)} (8 by default).
   */
  public int schedNrLatency() {
    return (int) ((schedLatencyNs + minGranularityNs - 1) / minGranularityNs);
  }
}
