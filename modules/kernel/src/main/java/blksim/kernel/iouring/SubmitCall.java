package blksim.kernel.iouring;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlkMqRules;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.Errno;
import blksim.kernel.fs.BlkdevDio;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SyscallParams;
import blksim.kernel.syscall.SystemCall;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The submission half of an asynchronous system call: {@code io_uring_enter(to_submit)} or
 * libaio's {@code io_submit()}. One entry cost, then per request the issue path up to and
 * through the driver (kernel-model.md §6.2, §6.3):
 *
 * <ul>
 * <li>io_uring ({@code io_submit_sqes()} → {@code io_issue_sqe()}): the request is issued inline
 *     with REQ_NOWAIT. A device that takes it runs it right there (brd and zram do their whole
 *     copy inside the call) or completes it later by interrupt; one that refuses (-EOPNOTSUPP
 *     without nowait support, -EAGAIN without a free tag) gets it punted to io-wq
 *     ({@code io_queue_iowq()}), whose workers issue it in blocking mode.
 * <li>io_uring on a block device opened without O_DIRECT: each SQE goes through
 *     {@link BufferedSqe} instead (the page cache with IOCB_NOWAIT, page waits re-issued as
 *     task work, which this call runs before it returns, and writes punted to io-wq).
 * <li>libaio ({@code io_submit_one()}): each iocb is issued in blocking mode; a synchronous
 *     driver completes it there, and a submitter that finds no driver tag sleeps until one is
 *     freed.
 * </ul>
 *
 * Each request's bios are built as {@code blkdev_direct_IO()} builds them ({@link BlkdevDio}): one
 * bio up to {@code BIO_MAX_VECS} (256) pages, else one per 256 pages under a plug, and a
 * REQ_NOWAIT request of more than 256 pages is refused with -EAGAIN (so punted).
 *
 * A request completed inside the call has its completion posted to the ring before the next one
 * is issued. The call returns, taking no action, after the last request.
 *
 * <p>For io_uring the call is fio's {@code io_uring_enter(to_submit, 0, GETEVENTS)}: after the
 * last request it runs the completion task work that io-wq workers queued on the ring
 * ({@link CompletionRing#addTaskWork}), one CQE post each, so those completions land inside the
 * submission latency.
 *
 * <p>Plugging: a call that submits more than {@link #PLUG_THRESHOLD} requests holds a block plug
 * ({@link SubmitPlug}, {@code current->plug}) around its issue loop, as the kernel does: libaio's
 * {@code io_submit()} ({@code fs/aio.c}: {@code if (nr > AIO_PLUG_THRESHOLD) blk_start_plug()},
 * {@code AIO_PLUG_THRESHOLD} 2, since 5.0) and io_uring's {@code io_submit_sqes()}
 * ({@code io_submit_state_start()}: {@code state->need_plug = max_ios > 2}; the plug is started
 * at the first request that wants one, {@code blk_start_plug_nr_ios()}, and finished in
 * {@code io_submit_state_end()}). On a request-based queue a bio contiguous with the newest
 * request of the plug merges into it ({@code blk_attempt_plug_merge()}), so a sequential batch
 * becomes fewer requests (fewer driver dispatches and completion interrupts), and the plugged
 * requests reach the queue together when the call finishes the plug ({@code blk_finish_plug()},
 * in the caller's context) or sleeps ({@code sched_submit_work()}). Bio-based drivers (brd, zram,
 * dm) ignore the plug. Simplified: the plug follows 6.x's rules ({@link BlkMqRules#V6}) in every
 * kernel mode (before 5.0 libaio plugged every {@code io_submit()}, and there was no io_uring);
 * a bio that merges in the plug still pays its whole submission cost
 * ({@link BlockQueue#submitCostNs}), the request it did not allocate included.
 *
 * <p>Simplified: completions of interrupt-completed requests issued here are posted to the ring
 * in the interrupt (the kernel defers part of it to task work).
 */
public final class SubmitCall extends SystemCall {
  private static final int ENTER = 0;
  private static final int NEXT = 1;
  private static final int ISSUE = 2;
  private static final int POSTED = 3;
  private static final int PUNTED = 4;
  private static final int BUFFERED = 5;

  /**
   * A call plugs when it submits more than this many requests: {@code AIO_PLUG_THRESHOLD} in
   * {@code fs/aio.c} (2), and io_uring's {@code max_ios > 2} in {@code io_submit_state_start()}.
   */
  public static final int PLUG_THRESHOLD = SubmitPlug.THRESHOLD;

  private final Task task;
  private final IntFunction<BlockQueue> queues;
  private final CompletionRing ring;
  private final IoUringParams costs;
  /** io_uring's io-wq, where refused requests are punted; {@code null} for libaio. */
  private final IoWq ioWq;
  /** The O_DIRECT per-page costs, {@code null} for a file opened without O_DIRECT. */
  private final SyscallParams direct;
  private int phase;
  private List<IoRequest> batch;
  private int idx;
  private IoRequest req;
  private Bio issuedBio;
  private boolean inIssue;
  private boolean inlineDone;
  private int inlineResult;
  private TaskCpu wakeFrom;
  private Runnable wakeTask;
  /** A ring on a device opened without O_DIRECT: its buffered SQE path, else null. */
  private BufferedSqe buffered;
  /** The O_DIRECT bios of each request ({@code blkdev_direct_IO()}). */
  private final BlkdevDio dio;
  /** The call's block plug ({@code struct blk_plug} on the kernel stack of the call). */
  private final SubmitPlug plug;
  /** This call is running its plug's flush ({@code blk_finish_plug()}). */
  private boolean inFlush;
  /**
   * Events of other requests this call posted while it ran their queue (a plug flushed at its
   * limit inside an issue, or at its finish) and has not charged yet.
   */
  private int postedUncharged;

  /**
   * @param queues the device's queue on each CPU, by CPU id (issued on the caller's CPU)
   * @param ioWq where io_uring punts what the device refuses; {@code null} for libaio, whose
   *     requests are issued in blocking mode
   */
  public SubmitCall(Task task, IntFunction<BlockQueue> queues, CompletionRing ring, IoUringParams costs,
      IoWq ioWq) {
    this(task, queues, ring, costs, ioWq, null);
  }

  /**
   * @param direct the O_DIRECT per-page costs when the file was opened with O_DIRECT (each
   *     request's user buffer is pinned at its issue and released at its completion:
   *     {@code blkdev_direct_IO_async()} / {@code __blkdev_direct_IO()}); {@code null} otherwise
   */
  public SubmitCall(Task task, IntFunction<BlockQueue> queues, CompletionRing ring,
      IoUringParams costs, IoWq ioWq, SyscallParams direct) {
    this.task = task;
    this.queues = queues;
    this.ring = ring;
    this.costs = costs;
    this.ioWq = ioWq;
    this.direct = direct;
    this.dio = new BlkdevDio(task);
    this.plug = new SubmitPlug(task);
  }

  /**
   * The O_DIRECT per-page cost of {@code bio}: the pinning of its user pages after the first and,
   * simplified, their release, which the kernel does in the completion ({@code bio_release_pages()}
   * from {@code blkdev_bio_end_io_async()}, interrupt context); 0 without O_DIRECT.
   */
  static long dioPagesNs(SyscallParams direct, Bio bio) {
    // A REQ_NOWAIT request refused for needing several bios pinned its first bio's pages only.
    long bytes = BlkdevDio.pinnedBytes(bio);
    return direct == null ? 0 : direct.dioPinNs(bytes) + direct.dioUnpinNs(bytes);
  }

  /** Issues every SQE through {@code b} (a buffered ring, {@link BufferedSqe}). */
  void buffered(BufferedSqe b) {
    this.buffered = b;
  }

  /** Arms the call for {@code toSubmit}, in order; returns it. */
  public SystemCall arm(List<IoRequest> toSubmit) {
    batch = toSubmit;
    idx = 0;
    phase = ENTER;
    return this;
  }

  @Override
  public boolean step(TaskCpu cpu) {
    while (true) {
      switch (phase) {
        case ENTER:
          phase = NEXT;
          plug.start(batch.size());
          cpu.runFor(CpuMode.SYSTEM, costs.enterNs());
          return false;
        case NEXT:
          if (postedUncharged > 0) {
            // aio_complete() / io_req_complete_post() of the requests that completed when this
            // call ran their queue: the same per-event cost as an inline completion's.
            cpu.runFor(CpuMode.SYSTEM, postedUncharged * costs.cqePostNs());
            postedUncharged = 0;
            return false;
          }
          if (idx == batch.size()) {
            if (plug.held()) {
              // blk_finish_plug(): the plugged requests go to their queues, which run here.
              inFlush = true;
              plug.finish(cpu.cpu());
              inFlush = false;
              if (postedUncharged > 0) {
                continue;
              }
            }
            // io_uring_enter() with IORING_ENTER_GETEVENTS (fio's commit passes it): the
            // submitter runs its completion task work before it returns
            // (io_run_local_work_locked() under DEFER_TASKRUN, io_cqring_wait() otherwise).
            if (ioWq != null && ring.runReissues(cpu)) {
              return false;
            }
            if (ioWq != null && ring.taskWorkPending() > 0) {
              int n = ring.runTaskWork(cpu.cpu());
              cpu.runFor(CpuMode.SYSTEM, n * costs.cqePostNs() + ring.transferNs());
              return false;
            }
            return returned(batch.size());
          }
          next(cpu);
          return false;
        case BUFFERED:
          if (!buffered.step(cpu)) {
            return false;
          }
          phase = NEXT;
          continue;
        case ISSUE:
          if (issue(cpu)) {
            return false;
          }
          continue;
        case POSTED:
          ring.post(req, inlineResult);
          phase = NEXT;
          continue;
        case PUNTED: {
          phase = NEXT;
          // io_queue_iowq() -> io_wq_enqueue(): a worker created here is created in this call.
          long createNs = ioWq.enqueue(req);
          if (createNs > 0) {
            cpu.runFor(CpuMode.SYSTEM, createNs);
            return false;
          }
          continue;
        }
        default:
          throw new IllegalStateException(task.comm() + ": submit in phase " + phase);
      }
    }
  }

  private BlockQueue queue(TaskCpu cpu) {
    // The queue of the CPU the task runs on; looked up again only when that CPU changes (the
    // lookup's lambda, list and CPU objects were cache misses per I/O on large machines).
    Object on = cpu.cpu();
    if (on != queueCpu) {
      queueOf = queues.apply(cpu.cpu().cpu().id());
      queueCpu = on;
    }
    return queueOf;
  }

  /** The CPU {@link #queueOf} belongs to (a one-entry cache of {@link #queues}). */
  private Object queueCpu;
  private BlockQueue queueOf;

  /** Prepares the next request and pays its issue cost. */
  private void next(TaskCpu cpu) {
    req = batch.get(idx++);
    if (buffered != null) {
      // io_read() / io_write() of a buffered SQE: see BufferedSqe.
      buffered.arm(req);
      phase = BUFFERED;
      cpu.runFor(CpuMode.SYSTEM, costs.sqeIssueNs());
      return;
    }
    Bio bio = req.bio();
    issuedBio = ioWq != null
        ? bio.withFlags(bio.flags() | Bio.REQ_NOWAIT)
        : bio;
    if (ring.iopoll() && queue(cpu).polled()) {
      // IOCB_HIPRI -> bio_set_polled(); on a queue without poll queues submit_bio_noacct()
      // clears REQ_POLLED again (not set here) and the bio completes by interrupt.
      issuedBio = issuedBio.withFlags(issuedBio.flags() | Bio.REQ_POLLED);
      ring.polledOn(queue(cpu));
    }
    phase = ISSUE;
    // blkdev_direct_IO(): one bio, or BIO_MAX_VECS bios (BlkdevDio).
    cpu.runFor(CpuMode.SYSTEM, costs.sqeIssueNs()
        + BlkdevDio.submitCostNs(queue(cpu), issuedBio) + dioPagesNs(direct, issuedBio));
  }

  /** Issues the request to the device. True when an action was taken. */
  private boolean issue(TaskCpu cpu) {
    IoRequest r = req;
    inIssue = true;
    inlineDone = false;
    if (cpu != wakeFrom) {
      wakeFrom = cpu;
      wakeTask = () -> cpu.cpu().wake(task); // the same waker for every request from this cpu
    }
    boolean issued = dio.issue(queue(cpu), issuedBio, (b, err) -> ended(r, err), wakeTask,
        plug.plug());
    inIssue = false;
    if (!issued) {
      // No free tag and the bio may block: the call sleeps in the block layer.
      cpu.sleep();
      return true;
    }
    // A request the submitter flagged RWF_NOWAIT itself (REQ_F_NOWAIT: its bio came with
    // REQ_NOWAIT) is not reissued (io_rw_should_reissue()): the error is its CQE.
    if (inlineDone && (inlineResult == -Errno.EOPNOTSUPP || inlineResult == -Errno.EAGAIN)
        && !r.bio().nowait()) {
      phase = PUNTED;
      r.lastCpu = cpu.cpu().cpu();
      cpu.runFor(CpuMode.SYSTEM, costs.puntNs());
      return true;
    }
    if (inlineDone) {
      phase = POSTED;
      cpu.runFor(CpuMode.SYSTEM, costs.cqePostNs());
      return true;
    }
    phase = NEXT;
    return false;
  }

  private void ended(IoRequest r, int err) {
    // Only the request being issued completes "inline": a plug that reached its limit
    // (blk_add_rq_to_plug() flushing at BLK_MAX_REQUEST_COUNT) runs the queue inside this issue,
    // and the earlier requests it held complete there too (null_blk irqmode=0, brd): they are
    // posted, not taken for the current one (which lost their events and posted it twice).
    if (inIssue && r == req) {
      inlineDone = true;
      inlineResult = err;
    } else {
      if (inIssue || inFlush) {
        postedUncharged++;
      }
      ring.post(r, err);
    }
  }
}
