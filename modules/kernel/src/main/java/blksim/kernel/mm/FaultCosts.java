package blksim.kernel.mm;

/**
 * CPU costs of page faults and of the memory-mapping system calls, system time of the faulting
 * task, from the machine profile ({@code costs.mm.*}; the sources are in the profile).
 *
 * @param faultNs one fault through the exception path: entry and exit of the #PF exception,
 *     {@code lock_vma_under_rcu()}, {@code handle_mm_fault()} and the PTE set by
 *     {@code finish_fault()}/{@code set_pte_range()} (a zero-page read fault of an anonymous
 *     mapping is exactly this)
 * @param faultAroundPageNs each further page {@code filemap_map_pages()} maps around a read fault
 * @param anonPageNs a new anonymous page: {@code vma_alloc_zeroed_movable_folio()}, allocation
 *     and {@code clear_page()} of 4 KiB
 * @param pageMkwriteNs {@code ->page_mkwrite()} of a shared file mapping
 *     ({@code iomap_page_mkwrite()} on XFS: {@code file_update_time()}, the folio locked, the
 *     block mapped or reserved, {@code folio_mark_dirty()})
 * @param mmapNs an {@code mmap()} or {@code madvise()} system call, entry to return
 * @param unmapPerPageNs {@code munmap()}/{@code exit_mmap()} per mapped page
 *     ({@code zap_pte_range()}, the folio's reference and rmap dropped, its share of the TLB
 *     flush)
 */
public record FaultCosts(long faultNs, long faultAroundPageNs, long anonPageNs,
    long pageMkwriteNs, long mmapNs, long unmapPerPageNs) {

  /** The generic-x86 profile's values. */
  public static final FaultCosts DEFAULT = new FaultCosts(1_000, 20, 500, 1_000, 2_000, 30);

  public FaultCosts {
    if (faultNs < 0 || faultAroundPageNs < 0 || anonPageNs < 0 || pageMkwriteNs < 0
        || mmapNs < 0 || unmapPerPageNs < 0) {
      throw new IllegalArgumentException("fault costs must be >= 0");
    }
  }
}
