package blksim.kernel.mm;

/**
 * The page cache of one inode ({@code struct address_space}) together with the inode's writeback
 * state ({@code i_state}'s I_DIRTY_PAGES and I_SYNC, {@code dirtied_when}, the {@code i_io_list}
 * link on its {@link BdiWriteback}'s lists): which pages are cached, dirty and under writeback.
 *
 * <p>Pages are indexed from 0 (4 KiB each); three bitmaps, grown on demand, hold the states, so a
 * one-page file costs three one-word arrays. A page is {@code cached} once read or written; dirty
 * and writeback pages are always cached.
 *
 * <p>Owned by the {@link PageCache}; every change of a page's state goes through it, so that the
 * global and per-wb counters follow.
 */
public final class AddressSpace {
  /** The host's side of writeback ({@code a_ops->writepages}): where a page goes on the disk. */
  public interface Host {
    /**
     * Prepares the inode for writing back its dirty pages (a filesystem allocates the delayed
     * extents here: {@code xfs_iomap_write_allocate()}); returns the system time it costs the
     * writing task (per inode: allocation transaction, mapping).
     */
    long prepareWriteback(AddressSpace as);

    /** The disk sector (512 B) of page {@code index}, valid after {@link #prepareWriteback}. */
    long sectorOf(AddressSpace as, long index);

    /**
     * Reclaim dropped the last page of a clean inode that no one holds open: the host may forget
     * it ({@code evict()} from the inode cache). The default keeps it.
     */
    default void evicted(AddressSpace as) {}

    /** {@code i_size_read()} of the inode, bytes (the read path's EOF). */
    default long iSize(AddressSpace as) {
      return Long.MAX_VALUE;
    }

    /**
     * Where a read of page {@code index} goes ({@code ->readahead} / {@code ->read_folio} mapping
     * the block, {@code iomap_begin()} for reads): the disk sector, or -1 for a hole, which is
     * read as zeros without I/O. Never allocates. The default is {@link #sectorOf}.
     */
    default long readSector(AddressSpace as, long index) {
      return sectorOf(as, index);
    }

    /**
     * How many pages from {@code index} (at most {@code max}, at least 1) lie one after the other
     * on the disk from {@link #sectorOf}{@code (index)}: the writeback of extents cuts its bios
     * there without looking at each page. The default, a linear mapping, is {@code max}.
     */
    default long contiguousPages(AddressSpace as, long index, long max) {
      return max;
    }
  }

  private static final long[] NONE = new long[0];

  final long ino;
  final Host host;
  final BdiWriteback wb;
  long[] cachedBits = NONE;
  long[] dirtyBits = NONE;
  long[] writebackBits = NONE;
  /** PG_locked of pages being read (in the cache, I/O in flight). */
  long[] lockedBits = NONE;
  /** Cached pages that are not PG_uptodate (being read, or their read failed). */
  long[] notUptodateBits = NONE;
  /** PG_readahead: the marker that starts the next asynchronous readahead. */
  long[] raBits = NONE;
  /** Readers waiting for a page's lock ({@code folio_wait_bit()} on PG_locked). */
  final blksim.kernel.sched.WaitQueue pageWait = new blksim.kernel.sched.WaitQueue();
  /**
   * Callbacks waiting for a page's lock without a sleeping task (io_uring's
   * {@code wait_page_queue} with {@code io_async_buf_func()}): page index, callback; null until
   * the first. Run in the order they were added when their page is unlocked.
   */
  private java.util.ArrayList<AsyncPageWait> asyncWaiters;

