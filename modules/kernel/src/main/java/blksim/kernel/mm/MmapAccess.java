package blksim.kernel.mm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SystemCall;
import java.util.ArrayDeque;

/**
 * A user-space copy ({@code memcpy()}) to or from a {@link FileMapping}, with the page faults its
 * first touches take (Linux 6.6, mm/memory.c and mm/filemap.c). Driven as a {@link SystemCall}
 * (one action per step); it returns the bytes copied, or -EFAULT for an access past the end of
 * the file or -EIO for a page that could not be read (the SIGBUS the process would get), or the
 * filesystem's -errno from {@code ->page_mkwrite()}.
 *
 * <p>Per page, in order: a page with a PTE (and, for a write, a writable one on a dirty page)
 * costs only the copy. Otherwise the access faults ({@link FaultCosts#faultNs}):
 * <ul>
 *   <li>a read fault ({@code do_read_fault()}) first maps what {@code do_fault_around()} finds:
 *       the pages of the 16-page aligned block around the fault ({@code fault_around_bytes} =
 *       64 KiB), clipped to the PTE table and the mapping, that are cached, up to date, unlocked,
 *       without PG_readahead and inside {@code i_size} ({@code filemap_map_pages()}; each extra
 *       page {@link FaultCosts#faultAroundPageNs}); if that mapped the faulting page the fault
 *       is done;
 *   <li>else {@code filemap_fault()}: a cached page starts {@code do_async_mmap_readahead()}
 *       (PG_readahead: the next window) unless VM_RAND_READ; an absent one is a major fault
 *       (PGMAJFAULT) and {@code do_sync_mmap_readahead()} reads it in: nothing with VM_RAND_READ,
 *       the sequential window with VM_SEQ_READ, otherwise the read-around of {@code ra_pages}
 *       centred on it ({@link Readahead#mmapSyncRa}); a page readahead did not add is read by
 *       {@code ->read_folio()}. The bios are built as {@link FilemapRead} builds them (runs
 *       contiguous on the disk, at most 256 pages, REQ_RAHEAD), the task sleeps on the page's
 *       lock, and the fault is retried (VM_FAULT_RETRY: the mmap lock was dropped for the I/O),
 *       costing {@link FaultCosts#faultNs} again; a read retry maps with fault-around, so the
 *       pages readahead brought in get their PTEs in blocks of 16;
 *   <li>a write fault on a shared mapping ({@code do_shared_fault()}, or {@code do_wp_page()} ->
 *       {@code wp_page_shared()} for a read-only PTE) gets the page as above, then
 *       {@code ->page_mkwrite()} ({@link FaultCosts#pageMkwriteNs} and the filesystem's
 *       {@link FileMapping.Mkwrite}, XFS's delalloc reservation), which dirties the page
 *       ({@link PageCache#setPageDirty}: the dirty accounting, the inode on {@code b_dirty}, the
 *       flusher armed), maps it writable, and {@code fault_dirty_shared_page()} calls
 *       {@code balance_dirty_pages_ratelimited()}: a throttled task sleeps the pause
 *       {@link BalanceDirtyPages} computes, as {@link BufferedWrite} does.
 * </ul>
 * The copy costs {@link PageCacheParams#copyNs} per page touched, user time. Faults are counted
 * as {@code mm_account_fault()} counts the task's {@code maj_flt}/{@code min_flt}: once, when
 * the fault completes; major if it found no page or was retried after a sleep or an I/O
 * submission (FAULT_FLAG_TRIED), minor otherwise; a fault ending in SIGBUS is not counted.
 *
 * <p>Simplified: the faults' system time and the copies' user time between two sleeps are
 * charged as two bursts (system first) instead of interleaved page by page; a retried fault costs
 * a whole fault (the kernel loops inside the exception without a second entry); fault-around
 * does not lower {@code mmap_miss}; no stable-page wait in {@code ->page_mkwrite()} (no
 * modelled device needs stable writes); no THP, every fault maps one 4 KiB page.
 */
