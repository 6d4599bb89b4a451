package blksim.kernel.fs;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import blksim.kernel.iouring.CompletionRing;
import blksim.kernel.iouring.IoRequest;
import blksim.kernel.mm.AddressSpace;
import blksim.kernel.sched.Completion;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SystemCall;
import blksim.kernel.workqueue.WorkItem;
import blksim.kernel.workqueue.WorkRun;
import java.util.ArrayList;
import java.util.List;

/**
 * Direct I/O (O_DIRECT) on a regular file of a mounted filesystem, as XFS does it over iomap:
 * {@code xfs_file_dio_read()} / {@code xfs_file_dio_write()} ({@code fs/xfs/xfs_file.c}) calling
 * {@code iomap_dio_rw()} ({@code fs/iomap/direct-io.c}). One object per task; a synchronous call
 * ({@link #pread}, {@link #pwrite}) or an asynchronous submission ({@link Dio}, libaio's).
 *
 * <p>What happens, in the kernel's order:
 * <ol>
 * <li>Alignment: the offset and the length must be multiples of the device's logical block size
 *     ({@value #LOGICAL_BLOCK} bytes here), else {@code -EINVAL} before anything is done
 *     ({@code xfs_file_dio_write()}'s {@code bt_logical_sectormask} check, and
 *     {@code iomap_dio_bio_iter()}'s for reads).
 * <li>{@code i_rwsem} (the IOLOCK, {@link InodeLock}): shared for reads and for writes aligned to
 *     the filesystem block that do not start past EOF ({@code xfs_file_dio_write_aligned()});
 *     exclusive for a sub-block ("unaligned") write, which then also waits for every direct I/O
 *     in flight on the inode ({@code xfs_file_dio_write_unaligned()}, {@code inode_dio_wait()}),
 *     and for a write starting past EOF (the kernel takes it exclusive in
 *     {@code xfs_file_write_checks()} to zero the gap, then demotes it; the model holds it
 *     exclusive for the whole submission). A synchronous call holds it until the I/O completed;
 *     an asynchronous one drops it once the bios are submitted ({@code -EIOCBQUEUED}).
 * <li>A read at or past EOF returns 0 at once ({@code __iomap_dio_rw()}).
 * <li>The page cache: a write invalidates the clean cached pages of its range
 *     ({@code kiocb_invalidate_pages()}); nothing of the I/O goes through the cache.
 * <li>The block mapping ({@code ->iomap_begin()}: {@code xfs_read_iomap_begin()},
 *     {@code xfs_direct_write_iomap_begin()}): a read of a hole or of an unwritten extent is
 *     zero-filled without I/O ({@code iomap_dio_hole_iter()}); a write into a hole allocates it
 *     as an unwritten extent in one transaction ({@code xfs_iomap_write_direct()} with
 *     XFS_BMAPI_PREALLOC, {@link Filesystem#fallocate} here), a write into an unwritten extent
 *     marks the dio IOMAP_DIO_UNWRITTEN.
 * <li>Bios straight to the filesystem's device, flagged REQ_SYNC, one per run of contiguous
 *     sectors, at most {@value #BIO_MAX_PAGES} pages each ({@code BIO_MAX_VECS}), all under the
 *     plug {@code __iomap_dio_rw()} holds around its {@code iomap_iter()} loop ({@link DioPlug}:
 *     the task's own if it holds one): on a request-based queue contiguous bios merge in the plug
 *     and the requests go to the queue together at {@code blk_finish_plug()}, or when the plug
 *     fills, or from schedule if the submitter sleeps for a request. Each bio is split at the
 *     queue's limits by the block layer.
 * <li>Completion ({@code iomap_dio_bio_end_io()} → {@code iomap_dio_done()}): a synchronous call
 *     is woken and completes in its own context ({@code iomap_dio_complete()}); an asynchronous
 *     read completes inline in the interrupt (IOMAP_DIO_INLINE_COMP); an asynchronous write is
 *     punted to the superblock's {@code s_dio_done_wq} ({@code iomap_dio_complete_work()}).
 *     The end_io, {@code xfs_dio_write_end_io()}, converts the written unwritten extents
 *     ({@code xfs_iomap_write_unwritten()}, which also moves the on-disk size) or, for a write
 *     past EOF, sets the new {@code i_size} ({@code xfs_setfilesize()}), one transaction either
 *     way; then {@code inode_dio_end()}.
 * </ol>
 *
 * <p>Costs: the call's entry ({@code rwEntryNs}); {@link #IOMAP_BEGIN_NS} per mapping; one
 * allocation or end_io transaction at {@link Filesystem#fallocateCostNs()} (the same kind of
 * transaction as fallocate's: a reservation, {@code xfs_bmapi_write()}, the commit); the block
 * layer's submission cost of each bio; the return after the wakeup ({@code wakeReturnNs}).
 *
 * <p>Simplified: dirty cached pages of the range are not written back first (the kernel's
 * {@code filemap_write_and_wait_range()}); a direct write into a delalloc range of the model
 * (unmapped pages below the file's reserved end) is allocated as written, as if writeback had
 * flushed it first; sub-block zeroing around unaligned writes into new or unwritten blocks
 * ({@code iomap_dio_zero()}) issues no bio; O_DSYNC, FUA and polled I/O are not modelled.
 *
 * <p>The user buffer: {@code iomap_dio_bio_iter()} pins its pages into each bio
 * ({@code bio_iov_iter_get_pages()} → {@code pin_user_pages_fast()}, {@code bio_add_page()}) and
 * the completion releases them ({@code bio_release_pages()}); every page under I/O after the first
 * costs {@link blksim.kernel.syscall.SyscallParams#dioPinPageNs} at the mapping and
 * {@link blksim.kernel.syscall.SyscallParams#dioUnpinPageNs} at the return of a synchronous call
 * (the first page's are in the per-I/O costs, calibrated on 4 KiB I/Os). Simplified: an
 * asynchronous dio pays both at its submission (the kernel releases the pages in the bio's
 * completion, interrupt or workqueue context).
 */
