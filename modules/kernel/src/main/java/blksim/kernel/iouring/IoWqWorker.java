package blksim.kernel.iouring;

import blksim.kernel.block.Bio;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;

/**
 * An io-wq worker thread, {@code iou-wrk-<tid>} (mirrors {@code io_wq_worker()} and
 * {@code io_worker_handle_work()}): takes punted requests one by one and issues each in blocking
 * mode, so a synchronous bio-based driver (brd, zram) does its copy or decompression here, in
 * system time of this thread, which fio's per-thread accounting never sees.
 *
 * <p>For a ring on a block device opened without O_DIRECT ({@link IoWq#buffered}) the worker runs
 * the blocking buffered read or write instead of issuing a bio: {@code filemap_read()} or
 * {@code generic_perform_write()} with its dirty throttling, through its own view of the file
 * ({@link blksim.kernel.fs.BlockDeviceFile#forTask}); a sleep there (a page, a tag,
 * {@code balance_dirty_pages()}) lets io-wq start another worker as any blocking does.
 * Simplified: {@code blkdev_write_iter()}'s block plug around the write is not held.
 *
 * <p>A request's completion, during its issue or later by an interrupt, is not posted by the
 * worker: {@code io_complete_rw()} queues it as task work of the ring's submitter
 * ({@link CompletionRing#addTaskWork}), which posts the CQE in its next {@code io_uring_enter()}
 * (Linux 6.4, io_uring/rw.c and io_uring.c). With no work left the worker goes on the free
 * list and sleeps; if that sleep timed out, it exits instead, unless it is the last worker.
 */
public final class IoWqWorker extends Task {
  private enum Phase {
    NEXT,
    PREPARE,
    ISSUE,
    /** A buffered read or write running in this thread ({@link #buffered}). */
    BUFFERED,
    POST
  }

  private final IoWq wq;
  private final IoWq.WorkClass workClass;
  private Phase phase = Phase.NEXT;
  private IoRequest current;
  private Bio bio;
  private boolean inIssue;
  private boolean inlineDone;
  private int inlineResult;
  /**
   * The ring's file as this worker uses it, when it was opened without O_DIRECT: a punted
   * request is the blocking {@code io_read()} / {@code io_write()} through the page cache
   * ({@code filemap_read()}, {@code generic_perform_write()} with {@code balance_dirty_pages()})
   * in this thread; null otherwise.
   */
  private blksim.kernel.fs.BlockDeviceFile buffered;
  private blksim.kernel.syscall.SystemCall nested;
  /** The O_DIRECT bios of a request ({@code blkdev_direct_IO()}). */
  private final blksim.kernel.fs.BlkdevDio dio = new blksim.kernel.fs.BlkdevDio(this);
  /** When the worker last went idle. */
  long idleSinceNs;
  /** Whether its idle timer is pending. */
  boolean idleTimerArmed;
  /** {@code last_timeout}: its last idle sleep timed out. */
  boolean timedOut;

  /**
   * @param tid its thread id; blksim numbers an io-wq's workers after their submitter's tid
   *     ({@code tid * 1000 + n}), as thread ids are allocated machine-wide in the kernel
   */
  IoWqWorker(IoWq wq, String name, int tid, IoWq.WorkClass workClass) {
    super(name, tid, 0);
    this.wq = wq;
    this.workClass = workClass;
  }

  /** Sets this worker's view of a buffered ring's file ({@link IoWq#buffered}). */
  void buffered(blksim.kernel.fs.BlockDeviceFile file) {
    this.buffered = file;
  }

  @Override
  protected void step(TaskCpu cpu) {
    while (true) {
      switch (phase) {
        case NEXT: {
          current = wq.take(this);
          if (current == null) {
            if (timedOut && wq.mayExit(this)) {
              wq.exited(this);
              cpu.exit();
              return;
            }
            timedOut = false;
            wq.idle(this);
            cpu.sleep();
            return;
          }
          bio = current.bio();
          phase = Phase.PREPARE;
          // io_assign_current_work(): cond_resched() once the worker has taken work.
          if (cpu.needResched()) {
            cpu.condResched();
            return;
          }
          continue;
        }
        case PREPARE: {
          phase = Phase.ISSUE;
          IoUringParams p = wq.params();
          // Taking a request the submitter wrote on another core pulls its lines over.
          // A buffered request's nested call pays its own block-layer costs.
          long bioNs = buffered != null ? 0
              : blksim.kernel.fs.BlkdevDio.submitCostNs(wq.queue(cpu.cpu()), bio)
                  + wq.dioPagesNs(bio);
          cpu.runFor(CpuMode.SYSTEM, p.workerLoopNs() + p.sqeIssueNs() + bioNs
              + current.handOver(cpu.cpu()));
          return;
        }
        case ISSUE: {
          if (buffered != null) {
            long at = bio.sector() << 9;
            nested = bio.op() == blksim.kernel.block.ReqOp.READ ? buffered.pread(at, bio.sizeBytes())
                : buffered.pwrite(at, bio.sizeBytes());
            phase = Phase.BUFFERED;
            continue;
          }
          IoRequest req = current;
          inIssue = true;
          inlineDone = false;
          // blkdev_direct_IO() in blocking mode: one bio or BIO_MAX_VECS bios (BlkdevDio).
          boolean issued = dio.issue(wq.queue(cpu.cpu()), bio, (b, err) -> ended(req, err),
              () -> wq.cpu().wake(this), null);
          inIssue = false;
          if (!issued) {
            cpu.sleep();
            return;
          }
          if (inlineDone) {
            phase = Phase.POST;
            continue;
          }
          phase = Phase.NEXT;
          continue;
        }
        case BUFFERED: {
          if (!nested.step(cpu)) {
            return;
          }
          long r = nested.ret();
          nested = null;
          inlineResult = r < 0 ? (int) r : 0;
          phase = Phase.POST;
          continue;
        }
        case POST:
          // io_complete_rw(): the CQE is the submitter's task work, not this thread's.
          wq.ring().addTaskWork(current, inlineResult);
          current = null;
          phase = Phase.NEXT;
          continue;
        default:
          throw new IllegalStateException(comm() + ": phase " + phase);
      }
    }
  }

  private void ended(IoRequest req, int err) {
    if (inIssue) {
      inlineDone = true;
      inlineResult = err;
    } else {
      wq.ring().addTaskWork(req, err);
    }
  }

  /** The accounting class this worker serves. */
  public IoWq.WorkClass workClass() {
    return workClass;
  }

  @Override
  protected long schedSubmitWork(TaskCpu cpu) {
    wq.workerSleeping(this);
    return 0;
  }

  @Override
  protected void schedUpdateWorker(TaskCpu cpu) {
    wq.workerRunning(this);
  }
}
