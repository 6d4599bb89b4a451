package blksim.kernel.mm;

import java.util.ArrayList;
import java.util.List;

/**
 * The machine's page cache and its global accounting: the file pages, dirty and writeback pages
 * ({@code NR_FILE_PAGES}, {@code NR_FILE_DIRTY}, {@code NR_WRITEBACK}), the cumulative
 * {@code nr_dirtied} and {@code nr_written} of {@code /proc/vmstat}, the dirty limits and the
 * global writeback domain ({@link WbDomain}), the per-CPU {@code bdp_ratelimits}, and reclaim of
 * clean pages when memory runs short.
 *
 * <p>Dirtyable memory ({@code global_dirtyable_memory()}) is the machine's memory less
 * {@code kernel.reserved-memory} (kernel text, slab, anonymous memory of the workload), taken as
 * constant: the page cache itself is reclaimable, so it does not lower it.
 *
 * <p>Reclaim (simplified {@code shrink_page_list()}): when file pages exceed dirtyable memory,
 * clean pages of the least recently used inodes are dropped until 1/64 of it is free again; dirty
 * and writeback pages stay, and so do pages locked for a read in flight. No CPU time is charged
 * for it (kswapd is not modelled), and no task waits for it.
 *
 * <p>Shared by every CPU, the flusher and the interrupts that end writeback: a scenario with a
 * page cache runs in one partition (the loader refuses other partitionings), so these direct
 * calls stay deterministic.
 */
public final class PageCache {
  private final long dirtyablePages;
  private final DirtyParams params;
  private final int hz;
  private final int nrCpus;
  private final DirtyLimits limits;
  private final WbDomain domain;
  private final long ratelimitPages;
  private final long[] bdpRatelimits;
  private final List<BdiWriteback> wbs = new ArrayList<>();
  private long nrFilePages;
  private long nrDirty;
  private long nrWriteback;
  private long nrDirtied;
  private long nrWritten;
  private long reclaimedPages;
  private long pgpginSectors;
  private long readaheadPages;
  private final BdpStats bdpStats = new BdpStats();
  private long nextIno = 1;
  private AddressSpace lruOldest;
  private AddressSpace lruNewest;

  /**
   * @param dirtyablePages memory the page cache may use, in 4 KiB pages
   * @param params the vm.dirty_* settings
   * @param hz CONFIG_HZ (jiffies of the throttling arithmetic)
   * @param nrCpus CPUs of the machine ({@code ratelimit_pages}, {@code nr_cpu_ids})
   */
  public PageCache(long dirtyablePages, DirtyParams params, int hz, int nrCpus) {
    if (dirtyablePages < 1) {
      throw new IllegalArgumentException("dirtyablePages must be >= 1, was " + dirtyablePages);
    }
    this.dirtyablePages = dirtyablePages;
    this.params = params;
    this.hz = hz;
    this.nrCpus = nrCpus;
    this.limits = DirtyLimits.domainDirtyLimits(params, dirtyablePages);
    this.domain = new WbDomain(hz, 0, limits.threshPages());
    this.ratelimitPages = BalanceDirtyPages.ratelimitPages(limits.threshPages(), nrCpus);
    this.bdpRatelimits = new long[nrCpus];
  }

  /** A new writeback context for a block device ({@code bdi_writeback} of its bdi). */
  public BdiWriteback newWb(String name, WbScheduler scheduler) {
    BdiWriteback wb = new BdiWriteback(this, name, scheduler,
        new WbBandwidth(hz, nrCpus, 0));
    wbs.add(wb);
    return wb;
  }

  /** A new inode's page cache, written back through {@code wb}. */
  public AddressSpace newAddressSpace(AddressSpace.Host host, BdiWriteback wb) {
    return new AddressSpace(nextIno++, host, wb);
  }

  /** The page cache of inode {@code ino} of a filesystem, written back through {@code wb}. */
  public AddressSpace newAddressSpace(AddressSpace.Host host, BdiWriteback wb, long ino) {
    return new AddressSpace(ino, host, wb);
  }

  public DirtyParams params() {
    return params;
  }

  public int hz() {
    return hz;
  }

  public DirtyLimits limits() {
    return limits;
  }

  public WbDomain domain() {
    return domain;
  }

  /** {@code ratelimit_pages}. */
  public long ratelimitPages() {
    return ratelimitPages;
  }

  /** The writeback contexts, in creation order. */
  public List<BdiWriteback> wbs() {
    return List.copyOf(wbs);
  }

  /** {@code NR_FILE_PAGES}. */
  public long nrFilePages() {
    return nrFilePages;
  }

