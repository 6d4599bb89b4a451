package blksim.workload.fio.thread;

import blksim.kernel.block.Errno;
import blksim.kernel.block.ReqOp;
import blksim.kernel.device.MemCharDevice;
import blksim.kernel.iouring.IoUringParams;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SyscallParams;
import blksim.workload.fio.FioEngine;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.stats.JobStats;

/**
 * A fio job on {@code /dev/null} or {@code /dev/zero} ({@link MemCharDevice}): fio's
 * {@code FIO_TYPE_CHAR} file, with a synchronous engine ({@code psync}, {@code sync},
 * {@code pvsync}, {@code pvsync2}, {@code vsync}) or {@code libaio} / {@code io_uring}. Every I/O
 * is done inside its system call, in the job's own context: no bio, no device, no sleep.
 *
 * <p>Per I/O, as the engines do it:
 * <ul>
 * <li>sync engines: fio's user work, then one {@code pread()}/{@code pwrite()}: entry
 *     ({@code costs.fio.syscall}), the device's {@code ->read_iter}/{@code ->write_iter}
 *     ({@link MemCharDevice#iterNs}) and the return ({@code costs.fio.syscall-return}); clat is
 *     the call, slat is not measured (as fio's sync engines).
 * <li>io_uring: the SQE is issued inline in {@code io_uring_enter()} ({@code FMODE_NOWAIT}, no
 *     io-wq punt) and its CQE posted there: one call costs {@code io-uring.enter} plus, per SQE,
 *     {@code io-uring.sqe-issue}, the device's work and {@code io-uring.cqe-post}; fio reaps the
 *     CQEs from the ring in user space, without a call.
 * <li>libaio: {@code io_submit()} runs {@code aio_read()}/{@code aio_write()}, which complete the
 *     iocb inside the call (a file without async ->read_iter); {@code costs.aio.iocb-submit} per
 *     iocb replaces the SQE cost; fio reaps with {@code io_getevents()}, one call
 *     ({@code io-uring.enter}) per reap.
 * </ul>
 * fio's loop for the queued engines ({@code do_io()}): prepare an I/O (half of fio's per-I/O user
 * time), commit once {@code iodepth_batch_submit} are queued; once {@code iodepth} I/Os are in
 * flight, reap {@code iodepth_batch_complete_max} (at least one, at most what is in flight), the
 * other half of the user time per reaped I/O. slat runs to the submit call's return, clat from
 * there to the reap.
 *
 * <p>Reads of {@code /dev/null} return 0 bytes. A sync engine's I/O then completes with its whole
 * length as residual: fio's {@code io_queue_event()} fails the job ("zero read, fail": EIO,
 * {@code full resid}), which ends with {@code err=5} and no read counted. A queued engine's
 * completion with 0 bytes is an I/O of 0 bytes to fio ({@code io_completed()} requeues only a
 * short I/O that moved some bytes): the job issues its {@code size} and reports its IOPS with
 * 0 bytes read.
 *
 * <p>Simplified: the loader refuses {@code rate}, {@code thinktime}, {@code verify},
 * {@code io_submit_mode=offload} and {@code read_iolog} with a character device; a reap's clat
 * ends at the return of the reap (io_getevents) or at its start (io_uring), before fio's per-I/O
 * processing; the entry, per-SQE and per-iocb costs are the profile's, which were set for the
 * block-device path (its VFS and O_DIRECT checks), so a character device's call is charged a little
 * more than mem.c's few instructions need.
 */
public final class CharDevThread extends FioJobThread {
  private enum Phase {
    LOOP,
    PREPPED,
    IN_SYNC_CALL,
    IN_SUBMIT,
    IN_GETEVENTS,
    IN_REAP_USER
  }

