package blksim.kernel.mm;

/**
 * The bandwidth and rate-limit estimates of one {@code struct bdi_writeback}: {@code
 * bw_time_stamp}, {@code dirtied_stamp}, {@code written_stamp}, {@code write_bandwidth},
 * {@code avg_write_bandwidth}, {@code dirty_ratelimit}, {@code balanced_dirty_ratelimit} and
 * {@code dirty_exceeded} (kernel-model.md §15.4.2; 4.3's mm/page-writeback.c
 * {@code __wb_update_bandwidth()}, {@code wb_update_write_bandwidth()},
 * {@code wb_update_dirty_ratelimit()}, and {@code wb_init()} in mm/backing-dev.c).
 *
 * <p>All rates are in pages per second, all times in jiffies of {@link #hz()}. The arithmetic is
 * the kernel's integer arithmetic, so the estimates round as they do there.
 *
 * <p>The caller owns the wb's cumulative counters {@code WB_DIRTIED} (pages ever dirtied against
 * the wb, incremented by {@code account_page_dirtied()}) and {@code WB_WRITTEN} (pages whose
 * writeback completed, {@code __wb_writeout_inc()}) and hands their current values to the update
 * methods; the model's counters are exact, where the kernel reads per-CPU approximations.
 *
 * <p>Simplified: {@code bdi->tot_write_bandwidth} (the sum over a bdi's wbs, used only with cgroup
 * writeback) is not kept; the strictlimit ({@code BDI_CAP_STRICTLIMIT}, FUSE) variant of the
 * ratelimit step is not modelled; a {@code WB_DIRTIED} that went backwards (redirtied pages)
 * counts as no dirtying, where the kernel's unsigned subtraction would wrap.
 *
 * <p>Ownership: mutable; belongs to the component that owns the wb and is touched only while it
 * handles a message.
 */
public final class WbBandwidth {

  /** {@code INIT_BW}: 100 MB/s, {@code 100 << (20 - PAGE_SHIFT)} pages/s. */
  public static final long INIT_BW = 100L << (20 - BalanceDirtyPages.PAGE_SHIFT);

  private final int hz;
  private final int nrCpuIds;
  private long bwTimeStamp;
  private long dirtiedStamp;
  private long writtenStamp;
  private long writeBandwidth;
  private long avgWriteBandwidth;
  private long dirtyRatelimit;
  private long balancedDirtyRatelimit;
  private boolean dirtyExceeded;

  /**
   * {@code wb_init()} at jiffy {@code nowJiffies}: all four rates at {@link #INIT_BW}, stamps 0.
   *
   * @param hz {@code CONFIG_HZ}, > 0
   * @param nrCpuIds {@code nr_cpu_ids}, >= 1: sizes {@code wb_stat_error()}
   * @param nowJiffies the current jiffies
   */
  public WbBandwidth(int hz, int nrCpuIds, long nowJiffies) {
    this(hz, nrCpuIds, nowJiffies, 0, 0, INIT_BW, INIT_BW, INIT_BW, INIT_BW);
  }

  private WbBandwidth(int hz, int nrCpuIds, long bwTimeStamp, long dirtiedStamp,
      long writtenStamp, long writeBandwidth, long avgWriteBandwidth, long dirtyRatelimit,
      long balancedDirtyRatelimit) {
    if (hz <= 0) {
      throw new IllegalArgumentException("hz must be > 0, was " + hz);
    }
    if (nrCpuIds < 1) {
      throw new IllegalArgumentException("nrCpuIds must be >= 1, was " + nrCpuIds);
    }
    requirePositive("avgWriteBandwidth", avgWriteBandwidth);
    requirePositive("dirtyRatelimit", dirtyRatelimit);
    if (writeBandwidth < 0 || balancedDirtyRatelimit < 0 || dirtiedStamp < 0 || writtenStamp < 0) {
      throw new IllegalArgumentException("writeBandwidth, balancedDirtyRatelimit and the stamps"
          + " must be >= 0");
    }
    this.hz = hz;
    this.nrCpuIds = nrCpuIds;
    this.bwTimeStamp = bwTimeStamp;
    this.dirtiedStamp = dirtiedStamp;
    this.writtenStamp = writtenStamp;
    this.writeBandwidth = writeBandwidth;
    this.avgWriteBandwidth = avgWriteBandwidth;
    this.dirtyRatelimit = dirtyRatelimit;
    this.balancedDirtyRatelimit = balancedDirtyRatelimit;
  }

