package blksim.kernel.mm;

/**
 * The dirty-throttling arithmetic of Linux 4.3's mm/page-writeback.c, as static functions
 * (kernel-model.md §9.2, §15.4.2): the position ratio ({@code pos_ratio_polynom()},
 * {@code wb_position_ratio()}), the pause bounds ({@code wb_max_pause()}, {@code wb_min_pause()}),
 * the check intervals ({@code dirty_poll_interval()}, {@code writeback_set_ratelimit()},
 * {@code balance_dirty_pages_ratelimited()}) and one iteration of {@code balance_dirty_pages()}'s
 * loop ({@link #balanceDirtyPagesIteration}).
 *
 * <p>Fixed point: a ratio of 1.0 is {@code 1 << RATELIMIT_CALC_SHIFT} = 1024. Rates are pages per
 * second, times are jiffies of an explicit {@code hz}. The kernel's {@code unsigned long}
 * arithmetic is reproduced with {@code >>>}, {@link Long#divideUnsigned} and
 * {@link Long#compareUnsigned} where a value could wrap, and its signed {@code long long}
 * arithmetic (truncating division, arithmetic shift) with Java's, so every result rounds as the
 * kernel's does. Nothing here allocates except the records a caller asks for.
 *
 * <p>Simplified: one global domain and no memcg domain ({@code CONFIG_CGROUP_WRITEBACK} off); no
 * strictlimit ({@code BDI_CAP_STRICTLIMIT}, FUSE); no laptop mode; {@code bdi->min_ratio} 0 and
 * {@code max_ratio} 100; no fatal-signal exit from the loop; the per-CPU
 * {@code dirty_throttle_leaks} of exited tasks are not charged to survivors.
 */
public final class BalanceDirtyPages {

  /** {@code PAGE_SHIFT}: 4 KiB pages. */
  public static final int PAGE_SHIFT = 12;
  /** {@code PAGE_SIZE}, bytes. */
  public static final long PAGE_SIZE = 1L << PAGE_SHIFT;
  /** {@code RATELIMIT_CALC_SHIFT}: the fixed-point shift of ratios. */
  public static final int RATELIMIT_CALC_SHIFT = 10;
  /** A position ratio of 1.0. */
  public static final long POS_RATIO_ONE = 1L << RATELIMIT_CALC_SHIFT;
  /**
   * {@code DIRTY_POLL_THRESH}: {@code 128 >> (PAGE_SHIFT - 10)} = 32 pages (128 KiB), the smallest
   * check interval {@code wb_min_pause()} aims for.
   */
  public static final int DIRTY_POLL_THRESH = 128 >> (PAGE_SHIFT - 10);
  /**
   * While {@code wb->dirty_exceeded}, tasks check every {@code 32 >> (PAGE_SHIFT - 10)} = 8 pages
   * ({@code balance_dirty_pages_ratelimited()}).
   */
  public static final int DIRTY_EXCEEDED_RATELIMIT = 32 >> (PAGE_SHIFT - 10);
  /** The floor of {@code ratelimit_pages} in {@code writeback_set_ratelimit()}. */
  public static final long RATELIMIT_PAGES_MIN = 16;
  /** {@code ratelimit_pages} before the first {@code writeback_set_ratelimit()}. */
  public static final long RATELIMIT_PAGES_INITIAL = 32;

  private BalanceDirtyPages() {
  }

  /** {@code MAX_PAUSE}: {@code max(HZ/5, 1)} jiffies, 200 ms. */
  public static long maxPause(int hz) {
    return Math.max(hz / 5, 1);
  }

  /** {@code BANDWIDTH_INTERVAL}: {@code max(HZ/5, 1)} jiffies, 200 ms. */
  public static long bandwidthInterval(int hz) {
    return Math.max(hz / 5, 1);
  }

  /** {@code ilog2(n)} for {@code n >= 1}: the index of the highest set bit. */
  public static int ilog2(long n) {
    if (n <= 0) {
      throw new IllegalArgumentException("ilog2 needs n >= 1, was " + n);
    }
    return 63 - Long.numberOfLeadingZeros(n);
  }