  private final MemCharDevice dev;
  private final boolean sync;
  private final boolean uring;
  private final SyscallParams syscalls;
  private final IoUringParams ring;
  private final long zeroReadPerPageNs;
  private final int depth;
  private final int batchSubmit;
  private final int reapMax;
  // The job's io_us in flight, a FIFO ring: [head, head + inFlight) submitted, then `queued`
  // prepared but not yet submitted.
  private final long[] startNs;
  private final long[] issueNs;
  private final int[] lens;
  private final long[] offsets;
  private final ReqOp[] ops;
  private int head;
  private int inFlight;
  private int queued;
  private int reaping;
  private Phase phase = Phase.LOOP;
  private long callStartNs;

  /**
   * @param capacityBytes the job's region end: {@code offset} plus {@code size} (a character
   *     device has no size of its own; fio takes {@code size=}, which the loader requires)
   * @param ring io_uring's costs ({@link IoUringParams#forLibaio()} for libaio); unused by the sync
   *     engines
   * @param zeroReadPerPageNs {@code costs.chardev.zero-read-per-page}
   */
  public CharDevThread(FioJob job, int globalJobNumber, int pid, long capacityBytes,
      MemCharDevice dev, FioCostParams costs, SyscallParams syscalls, IoUringParams ring,
      long zeroReadPerPageNs, JobStats stats, long runSeed) {
    super(job, globalJobNumber, pid, capacityBytes, costs, stats, runSeed);
    this.dev = dev;
    this.sync = job.ioengine().isSync();
    this.uring = job.ioengine() == FioEngine.IO_URING;
    if (!sync && !uring && job.ioengine() != FioEngine.LIBAIO) {
      throw new IllegalArgumentException(job.name() + ": ioengine=" + job.ioengine().fioName()
          + " on a character device (the loader refuses it)");
    }
    this.syscalls = syscalls;
    this.ring = uring || ring == null ? ring : ring.forLibaio();
    this.zeroReadPerPageNs = zeroReadPerPageNs;
    this.depth = sync ? 1 : Math.max(1, job.iodepth());
    int b = job.iodepthBatchSubmit();
    this.batchSubmit = b <= 0 || b > depth ? depth : b;
    int max = Math.max(job.iodepthBatchCompleteMax(), job.iodepthBatchCompleteMin());
    this.reapMax = max <= 0 ? depth : max;
    this.startNs = new long[depth];
    this.issueNs = new long[depth];
    this.lens = new int[depth];
    this.offsets = new long[depth];
    this.ops = new ReqOp[depth];
  }

  /** The character device the job does its I/O on. */
  public MemCharDevice device() {
    return dev;
  }

  /** The device's work for one I/O: zeroing for a /dev/zero read, nothing else. */
  private long iterNs(ReqOp op, int len) {
    return dev.iterNs(op == ReqOp.READ, len, zeroReadPerPageNs);
  }

  /** The bytes the device returns for one I/O. */
  private long bytes(ReqOp op, int len) {
    return op == ReqOp.READ ? dev.readBytes(len) : dev.writeBytes(len);
  }

  @Override
  protected void step(TaskCpu cpu) {
    if (starting(cpu)) {
      return;
    }
    switch (phase) {
      case PREPPED -> prepped(cpu);
      case IN_SYNC_CALL -> syncReturned(cpu);
      case IN_SUBMIT -> submitted(cpu);
      case IN_GETEVENTS -> reaped(cpu);
      case IN_REAP_USER -> phase = Phase.LOOP;
      default -> { }
    }
    if (phase == Phase.LOOP) {
      loop(cpu);
    }
  }

  private void loop(TaskCpu cpu) {
    long now = cpu.now();
    boolean more = mayIssue(now);
    if (!sync && queued > 0
        && (queued >= batchSubmit || inFlight + queued >= depth || !more)) {
      submit(cpu);
      return;
    }
    if (!sync && inFlight > 0 && (inFlight >= depth || !more)) {
      reap(cpu);
      return;
    }
    if (!more) {
      finish(cpu);
      return;
    }
    nextIo();
    int slot = (head + inFlight + queued) % depth;
    ops[slot] = ioOp;
    lens[slot] = ioLen;
    offsets[slot] = ioOffset;
    phase = Phase.PREPPED;
    // fio's own work per I/O: all of it before a sync call, half before a queued one (the other
    // half when it is reaped), as the other engines' threads charge it.
    cpu.runFor(CpuMode.USER, sync ? costs.userNsPerIo() : costs.userNsPerIo() / 2);
  }