  /**
   * A wb in a given state (tests, and a caller that starts a run from a warmed-up estimate).
   * {@code avgWriteBandwidth} and {@code dirtyRatelimit} must be >= 1, as the kernel keeps them.
   */
  public static WbBandwidth of(int hz, int nrCpuIds, long bwTimeStamp, long dirtiedStamp,
      long writtenStamp, long writeBandwidth, long avgWriteBandwidth, long dirtyRatelimit,
      long balancedDirtyRatelimit) {
    return new WbBandwidth(hz, nrCpuIds, bwTimeStamp, dirtiedStamp, writtenStamp, writeBandwidth,
        avgWriteBandwidth, dirtyRatelimit, balancedDirtyRatelimit);
  }

  /** {@code CONFIG_HZ} of the estimates. */
  public int hz() {
    return hz;
  }

  /** {@code nr_cpu_ids}. */
  public int nrCpuIds() {
    return nrCpuIds;
  }

  /** {@code bw_time_stamp}: jiffies of the last update. */
  public long bwTimeStamp() {
    return bwTimeStamp;
  }

  /** {@code dirtied_stamp}: {@code WB_DIRTIED} at the last update. */
  public long dirtiedStamp() {
    return dirtiedStamp;
  }

  /** {@code written_stamp}: {@code WB_WRITTEN} at the last update. */
  public long writtenStamp() {
    return writtenStamp;
  }

  /** {@code write_bandwidth}: the 3-s smoothed completion rate, pages/s. */
  public long writeBandwidth() {
    return writeBandwidth;
  }

  /** {@code avg_write_bandwidth}: {@link #writeBandwidth()} filtered once more, pages/s. */
  public long avgWriteBandwidth() {
    return avgWriteBandwidth;
  }

  /** {@code dirty_ratelimit}: the base throttle rate of one dirtier, pages/s. */
  public long dirtyRatelimit() {
    return dirtyRatelimit;
  }

  /** {@code balanced_dirty_ratelimit}: the last raw estimate of write_bw / N, pages/s. */
  public long balancedDirtyRatelimit() {
    return balancedDirtyRatelimit;
  }

  /** {@code wb->dirty_exceeded}: makes dirtiers check every 8 pages. */
  public boolean dirtyExceeded() {
    return dirtyExceeded;
  }

  /** Sets {@code wb->dirty_exceeded} (done by {@code balance_dirty_pages()}). */
  public void setDirtyExceeded(boolean exceeded) {
    dirtyExceeded = exceeded;
  }

  /** {@code wb_stat_error()}: {@code nr_cpu_ids * WB_STAT_BATCH}, pages. */
  public long wbStatError() {
    return BalanceDirtyPages.wbStatError(nrCpuIds);
  }

  /**
   * {@code wb_update_bandwidth(wb, start_time)}, the flusher's call after each pass of
   * {@code wb_writeback()}: re-estimates the write bandwidth (not the rate limit) if at least
   * {@code BANDWIDTH_INTERVAL} has passed. Returns whether the stamps moved.
   *
   * @param nowJiffies the current jiffies
   * @param dirtiedPages the wb's {@code WB_DIRTIED} counter now
   * @param writtenPages the wb's {@code WB_WRITTEN} counter now
   * @param startTimeJiffies when the caller's writeback work (or throttling) began
   */
  public boolean update(long nowJiffies, long dirtiedPages, long writtenPages,
      long startTimeJiffies) {
    return update(nowJiffies, dirtiedPages, writtenPages, startTimeJiffies, null, 0, null, 0);
  }

  /**
   * {@code __wb_update_bandwidth(gdtc, NULL, start_time, true)}, the call from
   * {@code balance_dirty_pages()}: if at least {@code BANDWIDTH_INTERVAL} has passed, updates the
   * domain's hard limit, {@link #dirtyRatelimit()} and then the write bandwidth. Returns whether
   * the stamps moved.
   *
   * @param dom the global domain
   * @param dirtyPages {@code gdtc->dirty}: global dirty + writeback pages
   * @param limits {@code gdtc->thresh} and {@code bg_thresh}
   * @param posRatio {@code gdtc->pos_ratio} just computed
   *     ({@link BalanceDirtyPages#wbPositionRatio})
   */
  public boolean update(long nowJiffies, long dirtiedPages, long writtenPages,
      long startTimeJiffies, WbDomain dom, long dirtyPages, DirtyLimits limits, long posRatio) {
    long elapsed = nowJiffies - bwTimeStamp;
    // Rate limit: at most one update every 200 ms.
    if (elapsed < BalanceDirtyPages.bandwidthInterval(hz)) {
      return false;
    }
    // Skip quiet periods (at least 1 s idle between two flusher runs): only re-stamp.
    boolean quiet = elapsed > hz && bwTimeStamp - startTimeJiffies < 0;
    if (!quiet) {
      if (dom != null) {
        dom.updateBandwidth(nowJiffies, limits.threshPages(), dirtyPages);
        long limit = dom.hardDirtyLimit(limits.threshPages());
        updateDirtyRatelimit(dirtyPages, limits.setpointPages(limit), posRatio, dirtiedPages,
            elapsed);
      }
      updateWriteBandwidth(elapsed, writtenPages);
    }
    dirtiedStamp = dirtiedPages;
    writtenStamp = writtenPages;
    bwTimeStamp = nowJiffies;
    return true;
  }

