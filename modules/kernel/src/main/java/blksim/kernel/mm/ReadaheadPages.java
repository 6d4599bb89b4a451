package blksim.kernel.mm;

import blksim.kernel.block.Bio;
import blksim.kernel.sched.CpuComponent;
import java.util.function.Supplier;

/**
 * Readahead's view of the page cache of the file being read ({@link Readahead.Pages}), shared by
 * the read system call ({@link FilemapRead}) and the fault path ({@link MmapAccess}): pages added
 * by {@code page_cache_ra_unbounded()} enter the cache locked, and {@code read_pages()} sends each
 * run of pages contiguous in the file and on disk as one {@code REQ_RAHEAD} bio of at most
 * {@link FilemapRead#BIO_MAX_VECS} pages. A page with no disk block (a hole) is up to date at once.
 */
final class ReadaheadPages implements Readahead.Pages {
  /** Where a read bio goes: the caller builds it, accounts it and issues it later. */
  interface BioSink {
    void queueBio(long sector, long firstPage, int pages, int flags);
  }

  /** One read bio and the pages it fills. */
  record ReadBio(Bio bio, AddressSpace as, long firstPage, int pages) {
    /** The bio's completion: its pages unlocked (up to date if it succeeded), waiters woken. */
    void ended(PageCache pc, int err, CpuComponent on) {
      for (long p = firstPage; p < firstPage + pages; p++) {
        pc.endRead(as, p, err == 0);
      }
      as.pageWait.wakeUpAll(on);
      as.wakeAsyncWaiters();
    }
  }

  private final PageCache pc;
  private final Supplier<AddressSpace> file;
  private final BioSink sink;
  private long runFirst;
  private long runSector;
  private int runPages;

  /** {@code file} gives the mapping being read at the time of the call (it may change). */
  ReadaheadPages(PageCache pc, Supplier<AddressSpace> file, BioSink sink) {
    this.pc = pc;
    this.file = file;
    this.sink = sink;
  }

  @Override
  public boolean present(long index) {
    return file.get().cached(index);
  }

  @Override
  public long iSize() {
    AddressSpace as = file.get();
    return as.host.iSize(as);
  }

  @Override
  public void add(long index, boolean mark) {
    AddressSpace as = file.get();
    long sector = as.host.readSector(as, index);
    pc.addReadPage(as, index, mark, sector < 0, true);
    if (sector < 0) {
      flush();
      return;
    }
    if (runPages > 0 && runPages < FilemapRead.BIO_MAX_VECS && runFirst + runPages == index
        && runSector + (long) runPages * 8 == sector) {
      runPages++;
      return;
    }
    flush();
    runFirst = index;
    runSector = sector;
    runPages = 1;
  }

  @Override
  public void submit() {
    flush();
  }

  /** Sends the run of pages gathered so far, if any. */
  void flush() {
    if (runPages > 0) {
      sink.queueBio(runSector, runFirst, runPages, Bio.REQ_RAHEAD);
      runPages = 0;
    }
  }
}
