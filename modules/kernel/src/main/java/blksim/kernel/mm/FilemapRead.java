package blksim.kernel.mm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SyscallParams;
import blksim.kernel.syscall.SystemCall;
import java.util.ArrayDeque;
import java.util.function.IntFunction;

/**
 * A buffered read of a file through the page cache, {@code filemap_read()} (mm/filemap.c, 6.6),
 * and the readahead half of {@code fadvise(POSIX_FADV_WILLNEED)}: one task's call, re-armed per
 * call.
 *
 * <p>Each round is {@code filemap_get_pages()}: the page at the position is looked up; on a miss
 * {@link Readahead#syncRa} adds the window's pages (locked, not up to date) and their bios are
 * submitted; the batch is the run of cached pages from the position that ends at the first page
 * that is locked, not up to date or marked PG_readahead; a marked last page starts
 * {@link Readahead#asyncRa} (the marker is cleared; a page under writeback starts nothing); a
 * last page that is not up to date is waited for (its lock, {@code folio_wait_bit()}), and read
 * again by {@code ->read_folio()} without REQ_RAHEAD if its readahead failed (a device that
 * kills readahead, dm-zero); a second failure returns -EIO (or the bytes copied so far). Then
 * the batch is copied to the user buffer and the next round starts, until the count is done or
 * the position reaches {@code i_size}. At the end {@code ra->prev_pos} is the end of the read.
 *
 * <p>I/O: pages added by readahead are mapped by the host ({@link AddressSpace.Host#readSector});
 * a run of pages contiguous in the file and on the disk is one bio (at most
 * {@code BIO_MAX_VECS} = 256 pages, as {@code iomap_readpage_iter()} sizes them for order-0
 * folios; the block layer does not split it further at {@code max_sectors_kb} here), flagged
 * REQ_RAHEAD as {@code iomap_readahead()} flags every readahead bio (sync and async part
 * alike); a hole is zeroed and up to date at once, with no I/O. Bios are submitted on the queue
 * of the CPU the task runs on; a bio that finds no driver tag makes the task sleep until one is
 * free. Their completions unlock the pages and wake the readers waiting on them, whoever
 * started the read.
 * {@code pgpgin} counts the sectors of these bios.
 *
 * <p>Costs (system time of the reader): the call's entry ({@link SyscallParams#rwEntryNs}); each
 * readahead or {@code ->read_folio()} set-up {@link PageCacheParams#missNs} (lookup, page
 * allocation and insertion, once per call of the readahead code, not per page); each bio's
 * {@link BlockQueue#submitCostNs}; the copy of each batch ({@link PageCacheParams#copyNs}); the
 * return after a sleep ({@link SyscallParams#wakeReturnNs}). Costs accumulate and are spent as
 * one burst before each submission, each sleep and the return.
 *
 * <p>A read at or past EOF returns 0 without touching the cache (6.6 checks {@code i_size}
 * before each round).
 *
 * <p>{@link #readNowait}: the same read with {@code IOCB_NOWAIT} (or {@code IOCB_WAITQ}), as
 * io_uring issues a buffered read first (io_uring/rw.c {@code io_read()}): a miss still starts
 * readahead and submits its bios ({@code filemap_get_pages()} skips readahead only for
 * {@code IOCB_NOIO}), but where the plain read would sleep on a locked page, or read a failed
 * page again with {@code ->read_folio()} ({@code filemap_update_page()}), or create a page that
 * readahead did not add ({@code filemap_create_folio()}), it stops: it returns the bytes copied
 * in earlier rounds, or -EAGAIN if none, and {@link #blockedPage()} says which locked page
 * stopped it (-1: none to wait for). A bio that finds no driver tag still makes the task sleep,
 * as the readahead submission does in the kernel (its bios carry no REQ_NOWAIT).
 *
 * <p>Simplified: no block plug around readahead's submissions; the page's LRU position is
 * the inode's ({@link PageCache}'s reclaim is per inode); {@code IOCB_NOIO} is not modelled.
 */
