package blksim.workload.fio;

/**
 * fio's random map: which blocks of the region a random job has already visited in this pass, so
 * each block is visited once per pass unless {@code norandommap}.
 *
 * <p>Mirrors {@code __get_next_rand_offset()} in fio's {@code io_u.c} with {@code lib/axmap.c}: a
 * uniformly drawn block that is free is taken; a busy one is replaced by the next free block after
 * it ({@code axmap_next_free()}, wrapping to the start); when no block is free the pass is over
 * ({@link #next} returns -1) and {@link #reset} starts the next one ({@code fio_file_reset()}).
 *
 * <p>Memory: fio allocates its bitmap (one bit per block plus the upper levels) when the file is
 * set up. blksim starts sparse: the used blocks in an open-addressing set (one probe per draw,
 * 16 bytes or less per used block; 8 with int keys when the map has fewer than 2^31 blocks, every
 * device up to 8 TiB of 4 KiB blocks, with the same slots and probing order), and turns to a bitmap when the set would outgrow one (more
 * than a block in 128 used) or a draw meets a run of {@value #MAX_PROBES} used blocks. The bitmap
 * is allocated lazily, in pages of {@value #PAGE_BLOCKS} blocks whose bits are themselves in
 * chunks of {@value #CHUNK_BLOCKS} blocks (64 words, 512 bytes) created on first touch, with one
 * reference and one counter per page (16 bytes per 256 MiB of 4 KiB blocks). A page whose blocks
 * are all used is skipped by its count; inside a page, a summary word per chunk (a bit per word
 * that is full) skips the full words. Why sparse first: a short job on a large device touches a
 * new page, then a new chunk, at almost every random block, so a 1,024-job run allocated most of
 * its heap in bitmaps (8 KiB per I/O with whole pages) and missed the caches on their levels
 * (issue 15 item 1). Which blocks are taken does not depend on the form. Owned by one job
 * thread.
 */
public final class RandomMap {
  /** Blocks per lazily allocated page: 2^16. */
  static final int PAGE_BLOCKS = 1 << 16;
  /** Blocks per lazily allocated chunk of a page's bitmap: 2^12 (64 longs). */
  static final int CHUNK_BLOCKS = 1 << 12;
  private static final int WORDS = PAGE_BLOCKS / 64;
  private static final int CHUNKS = PAGE_BLOCKS / CHUNK_BLOCKS;
  /** The longest walk over used blocks the sparse form makes before it turns to the bitmap. */
  static final int MAX_PROBES = 64;

  private final long blocks;
  /** Whether the sparse form is in use (false once the bitmap is). */
  private boolean sparse = true;
  /**
   * Whether the set holds int keys ({@link #iset}, fewer than 2^31 blocks, so a block plus one
   * fits) rather than long keys ({@link #set}): half the memory and cache lines per probe.
   */
  private final boolean intKeys;
  /** The sparse form with long keys: used blocks plus one (0: free slot); null if not in use. */
  private long[] set;
  /** The sparse form with int keys: used blocks plus one (0: free slot); null if not in use. */
  private int[] iset;
  private int setSize;
  /** The set's largest capacity before the bitmap is cheaper (8 bytes a slot, 1 bit a block). */
  private final long maxSet;
  /** Per page, its chunks (null: all free), each 64 words of a bit per block; null while sparse. */
  private long[][][] pages;
  /** Per page, a word per chunk with a bit per word that is full (all 64 blocks used). */
  private long[][] fullWords;
  private int[] used;
  private long usedTotal;

  /** A map of {@code blocks} blocks, all free. */
  public RandomMap(long blocks) {
    if (blocks <= 0) {
      throw new IllegalArgumentException("blocks must be > 0, was " + blocks);
    }
    long nPages = (blocks + PAGE_BLOCKS - 1) / PAGE_BLOCKS;
    if (nPages > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("too many blocks for a random map: " + blocks);
    }
    this.blocks = blocks;
    this.maxSet = Math.max(16, blocks / 64);
    this.intKeys = blocks < (1L << 31);
    if (intKeys) {
      iset = new int[16];
    } else {
      set = new long[16];
    }
  }

  /** The set's capacity in slots (either form). */
  private int setCapacity() {
    return intKeys ? iset.length : set.length;
  }

  /** Whether the bitmap is in use (for tests of the sparse form). */
  boolean isBitmap() {
    return !sparse;
  }