  /** {@code roundup_pow_of_two(n)} for {@code n >= 1}: the smallest power of two >= n. */
  public static long roundupPowOfTwo(long n) {
    if (n <= 0) {
      throw new IllegalArgumentException("roundupPowOfTwo needs n >= 1, was " + n);
    }
    return n == 1 ? 1 : Long.highestOneBit(n - 1) << 1;
  }

  /** {@code WB_STAT_BATCH}: {@code 8 * (1 + ilog2(nr_cpu_ids))}. */
  public static long wbStatBatch(int nrCpuIds) {
    return 8L * (1 + ilog2(nrCpuIds));
  }

  /** {@code wb_stat_error()}: {@code nr_cpu_ids * WB_STAT_BATCH}, pages. */
  public static long wbStatError(int nrCpuIds) {
    return nrCpuIds * wbStatBatch(nrCpuIds);
  }

  /**
   * {@code __wb_calc_thresh()} with {@code bdi_min_ratio}, {@code min_ratio} 0 and
   * {@code max_ratio} 100: the wb's share of {@code thresh} in proportion to its fraction
   * {@code numerator / denominator} of recent writeout completions ({@code
   * fprop_fraction_percpu()}; a denominator of 0 gives 0, a numerator above the denominator counts
   * as 1). A single wb that has completed any writeback owns all of {@code thresh}.
   */
  public static long wbCalcThresh(long threshPages, long numerator, long denominator) {
    if (denominator <= 0) {
      return 0;
    }
    long num = Math.min(Math.max(numerator, 0), denominator);
    // thresh * (100 - bdi_min_ratio) / 100 * num / den + thresh * min_ratio / 100, capped at
    // thresh * max_ratio / 100: with the defaults only the proportional term is left.
    return threshPages * num / denominator;
  }

  /**
   * {@code pos_ratio_polynom(setpoint, dirty, limit)}: {@code 1 + ((setpoint - dirty) /
   * (limit - setpoint))^3} in fixed point, clamped to [0, 2.0]: 2.0 at the freerun ceiling, 1.0 at
   * the setpoint, 0 at the limit.
   */
  public static long posRatioPolynom(long setpoint, long dirty, long limit) {
    // div64_s64 truncates toward zero, as Java's division does.
    long x = ((setpoint - dirty) << RATELIMIT_CALC_SHIFT) / ((limit - setpoint) | 1);
    long posRatio = x;
    posRatio = posRatio * x >> RATELIMIT_CALC_SHIFT;
    posRatio = posRatio * x >> RATELIMIT_CALC_SHIFT;
    posRatio += 1L << RATELIMIT_CALC_SHIFT;
    return Math.min(Math.max(posRatio, 0), 2L << RATELIMIT_CALC_SHIFT);
  }

