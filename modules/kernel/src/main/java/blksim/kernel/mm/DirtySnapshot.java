package blksim.kernel.mm;

/**
 * What one iteration of {@code balance_dirty_pages()} reads at its top: the global counts and
 * thresholds, and the wb's counts, threshold share and counters (4.3's
 * {@code struct dirty_throttle_control} filled by {@code domain_dirty_limits()} and
 * {@code wb_dirty_limits()}, plus {@code nr_reclaimable}, {@code WB_DIRTIED}, {@code WB_WRITTEN}
 * and {@code writeback_in_progress(wb)}).
 *
 * @param reclaimablePages {@code nr_reclaimable}: global {@code NR_FILE_DIRTY + NR_UNSTABLE_NFS}
 * @param dirtyPages {@code gdtc->dirty}: {@code reclaimablePages + NR_WRITEBACK}
 * @param limits {@code gdtc->bg_thresh} and {@code gdtc->thresh}
 * @param wbDirtyPages {@code wb_dirty}: the wb's {@code WB_RECLAIMABLE + WB_WRITEBACK}
 * @param wbThreshPages {@code wb_thresh}: the wb's share of {@code thresh}
 *     ({@link BalanceDirtyPages#wbCalcThresh})
 * @param wbDirtiedPages the wb's cumulative {@code WB_DIRTIED}
 * @param wbWrittenPages the wb's cumulative {@code WB_WRITTEN}
 * @param writebackInProgress {@code writeback_in_progress(wb)}: the flusher is running a work
 */
public record DirtySnapshot(long reclaimablePages, long dirtyPages, DirtyLimits limits,
    long wbDirtyPages, long wbThreshPages, long wbDirtiedPages, long wbWrittenPages,
    boolean writebackInProgress) {

  public DirtySnapshot {
    if (limits == null) {
      throw new IllegalArgumentException("limits must not be null");
    }
    if (reclaimablePages < 0 || reclaimablePages > dirtyPages) {
      throw new IllegalArgumentException("reclaimablePages must be in [0, dirtyPages = "
          + dirtyPages + "], was " + reclaimablePages);
    }
    if (wbDirtyPages < 0) {
      throw new IllegalArgumentException("wbDirtyPages must be >= 0, was " + wbDirtyPages);
    }
    if (wbThreshPages < 0) {
      throw new IllegalArgumentException("wbThreshPages must be >= 0, was " + wbThreshPages);
    }
    if (wbDirtiedPages < 0 || wbWrittenPages < 0) {
      throw new IllegalArgumentException("wbDirtiedPages and wbWrittenPages must be >= 0, were "
          + wbDirtiedPages + ", " + wbWrittenPages);
    }
  }
}
