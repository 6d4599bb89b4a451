package blksim.kernel.iouring;

/**
 * CPU costs of io_uring and io-wq (kernel-model.md §6.3, §6.4), all system time, from the
 * machine profile.
 *
 * @param enterNs one {@code io_uring_enter()} system call: entry, ring bookkeeping and exit
 * @param sqeIssueNs per SQE, {@code io_submit_sqe()} through {@code io_read()} /
 *     {@code blkdev_read_iter()} up to {@code submit_bio()}; also the blocking re-issue in io-wq
 * @param cqePostNs posting one CQE ({@code io_req_complete_post()}) and waking a waiter
 * @param puntNs punting a request that could not be issued without blocking:
 *     {@code io_queue_iowq()} and {@code io_wq_enqueue()}, not counting the worker wakeup
 * @param workerCreateNs creating an io-wq worker ({@code create_io_worker()}), before it can run
 * @param workerLoopNs per work item in a worker, {@code io_worker_handle_work()} around the
 *     request: dequeue, credentials, bookkeeping
 * @param workerIdleTimeoutNs how long an idle worker sleeps before it exits, unless it is its
 *     class's last worker ({@code WORKER_IDLE_TIMEOUT}, 5 s); 0 for never
 * @param aioIocbNs per libaio iocb ({@code costs.aio.iocb-submit}), see {@link #forLibaio()}
 * @param iopollNs one pass of an IORING_SETUP_IOPOLL ring's poll loop
 *     ({@code costs.io-uring.iopoll}: {@code io_do_iopoll()} over the ring's polled requests,
 *     {@code blkdev_iopoll()} → {@code bio_poll()} → {@code blk_mq_poll()} → the driver's
 *     {@code ->poll}), not counting the CQEs it posts; see {@link WaitCall}
 */
public record IoUringParams(long enterNs, long sqeIssueNs, long cqePostNs, long puntNs,
    long workerCreateNs, long workerLoopNs, long workerIdleTimeoutNs, long aioIocbNs,
    long iopollNs) {

  /** [A] {@link #iopollNs} when a caller gives none (the schema's default). */
  public static final long DEFAULT_IOPOLL_NS = 100;

  /** These costs with the default {@link #iopollNs}. */
  public IoUringParams(long enterNs, long sqeIssueNs, long cqePostNs, long puntNs,
      long workerCreateNs, long workerLoopNs, long workerIdleTimeoutNs, long aioIocbNs) {
    this(enterNs, sqeIssueNs, cqePostNs, puntNs, workerCreateNs, workerLoopNs,
        workerIdleTimeoutNs, aioIocbNs, DEFAULT_IOPOLL_NS);
  }

  /** These costs with one IOPOLL poll pass costing {@code ns}. */
  public IoUringParams withIopollNs(long ns) {
    return new IoUringParams(enterNs, sqeIssueNs, cqePostNs, puntNs, workerCreateNs,
        workerLoopNs, workerIdleTimeoutNs, aioIocbNs, ns);
  }

  /** These costs, libaio's per-iocb cost being io_uring's per-SQE one (as before it had a key). */
  public IoUringParams(long enterNs, long sqeIssueNs, long cqePostNs, long puntNs,
      long workerCreateNs, long workerLoopNs, long workerIdleTimeoutNs) {
    this(enterNs, sqeIssueNs, cqePostNs, puntNs, workerCreateNs, workerLoopNs,
        workerIdleTimeoutNs, sqeIssueNs);
  }

  /**
   * The costs a libaio context pays ({@link blksim.kernel.aio.KioCtx},
   * {@link blksim.kernel.fs.FileAio} for libaio): the same entry, event and wait costs, with
   * {@code aioIocbNs} ({@code costs.aio.iocb-submit}: {@code io_submit_one()} through
   * {@code aio_read()}/{@code aio_write()} up to {@code submit_bio()}) per iocb in place of
   * {@code sqeIssueNs}.
   */
  public IoUringParams forLibaio() {
    return aioIocbNs == sqeIssueNs ? this : new IoUringParams(enterNs, aioIocbNs, cqePostNs,
        puntNs, workerCreateNs, workerLoopNs, workerIdleTimeoutNs, aioIocbNs, iopollNs);
  }

  /** {@code WORKER_IDLE_TIMEOUT} in io_uring/io-wq.c: {@code 5 * HZ} jiffies, 5 s at any HZ. */
  public static final long DEFAULT_WORKER_IDLE_TIMEOUT_NS = 5_000_000_000L;

  public IoUringParams {
    for (long v : new long[] {enterNs, sqeIssueNs, cqePostNs, puntNs, workerCreateNs,
        workerLoopNs, workerIdleTimeoutNs, aioIocbNs, iopollNs}) {
      if (v < 0) {
        throw new IllegalArgumentException("io_uring costs must be >= 0, was " + v);
      }
    }
  }

  /** These costs with the default idle timeout. */
  public IoUringParams(long enterNs, long sqeIssueNs, long cqePostNs, long puntNs,
      long workerCreateNs, long workerLoopNs) {
    this(enterNs, sqeIssueNs, cqePostNs, puntNs, workerCreateNs, workerLoopNs,
        DEFAULT_WORKER_IDLE_TIMEOUT_NS);
  }
}
