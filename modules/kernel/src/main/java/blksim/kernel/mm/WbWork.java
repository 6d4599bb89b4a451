package blksim.kernel.mm;

/**
 * A writeback request for a {@link BdiWriteback} ({@code struct wb_writeback_work}).
 *
 * @param reason why it was queued ({@code enum wb_reason}), for the statistics
 */
final class WbWork {
  /** {@code enum wb_reason}, as far as the model queues works. */
  enum Reason {
    BACKGROUND,
    PERIODIC,
    SYNC,
    FSYNC
  }

  long nrPages;
  final boolean syncAll;
  final boolean forBackground;
  final boolean forKupdate;
  final Reason reason;
  /**
   * {@code tagged_writepages}: a WB_SYNC_NONE work of a sync ({@code writeback_inodes_sb()})
   * that writes only the pages dirty when it reached the inode, each inode in one go
   * ({@link BdiWriteback#chunkSize} is unlimited, as for WB_SYNC_ALL).
   */
  boolean taggedWritepages;
  /** Run when the work is done ({@code wb_completion}), or null. */
  Runnable done;
  /** The one inode an fsync writes, or null for a whole-wb work. */
  AddressSpace only;
  boolean onlyDone;

  WbWork(long nrPages, boolean syncAll, boolean forBackground, boolean forKupdate,
      Reason reason) {
    this.nrPages = nrPages;
    this.syncAll = syncAll;
    this.forBackground = forBackground;
    this.forKupdate = forKupdate;
    this.reason = reason;
  }
}