  /** {@code NR_FILE_DIRTY}: Dirty in /proc/meminfo, in pages. */
  public long nrDirty() {
    return nrDirty;
  }

  /** {@code NR_WRITEBACK}: Writeback in /proc/meminfo, in pages. */
  public long nrWriteback() {
    return nrWriteback;
  }

  /** {@code nr_dirtied} of /proc/vmstat. */
  public long nrDirtied() {
    return nrDirtied;
  }

  /** {@code nr_written} of /proc/vmstat. */
  public long nrWritten() {
    return nrWritten;
  }

  /** What balance_dirty_pages() did. */
  public BdpStats bdpStats() {
    return bdpStats;
  }

  void recordBalance(BdpDecision d) {
    bdpStats.record(d, hz);
  }

  /**
   * One iteration of {@code balance_dirty_pages()} for {@code task}, which has dirtied
   * {@code pagesDirtied} pages and has been throttled against {@code wb} since
   * {@code startJiffies}: the task's dirty state and the decision are recorded, background
   * writeback is started when the decision asks for it, and a pause puts the task to sleep until
   * it ends ({@code sleep()} of the result). Shared by buffered writes and write faults.
   */
  BdpDecision balanceDirtyPages(blksim.kernel.sched.Task task, BdiWriteback wb, long pagesDirtied,
      long startJiffies, blksim.kernel.sched.TaskCpu cpu) {
    Object s = task.mmState();
    TaskDirtyState state = s == null ? TaskDirtyState.FORK : (TaskDirtyState) s;
    BdpDecision d = BalanceDirtyPages.balanceDirtyPagesIteration(snapshot(wb), pagesDirtied,
        state, domain(), wb.bw, jiffies(cpu.now()), startJiffies);
    task.setMmState(d.task());
    if (d.kickBackgroundWriteback() && !wb.running) {
      wb.startBackgroundWriteback();
    }
    recordBalance(d);
    if (d.sleep()) {
      blksim.kernel.sched.CpuComponent c = cpu.cpu();
      c.callAfter(d.pauseNs(hz), () -> c.wake(task));
      cpu.sleep();
    } else if (d.loopAgain()) {
      // The kernel loops again only after a sleep with a zero rate; the arithmetic never asks
      // for a loop without one.
      throw new IllegalStateException(task.comm() + ": balance_dirty_pages loops without sleeping");
    }
    return d;
  }

  /** Clean pages dropped by reclaim so far. */
  public long reclaimedPages() {
    return reclaimedPages;
  }

  /**
   * {@code pgpgin} of /proc/vmstat: KiB read from disk by the page cache's reads of files
   * ({@link FilemapRead}). Simplified: the kernel counts every read bio in {@code submit_bio()};
   * O_DIRECT reads and {@link blksim.kernel.fs.BlockDeviceFile}'s buffered reads are not counted
   * here.
   */
  public long pgpgin() {
    return pgpginSectors / 2;
  }

  /**
   * Pages readahead added to the page cache (holes included): blksim's own counter, what the
   * {@code mm_filemap_add_to_page_cache} tracepoint would count for readahead (6.6's /proc/vmstat
   * has none).
   */
  public long readaheadPages() {
    return readaheadPages;
  }

  /** A read bio of {@code sectors} was submitted ({@code count_vm_events(PGPGIN, ...)}). */
  void accountPgpgin(long sectors) {
    pgpginSectors += sectors;
  }

  /**
   * {@code filemap_add_folio()} of a page about to be read: cached, locked and not up to date,
   * with PG_readahead when {@code mark}; a hole is zeroed and up to date at once (no I/O).
   */
  void addReadPage(AddressSpace as, long index, boolean mark, boolean hole, boolean readahead) {
    addCached(as, index);
    if (!hole) {
      as.lockedBits = AddressSpace.set(as.lockedBits, index);
      as.notUptodateBits = AddressSpace.set(as.notUptodateBits, index);
    }
    if (mark) {
      as.raBits = AddressSpace.set(as.raBits, index);
    }
    if (readahead) {
      readaheadPages++;
    }
  }

  /** {@code ->read_folio()} of a cached page that is not up to date: locked again. */
  void relockForRead(AddressSpace as, long index) {
    as.lockedBits = AddressSpace.set(as.lockedBits, index);
  }

  /**
   * The end of a page's read ({@code folio_end_read()} in the bio's completion): up to date when
   * {@code ok}, unlocked either way. A page that left the cache meanwhile is skipped.
   */
  void endRead(AddressSpace as, long index, boolean ok) {
    if (!AddressSpace.test(as.lockedBits, index)) {
      return;
    }
    AddressSpace.clear(as.lockedBits, index);
    if (ok) {
      AddressSpace.clear(as.notUptodateBits, index);
    }
  }

