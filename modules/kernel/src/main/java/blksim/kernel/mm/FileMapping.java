package blksim.kernel.mm;

/**
 * A {@code MAP_SHARED} mapping of a file ({@code struct vm_area_struct} with {@code vm_file}):
 * pages {@code [pgoff, pgoff + pages)} of the file's page cache, its {@code madvise()} hint
 * (VM_SEQ_READ, VM_RAND_READ), the open file's readahead state ({@code file->f_ra}, shared with
 * the file's read() calls as in the kernel) and its {@link PageTable}. The user accesses through
 * it are {@link MmapAccess}; {@code mmap()}, {@code munmap()} and {@code msync()} are the
 * filesystem's calls ({@code blksim.kernel.fs.VfsCalls}).
 *
 * <p>A PTE is valid only while its page is in the page cache: a page that reclaim or a truncate
 * dropped is found unmapped at the next access (the kernel unmaps it first, {@code try_to_unmap()}
 * / {@code unmap_mapping_range()}); a writable PTE stays writable only while its page is dirty
 * (writeback's {@code folio_mkclean()} write-protects it, so the next write faults again and
 * {@code ->page_mkwrite()} dirties the page again).
 *
 * <p>Counters: minor and major faults as the task's {@code min_flt}/{@code maj_flt} count them
 * (major: no page in the cache, or a retry after waiting for one; see {@link MmapAccess}), pages
 * mapped by fault-around, and {@code ->page_mkwrite()} calls.
 */
public final class FileMapping {
  /** {@code ->page_mkwrite()}'s filesystem part: 0, or -errno (the fault is a SIGBUS). */
  public interface Mkwrite {
    int mkwrite(long index);
  }

  /** {@code MADV_NORMAL}. */
  public static final int MADV_NORMAL = 0;
  /** {@code MADV_RANDOM}: VM_RAND_READ, no readahead on faults. */
  public static final int MADV_RANDOM = 1;
  /** {@code MADV_SEQUENTIAL}: VM_SEQ_READ, sync readahead of the whole window on a miss. */
  public static final int MADV_SEQUENTIAL = 2;

  final AddressSpace as;
  final Readahead ra;
  final long pgoff;
  final long pages;
  final boolean writable;
  final Mkwrite mkwrite;
  int advice;
  final PageTable pt = new PageTable();
  long minorFaults;
  long majorFaults;
  long faultAroundMapped;
  long mkwrites;

  /**
   * @param as the file's page cache
   * @param ra the open file's readahead state
   * @param pgoff the first file page mapped
   * @param pages the mapping's length in pages
   * @param writable PROT_WRITE (a write to a read-only mapping is refused by the caller)
   * @param mkwrite the filesystem's part of {@code ->page_mkwrite()}
   */
  public FileMapping(AddressSpace as, Readahead ra, long pgoff, long pages, boolean writable,
      Mkwrite mkwrite) {
    if (pgoff < 0 || pages < 1) {
      throw new IllegalArgumentException("mapping of " + pages + " pages at page " + pgoff);
    }
    this.as = as;
    this.ra = ra;
    this.pgoff = pgoff;
    this.pages = pages;
    this.writable = writable;
    this.mkwrite = mkwrite;
  }

  /** {@code madvise(MADV_NORMAL / MADV_RANDOM / MADV_SEQUENTIAL)} of the whole mapping. */
  public void madvise(int advice) {
    if (advice < MADV_NORMAL || advice > MADV_SEQUENTIAL) {
      throw new IllegalArgumentException("madvise " + advice);
    }
    this.advice = advice;
  }

  /** The file's page cache. */
  public AddressSpace mapping() {
    return as;
  }

  /** The mapping's length, bytes. */
  public long lengthBytes() {
    return pages << 12;
  }

  /** The first file page mapped. */
  public long pgoff() {
    return pgoff;
  }

  /** Whether the mapping is PROT_WRITE. */
  public boolean writable() {
    return writable;
  }

  /** The mapping's PTEs. */
  public PageTable pageTable() {
    return pt;
  }

  /** Faults served from the page cache. */
  public long minorFaults() {
    return minorFaults;
  }

  /** Major faults: no page in the cache, or retried after waiting for one ({@code maj_flt}). */
  public long majorFaults() {
    return majorFaults;
  }

  /** All faults. */
  public long faults() {
    return minorFaults + majorFaults;
  }

  /** Pages mapped by fault-around besides the faulting ones. */
  public long faultAroundMapped() {
    return faultAroundMapped;
  }

  /** {@code ->page_mkwrite()} calls. */
  public long mkwrites() {
    return mkwrites;
  }

  /** {@code munmap()}: the PTEs go; returns how many pages were mapped. */
  public long unmap() {
    return pt.clear();
  }
}