  private void prepped(TaskCpu cpu) {
    int slot = (head + inFlight + queued) % depth;
    startNs[slot] = cpu.now();
    if (sync) {
      callStartNs = cpu.now();
      phase = Phase.IN_SYNC_CALL;
      cpu.runFor(CpuMode.SYSTEM, syscalls.rwEntryNs() + iterNs(ops[slot], lens[slot])
          + syscalls.wakeReturnNs());
      return;
    }
    queued++;
    phase = Phase.LOOP;
  }

  private void syncReturned(TaskCpu cpu) {
    int slot = head;
    long now = cpu.now();
    long n = bytes(ops[slot], lens[slot]);
    phase = Phase.LOOP;
    if (n == 0) {
      // backend.c io_queue_event(): "zero read, fail" -> td_verror(td, EIO, "full resid").
      // td_io_queue() counted the io_u first (total_io_u, its depth, submit and complete), so
      // fio prints the job with "issued rwts: total=1" and no read line.
      if (measuring()) {
        stats.recordIssue(1);
        stats.recordSubmitBatch(1);
        stats.recordIoWithoutLatency(ddir(ops[slot]), 0, now);
        stats.recordCompleteBatch(1);
      }
      if (stats.error() == 0) {
        stats.setError(Errno.EIO);
      }
      finish(cpu);
      phase = Phase.IN_REAP_USER; // never stepped again
      return;
    }
    if (measuring()) {
      stats.recordIssue(1);
      stats.recordSubmitBatch(1);
      stats.recordIo(ddir(ops[slot]), n, -1, now - callStartNs, now, offsets[slot]);
      stats.recordCompleteBatch(1);
    }
    completed(1);
  }

  private void submit(TaskCpu cpu) {
    long ns = ring.enterNs();
    for (int i = 0; i < queued; i++) {
      int slot = (head + inFlight + i) % depth;
      ns += ring.sqeIssueNs() + iterNs(ops[slot], lens[slot]) + ring.cqePostNs();
    }
    phase = Phase.IN_SUBMIT;
    cpu.runFor(CpuMode.SYSTEM, ns);
  }

  private void submitted(TaskCpu cpu) {
    long now = cpu.now();
    for (int i = 0; i < queued; i++) {
      int slot = (head + inFlight + i) % depth;
      issueNs[slot] = now;
      if (measuring()) {
        stats.recordIssue(inFlight + i + 1);
      }
    }
    if (measuring()) {
      stats.recordSubmitBatch(queued);
    }
    inFlight += queued;
    queued = 0;
    phase = Phase.LOOP;
  }

  private void reap(TaskCpu cpu) {
    reaping = Math.min(inFlight, reapMax);
    if (uring) {
      // The CQEs are in the ring already: fio's fio_ioring_getevents() reads them without a call.
      record(cpu);
      return;
    }
    phase = Phase.IN_GETEVENTS;
    cpu.runFor(CpuMode.SYSTEM, ring.enterNs());
  }

  private void reaped(TaskCpu cpu) {
    record(cpu);
  }

  /** Records the {@link #reaping} oldest I/Os as reaped now, then fio's user half for each. */
  private void record(TaskCpu cpu) {
    long now = cpu.now();
    for (int i = 0; i < reaping; i++) {
      int slot = (head + i) % depth;
      if (measuring()) {
        stats.recordIo(ddir(ops[slot]), bytes(ops[slot], lens[slot]),
            issueNs[slot] - startNs[slot], now - issueNs[slot], now, offsets[slot]);
      }
    }
    if (measuring()) {
      stats.recordCompleteBatch(reaping);
    }
    completed(reaping);
    head = (head + reaping) % depth;
    inFlight -= reaping;
    phase = Phase.IN_REAP_USER;
    cpu.runFor(CpuMode.USER, reaping * (costs.userNsPerIo() - costs.userNsPerIo() / 2));
  }
}
