package blksim.kernel.fs;

import blksim.kernel.block.Bio;
import blksim.kernel.block.ReqOp;
import blksim.kernel.iouring.CompletionRing;
import blksim.kernel.iouring.IoRequest;
import blksim.kernel.iouring.IoUringParams;
import blksim.kernel.iouring.SubmitPlug;
import blksim.kernel.iouring.WaitCall;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SyscallParams;
import blksim.kernel.syscall.SystemCall;
import java.util.List;

/**
 * A libaio context ({@code struct kioctx}, {@code fs/aio.c}) whose iocbs target regular files
 * of a mounted filesystem: {@code io_submit()} and {@code io_getevents()} (the block-device
 * counterpart is {@link blksim.kernel.aio.KioCtx}; the event ring, the wait and the costs are
 * the same, {@link IoUringParams}'s {@code enterNs}, {@code sqeIssueNs}, {@code cqePostNs}).
 *
 * <p>{@code io_submit()} ({@code io_submit_one()} → {@code aio_read()} / {@code aio_write()} →
 * {@code ->read_iter()} / {@code ->write_iter()} with a kiocb that is not synchronous):
 * <ul>
 * <li>on a file opened with O_DIRECT, the direct path of {@link DirectIo}: the bios are
 *     submitted inside the call (which sleeps there only for the IOLOCK or a driver tag) and the
 *     event is posted at completion: in the interrupt for a read, from the superblock's
 *     {@code s_dio_done_wq} for a write; an unaligned iocb gets an event with -EINVAL
 *     ({@code aio_rw_done()} completes it at once);
 * <li>buffered, the whole read or write runs synchronously inside {@code io_submit()} (the
 *     kernel's buffered {@code ->read_iter()} / {@code ->write_iter()} ignore the kiocb's
 *     asynchrony): the page-cache path of {@link VfsCalls#pread} / {@link VfsCalls#pwrite},
 *     readahead waits and dirty throttling included, then the event is posted before the next
 *     iocb.
 * </ul>
 *
 * <p>A batch of more than {@link SubmitPlug#THRESHOLD} iocbs is submitted under
 * {@code io_submit()}'s plug ({@link SubmitPlug}, as {@code SubmitCall} holds it on a block
 * device): the task's {@code current->plug}, in which each direct I/O's own
 * {@code blk_start_plug()} only nests, so contiguous direct I/Os of one batch merge there and
 * their requests go to the queue when the call finishes the plug, before it returns (or when it
 * sleeps). io_uring on files goes through this class too, with the same threshold
 * ({@code io_submit_state_start()}: {@code max_ios > 2}).
 *
 * <p>Simplified: one file per submitted batch; the nested buffered call pays its own entry
 * cost, which stands for {@code aio_read()}'s set-up; {@code io_setup()} costs nothing; the
 * buffered path's bios (readahead, {@code FilemapRead}) do not go through the plug.
 */
public final class FileAio {
  private final Task task;
  private final VfsCalls calls;
  private final IoUringParams costs;
  private final CompletionRing ring;
  private final WaitCall wait;
  private final Submit submit = new Submit();
  /** {@code io_submit()}'s plug ({@code struct blk_plug} on the call's stack). */
  private final SubmitPlug plug;

  /**
   * {@code io_setup()} by {@code task} on {@code cpu}, whose file calls are {@code calls}.
   */
  public FileAio(Task task, CpuComponent cpu, VfsCalls calls, IoUringParams costs,
      SyscallParams syscalls) {
    this.task = task;
    this.calls = calls;
    this.costs = costs;
    this.ring = new CompletionRing(task, cpu);
    this.plug = new SubmitPlug(task);
    this.wait = new WaitCall(task, ring, costs, syscalls.wakeReturnNs(), true);
  }

  /** {@code io_submit()} of {@code iocbs}, all on {@code f}; returns how many were submitted. */
  public SystemCall ioSubmit(VfsCalls.OpenFile f, List<IoRequest> iocbs) {
    return submit.arm(f, iocbs);
  }

  /** {@code io_getevents(min_nr)}; returns how many events are ready. */
  public WaitCall ioGetevents(int minNr) {
    return wait.arm(minNr);
  }

  /** The event ring. */
  public CompletionRing ring() {
    return ring;
  }

  private final class Submit extends SystemCall {
    private static final int ENTER = 0;
    private static final int NEXT = 1;
    private static final int DIRECT = 2;
    private static final int BUFFERED = 3;
    private static final int POST = 4;

    private VfsCalls.OpenFile f;
    private List<IoRequest> batch;
    private int idx;
    private int phase;
    private IoRequest req;
    private AsyncDio dio;
    private SystemCall nested;
    private int result;

    SystemCall arm(VfsCalls.OpenFile f, List<IoRequest> iocbs) {
      this.f = f;
      this.batch = iocbs;
      this.idx = 0;
      this.phase = ENTER;
      return this;
    }

    @Override
    public boolean step(TaskCpu cpu) {
      while (true) {
        switch (phase) {
          case ENTER:
            phase = NEXT;
            // if (nr > AIO_PLUG_THRESHOLD) blk_start_plug(&plug);
            plug.start(batch.size());
            cpu.runFor(CpuMode.SYSTEM, costs.enterNs());
            return false;
          case NEXT: {
            if (idx == batch.size()) {
              // blk_finish_plug(): the plugged requests go to their queues, which run here.
              plug.finish(cpu.cpu());
              return returned(batch.size());
            }
            req = batch.get(idx++);
            Bio b = req.bio();
            if (f.direct) {
              dio = calls.asyncDio(f, req, ring);
              int err = dio.check();
              if (err != 0) {
                dio = null;
                result = err;
                phase = POST;
              } else {
                phase = DIRECT;
              }
            } else {
              nested = b.op() == ReqOp.READ ? calls.pread(f, b.sector() << 9, b.sizeBytes())
                  : calls.pwrite(f, b.sector() << 9, b.sizeBytes());
              phase = BUFFERED;
            }
            cpu.runFor(CpuMode.SYSTEM, costs.sqeIssueNs());
            return false;
          }
          case DIRECT:
            if (dio.stepSubmit(cpu)) {
              return false;
            }
            dio = null;
            phase = NEXT;
            continue;
          case BUFFERED:
            if (!nested.step(cpu)) {
              return false;
            }
            long r = nested.ret();
            nested = null;
            result = r < 0 ? (int) r : 0;
            phase = POST;
            continue;
          case POST:
            // aio_complete() from the submitter: the event is in the ring before the next iocb.
            ring.post(req, result);
            phase = NEXT;
            cpu.runFor(CpuMode.SYSTEM, costs.cqePostNs());
            return false;
          default:
            throw new IllegalStateException(task.comm() + ": io_submit in phase " + phase);
        }
      }
    }
  }
}