public final class DirectIo {
  /** The logical block size O_DIRECT must be aligned to ({@code bdev_logical_block_size()}). */
  public static final int LOGICAL_BLOCK = 512;
  /** {@code BIO_MAX_VECS}: pages of one bio at most. */
  public static final int BIO_MAX_PAGES = Bio.MAX_VECS;
  /**
   * One {@code ->iomap_begin()} [A]: the ILOCK taken shared, an in-core extent tree lookup
   * ({@code xfs_iext_lookup_extent()}), the iomap filled; a few hundred ns of pointer chasing,
   * assumed at 300 ns (a lookup in the in-memory btree, no I/O and no transaction).
   */
  public static final long IOMAP_BEGIN_NS = 300;

  private final Vfs vfs;
  private final Task task;
  private final Dio syncDio;
  private final SyncCall sync = new SyncCall();
  private final ArrayList<Dio> freeDios = new ArrayList<>();
  /** The plug of {@code __iomap_dio_rw()} (one direct I/O submits at a time per task). */
  private final DioPlug plug;

  DirectIo(Vfs vfs, Task task) {
    this.vfs = vfs;
    this.task = task;
    this.plug = new DioPlug(task);
    this.syncDio = new Dio();
  }

  /** {@code pread()} on a file opened with O_DIRECT: bytes read, 0 past EOF, or -errno. */
  public SystemCall pread(VfsCalls.OpenFile f, long pos, int len) {
    return sync.arm(f, ReqOp.READ, pos, len);
  }

  /** {@code pwrite()} on a file opened with O_DIRECT: bytes written or -errno. */
  public SystemCall pwrite(VfsCalls.OpenFile f, long pos, int len) {
    return sync.arm(f, ReqOp.WRITE, pos, len);
  }

  /**
   * An asynchronous direct I/O ({@code IOCB} without {@code is_sync_kiocb()}) of {@code req}'s
   * range of {@code f}; its completion is posted to {@code ring}. Driven by the submitting call
   * with {@link Dio#stepSubmit}.
   */
  public Dio async(VfsCalls.OpenFile f, IoRequest req, CompletionRing ring) {
    Dio d = freeDios.isEmpty() ? new Dio() : freeDios.remove(freeDios.size() - 1);
    Bio b = req.bio();
    d.arm(f, b.op(), b.sector() << 9, b.sizeBytes(), req, ring);
    return d;
  }

