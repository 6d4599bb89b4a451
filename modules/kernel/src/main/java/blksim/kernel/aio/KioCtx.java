package blksim.kernel.aio;

import blksim.kernel.fs.BlockDeviceFile;
import blksim.kernel.iouring.CompletionRing;
import blksim.kernel.iouring.IoRequest;
import blksim.kernel.iouring.IoUringParams;
import blksim.kernel.iouring.SubmitCall;
import blksim.kernel.iouring.WaitCall;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.Task;
import blksim.kernel.syscall.SyscallParams;
import blksim.kernel.syscall.SystemCall;
import java.util.List;

/**
 * A libaio context ({@code struct kioctx}, {@code fs/aio.c}) set up by one task with
 * {@code io_setup()}: its event ring and its two calls (kernel-model.md §6.2).
 *
 * <p>{@link #ioSubmit} ({@code io_submit()}): each iocb is issued in blocking mode inside the
 * call, so a synchronous driver completes it there and a submitter without a driver tag sleeps
 * ({@link SubmitCall} without io-wq); on a device opened without O_DIRECT each iocb's buffered
 * read or write runs to its end inside the call and its event is posted there
 * ({@link BufferedBdevSubmit}). {@link #ioGetevents} ({@code io_getevents(min_nr)}): waits
 * until {@code min_nr} events are in the ring ({@link WaitCall}); the events are then taken from
 * {@link #ring()}. Reaping always costs a call.
 *
 * <p>Modelled with io_uring's types: the event ring is a {@link CompletionRing}, an iocb an
 * {@link IoRequest}, and the costs those of {@link IoUringParams} ({@code enterNs} per call,
 * {@code aioIocbNs} per iocb ({@link IoUringParams#forLibaio()}), {@code cqePostNs} per event). Simplified: one target file, given at
 * setup; {@code io_setup()} costs no CPU time; a wait that slept pays one entry more than the
 * kernel's (see {@link WaitCall}).
 */
public final class KioCtx {
  private final CompletionRing ring;
  private final SubmitCall submit;
  /** On a file opened without O_DIRECT: the buffered submit, else null. */
  private final BufferedBdevSubmit buffered;
  private final WaitCall wait;

  private KioCtx(Task task, CpuComponent cpu, BlockDeviceFile file, IoUringParams costs,
      SyscallParams syscalls) {
    this.ring = new CompletionRing(task, cpu);
    this.submit = new SubmitCall(task, file.queues(), ring, costs, null,
        file.direct() ? syscalls : null);
    this.buffered = file.direct() ? null : new BufferedBdevSubmit(file, ring, costs);
    this.wait = new WaitCall(task, ring, costs, syscalls.wakeReturnNs(), true);
  }

  /** {@code io_setup()} by {@code task} on {@code cpu}, for I/O to {@code file}. */
  public static KioCtx setup(Task task, CpuComponent cpu, BlockDeviceFile file,
      IoUringParams costs, SyscallParams syscalls) {
    return new KioCtx(task, cpu, file, costs.forLibaio(), syscalls);
  }

  /** {@code io_submit()} of {@code iocbs}; returns how many were submitted. */
  public SystemCall ioSubmit(List<IoRequest> iocbs) {
    return buffered != null ? buffered.arm(iocbs) : submit.arm(iocbs);
  }

  /** {@code io_getevents(min_nr)}; returns how many events are ready. */
  public WaitCall ioGetevents(int minNr) {
    return wait.arm(minNr);
  }

  /**
   * fio's getevents at {@code min} 0 in a loop until {@code deadlineNs}: {@code io_getevents()}
   * with a zero timeout, again and again, until an event is there or the deadline has passed
   * (spinning, {@link WaitCall#armPoll}).
   */
  public WaitCall ioGeteventsPoll(long deadlineNs) {
    return wait.armPoll(deadlineNs);
  }

  /** The event ring. */
  public CompletionRing ring() {
    return ring;
  }
}
