package blksim.kernel.fs.btrfs;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import blksim.kernel.fs.AsyncDio;
import blksim.kernel.fs.DioPlug;
import blksim.kernel.fs.Filesystem;
import blksim.kernel.fs.VfsCalls;
import blksim.kernel.iouring.CompletionRing;
import blksim.kernel.iouring.IoRequest;
import blksim.kernel.locking.RwSemaphore;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.workqueue.WorkItem;
import blksim.kernel.workqueue.WorkRun;
import blksim.kernel.workqueue.WorkerCpu;
import java.util.ArrayList;
import java.util.List;

/**
 * One asynchronous direct write to a btrfs file ({@code btrfs_direct_write()} →
 * {@code btrfs_dio_write()} → {@code __iomap_dio_rw()} with {@code btrfs_dio_iomap_ops}), driven
 * by the submitting task in {@code io_submit()}; see {@link BtrfsFilesystem} for the kernel's
 * path. Steps, each one action of the task:
 * <ol>
 * <li>{@code i_rwsem}: exclusive when the write extends {@code i_size}, else shared
 *     ({@code BTRFS_ILOCK_SHARED} for an aligned write inside {@code i_size});
 * <li>c_s − h_r of CPU: {@code btrfs_dio_iomap_begin()}'s checks and reservations;
 * <li>the tree lock shared, h_r: {@code btrfs_reserve_extent()} (a new extent, copy on write),
 *     {@code btrfs_create_dio_extent()} (the extent map and the ordered extent), {@code i_size}
 *     moved if the write extends it;
 * <li>release, then the checksums ({@link BtrfsParams#csumNs}) and the bios' submission cost;
 * <li>the bios, one per stripe element touched ({@code btrfs_submit_chunk()} splitting at
 *     {@code btrfs_map_block()}'s element ends), each to its device's queue on this CPU (a bio
 *     that finds no driver tag waits, as in {@code blk_mq_get_tag()}), under the plug
 *     {@code __iomap_dio_rw()} holds around its {@code iomap_iter()} loop ({@link DioPlug}, the
 *     task's own nested if it holds one, as under {@code io_submit()} of more than 2 iocbs): on
 *     a request-based queue the contiguous bios of one write to one device merge there, and the
 *     requests go to their queues at {@code blk_finish_plug()}, before {@code i_rwsem} is
 *     released. Simplified: the kernel starts the plug before {@code btrfs_dio_iomap_begin()},
 *     the model at the first bio; a plug of its own is empty until then, so a sleep on the tree
 *     lock flushes nothing in either. Off by default ({@link BtrfsParams#dioPlug},
 *     {@code kernel.btrfs-dio-plug = on}): the bios then go to their queues unplugged, which on
 *     a queue with mq-deadline runs the queue through kblockd, not in the submitter; thread 2's
 *     costs were calibrated that way, and with the plug its numa-off baseline leaves tolerance;
 * <li>{@code i_rwsem} released: {@code -EIOCBQUEUED}, {@code io_submit()} goes on.
 * </ol>
 * At each bio's end ({@code btrfs_dio_end_io()}): its bytes leave the ordered extent and the
 * last one queues {@code finish_ordered_fn} on {@code btrfs-endio-write}
 * ({@code btrfs_finish_ordered_extent()}); then {@code iomap_dio_bio_end_io()} drops the dio's
 * reference, and the last one queues {@code iomap_dio_complete_work()} on {@code s_dio_done_wq},
 * which posts the aio event. The aio thus completes before the ordered extent is finished.
 */
final class BtrfsDirectWrite implements AsyncDio {
  private static final int LOCK = 0;
  private static final int TREE = 1;
  private static final int TREE_UP = 2;
  private static final int ISSUE = 3;
  private static final int UNLOCK = 4;
  private static final int DONE = 5;
  private static final int LEAF = 6;
  private static final int LEAF_UP = 7;