  /** Whether {@code pos} and {@code len} are what O_DIRECT accepts. */
  static boolean aligned(long pos, long len) {
    return pos >= 0 && len >= 0 && ((pos | len) & (LOGICAL_BLOCK - 1)) == 0;
  }

  /** One direct I/O ({@code struct iomap_dio}), re-armed for each use. */
  public final class Dio implements AsyncDio {
    private static final int LOCK = 0;
    private static final int MAP = 1;
    private static final int ISSUE = 2;
    private static final int SUBMITTED = 3;

    private VfsCalls.OpenFile f;
    private ReqOp op;
    private long pos;
    private int len;
    private IoRequest req;
    private CompletionRing ring;
    private int phase;
    private boolean exclusive;
    private boolean locked;
    private boolean unaligned;
    private InodeLock lock;
    private final List<Bio> bios = new ArrayList<>();
    private int bioIdx;
    /** The bios are submitted under {@link DirectIo#plug} (started, not yet finished). */
    private boolean plugged;
    /** References: one per bio in flight plus the submission's ({@code dio->ref}). */
    private int ref;
    private int error;
    private long result;
    private boolean unwritten;
    private boolean extending;
    private long firstPage;
    private int nPages;
    /** Bytes of the user buffer under I/O (pinned): the bios' total. */
    private long dioBytes;
    private CpuComponent submitCpu;
    /** Woken when the last reference goes (synchronous: {@code dio->submit.waiter}). */
    private final Completion done = new Completion();
    private final Runnable wakeTask = () -> submitCpu.wake(task);

    void arm(VfsCalls.OpenFile f, ReqOp op, long pos, int len, IoRequest req,
        CompletionRing ring) {
      this.f = f;
      this.op = op;
      this.pos = pos;
      this.len = len;
      this.req = req;
      this.ring = ring;
      this.phase = LOCK;
      this.locked = false;
      this.bios.clear();
      this.bioIdx = 0;
      this.plugged = false;
      this.ref = 1;
      this.error = 0;
      this.result = 0;
      this.unwritten = false;
      this.extending = false;
      this.dioBytes = 0;
      done.reinit();
    }

    /** The errno of a request refused before any I/O (alignment), else 0. */
    @Override
    public int check() {
      if (!aligned(pos, len)) {
        return -Filesystem.EINVAL;
      }
      return 0;
    }

    /**
     * Drives the submission in the caller's task: takes the lock, maps, issues the bios. True
     * while it took an action (the caller returns from its step); false when the bios are
     * submitted (or there are none), with the lock dropped for an asynchronous dio.
     */
    @Override
    public boolean stepSubmit(TaskCpu cpu) {
      while (true) {
        switch (phase) {
          case LOCK: {
            submitCpu = cpu.cpu();
            lock = f.mount.lock(f.ino);
            long size = f.mount.fs.size(f.ino);
            unaligned = op == ReqOp.WRITE
                && ((pos | len) & (Filesystem.PAGE_SIZE - 1)) != 0;
            exclusive = op == ReqOp.WRITE && (unaligned || pos > size);
            if (!lock.tryLock(exclusive)) {
              lock.await(wakeTask);
              cpu.sleep();
              return true;
            }
            if (unaligned && lock.dioCount() > 0) {
              // inode_dio_wait(): an unaligned write waits for every dio in flight.
              lock.unlock(true);
              lock.await(wakeTask);
              cpu.sleep();
              return true;
            }
            locked = true;
            phase = MAP;
            continue;
          }
          case MAP: {
            long cost = map(cpu);
            phase = ISSUE;
            if (cost > 0) {
              cpu.runFor(CpuMode.SYSTEM, cost);
              return true;
            }
            continue;
          }
          case ISSUE:
            if (!plugged && bioIdx < bios.size()) {
              // blk_start_plug() before the iomap_iter() loop (nested under a plug the task
              // holds, as under io_submit() of more than 2 iocbs).
              plugged = true;
              plug.start();
            }
            while (bioIdx < bios.size()) {
              Bio b = bios.get(bioIdx);
              BlockQueue q = f.mount.wb.queues().apply(cpu.cpu().cpu().id());
              ref++;
              if (!q.issue(b, this::endIo, wakeTask, plug.held())) {
                // No request: the submitter sleeps in the block layer (the sleep flushes the
                // plug from schedule) and tries again under the same plug.
                ref--;
                cpu.sleep();
                return true;
              }
              bioIdx++;
            }
            if (plugged) {
              // blk_finish_plug(): the plugged requests go to their queues, run here.
              plugged = false;
              plug.finish();
            }
            phase = SUBMITTED;
            if (req != null) {
              // An asynchronous dio drops the IOLOCK once submitted (-EIOCBQUEUED).
              unlock();
              put();
            }
            return false;
          default:
            return false;
        }
      }
    }

