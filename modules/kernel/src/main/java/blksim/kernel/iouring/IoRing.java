package blksim.kernel.iouring;

import blksim.kernel.fs.BlockDeviceFile;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.Task;
import blksim.kernel.syscall.SyscallParams;
import blksim.kernel.syscall.SystemCall;
import java.util.List;

/**
 * An io_uring instance ({@code struct io_ring_ctx}) set up by one task: its completion ring, its
 * io-wq, and the one call that drives it, {@code io_uring_enter()} (kernel-model.md §6.3).
 *
 * <p>{@link #submit} is {@code io_uring_enter(to_submit, 0, 0)}: see {@link SubmitCall}.
 * {@link #waitFor} is {@code io_uring_enter(0, min_complete, IORING_ENTER_GETEVENTS)}: see
 * {@link WaitCall}. Completions are reaped from {@link #ring()} in user space, without a call.
 *
 * <p>Completion task work (Linux 6.4): a request that an io-wq worker issued completes as task
 * work of this ring's task ({@link CompletionRing#addTaskWork}), posted when the task next runs
 * it: in {@link WaitCall} and at the end of {@link SubmitCall}, both {@code io_uring_enter()} with
 * {@code IORING_ENTER_GETEVENTS} as fio makes them. That is what fio's setup flags give:
 * fio 3.33 and later ask for {@code DEFER_TASKRUN | SINGLE_ISSUER | COOP_TASKRUN} (the work waits
 * on the ring's local list, the waiting task is woken, a running one is not disturbed), older fio
 * for none ({@code TWA_SIGNAL}: the same, plus an IPI that makes a task running in user mode run
 * the work at once). blksim models the former; the IPI of the latter is not modelled, so the
 * flags are not a parameter (fio has no option for them either).
 *
 * <p>Simplified: the ring targets one file, given at setup (fio's jobs use one); setting the ring
 * up costs no CPU time; the SQ is sized to {@code entries} rounded up to a power of two (at least
 * 2), and io-wq's bounded worker limit follows from it ({@link IoWq#boundedMax}).
 */
public final class IoRing {
  /**
   * The unbounded class's limit, RLIMIT_NPROC: no block I/O is unbounded work, so io_uring's
   * block requests never use it; the default soft limit of a large machine [A].
   */
  public static final int UNBOUNDED_MAX = 4096;

  private final CompletionRing ring;
  private final IoWq ioWq;
  private final SubmitCall submit;
  private final WaitCall wait;

  private IoRing(Task task, CpuComponent cpu, BlockDeviceFile file, IoUringParams costs,
      SyscallParams syscalls, int entries, int onlineCpus) {
    this.ring = new CompletionRing(task, cpu);
    int sqEntries = Integer.highestOneBit(Math.max(1, entries - 1)) << 1;
    int maxWorkers = IoWq.boundedMax(Math.max(sqEntries, entries), onlineCpus);
    this.ioWq = new IoWq(cpu, file.queues(), ring, costs, task.pid(), maxWorkers, UNBOUNDED_MAX,
        task.unbound());
    this.ioWq.direct(file.direct() ? syscalls : null);
    this.submit = new SubmitCall(task, file.queues(), ring, costs, ioWq,
        file.direct() ? syscalls : null);
    this.wait = new WaitCall(task, ring, costs, syscalls.wakeReturnNs(), false);
    if (!file.direct() && file.mapping() != null) {
      // Buffered SQEs (BufferedSqe): inline with IOCB_NOWAIT, page waits re-issued as task
      // work, writes and what cannot wait punted to workers that run the blocking call.
      this.submit.buffered(new BufferedSqe(file, ring, costs, ioWq));
      this.ring.reissuer(new BufferedSqe(file, ring, costs, ioWq));
      this.ioWq.buffered(file);
    }
  }

  /**
   * {@code io_uring_setup(entries)} by {@code task} on {@code cpu}, for I/O to {@code file}.
   *
   * @param onlineCpus CPUs of the machine, for io-wq's bounded worker limit
   */
  public static IoRing setup(Task task, CpuComponent cpu, BlockDeviceFile file,
      IoUringParams costs, SyscallParams syscalls, int entries, int onlineCpus) {
    return new IoRing(task, cpu, file, costs, syscalls, entries, onlineCpus);
  }

  /** {@code io_uring_enter()} submitting {@code sqes}; returns how many were submitted. */
  public SystemCall submit(List<IoRequest> sqes) {
    return submit.arm(sqes);
  }

  /**
   * {@code io_uring_enter()} waiting for {@code minComplete} completions; returns how many are
   * ready.
   */
  public WaitCall waitFor(int minComplete) {
    return wait.arm(minComplete);
  }

  /**
   * fio's getevents at {@code min} 0 (fio-3.41 and later): {@code io_uring_enter()} with
   * {@code min_complete} 0 in a loop until a CQE is there, spinning ({@link WaitCall#armPoll}).
   */
  public WaitCall pollForOne() {
    return wait.armPoll(Long.MAX_VALUE);
  }

  /**
   * Sets the ring up with IORING_SETUP_IOPOLL (fio's {@code hipri}; before the first request):
   * its bios are REQ_POLLED on queues with poll queues, and {@link #waitFor} polls instead of
   * sleeping ({@link WaitCall}). The kernel takes it only for O_DIRECT files
   * ({@code io_rw_init_file()}: -EOPNOTSUPP otherwise); the caller checks that.
   */
  public IoRing iopoll(boolean on) {
    ring.iopoll(on);
    return this;
  }

  /** The completion ring, reaped in user space. */
  public CompletionRing ring() {
    return ring;
  }

  /** This ring's io-wq. */
  public IoWq ioWq() {
    return ioWq;
  }
}
