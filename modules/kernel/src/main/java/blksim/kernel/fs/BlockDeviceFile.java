package blksim.kernel.fs;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BioEndIo;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import blksim.kernel.mm.AddressSpace;
import blksim.kernel.mm.BufferedWrite;
import blksim.kernel.mm.FilemapRead;
import blksim.kernel.mm.FsyncCall;
import blksim.kernel.mm.PageCache;
import blksim.kernel.mm.PageCacheParams;
import blksim.kernel.mm.Readahead;
import blksim.kernel.mm.WritebackParams;
import blksim.kernel.sched.Completion;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SyscallParams;
import blksim.kernel.syscall.SystemCall;
import java.util.function.IntFunction;

/**
 * A block device opened by a task: a {@code struct file} on the device's inode, with
 * {@code def_blk_fops} ({@code block/fops.c}); what {@code open("/dev/nullb0")} returns. Its
 * calls are {@link #pread}, {@link #pwrite}, {@link #read}, {@link #write}, {@link #fsync},
 * {@link #fdatasync} and {@link #close}.
 *
 * <p>Reads and writes, {@code blkdev_read_iter()} / {@code blkdev_write_iter()}:
 * <ul>
 * <li>O_DIRECT ({@code blkdev_direct_IO()}): up to {@code BIO_MAX_VECS} (256) pages, one bio of
 *     the requested range ({@code __blkdev_direct_IO_simple()}, {@code submit_bio_wait()}); a
 *     larger I/O one bio per 256 pages under a plug ({@code __blkdev_direct_IO()},
 *     {@link BlkdevDio}); flagged REQ_SYNC, submitted from the caller's context; the task sleeps
 *     until the last completion, unless the driver completed them inline (brd, zram), then the
 *     call returns. A submitter that finds no driver tag sleeps until one is freed and retries.
 * <li>Buffered reads ({@code filemap_read()}, kernel-model.md §5.6): through the device's page
 *     cache with this open file's readahead state ({@link blksim.kernel.mm.FilemapRead}, the
 *     path files of a filesystem take): a miss starts readahead (bios flagged REQ_RAHEAD, in
 *     6.6's windows, or one page at a time after POSIX_FADV_RANDOM, which fio sets for random
 *     jobs), the task waits for the page; if readahead failed (a device that kills it,
 *     dm-zero), {@code ->read_folio()} reads the page again without REQ_RAHEAD; then the data
 *     is copied to the user buffer, and a later read of a cached page does no I/O. Without a
 *     page cache in the machine (a test rig) the older single-bio path below is used: one
 *     REQ_RAHEAD bio of the requested range, the retry, the copy, nothing kept.
 *
 * <li>Buffered writes ({@code generic_perform_write()}): into the device's page cache, with
 *     dirty throttling, written back by the device's flusher ({@link BufferedWrite}); fsync and
 *     fdatasync write and wait for the file's dirty pages ({@link FsyncCall}).
 * </ul>
 *
 * <p>Costs: the call's entry ({@link SyscallParams#rwEntryNs}), plus the miss cost of a buffered
 * read, plus the block layer's and driver's submission cost, as one burst of system time before
 * the issue; after the completion, the return ({@link SyscallParams#wakeReturnNs}) plus the copy
 * of a buffered read. As fio measures it, the whole call is its completion latency. O_DIRECT
 * pins the user buffer page by page ({@code bio_iov_iter_get_pages()}) and releases it after the
 * I/O ({@code bio_release_pages()}): every page after the first adds
 * {@link SyscallParams#dioPinNs} to the submission and {@link SyscallParams#dioUnpinNs} to the
 * return (the per-I/O costs were measured on 4 KiB I/Os and hold the first page's). Simplified:
 * the kernel releases a transfer of more than {@code DIO_INLINE_BIO_VECS} (4) pages in the bio's
 * completion ({@code blkdev_bio_end_io()}, interrupt context) rather than in the caller; here the
 * caller pays it on its return.
 *
 * <p>Simplified: the device's pages are order-0 (no large folios); without a page cache
 * {@code fsync} only pays its entry cost;
 * {@code open} and {@code close} cost no CPU time, and the last close does not write the
 * device's dirty pages back. The device is submitted to on the queue of the CPU the task runs
 * on ({@code blk_mq_map_queue()} of the submitting CPU). One call is in progress at a time: the
 * file's call object is reused.
 */
