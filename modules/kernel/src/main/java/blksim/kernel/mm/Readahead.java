package blksim.kernel.mm;

/**
 * The readahead state of one open file ({@code struct file_ra_state}, {@code file->f_ra}) and the
 * window arithmetic of Linux 6.6's {@code mm/readahead.c}: {@code page_cache_sync_ra()},
 * {@code page_cache_async_ra()}, {@code ondemand_readahead()}, {@code get_init_ra_size()},
 * {@code get_next_ra_size()}, {@code try_context_readahead()}, {@code force_page_cache_ra()},
 * {@code do_page_cache_ra()} and {@code page_cache_ra_unbounded()}, and the readahead side of
 * {@code generic_fadvise()}.
 *
 * <p>The window: {@code start}, {@code size} pages, of which the last {@code asyncSize} are the
 * asynchronous part; the first page of that part carries the PG_readahead marker, and a reader
 * that reaches it starts the next window ({@link #asyncRa}) before it needs it. {@code raPages}
 * is the file's maximum, the bdi's {@code read_ahead_kb} / 4 at open
 * ({@code file_ra_state_init()}), doubled by POSIX_FADV_SEQUENTIAL; POSIX_FADV_RANDOM sets
 * FMODE_RANDOM, after which a miss reads only the pages asked for.
 *
 * <p>The caller owns the pages: {@link Pages} answers whether a page is in the cache and the
 * file's size, and receives the pages to add (locked, not up to date, with the marker where it
 * goes) and the batches to submit ({@code read_pages()}: one batch is a run of contiguous new
 * pages; a page already present ends the batch).
 *
 * <p>Simplified: pages are order-0 folios, so {@code page_cache_ra_order()} always takes its
 * fallback ({@code do_page_cache_ra(ra->size, ra->async_size)}) and the window is not rounded to
 * a large folio order (XFS uses large folios since 5.18: the windows are the same, the folios
 * fewer). {@code blk_cgroup_congested()} is never true. The bdi's {@code io_pages} (the device's
 * {@code max_sectors_kb} / 4) is a parameter; {@code page_cache_next_miss()} and
 * {@code page_cache_prev_miss()} scan at most {@code raPages} pages, as the kernel's do.
 */
public final class Readahead {
  /** What readahead needs of the page cache and the inode. */
  public interface Pages {
    /** Whether page {@code index} is in the page cache ({@code xa_load()} finds a folio). */
    boolean present(long index);

    /** {@code i_size_read(inode)}, bytes. */
    long iSize();

    /**
     * {@code filemap_add_folio()}: page {@code index} enters the cache locked and not up to date,
     * with PG_readahead when {@code mark}.
     */
    void add(long index, boolean mark);

    /** {@code read_pages()}: start the I/O of the pages added since the last call. */
    void submit();
  }

  /** fadvise advice values ({@code include/uapi/linux/fadvise.h}). */
  public static final int POSIX_FADV_NORMAL = 0;
  public static final int POSIX_FADV_RANDOM = 1;
  public static final int POSIX_FADV_SEQUENTIAL = 2;
  public static final int POSIX_FADV_WILLNEED = 3;
  public static final int POSIX_FADV_DONTNEED = 4;
  public static final int POSIX_FADV_NOREUSE = 5;

  /** {@code force_page_cache_ra()} chunks: 2 MiB of pages. */
  static final long FORCE_CHUNK_PAGES = (2L << 20) >>> 12;

  private final long bdiRaPages;
  private final long ioPages;
  private long start;
  private long size;
  private long asyncSize;
  private long raPages;
  /** {@code ra->prev_pos}: the end of the previous read, -1 before the first. */
  private long prevPos = -1;
  /** FMODE_RANDOM. */
  private boolean random;
  /** Pages added by readahead (new page-cache pages, holes included). */
  private long pagesAdded;

  /**
   * {@code file_ra_state_init()}.
   *
   * @param bdiRaPages the bdi's {@code ra_pages} ({@code read_ahead_kb} / 4); 0 disables
   * @param ioPages the bdi's {@code io_pages}
   */
  public Readahead(long bdiRaPages, long ioPages) {
    if (bdiRaPages < 0 || ioPages < 0) {
      throw new IllegalArgumentException("ra_pages and io_pages must be >= 0, were " + bdiRaPages
          + " and " + ioPages);
    }
    this.bdiRaPages = bdiRaPages;
    this.ioPages = ioPages;
    this.raPages = bdiRaPages;
  }

  public long start() {
    return start;
  }

  public long size() {
    return size;
  }

  public long asyncSize() {
    return asyncSize;
  }

  /** {@code ra->ra_pages}: this file's maximum window. */
  public long raPages() {
    return raPages;
  }