  /** {@code folio_clear_readahead()}. */
  void clearReadahead(AddressSpace as, long index) {
    AddressSpace.clear(as.raBits, index);
  }

  /** {@code folio_mark_accessed()} of a page read: the inode becomes the newest on the LRU. */
  void accessed(AddressSpace as) {
    if (as.onLru) {
      touch(as);
    }
  }

  /**
   * {@code invalidate_mapping_pages()} over pages {@code [first, end)} (POSIX_FADV_DONTNEED):
   * clean, unlocked pages leave the cache; returns how many did.
   */
  public long invalidateClean(AddressSpace as, long first, long end) {
    long n = 0;
    for (long i = first; i < end && i < ((long) as.cachedBits.length << 6); i++) {
      if (as.cached(i) && !as.dirty(i) && !as.underWriteback(i) && !as.locked(i)) {
        AddressSpace.clear(as.cachedBits, i);
        AddressSpace.clear(as.notUptodateBits, i);
        AddressSpace.clear(as.raBits, i);
        as.nrPages--;
        nrFilePages--;
        n++;
      }
    }
    return n;
  }

  /** jiffies at {@code nowNs}. */
  public long jiffies(long nowNs) {
    return nowNs / blksim.kernel.timer.Jiffies.tickNs(hz);
  }

  /** Page {@code index} enters the cache (read in, or about to be written). */
  void addCached(AddressSpace as, long index) {
    if (as.cached(index)) {
      return;
    }
    as.cachedBits = AddressSpace.set(as.cachedBits, index);
    as.nrPages++;
    nrFilePages++;
    touch(as);
    if (nrFilePages > dirtyablePages) {
      reclaim();
    }
  }

  /**
   * {@code __set_page_dirty_nobuffers()} / {@code account_page_dirtied()}: returns whether the
   * page became dirty (it was clean). The first dirty page of a clean inode dirties the inode
   * ({@code __mark_inode_dirty()}): it joins its wb's {@code b_dirty} as the newest, and a wb that
   * had no dirty inode arms its flusher ({@code wb_wakeup_delayed()}).
   */
  boolean setPageDirty(AddressSpace as, long index, long nowNs, int cpuId) {
    if (as.dirtyExtents != null && as.inDirtyExtent(index)) {
      return false;
    }
    addCached(as, index);
    if (as.dirty(index)) {
      return false;
    }
    as.dirtyBits = AddressSpace.set(as.dirtyBits, index);
    as.nrDirty++;
    nrDirty++;
    nrDirtied++;
    BdiWriteback wb = as.wb;
    wb.reclaimable++;
    wb.dirtied++;
    bdpRatelimits[cpuId]++;
    if (as.nrDirty == 1 && as.ioList == null && !as.iSync) {
      as.dirtiedWhenNs = nowNs;
      boolean wasIdle = !wb.hasDirtyIo();
      wb.bDirty.addNewest(as);
      if (wasIdle) {
        wb.wakeupDelayed();
      }
    }
    return true;
  }

  /** {@code clear_page_dirty_for_io()} and {@code set_page_writeback()}. */
  void startWriteback(AddressSpace as, long index) {
    AddressSpace.clear(as.dirtyBits, index);
    as.nrDirty--;
    nrDirty--;
    as.wb.reclaimable--;
    as.writebackBits = AddressSpace.set(as.writebackBits, index);
    as.nrWriteback++;
    nrWriteback++;
    as.wb.writeback++;
  }

  /** {@code end_page_writeback()} ({@code test_clear_page_writeback()}): the page is clean. */
  void endWriteback(AddressSpace as, long index) {
    AddressSpace.clear(as.writebackBits, index);
    as.nrWriteback--;
    nrWriteback--;
    nrWritten++;
    as.wb.writeback--;
    as.wb.written++;
    if (as.nrWriteback == 0 && as.writebackWaiter != null) {
      Runnable w = as.writebackWaiter;
      as.writebackWaiter = null;
      w.run();
    }
  }