public final class BlockDeviceFile {
  private final Task task;
  private final IntFunction<BlockQueue> queues;
  private final boolean direct;
  private final SyscallParams syscalls;
  private final PageCacheParams pageCache;
  private final ReadWrite rw = new ReadWrite();
  private final Sync sync = new Sync();
  /** The device's page cache, null when the scenario has no buffered writer. */
  private final AddressSpace mapping;
  private final BufferedWrite bufferedWrite;
  /** Buffered reads through the page cache, when the device has one. */
  private final FilemapRead filemapRead;
  /** {@code f_ra}: this open file's readahead state. */
  private final Readahead ra;
  private final FsyncCall fsync;
  private final PageCache pc;
  private final WritebackParams wbCosts;
  private final FlushBuf flushBuf = new FlushBuf();
  /** The O_DIRECT bios of a call ({@code blkdev_direct_IO()}). */
  private final BlkdevDio dio;
  private long pos;
  private boolean closed;

  /** The CPU {@link #queueOf} belongs to (a one-entry cache of {@link #queues}). */
  private Object queueCpu;
  private BlockQueue queueOf;

  /**
   * The device's queue on the CPU the task runs on; looked up again only when that CPU changes
   * (the lookup's lambda, list and CPU objects were cache misses per I/O on large machines).
   */
  private BlockQueue queueOn(TaskCpu cpu) {
    Object on = cpu.cpu();
    if (on != queueCpu) {
      queueOf = queues.apply(cpu.cpu().cpu().id());
      queueCpu = on;
    }
    return queueOf;
  }

  private BlockDeviceFile(Task task, IntFunction<BlockQueue> queues, boolean direct,
      SyscallParams syscalls, PageCacheParams pageCache, PageCache pc, AddressSpace mapping,
      WritebackParams wbCosts) {
    this(task, queues, direct, syscalls, pageCache, pc, mapping, wbCosts, null);
  }

  /** {@code sharedRa}: the readahead state of the file this one is a view of, or null. */
  private BlockDeviceFile(Task task, IntFunction<BlockQueue> queues, boolean direct,
      SyscallParams syscalls, PageCacheParams pageCache, PageCache pc, AddressSpace mapping,
      WritebackParams wbCosts, Readahead sharedRa) {
    this.task = task;
    this.dio = new BlkdevDio(task);
    this.wbCosts = wbCosts;
    this.queues = queues;
    this.direct = direct;
    this.syscalls = syscalls;
    this.pageCache = pageCache;
    this.mapping = mapping;
    this.pc = pc;
    this.bufferedWrite = mapping == null ? null
        : new BufferedWrite(task, pc, mapping, wbCosts, syscalls.rwEntryNs());
    this.filemapRead = mapping == null || direct ? null
        : new FilemapRead(task, pc, pageCache, syscalls);
    long raPages = mapping == null ? 0 : mapping.wb().raPages();
    this.ra = filemapRead == null ? null
        : sharedRa != null ? sharedRa : new Readahead(raPages, Math.max(1, raPages));
    this.fsync = mapping == null ? null
        : new FsyncCall(task, mapping, syscalls.rwEntryNs(), syscalls.wakeReturnNs());
  }

  /**
   * {@code open()} of a block device whose page cache is {@code mapping} in {@code pc} (buffered
   * writes go there).
   */
  public static BlockDeviceFile open(Task task, IntFunction<BlockQueue> queues, boolean direct,
      SyscallParams syscalls, PageCacheParams pageCache, PageCache pc, AddressSpace mapping,
      WritebackParams wbCosts) {
    return new BlockDeviceFile(task, queues, direct, syscalls, pageCache, pc, mapping, wbCosts);
  }

