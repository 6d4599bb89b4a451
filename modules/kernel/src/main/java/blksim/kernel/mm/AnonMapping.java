package blksim.kernel.mm;

/**
 * A private anonymous mapping ({@code mmap(MAP_PRIVATE | MAP_ANONYMOUS)}) and the faults of
 * the accesses to it (mm/memory.c, 6.6): a read of a page without a PTE maps the shared zero page
 * read-only ({@code do_anonymous_page()} without FAULT_FLAG_WRITE:
 * {@link FaultCosts#faultNs}); a write to a page without a PTE allocates and zeroes a page and
 * maps it writable ({@code do_anonymous_page()}: {@link FaultCosts#faultNs} +
 * {@link FaultCosts#anonPageNs}); a write to a zero-page PTE takes a write-protect fault
 * ({@code do_wp_page()} -> {@code wp_page_copy()}, which allocates a zeroed page for the zero
 * page: the same cost). Later accesses cost nothing here (the caller's copy).
 *
 * <p>Simplified: order-0 pages only (THP off or {@code madvise}, the common distribution
 * default; mTHP not modelled); no memory cgroup charge, no reclaim or swap: the pages stay
 * resident, and they are not counted against the page cache's memory.
 */
public final class AnonMapping {
  private final long pages;
  private final PageTable pt = new PageTable();
  private long faults;
  private long zeroPageFaults;

  /** A mapping of {@code lengthBytes} (rounded up to pages). */
  public AnonMapping(long lengthBytes) {
    if (lengthBytes <= 0) {
      throw new IllegalArgumentException("anonymous mapping of " + lengthBytes + " bytes");
    }
    this.pages = (lengthBytes + 4095) >>> 12;
  }

  /**
   * The faults of an access of {@code len} bytes at byte {@code offset}: returns their system
   * time (0 when every page already has the PTE the access needs).
   */
  public long touch(long offset, long len, boolean write, FaultCosts c) {
    if (offset < 0 || len < 0 || ((offset + len + 4095) >>> 12) > pages) {
      throw new IllegalArgumentException("access of " + len + " bytes at " + offset
          + " outside an anonymous mapping of " + pages + " pages");
    }
    long ns = 0;
    long end = (offset + len + 4095) >>> 12;
    for (long p = offset >>> 12; p < end; p++) {
      if (write) {
        if (!pt.writable(p)) {
          faults++;
          ns += c.faultNs() + c.anonPageNs();
          pt.map(p, true);
        }
      } else if (!pt.present(p)) {
        faults++;
        zeroPageFaults++;
        ns += c.faultNs();
        pt.map(p, false);
      }
    }
    return ns;
  }

  /** Faults taken. */
  public long faults() {
    return faults;
  }

  /** Read faults that mapped the zero page. */
  public long zeroPageFaults() {
    return zeroPageFaults;
  }

  /** Pages with a PTE (resident set of the mapping, zero-page PTEs included). */
  public long mapped() {
    return pt.mapped();
  }

  /** {@code munmap()}: returns the pages that were mapped. */
  public long unmap() {
    return pt.clear();
  }
}