  /**
   * {@code wb_update_write_bandwidth(wb, elapsed, written)}: folds the completions since
   * {@link #writtenStamp()} into {@link #writeBandwidth()} as a moving average over
   * {@code period = roundup_pow_of_two(3 * HZ)}, and moves {@link #avgWriteBandwidth()} an eighth
   * of the way toward it when both estimates agree on the direction. Stamps are not touched.
   */
  public void updateWriteBandwidth(long elapsedJiffies, long writtenPages) {
    long period = BalanceDirtyPages.roundupPowOfTwo(3L * hz);
    long avg = avgWriteBandwidth;
    long old = writeBandwidth;
    // bw = written * HZ / elapsed; write_bandwidth = (bw * elapsed + old * (period - elapsed))
    // / period, kept as one fraction so that nothing is lost before the final shift.
    long bw = (writtenPages - Math.min(writtenPages, writtenStamp)) * hz;
    if (elapsedJiffies > period) {
      bw /= elapsedJiffies;
      avg = bw;
    } else {
      bw += old * (period - elapsedJiffies);
      bw >>>= BalanceDirtyPages.ilog2(period);
      // One more level of smoothing, for filtering out sudden spikes.
      if (avg > old && old >= bw) {
        avg -= (avg - old) >> 3;
      }
      if (avg < old && old <= bw) {
        avg += (old - avg) >> 3;
      }
    }
    writeBandwidth = bw;
    avgWriteBandwidth = Math.max(avg, 1);
  }

  /**
   * {@code wb_update_dirty_ratelimit(dtc, dirtied, elapsed)}: estimates the balanced rate
   * {@code task_ratelimit * write_bw / dirty_rate} (= write_bw / N for N dirtiers) and moves
   * {@link #dirtyRatelimit()} toward it in damped steps, only when the position error points the
   * same way. Stamps are not touched.
   *
   * @param dirtyPages global dirty + writeback pages
   * @param setpointPages the global setpoint ({@link DirtyLimits#setpointPages})
   * @param posRatio the position ratio, {@code 1 << RATELIMIT_CALC_SHIFT} = 1.0
   * @param dirtiedPages {@code WB_DIRTIED} now
   * @param elapsedJiffies jiffies since {@link #bwTimeStamp()}, > 0
   */
  public void updateDirtyRatelimit(long dirtyPages, long setpointPages, long posRatio,
      long dirtiedPages, long elapsedJiffies) {
    if (elapsedJiffies <= 0) {
      throw new IllegalArgumentException("elapsedJiffies must be > 0, was " + elapsedJiffies);
    }
    long writeBw = avgWriteBandwidth;
    long ratelimit = dirtyRatelimit;
    // The dirty rate will match the writeout rate in the long term.
    long dirtyRate = Math.max(0, dirtiedPages - dirtiedStamp) * hz / elapsedJiffies;
    // task_ratelimit reflects each dirtier's rate over the past interval; +1 helps ramp up from
    // tiny values.
    long taskRatelimit = (ratelimit * posRatio >>> BalanceDirtyPages.RATELIMIT_CALC_SHIFT) + 1;
    long balanced = taskRatelimit * writeBw / (dirtyRate | 1);
    if (balanced > writeBw) {
      balanced = writeBw;
    }
    // Follow balanced only if task_ratelimit is on the same side of dirty_ratelimit; the distance
    // to the nearest of the three estimates bounds the step.
    long step = 0;
    if (dirtyPages < setpointPages) {
      long x = Math.min(Math.min(balancedDirtyRatelimit, balanced), taskRatelimit);
      if (ratelimit < x) {
        step = x - ratelimit;
      }
    } else {
      long x = Math.max(Math.max(balancedDirtyRatelimit, balanced), taskRatelimit);
      if (ratelimit > x) {
        step = ratelimit - x;
      }
    }
    // Slow down near the target. The shift count can reach 64 or more; Java masks it to 6 bits
    // exactly as the x86-64 SHR the kernel compiles to does.
    step >>= ratelimit / (2 * step + 1);
    // Limit the tracking speed to avoid overshooting.
    step = (step + 7) / 8;
    if (ratelimit < balanced) {
      ratelimit += step;
    } else {
      ratelimit -= step;
    }
    dirtyRatelimit = Math.max(ratelimit, 1);
    balancedDirtyRatelimit = balanced;
  }

  private static void requirePositive(String name, long v) {
    if (v < 1) {
      throw new IllegalArgumentException(name + " must be >= 1, was " + v);
    }
  }
}
