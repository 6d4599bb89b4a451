package blksim.kernel.block;

/**
 * A blk-mq driver below a {@link RequestQueue} ({@code struct blk_mq_ops}): it takes a request
 * that holds a driver tag ({@code ->queue_rq}) and, when the hardware has finished it, calls
 * {@link RequestQueue#hardwareDone} from an event at that time; the queue then raises the
 * completion interrupt on the request's submitting CPU.
 */
@FunctionalInterface
public interface MqDriver {

  /**
   * {@code ->queue_rq(hctx, bd)}: the driver owns {@code rq} until it reports it done. Called in
   * the context that runs the queue, on {@code cpu}, whose timers it may arm.
   */
  void queueRq(Request rq, DriverCpu cpu);

  /**
   * Whether the driver has poll queues ({@code HCTX_TYPE_POLL} hardware contexts, null_blk's
   * {@code poll_queues}): REQ_POLLED bios keep the flag and complete only when polled
   * ({@link #poll}). Without them {@code submit_bio_noacct()} clears the flag.
   */
  default boolean polled() {
    return false;
  }

  /**
   * {@code ->poll(hctx, iob)} of the poll context {@code q} serves, by the task polling on
   * {@code cpu} ({@code blk_mq_poll()}): completes the requests found done, in the caller's
   * context, and returns how many.
   */
  default int poll(RequestQueue q, DriverCpu cpu) {
    return 0;
  }

  /**
   * Registers {@code waker}, a task polling {@code q}: a driver whose polled requests finish
   * later than their submission (nvme: the CQE lands while the task spins) runs it then, so the
   * spinning task makes the pass that finds it. Drivers that complete on the poll itself
   * (null_blk) need none.
   */
  default void pollWaker(RequestQueue q, Runnable waker) {}

  /** One line on the drive's own state for a run's report (its write cache), or "". */
  default String summary() {
    return "";
  }
}