  /**
   * {@code open()} of a block device by {@code task}: with O_DIRECT when {@code direct}.
   *
   * @param queues the device's queue on each CPU, by CPU id
   */
  public static BlockDeviceFile open(Task task, IntFunction<BlockQueue> queues, boolean direct,
      SyscallParams syscalls, PageCacheParams pageCache) {
    return new BlockDeviceFile(task, queues, direct, syscalls, pageCache, null, null, null);
  }

  /** The device's size in bytes ({@code i_size} of the block device inode). */
  public long sizeBytes() {
    return queues.apply(0).capacityBytes();
  }

  /** Whether the file was opened with O_DIRECT. */
  public boolean direct() {
    return direct;
  }

  /** The device's queue on each CPU, by CPU id (an io_uring's workers submit on theirs). */
  public IntFunction<BlockQueue> queues() {
    return queues;
  }

  /** {@code pread(fd, buf, len, offset)}: returns {@code len} or a negative errno. */
  public SystemCall pread(long offsetBytes, int len) {
    if (filemapRead != null) {
      checkOpen();
      return filemapRead.read(mapping, ra, offsetBytes, len);
    }
    return rw.arm(ReqOp.READ, offsetBytes, len);
  }

  /**
   * {@code posix_fadvise()} advice for the whole device ({@code Readahead.POSIX_FADV_*}) applied
   * to this file's readahead state, as fio's {@code fadvise_hint} does at open; its system call
   * is not charged. No effect without a page cache or with O_DIRECT.
   */
  public void adviseReadahead(int advice) {
    if (ra != null) {
      ra.fadvise(advice);
    }
  }

  /**
   * {@code pread()} with {@code IOCB_NOWAIT}, as io_uring first issues a buffered read
   * ({@link FilemapRead#readNowait}): the bytes read, or -EAGAIN when it would have to wait for a
   * page ({@link #blockedPage()}). Only for a file with a page cache, without O_DIRECT.
   */
  public SystemCall preadNowait(long offsetBytes, int len) {
    if (filemapRead == null) {
      throw new IllegalStateException(task.comm()
          + ": a NOWAIT buffered read needs the device's page cache and no O_DIRECT");
    }
    checkOpen();
    return filemapRead.readNowait(mapping, ra, offsetBytes, len);
  }

  /**
   * After a {@link #preadNowait} that returned short: the page index whose lock stopped it, or
   * -1 (only a blocking read can go on).
   */
  public long blockedPage() {
    return filemapRead.blockedPage();
  }

  /** The device's page cache, or null without one (a test rig). */
  public AddressSpace mapping() {
    return mapping;
  }

  /**
   * Whether the device takes REQ_NOWAIT I/O ({@code bdev_nowait()}; {@code blkdev_open()} then
   * sets FMODE_NOWAIT and io_uring tries its requests inline).
   */
  public boolean supportsNowait() {
    return queues.apply(0).supportsNowait();
  }

  /**
   * This open file as another task uses it: an io-wq worker issuing the ring owner's requests in
   * its own context ({@code req->file} is the owner's file). Shares the device, the page cache
   * and the readahead state ({@code f_ra}); has its own call objects, and the dirtying and dirty
   * throttling of a buffered write are the worker's ({@code current}).
   */
  public BlockDeviceFile forTask(Task t) {
    return new BlockDeviceFile(t, queues, direct, syscalls, pageCache, pc, mapping, wbCosts, ra);
  }

  /** {@code pwrite(fd, buf, len, offset)}. */
  public SystemCall pwrite(long offsetBytes, int len) {
    if (!direct && mapping != null) {
      checkOpen();
      return bufferedWrite.arm(offsetBytes, len);
    }
    return rw.arm(ReqOp.WRITE, offsetBytes, len);
  }

  /** {@code read(fd, buf, len)} at the file position, which advances. */
  public SystemCall read(int len) {
    SystemCall c = pread(pos, len);
    pos += len;
    return c;
  }