public final class FilemapRead extends SystemCall {
  private static final int ENTER = 0;
  private static final int LOOKUP = 1;
  private static final int ISSUE = 2;
  private static final int WAIT = 3;
  private static final int RETURN = 4;
  /** -EIO. */
  static final int EIO = 5;
  /** {@code BIO_MAX_VECS}: one order-0 page a segment, so at most 1 MiB a readahead bio. */
  static final int BIO_MAX_VECS = blksim.kernel.block.Bio.MAX_VECS;


  private final Task task;
  private final PageCache pc;
  private final PageCacheParams costs;
  private final SyscallParams syscalls;
  private final ArrayDeque<ReadaheadPages.ReadBio> toIssue = new ArrayDeque<>();
  private final ReadaheadPages pages;

  private AddressSpace as;
  private Readahead ra;
  private IntFunction<BlockQueue> queues;
  private BlockQueue queue;
  private boolean willneed;
  /** {@link #readNowait}: stop instead of sleeping on a page or reading it again. */
  private boolean nowait;
  /** With {@link #nowait}: the locked page the read stopped at, or -1. */
  private long blockedPage = -1;
  private long pos;
  private long remaining;
  private long copied;
  private long lastPos;
  private long pendingNs;
  private boolean slept;
  private boolean retried;
  private long error;
  private int phase;
  private long batchStart;
  private long batchEnd;

  public FilemapRead(Task task, PageCache pc, PageCacheParams costs, SyscallParams syscalls) {
    this.task = task;
    this.pc = pc;
    this.pages = new ReadaheadPages(pc, () -> as, this::queueBio);
    this.costs = costs;
    this.syscalls = syscalls;
  }

  /**
   * {@code read()} / {@code pread()} of {@code len} bytes at {@code pos} of the file whose page
   * cache is {@code as}, with the open file's readahead state {@code ra}: returns the bytes read
   * (0 at EOF) or -EIO.
   */
  public SystemCall read(AddressSpace as, Readahead ra, long pos, long len) {
    arm(as, ra, pos, len);
    willneed = false;
    nowait = false;
    return this;
  }

  /**
   * {@link #read} with {@code IOCB_NOWAIT} (class comment): returns the bytes read, -EAGAIN
   * when it stopped before copying any, or -EIO; then {@link #blockedPage()}.
   */
  public SystemCall readNowait(AddressSpace as, Readahead ra, long pos, long len) {
    arm(as, ra, pos, len);
    willneed = false;
    nowait = true;
    return this;
  }

  /**
   * After a {@link #readNowait} that returned short: the page whose lock stopped it (the read
   * can go on once that page is unlocked), or -1 if it stopped for another reason (a page that
   * failed to read or was not added: only a blocking read can go on).
   */
  public long blockedPage() {
    return blockedPage;
  }

  /**
   * {@code fadvise(POSIX_FADV_WILLNEED)} over {@code [pos, pos + len)} ({@code len} 0: to EOF):
   * {@link Readahead#forceRa} and the bios submitted, not waited for; returns 0.
   */
  public SystemCall willneed(AddressSpace as, Readahead ra, long pos, long len) {
    arm(as, ra, pos, len);
    willneed = true;
    nowait = false;
    return this;
  }

  private void arm(AddressSpace as, Readahead ra, long pos, long len) {
    if (pos < 0 || len < 0) {
      throw new IllegalArgumentException("read of " + len + " bytes at " + pos);
    }
    this.as = as;
    this.ra = ra;
    this.queues = as.wb.queues();
    if (queues == null) {
      throw new IllegalStateException("read of inode " + as.ino() + ": its bdi has no device");
    }
    this.pos = pos;
    this.remaining = len;
    this.copied = 0;
    this.lastPos = ra.prevPos();
    this.pendingNs = 0;
    this.slept = false;
    this.retried = false;
    this.error = 0;
    this.blockedPage = -1;
    this.phase = ENTER;
    toIssue.clear();
  }