  /** FMODE_RANDOM (POSIX_FADV_RANDOM). */
  public boolean random() {
    return random;
  }

  public long prevPos() {
    return prevPos;
  }

  /** {@code ra->prev_pos = last_pos} at the end of {@code filemap_read()}. */
  public void setPrevPos(long pos) {
    prevPos = pos;
  }

  /** Pages this file's readahead added to the page cache. */
  public long pagesAdded() {
    return pagesAdded;
  }

  /**
   * The readahead side of {@code generic_fadvise()} for NORMAL, RANDOM, SEQUENTIAL (NOREUSE and
   * DONTNEED change nothing here; WILLNEED is {@link #forceRa} over the range, which the caller
   * does). Returns false for an unknown advice (-EINVAL).
   */
  public boolean fadvise(int advice) {
    switch (advice) {
      case POSIX_FADV_NORMAL:
        raPages = bdiRaPages;
        random = false;
        return true;
      case POSIX_FADV_RANDOM:
        random = true;
        return true;
      case POSIX_FADV_SEQUENTIAL:
        raPages = bdiRaPages * 2;
        random = false;
        return true;
      case POSIX_FADV_WILLNEED:
      case POSIX_FADV_DONTNEED:
      case POSIX_FADV_NOREUSE:
        return true;
      default:
        return false;
    }
  }

  /** {@code MMAP_LOTSAMISS} (mm/filemap.c). */
  static final int MMAP_LOTSAMISS = 100;
  /** {@code ra->mmap_miss}: the mapping's faults that missed the cache, less its hits. */
  private int mmapMiss;

  /** {@code ra->mmap_miss}. */
  public int mmapMiss() {
    return mmapMiss;
  }

  /**
   * {@code do_sync_mmap_readahead()} (6.6) for a fault on page {@code index} that found it absent,
   * in a mapping without VM_RAND_READ (the caller's check): with VM_SEQ_READ
   * ({@code MADV_SEQUENTIAL}) {@link #syncRa} of {@code ra_pages}; otherwise, unless the mapping
   * misses much more than it hits ({@code mmap_miss} past {@link #MMAP_LOTSAMISS}), the mmap
   * read-around: {@code ra_pages} pages centred on the fault, the last quarter asynchronous.
   */
  void mmapSyncRa(Pages pages, long index, boolean seqRead) {
    if (raPages == 0) {
      return;
    }
    if (seqRead) {
      syncRa(pages, index, raPages);
      return;
    }
    if (mmapMiss < MMAP_LOTSAMISS * 10) {
      mmapMiss++;
    }
    if (mmapMiss > MMAP_LOTSAMISS) {
      return;
    }
    start = Math.max(0, index - raPages / 2);
    size = raPages;
    asyncSize = raPages / 4;
    doPageCacheRa(pages, start, size, asyncSize);
  }

  /**
   * {@code do_async_mmap_readahead()} (6.6) for a fault that found page {@code index} cached, in
   * a mapping without VM_RAND_READ: a hit lowers {@code mmap_miss}; a page carrying PG_readahead
   * (cleared by the caller, which also skips a page under writeback) starts
   * {@link #asyncRa} of {@code ra_pages}.
   */
  void mmapAsyncRa(Pages pages, long index, boolean marked) {
    if (raPages == 0) {
      return;
    }
    if (mmapMiss > 0) {
      mmapMiss--;
    }
    if (marked) {
      asyncRa(pages, index, raPages);
    }
  }

  /** {@code page_cache_sync_ra()}: a read of {@code reqCount} pages missed at {@code index}. */
  public void syncRa(Pages pages, long index, long reqCount) {
    boolean forced = random;
    if (raPages == 0) {
      // Readahead disabled: read the one page as forced readahead.
      reqCount = 1;
      forced = true;
    }
    if (forced) {
      forceRa(pages, index, reqCount);
      return;
    }
    ondemand(pages, index, false, reqCount);
  }

  /**
   * {@code page_cache_async_ra()}: the read reached page {@code index}, which carried
   * PG_readahead (the caller cleared it; a page under writeback is the caller's to skip).
   */
  public void asyncRa(Pages pages, long index, long reqCount) {
    if (raPages == 0) {
      return;
    }
    ondemand(pages, index, true, reqCount);
  }

  /**
   * {@code force_page_cache_ra()} (POSIX_FADV_WILLNEED, FMODE_RANDOM misses): {@code nrToRead}
   * pages from {@code index}, at most {@code max(io_pages, ra_pages)}, in 2 MiB chunks, no marker.
   */
  public void forceRa(Pages pages, long index, long nrToRead) {
    long max = Math.max(ioPages, raPages);
    nrToRead = Math.min(nrToRead, max);
    while (nrToRead > 0) {
      long chunk = Math.min(FORCE_CHUNK_PAGES, nrToRead);
      doPageCacheRa(pages, index, chunk, 0);
      index += chunk;
      nrToRead -= chunk;
    }
  }