  /** {@code write(fd, buf, len)} at the file position, which advances. */
  public SystemCall write(int len) {
    SystemCall c = pwrite(pos, len);
    pos += len;
    return c;
  }

  /** {@code lseek(fd, offset, SEEK_SET)} (costs no CPU time here). */
  public void seek(long offsetBytes) {
    pos = offsetBytes;
  }

  /**
   * {@code ioctl(fd, BLKRESETZONE / BLKFINISHZONE / BLKOPENZONE / BLKCLOSEZONE, range)} of one
   * zone starting at {@code offsetBytes} ({@code blkdev_zone_mgmt_ioctl()} →
   * {@code blkdev_zone_mgmt()}): one zone management bio, submitted and waited for
   * ({@code submit_bio_wait()}); the entry and return cost those of a read or write. Returns 0 or
   * a negative errno. Simplified: one zone per call (fio resets one at a time).
   */
  public SystemCall zoneMgmt(ReqOp op, long offsetBytes) {
    if (!op.zoneMgmt()) {
      throw new IllegalArgumentException("zoneMgmt takes a zone operation, was " + op);
    }
    if (queues.apply(0).zones() == null) {
      throw new IllegalStateException(task.comm() + ": a zone ioctl on a device that is not"
          + " zoned (the kernel returns -ENOTTY)");
    }
    return rw.arm(op, offsetBytes, 0);
  }

  /** {@code fsync(fd)} ({@code blkdev_fsync()}): see the class comment. */
  public SystemCall fsync() {
    checkOpen();
    return fsync != null ? fsync.arm() : sync.arm();
  }

  /** {@code fdatasync(fd)}: on a block device the same as {@link #fsync}. */
  public SystemCall fdatasync() {
    return fsync();
  }

  /**
   * {@code ioctl(fd, BLKFLSBUF)} ({@code blkdev_flushbuf()}, block/ioctl.c): {@code
   * sync_blockdev()} writes the device's dirty pages and waits for them
   * ({@code filemap_write_and_wait()}, no REQ_PREFLUSH: unlike {@code blkdev_fsync()} it never
   * calls {@code blkdev_issue_flush()}), then {@code invalidate_bdev()} drops the clean pages
   * of the device's page cache. This is fio's {@code invalidate=1} on a block device
   * ({@code blockdev_invalidate_cache()} when it opens the file). Simplified: as {@link #fsync}
   * its cost is the call's entry (and return when it waited); no modelled device has a
   * volatile write cache, so the missing flush changes no device work today, only the name.
   */
  public SystemCall flushBuf() {
    checkOpen();
    return flushBuf.arm();
  }