  /**
   * Dirties pages {@code [first, first + n)} of {@code as} as one extent, with no state per
   * page ({@link AddressSpace#dirtyExtents}): the accounting of {@link #setPageDirty} for the
   * pages that were not dirty yet (an overlap with a dirty extent counts once; adjacent and
   * overlapping extents merge), and the inode joins {@code b_dirty} if it was clean. Returns the
   * pages that became dirty.
   *
   * <p>Simplified: no {@code balance_dirty_pages()} (the caller stands for data written before
   * the run's window of interest), and the pages must not also be dirty as page bits (the
   * per-page path skips pages inside a dirty extent, so the two never count a page twice).
   */
  public long dirtyRange(AddressSpace as, long first, long n, long nowNs) {
    if (first < 0 || n < 1) {
      throw new IllegalArgumentException("dirtyRange [" + first + ", +" + n + ") of inode "
          + as.ino);
    }
    if (as.dirtyExtents == null) {
      as.dirtyExtents = new java.util.TreeMap<>();
    }
    java.util.TreeMap<Long, Long> m = as.dirtyExtents;
    long start = first;
    long end = first + n;
    long overlap = 0;
    java.util.Map.Entry<Long, Long> e = m.floorEntry(start);
    if (e != null && e.getValue() >= start) {
      start = e.getKey();
    }
    // Every extent that starts in [start, end] merges into the new one.
    for (java.util.Map.Entry<Long, Long> x = m.ceilingEntry(start); x != null
        && x.getKey() <= end; x = m.ceilingEntry(start)) {
      long os = Math.max(x.getKey(), first);
      long oe = Math.min(x.getValue(), first + n);
      if (oe > os) {
        overlap += oe - os;
      }
      end = Math.max(end, x.getValue());
      m.remove(x.getKey());
    }
    m.put(start, end);
    long added = n - overlap;
    if (added == 0) {
      return 0;
    }
    as.nrDirty += added;
    as.nrPages += added;
    nrDirty += added;
    nrDirtied += added;
    nrFilePages += added;
    BdiWriteback wb = as.wb;
    wb.reclaimable += added;
    wb.dirtied += added;
    if (as.nrDirty == added && as.ioList == null && !as.iSync) {
      as.dirtiedWhenNs = nowNs;
      boolean wasIdle = !wb.hasDirtyIo();
      wb.bDirty.addNewest(as);
      if (wasIdle) {
        wb.wakeupDelayed();
      }
    }
    if (nrFilePages > dirtyablePages) {
      reclaim();
    }
    return added;
  }

  /**
   * {@code write_cache_pages()} over extents: the first dirty extent piece at or after page
   * {@code from} of at most {@code max} pages is cleared and put under writeback as a whole
   * (the extent is split when only part of it is taken). Returns {first, pages}, or null when
   * no dirty extent starts or continues at or after {@code from}.
   */
  long[] startWritebackExtent(AddressSpace as, long from, long max) {
    java.util.TreeMap<Long, Long> m = as.dirtyExtents;
    if (m == null || m.isEmpty() || max < 1) {
      return null;
    }
    java.util.Map.Entry<Long, Long> e = m.floorEntry(from);
    if (e == null || e.getValue() <= from) {
      e = m.ceilingEntry(from);
      if (e == null) {
        return null;
      }
    }
    long s = Math.max(e.getKey(), from);
    long end = e.getValue();
    long n = Math.min(max, end - s);
    m.remove(e.getKey());
    if (e.getKey() < s) {
      m.put(e.getKey(), s);
    }
    if (s + n < end) {
      m.put(s + n, end);
    }
    as.nrDirty -= n;
    nrDirty -= n;
    as.wb.reclaimable -= n;
    as.nrWriteback += n;
    as.nrExtentWriteback += n;
    nrWriteback += n;
    as.wb.writeback += n;
    return new long[] {s, n};
  }

  /**
   * The end of writeback of {@code n} pages of an extent ({@link #startWritebackExtent}): they
   * are clean and, carrying no state of their own, leave the cache at once (the unmount that
   * follows such a volume would evict them anyway).
   */
  void endWritebackExtent(AddressSpace as, long n) {
    as.nrWriteback -= n;
    as.nrExtentWriteback -= n;
    nrWriteback -= n;
    nrWritten += n;
    as.wb.writeback -= n;
    as.wb.written += n;
    as.nrPages -= n;
    nrFilePages -= n;
    if (as.nrWriteback == 0 && as.writebackWaiter != null) {
      Runnable w = as.writebackWaiter;
      as.writebackWaiter = null;
      w.run();
    }
  }