public final class MmapAccess extends SystemCall {
  private static final int WALK = 0;
  private static final int ISSUE = 1;
  private static final int WAIT = 2;
  private static final int BALANCE = 3;
  private static final int WOKEN = 4;
  private static final int DONE = 5;
  /** {@code fault_around_bytes} / 4 KiB (mm/memory.c default). */
  static final int FAULT_AROUND_PAGES = 16;
  private static final int EFAULT = 14;
  private static final int EIO = 5;


  private final Task task;
  private final PageCache pc;
  private final FaultCosts costs;
  private final PageCacheParams copy;
  private final long missNs;
  private final ArrayDeque<ReadaheadPages.ReadBio> toIssue = new ArrayDeque<>();
  private final ReadaheadPages pages;

  private FileMapping m;
  private AddressSpace as;
  private boolean write;
  private long next;
  private long end;
  private long len;
  private long error;
  private int phase;
  private long sysNs;
  private long userNs;
  /** The fault in progress (mapping page), or -1. */
  private long faultPage = -1;
  private boolean faultRetried;
  /** The fault found no page, or slept and is retried: {@code maj_flt} when it completes. */
  private boolean faultMajor;
  private boolean readFailed;
  private BlockQueue queue;
  private long pagesDirtied;
  private long bdpStartJiffies;
  private BdpDecision last;

  /**
   * @param copy the copy's cost per 4 KiB ({@link PageCacheParams#copyNs}) and the cost of a
   *     readahead set-up ({@link PageCacheParams#missNs})
   */
  public MmapAccess(Task task, PageCache pc, FaultCosts costs, PageCacheParams copy) {
    this.task = task;
    this.pc = pc;
    this.pages = new ReadaheadPages(pc, () -> as, this::queueBio);
    this.costs = costs;
    this.copy = copy;
    this.missNs = copy.missNs();
  }

  /**
   * Arms a copy of {@code len} bytes at byte {@code offset} of mapping {@code m}: from it
   * ({@code write} false) or into it.
   */
  public SystemCall arm(FileMapping m, long offset, long len, boolean write) {
    if (offset < 0 || len < 0 || offset + len > m.lengthBytes()) {
      throw new IllegalArgumentException("access of " + len + " bytes at " + offset
          + " outside a mapping of " + m.lengthBytes());
    }
    if (write && !m.writable) {
      throw new IllegalArgumentException("write to a read-only mapping (SIGSEGV)");
    }
    this.m = m;
    this.as = m.as;
    this.write = write;
    this.next = offset >>> 12;
    this.end = (offset + len + 4095) >>> 12;
    this.len = len;
    this.error = 0;
    this.phase = WALK;
    this.sysNs = 0;
    this.userNs = 0;
    this.faultPage = -1;
    this.queue = null;
    toIssue.clear();
    return this;
  }

  @Override
  public boolean step(TaskCpu cpu) {
    while (true) {
      if (sysNs > 0) {
        long n = sysNs;
        sysNs = 0;
        cpu.runFor(CpuMode.SYSTEM, n);
        return false;
      }
      if (userNs > 0 && (phase == DONE || phase == BALANCE || phase == ISSUE)) {
        long n = userNs;
        userNs = 0;
        cpu.runFor(CpuMode.USER, n);
        return false;
      }
      switch (phase) {
        case WALK:
          walk(cpu);
          continue;
        case ISSUE:
          if (!issue(cpu)) {
            return false;
          }
          phase = WAIT;
          continue;
        case WAIT:
          if (waitPage(cpu)) {
            return false;
          }
          continue;
        case BALANCE:
          if (balance(cpu)) {
            return false;
          }
          continue;
        case WOKEN:
          phase = last != null && last.loopAgain() ? BALANCE : WALK;
          continue;
        default:
          if (userNs > 0) {
            continue;
          }
          return returned(error != 0 ? error : len);
      }
    }
  }

  private long iSizePages() {
    return (as.host.iSize(as) + 4095) >>> 12;
  }

  /** Whether mapping page {@code p} (file page {@code idx}) has a valid PTE. */
  private boolean present(long p, long idx) {
    if (!m.pt.present(p)) {
      return false;
    }
    if (!as.cached(idx) || !as.uptodate(idx)) {
      m.pt.unmap(p); // the page left the cache: its PTE went with it
      return false;
    }
    return true;
  }