  private final BtrfsTaskCalls calls;
  private final BtrfsFilesystem fs;
  private VfsCalls.OpenFile f;
  private IoRequest req;
  private CompletionRing ring;
  private long pos;
  private int len;
  private boolean write;
  private int phase;
  /** The tree lock release's wakeup cost, spent with the checksums when nothing is coupled. */
  private long treeWake;
  private boolean exclusive;
  private BtrfsFilesystem.Inode inode;
  private OrderedExtent oe;
  private final List<Bio> bios = new ArrayList<>();
  private final List<Integer> bioDevices = new ArrayList<>();
  private int bioIdx;
  /** The bios are being submitted under the task's {@link DioPlug} (started, not finished). */
  private boolean plugged;
  /** References: one per bio in flight plus the submission's ({@code dio->ref}). */
  private int ref;
  private int error;
  private CpuComponent submitCpu;
  private final Runnable wakeTask;

  BtrfsDirectWrite(BtrfsTaskCalls calls) {
    this.calls = calls;
    this.fs = calls.fs;
    this.wakeTask = () -> submitCpu.wake(calls.task);
  }

  void arm(VfsCalls.OpenFile f, IoRequest req, CompletionRing ring) {
    Bio b = req.bio();
    this.f = f;
    this.req = req;
    this.ring = ring;
    this.pos = b.sector() << 9;
    this.len = b.sizeBytes();
    this.write = b.op() == ReqOp.WRITE;
    this.phase = LOCK;
    this.oe = null;
    this.bios.clear();
    this.bioDevices.clear();
    this.bioIdx = 0;
    this.plugged = false;
    this.ref = 1;
    this.error = 0;
  }

  @Override
  public int check() {
    if (!write) {
      throw new UnsupportedOperationException("direct reads of btrfs files are not modelled"
          + " (the loader refuses them)");
    }
    // check_direct_IO(): the kernel falls back to a buffered write; not modelled (see
    // BtrfsFilesystem).
    if (((pos | len) & (BtrfsFilesystem.SECTORSIZE - 1)) != 0 || len == 0) {
      return -Filesystem.EINVAL;
    }
    return 0;
  }