  private record AsyncPageWait(long page, Runnable fn) {}
  long nrPages;
  long nrDirty;
  long nrWriteback;
  /** {@code inode->dirtied_when}, ns: when the inode first became dirty (0 if clean). */
  long dirtiedWhenNs;
  /** I_SYNC: the inode is being written back by someone. */
  boolean iSync;
  /** The inode is being freed (unlinked and closed): its pages are gone. */
  boolean freeing;
  /** {@code mapping->writeback_index}: where a cyclic writeback resumes. */
  long writebackIndex;
  /** Which of the wb's lists holds the inode, or null. */
  InodeList ioList;
  AddressSpace ioPrev;
  AddressSpace ioNext;
  /** Clean-page LRU links (reclaim). */
  AddressSpace lruPrev;
  AddressSpace lruNext;
  boolean onLru;
  /** Waiters for the end of writeback of this inode ({@code wait_on_page_writeback}). */
  Runnable writebackWaiter;
  /** Open files on the inode ({@code i_count} as far as reclaim cares). */
  int openCount;
  /** The host's own per-inode data (a filesystem's extents), opaque here. */
  Object hostData;
  /**
   * Dirty pages held as extents (first page -> end page, merged, disjoint) instead of page
   * bits, or null: what {@link PageCache#dirtyRange} makes for a large dirty volume. Such pages
   * carry no state of their own (no cached, dirty or writeback bit); they count in
   * {@link #nrPages} and {@link #nrDirty} and, once written back, in {@link #nrWriteback} until
   * their bio ends, when they leave the cache.
   */
  java.util.TreeMap<Long, Long> dirtyExtents;
  /** Pages of {@link #dirtyExtents} now under writeback (part of {@link #nrWriteback}). */
  long nrExtentWriteback;

  /**
   * {@code __folio_lock_async()}: runs {@code fn} once page {@code index} is unlocked (from the
   * read's completion, {@link ReadaheadPages}), as {@code io_async_buf_func()} does; at once if
   * it is not locked now.
   */
  public void waitPageAsync(long index, Runnable fn) {
    if (!locked(index)) {
      fn.run();
      return;
    }
    if (asyncWaiters == null) {
      asyncWaiters = new java.util.ArrayList<>();
    }
    asyncWaiters.add(new AsyncPageWait(index, fn));
  }

  /** Runs, in order, the async waiters whose page is no longer locked ({@code wake_page_function}). */
  void wakeAsyncWaiters() {
    if (asyncWaiters == null || asyncWaiters.isEmpty()) {
      return;
    }
    java.util.List<Runnable> due = new java.util.ArrayList<>();
    asyncWaiters.removeIf(w -> {
      if (locked(w.page())) {
        return false;
      }
      due.add(w.fn());
      return true;
    });
    due.forEach(Runnable::run);
  }

  /**
   * {@code filemap_fdatawait()}'s sleep: runs {@code waker} when the inode's last page under
   * writeback ends; false, and nothing registered, when none is under writeback now. Waiters
   * queue behind each other (the page's wait queue), woken in the order they came.
   */
  public boolean awaitWriteback(Runnable waker) {
    if (nrWriteback == 0) {
      return false;
    }
    addWritebackWaiter(waker);
    return true;
  }

  void addWritebackWaiter(Runnable waker) {
    Runnable prev = writebackWaiter;
    writebackWaiter = prev == null ? waker : () -> {
      prev.run();
      waker.run();
    };
  }

  AddressSpace(long ino, Host host, BdiWriteback wb) {
    this.ino = ino;
    this.host = host;
    this.wb = wb;
  }

  /** The inode number. */
  public long ino() {
    return ino;
  }

  /** The host's per-inode data, or null. */
  public Object hostData() {
    return hostData;
  }

  /** Sets the host's per-inode data. */
  public void setHostData(Object data) {
    hostData = data;
  }

  /** Open files on the inode. */
  public int openCount() {
    return openCount;
  }

  /** An open file takes ({@code +1}) or drops ({@code -1}) a reference. */
  public void open(int delta) {
    openCount += delta;
    if (openCount < 0) {
      throw new IllegalStateException("inode " + ino + " closed more often than opened");
    }
  }

  /** The first dirty page, or -1. */
  public long firstDirty() {
    long p = nextDirty(0);
    if (dirtyExtents != null && !dirtyExtents.isEmpty()) {
      long e = dirtyExtents.firstKey();
      p = p < 0 ? e : Math.min(p, e);
    }
    return p;
  }