    /**
     * The mapping: page-cache invalidation, allocation of holes for a write, the bios. Returns
     * the CPU time of the mapping, the allocation and the bios' submission.
     */
    private long map(TaskCpu cpu) {
      Filesystem fs = f.mount.fs;
      long size = fs.size(f.ino);
      long cost = IOMAP_BEGIN_NS;
      lock.dioBegin();
      long end;
      if (op == ReqOp.READ) {
        if (pos >= size) {
          result = 0;
          return cost;
        }
        result = Math.min(len, size - pos);
        // Blocks past the EOF block are holes: no I/O for them.
        end = Math.min(pos + len, (size + Filesystem.PAGE_SIZE - 1)
            & ~(long) (Filesystem.PAGE_SIZE - 1));
      } else {
        result = len;
        end = pos + len;
      }
      if (end <= pos) {
        return cost;
      }
      firstPage = pos / Filesystem.PAGE_SIZE;
      long lastPage = (end - 1) / Filesystem.PAGE_SIZE;
      nPages = (int) (lastPage - firstPage + 1);
      if (op == ReqOp.WRITE) {
        AddressSpace as = f.mount.existingMapping(f.ino);
        if (as != null) {
          vfs.pageCache().invalidateClean(as, firstPage, lastPage + 1);
        }
        boolean hole = false;
        for (long p = firstPage; p <= lastPage && !hole; p++) {
          hole = fs.mappedSector(f.ino, p) < 0;
        }
        if (hole) {
          // xfs_iomap_write_direct(): the holes become unwritten extents in one transaction.
          int r = fs.fallocate(f.ino, firstPage, nPages, true, f.mount.allocRandom);
          cost += fs.fallocateCostNs();
          if (r < 0) {
            error = r;
            return cost;
          }
        }
        for (long p = firstPage; p <= lastPage && !unwritten; p++) {
          unwritten = fs.unwritten(f.ino, p);
        }
        extending = end > size;
      }
      Bio cur = null;
      long at = pos;
      BlockQueue q = f.mount.wb.queues().apply(cpu.cpu().cpu().id());
      while (at < end) {
        long page = at / Filesystem.PAGE_SIZE;
        long pageEnd = Math.min(end, (page + 1) * Filesystem.PAGE_SIZE);
        long sector = op == ReqOp.READ ? fs.readSector(f.ino, page) : fs.mappedSector(f.ino, page);
        if (sector < 0) {
          // A hole or an unwritten extent read: zero-filled, no I/O.
          cur = null;
          at = pageEnd;
          continue;
        }
        sector += (at % Filesystem.PAGE_SIZE) >>> 9;
        int n = (int) (pageEnd - at);
        if (cur != null && cur.sector() + cur.sectors() == sector
            && cur.sizeBytes() + n <= BIO_MAX_PAGES * Filesystem.PAGE_SIZE) {
          cur = new Bio(op, cur.sector(), cur.sizeBytes() + n, Bio.REQ_SYNC);
          bios.set(bios.size() - 1, cur);
        } else {
          cur = new Bio(op, sector, n, Bio.REQ_SYNC);
          bios.add(cur);
        }
        at = pageEnd;
      }
      long bytes = 0;
      for (Bio b : bios) {
        cost += q.submitCostNs(b);
        bytes += b.sizeBytes();
      }
      dioBytes = bytes;
      // bio_iov_iter_get_pages(): the user pages are pinned and added to the bios as they are
      // built; an asynchronous dio also pays their release here (see the class comment).
      cost += vfs.syscalls().dioPinNs(bytes);
      if (req != null) {
        cost += vfs.syscalls().dioUnpinNs(bytes);
      }
      return cost;
    }