  /** Drops every page of an inode that is being freed (truncate on unlink). */
  public void truncate(AddressSpace as) {
    if (as.dirtyExtents != null) {
      for (java.util.Map.Entry<Long, Long> e : as.dirtyExtents.entrySet()) {
        long n = e.getValue() - e.getKey();
        as.nrDirty -= n;
        nrDirty -= n;
        as.wb.reclaimable -= n;
      }
      as.dirtyExtents.clear();
    }
    for (long i = as.nextDirty(0); i >= 0; i = as.nextDirty(i + 1)) {
      AddressSpace.clear(as.dirtyBits, i);
      as.nrDirty--;
      nrDirty--;
      as.wb.reclaimable--;
    }
    nrFilePages -= as.nrPages - as.nrWriteback;
    as.nrPages = as.nrWriteback;
    as.cachedBits = as.writebackBits.clone();
    // Reads in flight end on pages that are gone; their readers look the page up again.
    as.lockedBits = new long[0];
    as.notUptodateBits = new long[0];
    as.raBits = new long[0];
    as.freeing = true;
    InodeList.unlink(as);
    lruUnlink(as);
  }

  /** Whether the per-CPU ratelimit says the dirtier on {@code cpuId} should check the limits. */
  boolean ratelimited(TaskDirtyState t, BdiWriteback wb, int cpuId) {
    if (BalanceDirtyPages.balanceDirtyPagesRatelimited(t.nrDirtied(), t.nrDirtiedPause(),
        wb.bw.dirtyExceeded(), bdpRatelimits[cpuId], ratelimitPages)) {
      bdpRatelimits[cpuId] = 0;
      return true;
    }
    return false;
  }

  /** What one {@code balance_dirty_pages()} iteration reads now, for {@code wb}. */
  DirtySnapshot snapshot(BdiWriteback wb) {
    long wbThresh = BalanceDirtyPages.wbCalcThresh(limits.threshPages(), 1, 1);
    return new DirtySnapshot(nrDirty, nrDirty + nrWriteback, limits,
        wb.reclaimable + wb.writeback, wbThresh, wb.dirtied, wb.written, wb.running);
  }

  private void touch(AddressSpace as) {
    lruUnlink(as);
    as.lruPrev = lruNewest;
    as.lruNext = null;
    if (lruNewest != null) {
      lruNewest.lruNext = as;
    } else {
      lruOldest = as;
    }
    lruNewest = as;
    as.onLru = true;
  }

  private void lruUnlink(AddressSpace as) {
    if (!as.onLru) {
      return;
    }
    if (as.lruPrev != null) {
      as.lruPrev.lruNext = as.lruNext;
    } else {
      lruOldest = as.lruNext;
    }
    if (as.lruNext != null) {
      as.lruNext.lruPrev = as.lruPrev;
    } else {
      lruNewest = as.lruPrev;
    }
    as.lruPrev = null;
    as.lruNext = null;
    as.onLru = false;
  }

  /** Pages of {@code as} held as dirty or writeback extents. */
  private static long extentPages(AddressSpace as) {
    if (as.dirtyExtents == null) {
      return 0;
    }
    long n = as.nrExtentWriteback;
    for (java.util.Map.Entry<Long, Long> e : as.dirtyExtents.entrySet()) {
      n += e.getValue() - e.getKey();
    }
    return n;
  }

  /** Drops clean pages of the least recently used inodes (class comment). */
  private void reclaim() {
    long target = dirtyablePages - Math.max(1, dirtyablePages / 64);
    AddressSpace as = lruOldest;
    while (nrFilePages > target && as != null) {
      AddressSpace next = as.lruNext;
      long keep = 0;
      long[] kept = new long[Math.max(Math.max(as.dirtyBits.length, as.writebackBits.length),
          as.lockedBits.length)];
      for (int w = 0; w < kept.length; w++) {
        long d = w < as.dirtyBits.length ? as.dirtyBits[w] : 0;
        long b = w < as.writebackBits.length ? as.writebackBits[w] : 0;
        long l = w < as.lockedBits.length ? as.lockedBits[w] : 0;
        kept[w] = d | b | l;
        keep += Long.bitCount(kept[w]);
      }
      for (int w = 0; w < as.notUptodateBits.length; w++) {
        as.notUptodateBits[w] &= w < kept.length ? kept[w] : 0;
      }
      for (int w = 0; w < as.raBits.length; w++) {
        as.raBits[w] &= w < kept.length ? kept[w] : 0;
      }
      // Pages held as extents are dirty or under writeback: they stay.
      keep += extentPages(as);
      long dropped = as.nrPages - keep;
      if (dropped > 0) {
        as.cachedBits = kept;
        as.nrPages = keep;
        nrFilePages -= dropped;
        reclaimedPages += dropped;
      }
      if (keep == 0) {
        lruUnlink(as);
        if (as.openCount == 0 && as.ioList == null && !as.iSync) {
          as.host.evicted(as);
        }
      }
      as = next;
    }
  }
}