  @Override
  public boolean step(TaskCpu cpu) {
    switch (phase) {
      case ENTER:
        pendingNs = syscalls.rwEntryNs();
        queue = queues.apply(cpu.cpu().cpu().id());
        if (willneed) {
          return willneedStep(cpu);
        }
        return lookup(cpu);
      case ISSUE:
        return issue(cpu);
      case WAIT:
        return waitPage(cpu);
      case LOOKUP:
        return lookup(cpu);
      case RETURN:
        return returned(error != 0 && copied == 0 ? error : willneed ? 0 : copied);
      default:
        throw new IllegalStateException(task.comm() + ": filemap read in phase " + phase);
    }
  }

  private boolean willneedStep(TaskCpu cpu) {
    long isize = as.host.iSize(as);
    if (pos < isize) {
      long first = pos >>> 12;
      long end = remaining == 0 ? (isize + 4095) >>> 12 : (pos + remaining + 4095) >>> 12;
      pendingNs += costs.missNs();
      ra.forceRa(pages, first, end - first);
      pages.flush();
    }
    remaining = 0;
    if (!toIssue.isEmpty()) {
      return spend(cpu, ISSUE);
    }
    return finish(cpu);
  }

  /** {@code filemap_get_pages()} and the copy, round after round, until one must block. */
  private boolean lookup(TaskCpu cpu) {
    while (true) {
      long isize = as.host.iSize(as);
      if (remaining == 0 || pos >= isize) {
        return finish(cpu);
      }
      long index = pos >>> 12;
      long last = (pos + remaining + 4095) >>> 12;
      if (!as.cached(index)) {
        pendingNs += costs.missNs();
        ra.syncRa(pages, index, last - index);
        pages.flush();
        if (!as.cached(index) && nowait) {
          // filemap_get_pages(): -EAGAIN for IOCB_NOWAIT / IOCB_WAITQ, no filemap_create_folio().
          return stopNowait(cpu, -1);
        }
        if (!as.cached(index)) {
          // filemap_create_folio(): one page, read by ->read_folio().
          readFolio(index, true);
        }
      }
      long i = index;
      while (i < last && as.cached(i)) {
        boolean stop = !as.uptodate(i) || as.readaheadMark(i);
        i++;
        if (stop) {
          break;
        }
      }
      batchStart = index;
      batchEnd = i;
      long lastPage = i - 1;
      if (as.readaheadMark(lastPage)) {
        pc.clearReadahead(as, lastPage);
        if (!as.underWriteback(lastPage)) {
          pendingNs += costs.missNs();
          ra.asyncRa(pages, lastPage, last - lastPage);
          pages.flush();
        }
      }
      retried = false;
      if (!toIssue.isEmpty()) {
        return spend(cpu, ISSUE);
      }
      if (!as.uptodate(lastPage)) {
        phase = WAIT;
        return waitPage(cpu);
      }
      copyBatch(isize);
    }
  }

  /** Submits the bios built so far; a missing tag makes the task sleep and retry. */
  private boolean issue(TaskCpu cpu) {
    BlockQueue q = queues.apply(cpu.cpu().cpu().id());
    CpuComponent c = cpu.cpu();
    while (!toIssue.isEmpty()) {
      ReadaheadPages.ReadBio rb = toIssue.peek();
      if (!q.issue(rb.bio(), (b, err) -> rb.ended(pc, err, c), () -> c.wake(task))) {
        slept = true;
        cpu.sleep();
        return false;
      }
      toIssue.poll();
    }
    if (willneed || nowait && remaining == 0) {
      return finish(cpu);
    }
    phase = WAIT;
    return waitPage(cpu);
  }