    /** {@code iomap_dio_bio_end_io()}. */
    private void endIo(Bio b, int err) {
      if (err != 0 && error == 0) {
        error = err;
      }
      put();
    }

    /** Drops a reference; the last one completes the dio ({@code iomap_dio_done()}). */
    private void put() {
      if (--ref > 0) {
        return;
      }
      if (req == null) {
        done.complete(submitCpu);
      } else if (op == ReqOp.READ || error != 0) {
        // IOMAP_DIO_INLINE_COMP: reads complete in the interrupt. (A failed write has nothing
        // to convert; the kernel still punts it, which only moves where the post runs.)
        finishAsync();
      } else {
        Vfs.Mount m = f.mount;
        if (m.dioDoneWq == null) {
          throw new IllegalStateException("asynchronous direct write on " + m.mountPoint
              + " without its s_dio_done_wq");
        }
        m.dioWqs.queueWork(submitCpu, m.dioDoneWq, WorkItem.oneShot("iomap_dio_complete_work",
            () -> new WorkRun() {
              private boolean ran;

              @Override
              public void step(blksim.kernel.workqueue.WorkerCpu w) {
                if (!ran) {
                  ran = true;
                  w.runFor(endIoCostNs());
                  return;
                }
                finishAsync();
                w.finish();
              }
            }));
      }
    }

    /** The end_io's transaction cost, 0 for a read or a pure overwrite. */
    long endIoCostNs() {
      return op == ReqOp.WRITE && error == 0 && (unwritten || extending)
          ? f.mount.fs.fallocateCostNs() : 0;
    }

    /** {@code iomap_dio_complete()} with {@code xfs_dio_write_end_io()}. */
    private void complete() {
      if (op == ReqOp.WRITE && error == 0 && nPages > 0) {
        Filesystem fs = f.mount.fs;
        if (unwritten) {
          fs.convertUnwritten(f.ino, firstPage, nPages);
        }
        if (pos + len > fs.size(f.ino)) {
          fs.setSize(f.ino, pos + len);
        }
      }
      lock.dioEnd();
    }

    private void finishAsync() {
      complete();
      IoRequest r = req;
      CompletionRing cq = ring;
      int res = error;
      req = null;
      freeDios.add(this);
      cq.post(r, res);
    }

    private void unlock() {
      if (locked) {
        locked = false;
        lock.unlock(exclusive);
      }
    }

    /** The dio's result: bytes, or -errno. */
    long ret() {
      return error != 0 ? error : result;
    }
  }

  /** A synchronous {@code pread()}/{@code pwrite()} with O_DIRECT. */
  private final class SyncCall extends SystemCall {
    private static final int ENTER = 0;
    private static final int SUBMIT = 1;
    private static final int WAIT = 2;
    private static final int RETURN = 3;
    private int phase;
    private long early;

    SystemCall arm(VfsCalls.OpenFile f, ReqOp op, long pos, int len) {
      syncDio.arm(f, op, pos, len, null, null);
      early = syncDio.check();
      phase = ENTER;
      return this;
    }

    @Override
    public boolean step(TaskCpu cpu) {
      while (true) {
        switch (phase) {
          case ENTER:
            phase = early != 0 ? RETURN : SUBMIT;
            cpu.runFor(CpuMode.SYSTEM, vfs.syscalls().rwEntryNs());
            return false;
          case SUBMIT:
            if (syncDio.stepSubmit(cpu)) {
              return false;
            }
            phase = WAIT;
            // The submission's reference goes; the last bio (or this) completes the dio.
            syncDio.put();
            continue;
          case WAIT:
            if (!syncDio.done.tryWait(task)) {
              cpu.sleep();
              return false;
            }
            // iomap_dio_complete() in the caller's context, then the IOLOCK is dropped.
            syncDio.complete();
            syncDio.unlock();
            early = syncDio.ret();
            phase = RETURN + 1;
            // bio_release_pages() of the pinned user pages, then the return.
            cpu.runFor(CpuMode.SYSTEM, vfs.syscalls().wakeReturnNs() + syncDio.endIoCostNs()
                + vfs.syscalls().dioUnpinNs(syncDio.dioBytes));
            return false;
          case RETURN:
            phase = RETURN + 1;
            continue;
          default:
            return returned(early);
        }
      }
    }
  }
}