  /**
   * {@code wb_position_ratio()} without strictlimit: the global cubic of
   * {@link #posRatioPolynom}, scaled by the wb's control line through {@code (wb_setpoint, 1.0)}
   * that reaches 0 at {@code wb_setpoint + span} (span = 8 * write_bw for a single wb), floored at
   * 1/4 from {@code x_intercept - span/4} on, and raised in the reserve area below
   * {@code wb_thresh / 2}. 0 at or above the hard limit.
   *
   * @param dirty global dirty + writeback pages
   * @param thresh global {@code thresh}
   * @param bgThresh global {@code bg_thresh}
   * @param limit {@link WbDomain#hardDirtyLimit} of {@code thresh}
   * @param wbDirty the wb's dirty + writeback pages
   * @param wbThresh the wb's share of {@code thresh}
   * @param writeBw the wb's {@code avg_write_bandwidth}, pages/s
   */
  public static long wbPositionRatio(long dirty, long thresh, long bgThresh, long limit,
      long wbDirty, long wbThresh, long writeBw) {
    if (dirty >= limit) {
      return 0;
    }
    long freerun = DirtyLimits.dirtyFreerunCeiling(thresh, bgThresh);
    long setpoint = (freerun + limit) / 2;
    long posRatio = posRatioPolynom(setpoint, dirty, limit);

    if (wbThresh > thresh) {
      wbThresh = thresh;
    }
    // An idle wb's share may be near 0: give it a reasonable threshold so that occasional writes
    // are not blocked and active ones ramp the share up quickly.
    wbThresh = Math.max(wbThresh, (limit - dirty) / 8);
    // wb_setpoint = setpoint * wb_thresh / thresh, in 16-bit fixed point.
    long x = Long.divideUnsigned(wbThresh << 16, thresh | 1);
    long wbSetpoint = setpoint * x >>> 16;
    // span = wb_thresh/thresh * 8 * write_bw + (thresh - wb_thresh)/thresh * wb_thresh; the
    // subtraction may wrap as the kernel's unsigned long does, and the product with it.
    long span = (thresh - wbThresh + 8 * writeBw) * x >>> 16;
    long xIntercept = wbSetpoint + span;

    if (Long.compareUnsigned(wbDirty, xIntercept - (span >>> 2)) < 0) {
      posRatio = Long.divideUnsigned(posRatio * (xIntercept - wbDirty),
          (xIntercept - wbSetpoint) | 1);
    } else {
      posRatio /= 4;
    }

    // wb reserve area: safeguard against dirty pool underrun and disk idle.
    xIntercept = wbThresh / 2;
    if (wbDirty < xIntercept) {
      if (wbDirty > xIntercept / 8) {
        posRatio = Long.divideUnsigned(posRatio * xIntercept, wbDirty);
      } else {
        posRatio *= 8;
      }
    }
    return posRatio;
  }

  /**
   * {@code dirty_poll_interval(dirty, thresh)}: in freerun, the pages a task may dirty before it
   * checks again, {@code 2^(ilog2(thresh - dirty) / 2)} (about the square root of the headroom);
   * 1 at or above {@code thresh}.
   */
  public static long dirtyPollInterval(long dirty, long thresh) {
    if (thresh > dirty) {
      return 1L << (ilog2(thresh - dirty) >> 1);
    }
    return 1;
  }

  /**
   * {@code wb_max_pause(wb, wb_dirty)}: {@code 1 + wb_dirty / (1 + bw / roundup_pow_of_two(1 +
   * HZ/8))} jiffies, at most {@code MAX_PAUSE}: about the time to write an eighth of the wb's dirty
   * pages, so that a small dirty pool does not run dry during the sleep.
   *
   * @param avgWriteBw the wb's {@code avg_write_bandwidth}, pages/s
   * @param wbDirty the wb's dirty + writeback pages
   */
  public static long wbMaxPause(long avgWriteBw, long wbDirty, int hz) {
    long t = wbDirty / (1 + avgWriteBw / roundupPowOfTwo(1 + hz / 8));
    t++;
    return Math.min(t, maxPause(hz));
  }

  /**
   * The result of {@code wb_min_pause()}.
   *
   * @param minPauseJiffies the shortest pause worth sleeping
   * @param nrDirtiedPause the task's next {@code nr_dirtied_pause}, pages
   */
  public record MinPause(long minPauseJiffies, int nrDirtiedPause) {
  }

  /**
   * {@code wb_min_pause()}: the target pause is 10 ms plus 10 ms per doubling of
   * {@code avg_write_bandwidth / dirty_ratelimit}, capped at {@code 1 + max_pause/2}; the next
   * check interval is {@code dirty_ratelimit * t / roundup_pow_of_two(HZ)} pages, stretched toward
   * {@code max_pause} to reach {@link #DIRTY_POLL_THRESH} pages, and shrunk when the pause at
   * {@code task_ratelimit} would exceed {@code max_pause}. The minimum pause is {@code 1 + t/2}, or
   * {@code t} when the interval stayed under {@link #DIRTY_POLL_THRESH}.
   *
   * @param avgWriteBw {@code wb->avg_write_bandwidth}, pages/s, >= 1
   * @param dirtyRatelimit {@code wb->dirty_ratelimit}, pages/s, >= 1
   * @param taskRatelimit this task's rate, pages/s
   * @param maxPause {@link #wbMaxPause}
   */
  public static MinPause wbMinPause(long avgWriteBw, long dirtyRatelimit, long taskRatelimit,
      long maxPause, int hz) {
    long packed = wbMinPausePacked(avgWriteBw, dirtyRatelimit, taskRatelimit, maxPause, hz);
    return new MinPause(packed >> 32, (int) packed);
  }