  private void ondemand(Pages pages, long index, boolean marker, long reqSize) {
    long maxPages = raPages;
    if (reqSize > maxPages && ioPages > maxPages) {
      maxPages = Math.min(reqSize, ioPages);
    }
    boolean initial = false;
    if (index == 0) {
      initial = true;
    } else if (index == start + size - asyncSize || index == start + size) {
      // The expected index: push the window forward and ramp it up.
      start += size;
      size = nextSize(size, maxPages);
      asyncSize = size;
    } else if (marker) {
      // A marked page without a matching state (interleaved streams): size from the cache.
      long miss = nextMiss(pages, index + 1, maxPages);
      if (miss == 0 || miss - index > maxPages) {
        return;
      }
      start = miss;
      size = miss - index + reqSize;
      size = nextSize(size, maxPages);
      asyncSize = size;
    } else if (reqSize > maxPages) {
      initial = true;
    } else if (Long.compareUnsigned(index - (prevPos >>> 12), 1) <= 0) {
      // A sequential miss: the page after the previous read, or the same page.
      initial = true;
    } else if (!contextReadahead(pages, index, reqSize, maxPages)) {
      // A small random read: read as is, leave the state alone.
      doPageCacheRa(pages, index, reqSize, 0);
      return;
    }
    if (initial) {
      start = index;
      size = initSize(reqSize, maxPages);
      asyncSize = size > reqSize ? size - reqSize : size;
    }
    // readit: a read that would hit its own marker gets the next window merged now.
    if (index == start && size == asyncSize) {
      long add = nextSize(size, maxPages);
      if (size + add <= maxPages) {
        asyncSize = add;
        size += add;
      } else {
        size = maxPages;
        asyncSize = maxPages >> 1;
      }
    }
    doPageCacheRa(pages, start, size, asyncSize);
  }

  /** {@code try_context_readahead()}: a stream recognised from the pages cached before it. */
  private boolean contextReadahead(Pages pages, long index, long reqSize, long maxPages) {
    long history = 0;
    // count_history_pages(): cached pages from index - 1 down, at most max.
    while (history < maxPages && index - 1 - history >= 0 && pages.present(index - 1 - history)) {
      history++;
    }
    if (history <= reqSize) {
      return false;
    }
    if (history >= index) {
      history *= 2;
    }
    start = index;
    size = Math.min(history + reqSize, maxPages);
    asyncSize = 1;
    return true;
  }

  /** {@code page_cache_next_miss()}: the first absent page in [from, from + max), else 0. */
  private static long nextMiss(Pages pages, long from, long max) {
    for (long i = from; i < from + max; i++) {
      if (!pages.present(i)) {
        return i;
      }
    }
    return 0;
  }

  /** {@code do_page_cache_ra()} then {@code page_cache_ra_unbounded()}. */
  private void doPageCacheRa(Pages pages, long index, long nrToRead, long lookahead) {
    long isize = pages.iSize();
    if (isize <= 0) {
      return;
    }
    long endIndex = (isize - 1) >>> 12;
    if (index > endIndex) {
      return;
    }
    if (nrToRead > endIndex - index) {
      nrToRead = endIndex - index + 1;
    }
    boolean batch = false;
    for (long i = 0; i < nrToRead; i++) {
      long p = index + i;
      if (pages.present(p)) {
        // Kick off the batch so far; the present page is skipped (and keeps no marker).
        if (batch) {
          pages.submit();
          batch = false;
        }
        continue;
      }
      pages.add(p, i == nrToRead - lookahead);
      pagesAdded++;
      batch = true;
    }
    if (batch) {
      pages.submit();
    }
  }

  /** {@code get_init_ra_size()}: the first window for a read of {@code size} pages. */
  static long initSize(long size, long max) {
    long n = roundupPowerOfTwo(size);
    if (n <= max / 32) {
      return n * 4;
    }
    if (n <= max / 4) {
      return n * 2;
    }
    return max;
  }

  /** {@code get_next_ra_size()}: the window after one of {@code cur} pages. */
  static long nextSize(long cur, long max) {
    if (cur < max / 16) {
      return 4 * cur;
    }
    if (cur <= max / 2) {
      return 2 * cur;
    }
    return max;
  }

  private static long roundupPowerOfTwo(long n) {
    return n <= 1 ? 1 : Long.highestOneBit(n - 1) << 1;
  }
}
