package blksim.kernel.mm;

import blksim.kernel.block.BlockQueue;
import java.util.ArrayDeque;
import java.util.function.IntFunction;

/**
 * The writeback context of one block device ({@code struct bdi_writeback}): its dirty inode lists
 * ({@code b_dirty}, {@code b_io}, {@code b_more_io}), its counters ({@code WB_RECLAIMABLE},
 * {@code WB_WRITEBACK}, {@code WB_DIRTIED}, {@code WB_WRITTEN}), its bandwidth estimates
 * ({@link WbBandwidth}), its queue of works, and the flusher that runs them ({@link Flusher},
 * {@code wb_workfn()} on the unbound {@code writeback} workqueue).
 *
 * <p>Works: {@link #startBackgroundWriteback} ({@code wb_start_background_writeback()}, from
 * balance_dirty_pages), {@link #wakeupDelayed} ({@code wb_wakeup_delayed()}: the periodic
 * "kupdate" flush {@code dirty_writeback_interval} after the wb gets its first dirty inode),
 * {@link #queueSync} (sync, syncfs, unmount: WB_SYNC_ALL over every dirty inode).
 */
public final class BdiWriteback {
  final PageCache pc;
  final String name;
  final WbScheduler scheduler;
  final WbBandwidth bw;
  final InodeList bDirty = new InodeList("b_dirty");
  final InodeList bIo = new InodeList("b_io");
  final InodeList bMoreIo = new InodeList("b_more_io");
  final ArrayDeque<WbWork> works = new ArrayDeque<>();
  long reclaimable;
  long writeback;
  long dirtied;
  long written;
  /** WB_writeback_running: the flusher is executing a work. */
  boolean running;
  long lastOldFlushJiffies;
  IntFunction<BlockQueue> queues;
  WbPlugPolicy plugPolicy = WbPlugPolicy.NONE;
  WritebackParams costs;
  /** The block layer's plug for the flusher's task, or null before the request layer. */
  FlusherPlug plug;
  final FlusherStats stats = new FlusherStats();
  /** The bdi's {@code ra_pages}: {@code read_ahead_kb} / 4 ({@code VM_READAHEAD_PAGES}: 32). */
  private long raPages = DEFAULT_READ_AHEAD_KB / 4;

  /** {@code VM_READAHEAD_PAGES} x 4: the default {@code read_ahead_kb} of a bdi, 128 KiB. */
  public static final int DEFAULT_READ_AHEAD_KB = 128;

  BdiWriteback(PageCache pc, String name, WbScheduler scheduler, WbBandwidth bw) {
    this.pc = pc;
    this.name = name;
    this.scheduler = scheduler;
    this.bw = bw;
  }

  /**
   * Connects the wb to its device: the device's queue on each CPU (the flusher submits on its
   * own CPU's), the plug policy, the costs and the block plug of the flusher ({@code null}: no
   * plugging possible, every policy behaves as none).
   */
  public void attach(IntFunction<BlockQueue> queues, WbPlugPolicy policy, WritebackParams costs,
      FlusherPlug plug) {
    this.queues = queues;
    this.plugPolicy = policy;
    this.costs = costs;
    this.plug = plug;
  }

  /** Sets the bdi's {@code read_ahead_kb} ({@code /sys/block/DEV/queue/read_ahead_kb}). */
  public void setReadAheadKb(long kb) {
    if (kb < 0) {
      throw new IllegalArgumentException("read_ahead_kb must be >= 0, was " + kb);
    }
    raPages = kb / 4;
  }

  /** The bdi's {@code ra_pages}. */
  public long raPages() {
    return raPages;
  }

  /** The device's queue on each CPU (reads of the page cache submit on their CPU's). */
  public IntFunction<BlockQueue> queues() {
    return queues;
  }

  /** The wb's name (its device). */
  public String name() {
    return name;
  }

  /** {@code wb_has_dirty_io()}: some inode of the wb is on a list. */
  public boolean hasDirtyIo() {
    return !bDirty.isEmpty() || !bIo.isEmpty() || !bMoreIo.isEmpty();
  }

  /** The bandwidth estimates. */
  public WbBandwidth bandwidth() {
    return bw;
  }

  /** Pages of the wb that are dirty ({@code WB_RECLAIMABLE}). */
  public long reclaimablePages() {
    return reclaimable;
  }

  /** Pages of the wb under writeback ({@code WB_WRITEBACK}). */
  public long writebackPages() {
    return writeback;
  }

  /** The work function of the wb's delayed work, {@code wb_workfn}. */
  public blksim.kernel.workqueue.WorkFn workFn() {
    return Flusher.workFn(this);
  }

  /** What the flusher did. */
  public FlusherStats stats() {
    return stats;
  }

  /** Whether the flusher is running a work ({@code writeback_in_progress()}). */
  public boolean running() {
    return running;
  }