  /** One past the last dirty page, or 0 when clean. */
  public long endDirty() {
    long end = 0;
    for (int w = dirtyBits.length - 1; w >= 0; w--) {
      if (dirtyBits[w] != 0) {
        end = ((long) w << 6) + 64 - Long.numberOfLeadingZeros(dirtyBits[w]);
        break;
      }
    }
    if (dirtyExtents != null && !dirtyExtents.isEmpty()) {
      end = Math.max(end, dirtyExtents.lastEntry().getValue());
    }
    return end;
  }

  /** Whether the inode has dirty pages held as extents ({@link #dirtyExtents}). */
  public boolean hasDirtyExtents() {
    return dirtyExtents != null && !dirtyExtents.isEmpty();
  }

  /** The dirty extents as {first, end} pairs in page order (for tests and reports). */
  public java.util.List<long[]> dirtyExtentList() {
    java.util.List<long[]> out = new java.util.ArrayList<>();
    if (dirtyExtents != null) {
      for (java.util.Map.Entry<Long, Long> e : dirtyExtents.entrySet()) {
        out.add(new long[] {e.getKey(), e.getValue()});
      }
    }
    return out;
  }

  /** Whether page {@code index} lies in a dirty extent. */
  boolean inDirtyExtent(long index) {
    if (dirtyExtents == null) {
      return false;
    }
    java.util.Map.Entry<Long, Long> e = dirtyExtents.floorEntry(index);
    return e != null && index < e.getValue();
  }

  /** Pages in the cache. */
  public long nrPages() {
    return nrPages;
  }

  /** Dirty pages. */
  public long nrDirty() {
    return nrDirty;
  }

  /** Pages under writeback. */
  public long nrWriteback() {
    return nrWriteback;
  }

  /** The wb that writes this inode back. */
  public BdiWriteback wb() {
    return wb;
  }

  static boolean test(long[] bits, long index) {
    int w = (int) (index >>> 6);
    return w < bits.length && (bits[w] & (1L << index)) != 0;
  }

  static long[] set(long[] bits, long index) {
    int w = (int) (index >>> 6);
    if (w >= bits.length) {
      bits = java.util.Arrays.copyOf(bits, Math.max(w + 1, bits.length * 2));
    }
    bits[w] |= 1L << index;
    return bits;
  }

  static void clear(long[] bits, long index) {
    int w = (int) (index >>> 6);
    if (w < bits.length) {
      bits[w] &= ~(1L << index);
    }
  }

  /** Whether page {@code index} is cached. */
  public boolean cached(long index) {
    return test(cachedBits, index);
  }

  /** Whether page {@code index} is locked for a read in flight. */
  public boolean locked(long index) {
    return test(lockedBits, index);
  }

  /** Whether page {@code index} is cached and up to date. */
  public boolean uptodate(long index) {
    return cached(index) && !test(notUptodateBits, index);
  }

  /** Whether page {@code index} carries PG_readahead. */
  public boolean readaheadMark(long index) {
    return cached(index) && test(raBits, index);
  }

  /** Whether page {@code index} is dirty. */
  public boolean dirty(long index) {
    return test(dirtyBits, index);
  }

  /** Whether page {@code index} is under writeback. */
  public boolean underWriteback(long index) {
    return test(writebackBits, index);
  }

  /**
   * The first dirty page at or after {@code from}, or -1 ({@code find_get_pages_tag()} with
   * PAGECACHE_TAG_DIRTY).
   */
  public long nextDirty(long from) {
    int w = (int) (from >>> 6);
    if (w >= dirtyBits.length) {
      return -1;
    }
    long word = dirtyBits[w] & (-1L << from);
    while (true) {
      if (word != 0) {
        return ((long) w << 6) + Long.numberOfTrailingZeros(word);
      }
      if (++w == dirtyBits.length) {
        return -1;
      }
      word = dirtyBits[w];
    }
  }
}