  @Override
  public boolean stepSubmit(TaskCpu cpu) {
    while (true) {
      switch (phase) {
        case LOCK: {
          submitCpu = cpu.cpu();
          inode = fs.inode(f.ino());
          exclusive = pos + len > inode.size;
          RwSemaphore l = fs.iRwsem(inode);
          if (!(exclusive ? l.downWrite(calls.task, cpu) : l.downRead(calls.task, cpu))) {
            return true;
          }
          phase = TREE;
          BtrfsParams p = fs.params();
          cpu.runFor(CpuMode.SYSTEM, p.submitNs() - p.submitTreeHoldNs());
          return true;
        }
        case TREE: {
          if (!fs.treeLock().downRead(calls.task, cpu)) {
            return true;
          }
          phase = LEAF;
          continue;
        }
        case LEAF: {
          // Lock coupling: btrfs_get_extent()'s search takes the file's leaf shared while it
          // holds the upper nodes.
          if (fs.coupling() && !fs.leafLock(inode).downRead(calls.task, cpu)) {
            return true;
          }
          long logical = fs.reserveExtent(inode, pos, len);
          if (logical < 0) {
            error = (int) logical;
          } else {
            oe = fs.orderedCreated(inode, pos, len, logical, cpu.now());
            if (pos + len > inode.size) {
              inode.size = pos + len;
            }
          }
          phase = TREE_UP;
          cpu.runFor(CpuMode.SYSTEM,
              fs.params().submitTreeHoldNs() + fs.treeTransferNs(cpu.cpu()));
          return true;
        }
        case TREE_UP: {
          long cost = fs.treeLock().upRead(calls.task, cpu.cpu());
          if (fs.coupling()) {
            phase = LEAF_UP;
            cpu.runFor(CpuMode.SYSTEM, fs.params().submitLeafHoldNs() + cost);
            return true;
          }
          treeWake = cost;
          phase = LEAF_UP;
          continue;
        }
        case LEAF_UP: {
          long cost = fs.coupling() ? fs.leafLock(inode).upRead(calls.task, cpu.cpu()) : treeWake;
          treeWake = 0;
          if (oe != null) {
            cost += fs.params().csumNs(len) + mapBios(cpu.cpu().cpu().id());
          }
          phase = ISSUE;
          if (cost > 0) {
            cpu.runFor(CpuMode.SYSTEM, cost);
            return true;
          }
          continue;
        }
        case ISSUE: {
          DioPlug plug = calls.plug;
          if (!plugged && bioIdx < bios.size() && fs.params().dioPlug()) {
            // __iomap_dio_rw(): blk_start_plug() (nested under the task's plug if it holds one).
            plugged = true;
            plug.start();
          }
          int cpuId = cpu.cpu().cpu().id();
          while (bioIdx < bios.size()) {
            Bio b = bios.get(bioIdx);
            BlockQueue q = fs.queue(bioDevices.get(bioIdx), cpuId);
            ref++;
            // Unplugged here, a bio still goes through the plug the task holds (current->plug,
            // io_submit()'s batch plug).
            if (!q.issue(b, this::endIo, wakeTask, plugged ? plug.held() : calls.task.plug())) {
              // No request: the sleep flushes the plug from schedule; retried under it.
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
          phase = UNLOCK;
          continue;
        }
        case UNLOCK: {
          RwSemaphore l = fs.iRwsem(inode);
          long wake = exclusive ? l.upWrite(calls.task, cpu.cpu())
              : l.upRead(calls.task, cpu.cpu());
          phase = DONE;
          put();
          if (wake > 0) {
            cpu.runFor(CpuMode.SYSTEM, wake);
            return true;
          }
          return false;
        }
        default:
          return false;
      }
    }
  }

  /** The bios of the write: split at stripe-element ends; returns their submission cost. */
  private long mapBios(int cpuId) {
    long cost = 0;
    long logical = oe.diskLogical();
    int left = len;
    Raid0Map m = fs.layout();
    while (left > 0) {
      int n = Math.min(left, m.bytesToElementEnd(logical));
      int dev = m.device(logical);
      Bio b = new Bio(ReqOp.WRITE, m.physical(logical) >>> 9, n, Bio.REQ_SYNC);
      bios.add(b);
      bioDevices.add(dev);
      fs.deviceBytes[dev] += n;
      cost += fs.queue(dev, cpuId).submitCostNs(b);
      logical += n;
      left -= n;
    }
    fs.bytesSubmitted += len;
    return cost;
  }

  /** {@code btrfs_dio_end_io()}. */
  private void endIo(Bio b, int err) {
    if (err != 0 && error == 0) {
      error = err;
    }
    // btrfs_finish_ordered_extent(): bytes_left; the last bio queues finish_ordered_fn.
    oe.bytesLeft -= b.sizeBytes();
    if (oe.bytesLeft == 0) {
      oe.queuedNs = submitCpu.now();
      fs.wqs.queueWork(submitCpu, fs.endioWrite,
          WorkItem.oneShot("finish_ordered_fn", new FinishOrdered(fs, oe)));
    }
    // iomap_dio_bio_end_io()
    put();
  }

  /** Drops a reference; the last one completes the dio ({@code iomap_dio_done()}). */
  private void put() {
    if (--ref > 0) {
      return;
    }
    if (oe == null || error != 0 || fs.dioDoneWq == null) {
      post();
      return;
    }
    fs.dioWqs.queueWork(submitCpu, fs.dioDoneWq, WorkItem.oneShot("iomap_dio_complete_work",
        () -> new WorkRun() {
          private boolean ran;

          @Override
          public void step(WorkerCpu w) {
            if (!ran) {
              ran = true;
              w.runFor(0);
              return;
            }
            post();
            w.finish();
          }
        }));
  }

  /** {@code iomap_dio_complete()} → {@code ki_complete}: the aio event; the object is free. */
  private void post() {
    IoRequest r = req;
    CompletionRing cq = ring;
    int res = error;
    if (oe != null) {
      oe.aioDoneNs = submitCpu.now();
    }
    req = null;
    oe = null;
    calls.free.add(this);
    cq.post(r, res);
  }
}