  /** Whether the sparse form holds int keys (for tests). */
  boolean hasIntKeys() {
    return intKeys;
  }

  /** Turns to the bitmap form, marking the set's blocks in it. */
  private void toBitmap() {
    long nPages = (blocks + PAGE_BLOCKS - 1) / PAGE_BLOCKS;
    pages = new long[(int) nPages][][];
    fullWords = new long[(int) nPages][];
    used = new int[(int) nPages];
    long[] s = set;
    int[] is = iset;
    set = null;
    iset = null;
    sparse = false;
    setSize = 0;
    long total = usedTotal;
    usedTotal = 0;
    if (intKeys) {
      for (int k : is) {
        if (k != 0) {
          mark(k - 1L);
        }
      }
    } else {
      for (long k : s) {
        if (k != 0) {
          mark(k - 1);
        }
      }
    }
    if (usedTotal != total) {
      throw new IllegalStateException("random map: " + usedTotal + " blocks moved of " + total);
    }
  }

  private static int slot(long b, int mask) {
    return (int) ((b * 0x9E3779B97F4A7C15L) >>> 32) & mask;
  }

  private boolean setContains(long b) {
    if (intKeys) {
      int[] t = iset;
      int mask = t.length - 1;
      int key = (int) (b + 1);
      for (int i = slot(b, mask); ; i = (i + 1) & mask) {
        int k = t[i];
        if (k == key) {
          return true;
        }
        if (k == 0) {
          return false;
        }
      }
    }
    int mask = set.length - 1;
    for (int i = slot(b, mask); ; i = (i + 1) & mask) {
      long k = set[i];
      if (k == b + 1) {
        return true;
      }
      if (k == 0) {
        return false;
      }
    }
  }

  /** Adds free block {@code b} to the set; false if the set should become a bitmap instead. */
  private boolean setAdd(long b) {
    if ((setSize + 1) * 2L > setCapacity()) {
      if (setCapacity() * 2L > maxSet) {
        return false;
      }
      if (intKeys) {
        int[] old = iset;
        iset = new int[old.length * 2];
        for (int k : old) {
          if (k != 0) {
            put(k);
          }
        }
      } else {
        long[] old = set;
        set = new long[old.length * 2];
        for (long k : old) {
          if (k != 0) {
            put(k);
          }
        }
      }
    }
    put(b + 1);
    setSize++;
    return true;
  }

  private void put(long key) {
    if (intKeys) {
      int[] t = iset;
      int mask = t.length - 1;
      int i = slot(key - 1, mask);
      while (t[i] != 0) {
        i = (i + 1) & mask;
      }
      t[i] = (int) key;
      return;
    }
    int mask = set.length - 1;
    int i = slot(key - 1, mask);
    while (set[i] != 0) {
      i = (i + 1) & mask;
    }
    set[i] = key;
  }

  /** The number of blocks mapped. */
  public long blocks() {
    return blocks;
  }

  /** Blocks used in this pass. */
  public long usedBlocks() {
    return usedTotal;
  }

  /** Pages allocated so far (for tests of the lazy allocation). */
  int allocatedPages() {
    if (pages == null) {
      return 0;
    }
    int k = 0;
    for (long[][] p : pages) {
      if (p != null) {
        k++;
      }
    }
    return k;
  }

  /** Bitmap chunks allocated so far (for tests of the lazy allocation). */
  int allocatedChunks() {
    if (pages == null) {
      return 0;
    }
    int k = 0;
    for (long[][] p : pages) {
      if (p != null) {
        for (long[] c : p) {
          if (c != null) {
            k++;
          }
        }
      }
    }
    return k;
  }

  /**
   * Takes block {@code b} if it is free, else the next free block after it (wrapping), marks it
   * used and returns it; -1 if every block is used.
   */
  public long next(long b) {
    if (b < 0 || b >= blocks) {
      throw new IllegalArgumentException("block " + b + " outside [0, " + blocks + ")");
    }
    if (usedTotal == blocks) {
      return -1;
    }
    if (sparse) {
      // The first free block at or after b, wrapping; a long walk turns to the bitmap.
      long f = b;
      int probes = 0;
      while (probes <= MAX_PROBES && setContains(f)) {
        f = f + 1 == blocks ? 0 : f + 1;
        probes++;
      }
      if (probes <= MAX_PROBES) {
        mark(f);
        return f;
      }
      toBitmap();
    }
    long f = nextFree(b);
    if (f < 0) {
      f = nextFree(0);
    }
    mark(f);
    return f;
  }

