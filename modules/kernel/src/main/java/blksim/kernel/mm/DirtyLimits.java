package blksim.kernel.mm;

/**
 * The dirty thresholds of the global writeback domain, in pages: {@code bg_thresh} and
 * {@code thresh} of {@code struct dirty_throttle_control} (kernel-model.md §9.1, §15.4.2; 4.3's
 * {@code domain_dirty_limits()}, {@code global_dirty_limits()}, {@code dirty_freerun_ceiling()}).
 *
 * <p>"Dirty" against these thresholds means dirty + writeback (+ NFS unstable) pages for
 * throttling, and dirty (+ unstable) pages for starting background writeback.
 *
 * <p>Simplified: one global domain; no memcg domain ({@code CONFIG_CGROUP_WRITEBACK} off), no
 * highmem.
 *
 * @param backgroundThreshPages {@code bg_thresh}: above it, background writeback runs
 * @param threshPages {@code thresh}: the throttling threshold
 */
public record DirtyLimits(long backgroundThreshPages, long threshPages) {

  public DirtyLimits {
    if (threshPages < 0) {
      throw new IllegalArgumentException("threshPages must be >= 0, was " + threshPages);
    }
    if (backgroundThreshPages < 0 || backgroundThreshPages > threshPages) {
      throw new IllegalArgumentException("backgroundThreshPages must be in [0, threshPages = "
          + threshPages + "], was " + backgroundThreshPages);
    }
  }

  /**
   * {@code domain_dirty_limits()} for an ordinary task: the thresholds over
   * {@code availablePages} dirtyable pages. A byte value wins over its ratio and is rounded up to
   * whole pages; a ratio is {@code ratio * available / 100}, rounded down. If the background
   * threshold reaches the throttling threshold it becomes half of it.
   */
  public static DirtyLimits domainDirtyLimits(DirtyParams p, long availablePages) {
    return domainDirtyLimits(p, availablePages, false);
  }

  /**
   * {@code domain_dirty_limits()}; {@code lessThrottle} is {@code PF_LESS_THROTTLE} (nfsd) or a
   * real-time task, whose two thresholds are raised by a quarter.
   */
  public static DirtyLimits domainDirtyLimits(DirtyParams p, long availablePages,
      boolean lessThrottle) {
    if (availablePages < 0) {
      throw new IllegalArgumentException("availablePages must be >= 0, was " + availablePages);
    }
    long thresh = p.dirtyBytes() != 0
        ? divRoundUp(p.dirtyBytes(), BalanceDirtyPages.PAGE_SIZE)
        : p.dirtyRatio() * availablePages / 100;
    long bgThresh = p.dirtyBackgroundBytes() != 0
        ? divRoundUp(p.dirtyBackgroundBytes(), BalanceDirtyPages.PAGE_SIZE)
        : p.dirtyBackgroundRatio() * availablePages / 100;
    if (bgThresh >= thresh) {
      bgThresh = thresh / 2;
    }
    if (lessThrottle) {
      bgThresh += bgThresh / 4;
      thresh += thresh / 4;
    }
    return new DirtyLimits(bgThresh, thresh);
  }

  /**
   * {@code global_dirtyable_memory()}: free pages less the reserve, plus the file LRU pages, plus
   * one so that it is never 0. Highmem is not modelled.
   *
   * @param freePages {@code NR_FREE_PAGES}
   * @param dirtyBalanceReservePages {@code dirty_balance_reserve}
   * @param fileLruPages {@code NR_INACTIVE_FILE + NR_ACTIVE_FILE}
   */
  public static long globalDirtyableMemory(long freePages, long dirtyBalanceReservePages,
      long fileLruPages) {
    long x = freePages - Math.min(freePages, dirtyBalanceReservePages);
    return x + fileLruPages + 1;
  }

  /** {@code dirty_freerun_ceiling(thresh, bg_thresh)}: {@code (thresh + bg_thresh) / 2}. */
  public static long dirtyFreerunCeiling(long threshPages, long bgThreshPages) {
    return (threshPages + bgThreshPages) / 2;
  }

  /** The freerun ceiling of these thresholds: below it nobody is throttled. */
  public long freerunPages() {
    return dirtyFreerunCeiling(threshPages, backgroundThreshPages);
  }

  /**
   * The global setpoint, {@code (freerun + limit) / 2}, where {@code limitPages} is
   * {@link WbDomain#hardDirtyLimit} of {@link #threshPages}: the balance point of the position
   * control.
   */
  public long setpointPages(long limitPages) {
    return (freerunPages() + limitPages) / 2;
  }

  private static long divRoundUp(long n, long d) {
    return (n + d - 1) / d;
  }
}
