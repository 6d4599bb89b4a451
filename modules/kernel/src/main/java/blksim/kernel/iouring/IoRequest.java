package blksim.kernel.iouring;

import blksim.kernel.block.Bio;
import blksim.kernel.block.ReqOp;

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

  void complete(int res) {
    completed = true;
    result = res;
  }
}