  /**
   * Marks the free blocks right after {@code b} (already taken), up to {@code max} blocks in all
   * counting {@code b}, stopping at the first used one or the end: fio's {@code mark_random_map()}
   * marks the blocks an I/O covers and shortens the I/O to the free run. Returns the run length.
   */
  public int takeRun(long b, int max) {
    int n = 1;
    while (n < max && b + n < blocks && !isUsed(b + n)) {
      mark(b + n);
      n++;
    }
    return n;
  }

  /** Whether block {@code b} was used in this pass. */
  public boolean isUsed(long b) {
    if (sparse) {
      return setContains(b);
    }
    long[][] p = pages[(int) (b / PAGE_BLOCKS)];
    int i = (int) (b % PAGE_BLOCKS);
    return p != null && (word(p, i >>> 6) >>> (i & 63) & 1) != 0;
  }

  /** A new pass: every block free. Pages and chunks are kept for reuse. */
  public void reset() {
    if (sparse) {
      if (intKeys) {
        java.util.Arrays.fill(iset, 0);
      } else {
        java.util.Arrays.fill(set, 0);
      }
      setSize = 0;
      usedTotal = 0;
      return;
    }
    for (int i = 0; i < pages.length; i++) {
      if (pages[i] != null) {
        for (long[] c : pages[i]) {
          if (c != null) {
            java.util.Arrays.fill(c, 0);
          }
        }
        java.util.Arrays.fill(fullWords[i], 0);
      }
      used[i] = 0;
    }
    usedTotal = 0;
  }

  private int pageSize(int page) {
    long start = (long) page * PAGE_BLOCKS;
    return (int) Math.min(PAGE_BLOCKS, blocks - start);
  }

  /** Word {@code w} of a page's bitmap (0 in a chunk not allocated). */
  private static long word(long[][] p, int w) {
    long[] c = p[w >>> 6];
    return c == null ? 0 : c[w & 63];
  }

  /** The first free block at or after {@code from}, or -1 up to the end. */
  private long nextFree(long from) {
    int page = (int) (from / PAGE_BLOCKS);
    int idx = (int) (from % PAGE_BLOCKS);
    for (; page < pages.length; page++, idx = 0) {
      int size = pageSize(page);
      if (used[page] == size) {
        continue;
      }
      long[][] p = pages[page];
      if (p == null) {
        return (long) page * PAGE_BLOCKS + idx;
      }
      int found = freeInPage(p, fullWords[page], idx, size);
      if (found >= 0) {
        return (long) page * PAGE_BLOCKS + found;
      }
    }
    return -1;
  }

  private static int freeInPage(long[][] p, long[] full, int idx, int size) {
    int w = idx >>> 6;
    // The first word: only bits at or after idx.
    long free = ~word(p, w) & (-1L << (idx & 63));
    while (true) {
      if (free != 0) {
        int i = (w << 6) + Long.numberOfTrailingZeros(free);
        return i < size ? i : -1;
      }
      w++;
      // Skip full words with the summary.
      while (w < WORDS) {
        long notFull = ~full[w >>> 6] & (-1L << (w & 63));
        if (notFull != 0) {
          w = ((w >>> 6) << 6) + Long.numberOfTrailingZeros(notFull);
          break;
        }
        w = ((w >>> 6) + 1) << 6;
      }
      if (w >= WORDS || (w << 6) >= size) {
        return -1;
      }
      free = ~word(p, w);
    }
  }

  private void mark(long b) {
    if (sparse) {
      if (setAdd(b)) {
        usedTotal++;
        return;
      }
      toBitmap();
    }
    int page = (int) (b / PAGE_BLOCKS);
    int i = (int) (b % PAGE_BLOCKS);
    long[][] p = pages[page];
    if (p == null) {
      p = new long[CHUNKS][];
      pages[page] = p;
      fullWords[page] = new long[WORDS / 64];
    }
    int w = i >>> 6;
    long[] c = p[w >>> 6];
    if (c == null) {
      c = new long[CHUNK_BLOCKS / 64];
      p[w >>> 6] = c;
    }
    c[w & 63] |= 1L << (i & 63);
    if (c[w & 63] == -1L) {
      fullWords[page][w >>> 6] |= 1L << (w & 63);
    }
    used[page]++;
    usedTotal++;
  }
}
