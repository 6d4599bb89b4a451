package blksim.kernel.mm;

import java.util.HashMap;

/**
 * The page-table entries of one mapping (its part of the process's page tables): which pages of
 * the mapping have a PTE, and which of those are writable.
 *
 * <p>Kept as the kernel keeps them, one PTE table per 2 MiB of the mapping (512 entries,
 * allocated by {@code __pte_alloc()} on the first fault in it): here a table is two 512-bit
 * planes (present, writable), made on the first page mapped in its 2 MiB. A mapping costs
 * nothing per page it never touched; a sequential pass over a huge file costs 128 bytes per
 * 2 MiB touched, a random one no more.
 *
 * <p>Simplified: the mapping starts 2 MiB-aligned in the address space (a table covers pages
 * {@code [512k, 512k + 512)} of the mapping); no TLB is modelled (a mapped page costs nothing to
 * reach after its fault, and {@code munmap()}'s TLB flush is in its per-page cost); no huge PMD
 * mappings (THP) and no PTE-mapped large folios: every PTE maps one 4 KiB page.
 */
public final class PageTable {
  private static final int SHIFT = 9;
  private static final int WORDS = 8;

  /** Tables by 2 MiB index; looked up, never iterated. */
  private final HashMap<Long, long[]> tables = new HashMap<>();
  private long lastIndex = -1;
  private long[] last;
  private long mapped;

  private long[] table(long page, boolean create) {
    long t = page >>> SHIFT;
    if (t == lastIndex) {
      return last;
    }
    long[] b = tables.get(t);
    if (b == null) {
      if (!create) {
        return null;
      }
      b = new long[2 * WORDS];
      tables.put(t, b);
    }
    lastIndex = t;
    last = b;
    return b;
  }

  private static int word(long page) {
    return (int) ((page & 511) >>> 6);
  }

  /** Whether page {@code page} of the mapping has a PTE. */
  public boolean present(long page) {
    long[] b = table(page, false);
    return b != null && (b[word(page)] & (1L << page)) != 0;
  }

  /** Whether page {@code page} has a writable PTE. */
  public boolean writable(long page) {
    long[] b = table(page, false);
    return b != null && (b[WORDS + word(page)] & (1L << page)) != 0;
  }

  /** Sets page {@code page}'s PTE, writable or read-only. */
  public void map(long page, boolean write) {
    long[] b = table(page, true);
    int w = word(page);
    long bit = 1L << page;
    if ((b[w] & bit) == 0) {
      b[w] |= bit;
      mapped++;
    }
    if (write) {
      b[WORDS + w] |= bit;
    } else {
      b[WORDS + w] &= ~bit;
    }
  }

  /** Clears page {@code page}'s PTE (the page left the cache behind the mapping's back). */
  public void unmap(long page) {
    long[] b = table(page, false);
    if (b == null) {
      return;
    }
    int w = word(page);
    long bit = 1L << page;
    if ((b[w] & bit) != 0) {
      b[w] &= ~bit;
      b[WORDS + w] &= ~bit;
      mapped--;
    }
  }

  /** Pages with a PTE. */
  public long mapped() {
    return mapped;
  }

  /** PTE tables allocated. */
  public int tables() {
    return tables.size();
  }

  /** {@code zap_page_range()} of the whole mapping: returns the pages that were mapped. */
  public long clear() {
    long n = mapped;
    tables.clear();
    lastIndex = -1;
    last = null;
    mapped = 0;
    return n;
  }
}