  /** {@code close(fd)}. Further calls are refused. */
  public void close() {
    closed = true;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(task.comm() + ": call on a closed block device file");
    }
  }

  /** The bio of an O_DIRECT transfer, or the page read of a buffered one. */
  private static Bio bio(ReqOp op, long offsetBytes, int len, int extraFlags) {
    return new Bio(op, offsetBytes >>> 9, len, Bio.REQ_SYNC | extraFlags);
  }

  /** One read or write system call; see the class comment. */
  private final class ReadWrite extends SystemCall {
    private static final int ENTER = 0;
    private static final int ISSUE = 1;
    private static final int WAIT = 2;
    private static final int RETURN = 3;

    private int phase;
    private ReqOp op;
    private long offset;
    private int len;
    private boolean buffered;
    private Bio deviceBio;
    private int error;
    /** The bio's completion ({@code submit_bio_wait()} / the page lock of a buffered read). */
    private final Completion done = new Completion();

    SystemCall arm(ReqOp op, long offsetBytes, int len) {
      checkOpen();
      if (op == ReqOp.WRITE && !direct) {
        throw new IllegalStateException(task.comm()
            + ": a buffered write to a block device opened without its page cache");
      }
      this.op = op;
      this.offset = offsetBytes;
      this.len = len;
      this.buffered = !direct && op == ReqOp.READ;
      this.phase = ENTER;
      return this;
    }

    @Override
    public boolean step(TaskCpu cpu) {
      switch (phase) {
        case ENTER:
          phase = ISSUE;
          BlockQueue q = queueOn(cpu);
          if (buffered) {
            // Page-cache miss: readahead of the one page, flagged REQ_RAHEAD.
            deviceBio = bio(op, offset, len, Bio.REQ_RAHEAD);
            cpu.runFor(CpuMode.SYSTEM,
                syscalls.rwEntryNs() + pageCache.missNs() + q.submitCostNs(deviceBio));
          } else {
            deviceBio = bio(op, offset, len, 0);
            cpu.runFor(CpuMode.SYSTEM, syscalls.rwEntryNs() + syscalls.dioPinNs(len)
                + BlkdevDio.submitCostNs(q, deviceBio));
          }
          return false;
        case ISSUE:
          issue(cpu);
          return false;
        case WAIT:
          waitForIo(cpu);
          return false;
        case RETURN:
          return returned(error == 0 ? len : error);
        default:
          throw new IllegalStateException(task.comm() + ": read/write in phase " + phase);
      }
    }

    private void issue(TaskCpu cpu) {
      done.reinit();
      BlockQueue q = queueOn(cpu);
      BioEndIo endIo = (b, err) -> onComplete(cpu, err);
      Runnable wake = () -> cpu.cpu().wake(task);
      // A buffered read's one bio (the page, or the range without a page cache) is not a dio.
      if (buffered ? !q.issue(deviceBio, endIo, wake)
          : !dio.issue(q, deviceBio, endIo, wake, null)) {
        cpu.sleep();
        return;
      }
      phase = WAIT;
      waitForIo(cpu);
    }

    /** {@code wait_for_completion()}: on at once if the bio completed inline, else sleep. */
    private void waitForIo(TaskCpu cpu) {
      if (done.tryWait(task)) {
        ioDone(cpu);
      } else {
        cpu.sleep();
      }
    }

    /** The device I/O finished: retry a failed readahead synchronously, or return. */
    private void ioDone(TaskCpu cpu) {
      if (buffered && (deviceBio.flags() & Bio.REQ_RAHEAD) != 0 && error != 0) {
        // The page is not up to date: ->read_folio() reads it without REQ_RAHEAD and waits again.
        deviceBio = bio(op, offset, len, 0);
        phase = ISSUE;
        cpu.runFor(CpuMode.SYSTEM, queueOn(cpu).submitCostNs(deviceBio));
        return;
      }
      phase = RETURN;
      // A buffered read copies the page; O_DIRECT releases the pinned user pages
      // (bio_release_pages()).
      long pages = buffered ? pageCache.copyNs(len) : syscalls.dioUnpinNs(len);
      cpu.runFor(CpuMode.SYSTEM, syscalls.wakeReturnNs() + pages);
    }

    private void onComplete(TaskCpu cpu, int err) {
      error = err;
      done.complete(cpu.cpu());
    }
  }

  /** {@code fsync} / {@code fdatasync}: the entry cost, nothing to write back (class comment). */
  /** {@link #flushBuf()}: the write-and-wait of {@link #fsync}, then the invalidation. */
  private final class FlushBuf extends SystemCall {
    private SystemCall write;

    SystemCall arm() {
      write = fsync != null ? fsync.arm() : sync.arm();
      return this;
    }

    @Override
    public boolean step(TaskCpu cpu) {
      if (!write.step(cpu)) {
        return false;
      }
      if (mapping != null) {
        pc.invalidateClean(mapping, 0, Long.MAX_VALUE); // invalidate_bdev()
      }
      return returned(0);
    }
  }

  private final class Sync extends SystemCall {
    private boolean entered;

    SystemCall arm() {
      checkOpen();
      entered = false;
      return this;
    }

    @Override
    public boolean step(TaskCpu cpu) {
      if (!entered) {
        entered = true;
        cpu.runFor(CpuMode.SYSTEM, syscalls.rwEntryNs());
        return false;
      }
      return returned(0);
    }
  }
}
