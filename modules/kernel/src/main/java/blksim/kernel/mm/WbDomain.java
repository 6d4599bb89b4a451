package blksim.kernel.mm;

/**
 * The global writeback domain's slowly following hard limit: {@code dirty_limit} and
 * {@code dirty_limit_tstamp} of {@code struct wb_domain} ({@code global_wb_domain}), with 4.3's
 * {@code hard_dirty_limit()}, {@code update_dirty_limit()} and {@code domain_update_bandwidth()}
 * (mm/page-writeback.c).
 *
 * <p>{@code dirty_limit} follows a rising threshold at once and a falling one by 1/32 of the gap
 * per {@code BANDWIDTH_INTERVAL}, never below the dirty pages, so that a sudden drop of the
 * threshold does not throttle everybody to a standstill.
 *
 * <p>Simplified: the domain's writeout-completion proportions ({@code completions},
 * {@code period_timer}) are not kept here; a single-wb caller passes the wb's share of
 * {@code thresh} ({@link BalanceDirtyPages#wbCalcThresh}) directly.
 *
 * <p>Ownership: mutable; belongs to whichever component owns the page cache's dirty accounting
 * and is touched only while that component handles a message.
 */
public final class WbDomain {

  private final int hz;
  private long dirtyLimit;
  private long dirtyLimitTstamp;

  /**
   * {@code wb_domain_init()} at jiffy {@code nowJiffies}, followed by
   * {@code writeback_set_ratelimit()}'s {@code dom->dirty_limit = dirty_thresh}, as at boot.
   *
   * @param hz {@code CONFIG_HZ}, > 0
   * @param nowJiffies the current jiffies
   * @param dirtyThreshPages the current global {@code thresh}
   */
  public WbDomain(int hz, long nowJiffies, long dirtyThreshPages) {
    if (hz <= 0) {
      throw new IllegalArgumentException("hz must be > 0, was " + hz);
    }
    if (dirtyThreshPages < 0) {
      throw new IllegalArgumentException("dirtyThreshPages must be >= 0, was " + dirtyThreshPages);
    }
    this.hz = hz;
    this.dirtyLimitTstamp = nowJiffies;
    this.dirtyLimit = dirtyThreshPages;
  }

  /** {@code CONFIG_HZ} of this domain. */
  public int hz() {
    return hz;
  }

  /** {@code dom->dirty_limit}, pages. */
  public long dirtyLimit() {
    return dirtyLimit;
  }

  /** {@code dom->dirty_limit_tstamp}, jiffies. */
  public long dirtyLimitTstamp() {
    return dirtyLimitTstamp;
  }

  /** {@code writeback_set_ratelimit()} on a sysctl write: the limit jumps to the threshold. */
  public void setDirtyLimit(long dirtyThreshPages) {
    if (dirtyThreshPages < 0) {
      throw new IllegalArgumentException("dirtyThreshPages must be >= 0, was " + dirtyThreshPages);
    }
    dirtyLimit = dirtyThreshPages;
  }

  /** {@code hard_dirty_limit(dom, thresh)}: {@code max(thresh, dom->dirty_limit)}. */
  public long hardDirtyLimit(long threshPages) {
    return Math.max(threshPages, dirtyLimit);
  }

  /**
   * {@code update_dirty_limit()}: follow a higher {@code thresh} in one step; otherwise move down
   * by {@code (limit - max(thresh, dirty)) >> 5} toward the higher of the threshold and the dirty
   * pages.
   */
  public void updateDirtyLimit(long threshPages, long dirtyPages) {
    long limit = dirtyLimit;
    if (limit < threshPages) {
      dirtyLimit = threshPages;
      return;
    }
    long target = Math.max(threshPages, dirtyPages);
    if (limit > target) {
      dirtyLimit = limit - ((limit - target) >> 5);
    }
  }

  /**
   * {@code domain_update_bandwidth()}: {@link #updateDirtyLimit} at most once per
   * {@code BANDWIDTH_INTERVAL}; returns whether it ran.
   */
  public boolean updateBandwidth(long nowJiffies, long threshPages, long dirtyPages) {
    if (nowJiffies - (dirtyLimitTstamp + BalanceDirtyPages.bandwidthInterval(hz)) < 0) {
      return false;
    }
    updateDirtyLimit(threshPages, dirtyPages);
    dirtyLimitTstamp = nowJiffies;
    return true;
  }
}