  /** {@code wb_wakeup_delayed()}: run the flusher after {@code dirty_writeback_interval}. */
  void wakeupDelayed() {
    long ms = pc.params().dirtyWritebackIntervalMs();
    if (ms <= 0) {
      return;
    }
    scheduler.queueDelayedWork(this, msecsToJiffies(ms));
  }

  /** {@code wb_wakeup()}: run the flusher now. */
  void wakeup() {
    scheduler.modDelayedWork(this, 0);
  }

  /**
   * {@code wb_start_background_writeback()}: the flusher checks the background threshold and
   * writes until under it (no work is queued; {@code wb_check_background_flush()} does it).
   */
  public void startBackgroundWriteback() {
    wakeup();
  }

  /**
   * {@code writeback_inodes_sb()}: queues a WB_SYNC_NONE work with {@code tagged_writepages}
   * (each inode written whole, see {@link #chunkSize}) over every dirty inode, for as
   * many pages as are dirty now ({@code get_nr_dirty_pages()}: the dirty pages plus one per
   * dirty inode, here plus one); {@code done} runs when it is finished. The first half of
   * {@code sync_filesystem()}, which waits for it before the WB_SYNC_ALL pass.
   */
  public void queueWritebackSb(Runnable done) {
    WbWork w = new WbWork(pc.nrDirty() + 1, false, false, false, WbWork.Reason.SYNC);
    // __writeback_inodes_sb_nr(): .tagged_writepages = 1 (since 3.1, 6e6938b6d313).
    w.taggedWritepages = true;
    w.done = done;
    works.add(w);
    wakeup();
  }

  /**
   * Queues a WB_SYNC_ALL work over every dirty inode ({@code sync_inodes_sb()} for sync, syncfs
   * and unmount); {@code done} runs when it is finished.
   */
  public void queueSync(Runnable done) {
    WbWork w = new WbWork(Long.MAX_VALUE, true, false, false, WbWork.Reason.SYNC);
    w.done = done;
    works.add(w);
    wakeup();
  }

  /**
   * Queues a WB_SYNC_ALL work for the one inode {@code as} (its pages written and waited for);
   * {@code done} runs when it is finished. Stands for the fsync caller's own
   * {@code filemap_write_and_wait_range()} (see {@link FsyncCall}).
   */
  void queueInodeSync(AddressSpace as, Runnable done) {
    WbWork w = new WbWork(Long.MAX_VALUE, true, false, false, WbWork.Reason.FSYNC);
    w.only = as;
    w.done = done;
    works.add(w);
    wakeup();
  }

  long msecsToJiffies(long ms) {
    return (ms * pc.hz() + 999) / 1000;
  }

  /**
   * {@code queue_io()}: {@code b_more_io} goes to {@code b_io}, then the inodes of
   * {@code b_dirty} dirtied at or before {@code olderThanNs} (oldest first).
   */
  void queueIo(long olderThanNs) {
    while (!bMoreIo.isEmpty()) {
      bIo.addNewest(bMoreIo.oldest());
    }
    while (!bDirty.isEmpty() && bDirty.oldest().dirtiedWhenNs <= olderThanNs) {
      bIo.addNewest(bDirty.oldest());
    }
  }

  /**
   * {@code redirty_tail()}: back to {@code b_dirty} as the newest, its dirtied_when moved up to
   * the newest's if it was older.
   */
  void redirtyTail(AddressSpace as, long nowNs) {
    if (!bDirty.isEmpty()) {
      AddressSpace tail = bDirty.newest();
      if (as.dirtiedWhenNs < tail.dirtiedWhenNs) {
        as.dirtiedWhenNs = nowNs;
      }
    }
    bDirty.addNewest(as);
  }

  /** {@code requeue_io()}: to {@code b_more_io}. */
  void requeueIo(AddressSpace as) {
    bMoreIo.addNewest(as);
  }

  /**
   * {@code writeback_chunk_size()}: unlimited for WB_SYNC_ALL and tagged works, else min(avg
   * write bandwidth / 2, dirty limit / 8, the work's budget), rounded down to 4 MiB multiples
   * after adding 4 MiB.
   */
  long chunkSize(WbWork w) {
    if (w.syncAll || w.taggedWritepages) {
      return Long.MAX_VALUE;
    }
    long pages = Math.min(bw.avgWriteBandwidth() / 2, pc.domain().dirtyLimit() / DIRTY_SCOPE);
    pages = Math.min(pages, w.nrPages);
    return (pages + MIN_WRITEBACK_PAGES) / MIN_WRITEBACK_PAGES * MIN_WRITEBACK_PAGES;
  }

  /** {@code DIRTY_SCOPE} in fs/fs-writeback.c. */
  static final long DIRTY_SCOPE = 8;
  /** {@code MIN_WRITEBACK_PAGES}: 4 MiB of 4 KiB pages. */
  static final long MIN_WRITEBACK_PAGES = 1024;
}