  /** {@link #wbMinPause} as {@code minPause << 32 | nrDirtiedPause}, without allocating. */
  static long wbMinPausePacked(long avgWriteBw, long dirtyRatelimit, long taskRatelimit,
      long maxPause, int hz) {
    long hi = ilog2(avgWriteBw);
    long lo = ilog2(dirtyRatelimit);
    long hzPow2 = roundupPowOfTwo(hz);
    // Target for a 10 ms pause in the one-dirtier case.
    long t = Math.max(1, hz / 100);
    // (N * 10 ms) on 2^N concurrent tasks: fewer, longer pauses save CPU.
    if (hi > lo) {
      t += (hi - lo) * (10L * hz) / 1024;
    }
    // Keep the target at most max_pause/2 so that normal fluctuations of task_ratelimit do not
    // trigger the shrinking rule below.
    t = Math.min(t, 1 + maxPause / 2);
    int pages = (int) (dirtyRatelimit * t / hzPow2);
    // Tiny check intervals hurt I/O: push toward DIRTY_POLL_THRESH pages.
    if (pages < DIRTY_POLL_THRESH) {
      t = maxPause;
      pages = (int) (dirtyRatelimit * t / hzPow2);
      if (pages > DIRTY_POLL_THRESH) {
        pages = DIRTY_POLL_THRESH;
        t = (long) hz * DIRTY_POLL_THRESH / dirtyRatelimit;
      }
    }
    long pause = (long) hz * pages / (taskRatelimit + 1);
    if (pause > maxPause) {
      t = maxPause;
      pages = (int) (taskRatelimit * t / hzPow2);
    }
    long minPause = pages >= DIRTY_POLL_THRESH ? 1 + t / 2 : t;
    return minPause << 32 | (pages & 0xffffffffL);
  }

  /**
   * {@code ratelimit_pages} as {@code writeback_set_ratelimit()} sets it: {@code thresh /
   * (nr_online_cpus * 32)}, at least 16 pages. A CPU that has dirtied this many pages (by any
   * tasks) since its last check makes the next dirtier check.
   */
  public static long ratelimitPages(long threshPages, int nrOnlineCpus) {
    if (nrOnlineCpus < 1) {
      throw new IllegalArgumentException("nrOnlineCpus must be >= 1, was " + nrOnlineCpus);
    }
    return Math.max(threshPages / (nrOnlineCpus * 32L), RATELIMIT_PAGES_MIN);
  }

  /**
   * {@code balance_dirty_pages_ratelimited()}'s decision, after the page was accounted
   * ({@code nr_dirtied} and the CPU's {@code bdp_ratelimits} already incremented): whether the task
   * calls {@code balance_dirty_pages()} now, with {@code pages_dirtied = nr_dirtied}. It does when
   * it has dirtied {@code nr_dirtied_pause} pages (8 while {@code wb->dirty_exceeded}), or when its
   * CPU has dirtied {@code ratelimit_pages}. When this returns true the caller zeroes the CPU's
   * {@code bdp_ratelimits}.
   *
   * @param nrDirtied the task's {@code nr_dirtied}
   * @param nrDirtiedPause the task's {@code nr_dirtied_pause}
   * @param dirtyExceeded {@code wb->dirty_exceeded}
   * @param cpuDirtied the CPU's {@code bdp_ratelimits}
   * @param ratelimitPages {@link #ratelimitPages}
   */
  public static boolean balanceDirtyPagesRatelimited(long nrDirtied, int nrDirtiedPause,
      boolean dirtyExceeded, long cpuDirtied, long ratelimitPages) {
    long ratelimit = nrDirtiedPause;
    if (dirtyExceeded) {
      ratelimit = Math.min(ratelimit, DIRTY_EXCEEDED_RATELIMIT);
    }
    // A CPU that accumulated ratelimit_pages forces a check (ratelimit = 0 in the kernel), so
    // that 1000+ tasks starting at once cannot all honour a large initial nr_dirtied_pause.
    return nrDirtied >= ratelimit || cpuDirtied >= ratelimitPages;
  }