  /** The wait for the batch's last page, a re-read of a failed one, then the copy. */
  private boolean waitPage(TaskCpu cpu) {
    long p = batchEnd - 1;
    AddressSpace a = as;
    if (a.locked(p) && nowait) {
      // filemap_update_page(): folio_trylock() fails: -EAGAIN (IOCB_WAITQ: the caller arms
      // its wait_page_queue on this page).
      return stopNowait(cpu, p);
    }
    if (a.locked(p)) {
      a.pageWait.prepareToWait(task, () -> !a.locked(p));
      slept = true;
      cpu.sleep();
      return false;
    }
    a.pageWait.finishWait(task);
    if (!a.cached(p)) {
      // The page left the cache (truncated): look it up again.
      phase = LOOKUP;
      return lookup(cpu);
    }
    if (!a.uptodate(p) && nowait) {
      // filemap_update_page(): not up to date and NOWAIT/WAITQ: -EAGAIN, no ->read_folio().
      return stopNowait(cpu, -1);
    }
    if (!a.uptodate(p)) {
      if (retried) {
        error = -EIO;
        remaining = 0;
        return finish(cpu);
      }
      // filemap_update_page() -> filemap_read_folio(): ->read_folio() without REQ_RAHEAD.
      retried = true;
      readFolio(p, false);
      if (!toIssue.isEmpty()) {
        return spend(cpu, ISSUE);
      }
    }
    copyBatch(as.host.iSize(as));
    phase = LOOKUP;
    return lookup(cpu);
  }

  /** {@code ->read_folio()} of page {@code index}: added first when {@code add}. */
  private void readFolio(long index, boolean add) {
    long sector = as.host.readSector(as, index);
    if (add) {
      pc.addReadPage(as, index, false, sector < 0, false);
    } else if (sector >= 0) {
      pc.relockForRead(as, index);
    } else {
      pc.endRead(as, index, true);
    }
    pendingNs += costs.missNs();
    if (sector >= 0) {
      queueBio(sector, index, 1, 0);
    }
  }

  private void copyBatch(long isize) {
    long end = Math.min(batchEnd << 12, Math.min(isize, pos + remaining));
    long bytes = end - pos;
    if (bytes <= 0) {
      remaining = 0;
      return;
    }
    pendingNs += costs.copyNs((int) Math.min(Integer.MAX_VALUE, bytes));
    pc.accessed(as);
    pos += bytes;
    remaining -= bytes;
    copied += bytes;
    lastPos = pos;
  }

  /**
   * {@link #readNowait} stops at {@code page} (-1: nothing to wait for): bios already built are
   * submitted first; the read returns what earlier rounds copied, or -EAGAIN.
   */
  private boolean stopNowait(TaskCpu cpu, long page) {
    blockedPage = page;
    remaining = 0;
    if (copied == 0) {
      error = -blksim.kernel.block.Errno.EAGAIN;
    }
    if (!toIssue.isEmpty()) {
      return spend(cpu, ISSUE);
    }
    return finish(cpu);
  }

  private boolean finish(TaskCpu cpu) {
    if (!willneed) {
      ra.setPrevPos(lastPos);
    }
    if (slept) {
      pendingNs += syscalls.wakeReturnNs();
    }
    phase = RETURN;
    if (pendingNs > 0) {
      cpu.runFor(CpuMode.SYSTEM, pendingNs);
      pendingNs = 0;
      return false;
    }
    return step(cpu);
  }

  private boolean spend(TaskCpu cpu, int next) {
    phase = next;
    cpu.runFor(CpuMode.SYSTEM, pendingNs);
    pendingNs = 0;
    return false;
  }

  private void queueBio(long sector, long firstPage, int n, int flags) {
    Bio bio = new Bio(ReqOp.READ, sector, n << 12, flags);
    toIssue.add(new ReadaheadPages.ReadBio(bio, as, firstPage, n));
    pendingNs += queue.submitCostNs(bio);
    pc.accountPgpgin(bio.sectors());
  }
}