  /** Copies page after page, faulting where needed, until done or one must stop. */
  private void walk(TaskCpu cpu) {
    long eof = iSizePages();
    queue = as.wb.queues().apply(cpu.cpu().cpu().id());
    while (next < end) {
      long p = next;
      long idx = m.pgoff + p;
      if (faultPage != p) {
        boolean ok = present(p, idx) && (!write || m.pt.writable(p) && as.dirty(idx));
        if (ok) {
          userNs += copy.copyNs(4096);
          next++;
          continue;
        }
        if (idx >= eof) {
          error = -EFAULT; // SIGBUS: past the end of the file
          phase = DONE;
          return;
        }
        faultPage = p;
        faultRetried = false;
        faultMajor = false;
        readFailed = false;
        sysNs += costs.faultNs();
      }
      // The fault on page p.
      if (!write && faultAround(p, eof)) {
        endFault(p);
        continue;
      }
      if (!as.cached(idx) || !as.uptodate(idx)) {
        if (!getPage(cpu, p, idx)) {
          return; // I/O or a wait: the fault is retried after it
        }
      } else if (!faultRetried && m.advice != FileMapping.MADV_RANDOM && !m.pt.present(p)) {
        asyncRa(idx);
        if (!toIssue.isEmpty()) {
          // The async window's bios go out (the mmap lock dropped) before the retry maps it.
          faultRetried = true;
          faultMajor = true;
          phase = ISSUE;
          return;
        }
      }
      if (!write) {
        m.pt.map(p, false);
        pc.accessed(as);
        endFault(p);
        continue;
      }
      // ->page_mkwrite(), then the writable PTE and the dirty throttling.
      m.mkwrites++;
      sysNs += costs.pageMkwriteNs();
      int r = m.mkwrite == null ? 0 : m.mkwrite.mkwrite(idx);
      if (r < 0) {
        error = r;
        phase = DONE;
        return;
      }
      int cpuId = cpu.cpu().cpu().id();
      TaskDirtyState t = state();
      if (pc.setPageDirty(as, idx, cpu.now(), cpuId)) {
        t = t.dirtied(1);
      }
      task.setMmState(t);
      m.pt.map(p, true);
      endFault(p);
      if (pc.ratelimited(t, as.wb, cpuId)) {
        pagesDirtied = t.nrDirtied();
        bdpStartJiffies = -1;
        phase = BALANCE;
        return;
      }
    }
    phase = DONE;
  }

  private void endFault(long p) {
    if (faultMajor) {
      m.majorFaults++;
    } else {
      m.minorFaults++;
    }
    faultPage = -1;
    userNs += copy.copyNs(4096);
    next = p + 1;
  }

  /** {@code filemap_fault()} found page {@code idx}: {@code do_async_mmap_readahead()}. */
  private void asyncRa(long idx) {
    boolean marked = as.readaheadMark(idx);
    if (marked) {
      pc.clearReadahead(as, idx);
      if (as.underWriteback(idx)) {
        marked = false;
      }
    }
    if (marked) {
      sysNs += missNs;
    }
    m.ra.mmapAsyncRa(pages, idx, marked);
    pages.flush();
  }

  /**
   * {@code do_fault_around()} + {@code filemap_map_pages()} around mapping page {@code p}:
   * returns whether {@code p} itself got its PTE.
   */
  private boolean faultAround(long p, long eof) {
    long tableStart = p & ~511L;
    long from = Math.max(p & ~(long) (FAULT_AROUND_PAGES - 1), tableStart);
    long to = Math.min(Math.min(from + FAULT_AROUND_PAGES, tableStart + 512), m.pages);
    boolean self = false;
    for (long q = from; q < to; q++) {
      long idx = m.pgoff + q;
      if (idx >= eof || m.pt.present(q) && as.cached(idx) && as.uptodate(idx)) {
        continue;
      }
      if (as.cached(idx) && as.uptodate(idx) && !as.locked(idx) && !as.readaheadMark(idx)) {
        m.pt.map(q, false);
        if (q == p) {
          self = true;
        } else {
          m.faultAroundMapped++;
          sysNs += costs.faultAroundPageNs();
        }
      }
    }
    if (self) {
      pc.accessed(as);
    }
    return self;
  }