  /**
   * {@code wb_over_bg_thresh(wb)}: whether background writeback of the wb goes on. It does while
   * the global reclaimable pages (dirty, not under writeback) exceed {@code bg_thresh}, or while
   * the wb's reclaimable pages exceed its share of {@code thresh}. In 4.3 that share is
   * {@code __wb_calc_thresh()} of the throttling threshold, not of the background one.
   *
   * @param reclaimablePages global {@code NR_FILE_DIRTY + NR_UNSTABLE_NFS}
   * @param wbReclaimablePages the wb's {@code WB_RECLAIMABLE}
   * @param limits the global thresholds
   * @param wbThreshPages the wb's share of {@code thresh} ({@link #wbCalcThresh})
   */
  public static boolean wbOverBgThresh(long reclaimablePages, long wbReclaimablePages,
      DirtyLimits limits, long wbThreshPages) {
    return reclaimablePages > limits.backgroundThreshPages() || wbReclaimablePages > wbThreshPages;
  }

  /**
   * One iteration of {@code balance_dirty_pages()}'s loop for a task that has dirtied
   * {@code pagesDirtied} pages since its last decision.
   *
   * <p>In freerun (dirty at or below {@code (thresh + bg_thresh) / 2}) the task goes on, with its
   * next check after {@link #dirtyPollInterval} pages. Otherwise it asks for background writeback
   * if none runs, computes {@link #wbPositionRatio}, sets {@code wb->dirty_exceeded} if the wb is
   * over its share and the domain over {@code thresh}, refreshes the wb's estimates if more than
   * {@code BANDWIDTH_INTERVAL} has passed ({@link WbBandwidth#update(long, long, long, long,
   * WbDomain, long, DirtyLimits, long)}, which also moves the domain's hard limit), and derives
   * {@code task_ratelimit = dirty_ratelimit * pos_ratio}, the pause
   * {@code HZ * pages_dirtied / task_ratelimit - (now - dirty_paused_when)} and its bounds. A
   * pause under {@code min_pause} is not slept: the time is carried as debt in
   * {@code dirty_paused_when} (or forgotten when more than a second behind). A longer one is slept,
   * at most {@code max_pause}. When the loop ends, {@code wb->dirty_exceeded} is cleared if this
   * iteration did not find it exceeded, and background writeback is asked for if none runs and the
   * reclaimable pages exceed {@code bg_thresh}.
   *
   * <p>Side effects, as in the kernel: on {@code wb} (estimates, {@code dirty_exceeded}) and
   * {@code dom} (hard limit). The task's new fields are in the result.
   *
   * @param s the counts and thresholds read at the top of the iteration
   * @param pagesDirtied the {@code pages_dirtied} argument: the task's {@code nr_dirtied} when
   *     {@code balance_dirty_pages()} was entered (unchanged on a repeated iteration)
   * @param task the task's fields now
   * @param dom the global domain
   * @param wb the task's wb
   * @param nowJiffies jiffies now
   * @param startTimeJiffies jiffies when this {@code balance_dirty_pages()} call was entered
   */
  public static BdpDecision balanceDirtyPagesIteration(DirtySnapshot s, long pagesDirtied,
      TaskDirtyState task, WbDomain dom, WbBandwidth wb, long nowJiffies, long startTimeJiffies) {
    int hz = wb.hz();
    if (dom.hz() != hz) {
      throw new IllegalArgumentException("dom.hz must equal wb.hz, were " + dom.hz() + " and "
          + hz);
    }
    DirtyLimits lim = s.limits();
    long dirty = s.dirtyPages();
    long thresh = lim.threshPages();
    long now = nowJiffies;

    if (dirty <= lim.freerunPages()) {
      TaskDirtyState next = new TaskDirtyState(0,
          (int) Math.min(dirtyPollInterval(dirty, thresh), Integer.MAX_VALUE), now);
      boolean kick = endOfLoop(wb, false, s);
      return new BdpDecision(true, false, 0, 0, 0, 0, 0, 0, 0, kick, false, false, next);
    }

    boolean kick = !s.writebackInProgress();
    boolean dirtyExceeded = s.wbDirtyPages() > s.wbThreshPages() && dirty > thresh;
    long posRatio = wbPositionRatio(dirty, thresh, lim.backgroundThreshPages(),
        dom.hardDirtyLimit(thresh), s.wbDirtyPages(), s.wbThreshPages(), wb.avgWriteBandwidth());
    if (dirtyExceeded && !wb.dirtyExceeded()) {
      wb.setDirtyExceeded(true);
    }
    // time_is_before_jiffies(bw_time_stamp + BANDWIDTH_INTERVAL): strictly after.
    if (now - (wb.bwTimeStamp() + bandwidthInterval(hz)) > 0) {
      wb.update(now, s.wbDirtiedPages(), s.wbWrittenPages(), startTimeJiffies, dom, dirty, lim,
          posRatio);
    }

    long dirtyRatelimit = wb.dirtyRatelimit();
    long taskRatelimit = dirtyRatelimit * posRatio >>> RATELIMIT_CALC_SHIFT;
    long maxPause = wbMaxPause(wb.avgWriteBandwidth(), s.wbDirtyPages(), hz);
    long packed = wbMinPausePacked(wb.avgWriteBandwidth(), dirtyRatelimit, taskRatelimit,
        maxPause, hz);
    long minPause = packed >> 32;
    int nrDirtiedPause = (int) packed;

    long period;
    long pause;
    if (taskRatelimit == 0) {
      period = maxPause;
      pause = maxPause;
    } else {
      period = hz * pagesDirtied / taskRatelimit;
      pause = period;
      if (task.hasPaused()) {
        pause -= now - task.dirtyPausedWhen();
      }
      if (pause < minPause) {
        // Less than 1 s of think time is compensated in later periods by moving the virtual
        // pause time; more is forgotten, as for a light dirtier.
        TaskDirtyState next;
        if (pause < -hz) {
          next = new TaskDirtyState(0, task.nrDirtiedPause(), now);
        } else if (period != 0) {
          next = new TaskDirtyState(0, task.nrDirtiedPause(), task.dirtyPausedWhen() + period);
        } else if (task.nrDirtiedPause() <= pagesDirtied) {
          next = new TaskDirtyState(task.nrDirtied(), (int) (task.nrDirtiedPause() + pagesDirtied),
              task.dirtyPausedWhen());
        } else {
          next = task;
        }
        kick |= endOfLoop(wb, dirtyExceeded, s);
        return new BdpDecision(false, false, pause, period, posRatio, dirtyRatelimit,
            taskRatelimit, maxPause, minPause, kick, dirtyExceeded, false, next);
      }
      if (pause > maxPause) {
        // For an occasionally dropped task_ratelimit: account the excess (up to one max_pause)
        // as if already slept.
        now += Math.min(pause - maxPause, maxPause);
        pause = maxPause;
      }
    }
    TaskDirtyState next = new TaskDirtyState(0, nrDirtiedPause, now + pause);
    boolean loopAgain = taskRatelimit == 0 && s.wbDirtyPages() > wb.wbStatError();
    if (!loopAgain) {
      kick |= endOfLoop(wb, dirtyExceeded, s);
    }
    return new BdpDecision(false, true, pause, period, posRatio, dirtyRatelimit, taskRatelimit,
        maxPause, minPause, kick, dirtyExceeded, loopAgain, next);
  }

  /** The tail of {@code balance_dirty_pages()} after its loop; true: kick writeback. */
  private static boolean endOfLoop(WbBandwidth wb, boolean dirtyExceeded, DirtySnapshot s) {
    if (!dirtyExceeded && wb.dirtyExceeded()) {
      wb.setDirtyExceeded(false);
    }
    return !s.writebackInProgress()
        && s.reclaimablePages() > s.limits().backgroundThreshPages();
  }
}
