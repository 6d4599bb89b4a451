package blksim.kernel.iouring;

import blksim.kernel.block.Bio;
import blksim.kernel.block.ReqOp;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.topology.Cpu;

/**
 * One asynchronous I/O in flight: an io_uring SQE turned request ({@code struct io_kiocb}) or a
 * libaio iocb. Owned by the task that submitted it until its completion is reaped.
 */
public final class IoRequest {
  private final Bio bio;
  private final int tag;
  long startNs;
  long issueNs;
  int result;
  boolean completed;
  /**
   * The CPU that last wrote the request's state, or {@code null}: an io-wq worker that takes it,
   * or a submitter that runs its completion, on another core pays {@link #HANDOFF_LINES} cache
   * line transfers ({@link CpuComponent#lineTransferNs}).
   */
  Cpu lastCpu;

  /**
   * Cache lines of a request that change hands between the submitter and an io-wq worker: [D]
   * {@code struct io_kiocb} was shrunk to 3 cache lines in 5.5 (io_uring pull for 5.5,
   * "Shrink io_kiocb to 3 cachelines") and has grown since; [A] plus the line of the io-wq work
   * list or task-work list it is linked through: 4.
   */
  public static final int HANDOFF_LINES = 4;

  /**
   * @param bio the I/O, without REQ_NOWAIT (the issuing path adds it for inline attempts)
   * @param tag the submitter's identifier for it (fio's io_u index)
   */
  public IoRequest(Bio bio, int tag) {
    this.bio = bio;
    this.tag = tag;
  }

  /**
   * A read or write of {@code len} bytes at {@code offsetBytes} of the ring's file, as a task
   * prepares it ({@code io_uring_prep_read()} / {@code io_prep_pread()}); the kernel turns it into
   * a REQ_SYNC bio of that range (O_DIRECT on a block device).
   */
  public static IoRequest prep(ReqOp op, long offsetBytes, int len, int tag) {
    return new IoRequest(new Bio(op, offsetBytes >>> 9, len, Bio.REQ_SYNC), tag);
  }

  /** {@link #prep(ReqOp, long, int, int)} with an I/O priority ({@code sqe->ioprio}, {@code aio_reqprio} with IOCB_FLAG_IOPRIO). */
  public static IoRequest prep(ReqOp op, long offsetBytes, int len, int ioprio, int tag) {
    return new IoRequest(new Bio(op, offsetBytes >>> 9, len, Bio.REQ_SYNC, ioprio), tag);
  }

  /** The I/O. */
  public Bio bio() {
    return bio;
  }

  /** The submitter's identifier. */
  public int tag() {
    return tag;
  }

  /** 0 or a negative errno, once completed. */
  public int result() {
    return result;
  }

  /** Whether the I/O has completed. */
  public boolean completed() {
    return completed;
  }

  /** When the submitter started preparing it (fio's {@code start_time}). */
  public long startNs() {
    return startNs;
  }

  /** Sets the submitter's start time. */
  public void startNs(long t) {
    startNs = t;
  }

  /** When the submit call returned (fio's {@code issue_time}). */
  public long issueNs() {
    return issueNs;
  }

  /** Sets the issue time. */
  public void issueNs(long t) {
    issueNs = t;
  }

  /**
   * The CPU time {@code on} spends pulling the request's lines from the CPU that last wrote it,
   * and makes {@code on} the last writer.
   */
  long handOver(CpuComponent on) {
    long ns = on.lineTransferNs(lastCpu, HANDOFF_LINES);
    lastCpu = on.cpu();
    return ns;
  }

  void complete(int res) {
    completed = true;
    result = res;
  }
}