  /**
   * {@code filemap_fault()} for a page absent or not up to date: readahead or
   * {@code ->read_folio()}, then the wait. False when the task must issue bios or sleep.
   */
  private boolean getPage(TaskCpu cpu, long p, long idx) {
    faultMajor = true; // no page (PGMAJFAULT), or a wait for one: VM_FAULT_RETRY either way
    if (!as.cached(idx)) {
      faultRetried = true;
      if (m.advice != FileMapping.MADV_RANDOM) {
        sysNs += missNs;
        m.ra.mmapSyncRa(pages, idx, m.advice == FileMapping.MADV_SEQUENTIAL);
        pages.flush();
      }
      if (!as.cached(idx)) {
        readFolio(idx, true);
      }
    } else {
      if (!faultRetried) {
        if (m.advice != FileMapping.MADV_RANDOM) {
          asyncRa(idx); // before the wait for the page's lock
        }
      }
      faultRetried = true;
    }
    phase = toIssue.isEmpty() ? WAIT : ISSUE;
    return false;
  }

  /** Submits the bios built so far; false when the task sleeps for a tag. */
  private boolean issue(TaskCpu cpu) {
    BlockQueue q = as.wb.queues().apply(cpu.cpu().cpu().id());
    CpuComponent c = cpu.cpu();
    while (!toIssue.isEmpty()) {
      ReadaheadPages.ReadBio rb = toIssue.peek();
      if (!q.issue(rb.bio(), (b, err) -> rb.ended(pc, err, c), () -> c.wake(task))) {
        cpu.sleep();
        return false;
      }
      toIssue.poll();
    }
    return true;
  }

  /** The wait for the faulting page's lock; true when the task sleeps. */
  private boolean waitPage(TaskCpu cpu) {
    long p = faultPage;
    if (p < 0) {
      phase = WALK; // async readahead issued for a page already up to date
      return false;
    }
    long idx = m.pgoff + p;
    AddressSpace a = as;
    if (a.locked(idx)) {
      a.pageWait.prepareToWait(task, () -> !a.locked(idx));
      cpu.sleep();
      return true;
    }
    a.pageWait.finishWait(task);
    if (a.cached(idx) && !a.uptodate(idx)) {
      if (readFailed) {
        error = -EIO; // filemap_fault(): VM_FAULT_SIGBUS
        phase = DONE;
        return false;
      }
      readFailed = true;
      readFolio(idx, false);
      phase = toIssue.isEmpty() ? WAIT : ISSUE;
      return false;
    }
    // VM_FAULT_RETRY: the fault runs again and finds the page (or, truncated, reads it again).
    sysNs += costs.faultNs();
    phase = WALK;
    return false;
  }

  private void readFolio(long index, boolean add) {
    long sector = as.host.readSector(as, index);
    if (add) {
      pc.addReadPage(as, index, false, sector < 0, false);
    } else if (sector >= 0) {
      pc.relockForRead(as, index);
    } else {
      pc.endRead(as, index, true);
    }
    sysNs += missNs;
    if (sector >= 0) {
      queueBio(sector, index, 1, 0);
    }
  }

  private void queueBio(long sector, long firstPage, int n, int flags) {
    Bio bio = new Bio(ReqOp.READ, sector, n << 12, flags);
    toIssue.add(new ReadaheadPages.ReadBio(bio, as, firstPage, n));
    sysNs += queue.submitCostNs(bio);
    pc.accountPgpgin(bio.sectors());
  }


  private TaskDirtyState state() {
    Object s = task.mmState();
    return s == null ? TaskDirtyState.FORK : (TaskDirtyState) s;
  }

  /** One {@code balance_dirty_pages()} iteration; true when the task went to sleep. */
  private boolean balance(TaskCpu cpu) {
    if (bdpStartJiffies < 0) {
      bdpStartJiffies = pc.jiffies(cpu.now());
    }
    last = pc.balanceDirtyPages(task, as.wb, pagesDirtied, bdpStartJiffies, cpu);
    phase = last.sleep() ? WOKEN : WALK;
    return last.sleep();
  }
}
