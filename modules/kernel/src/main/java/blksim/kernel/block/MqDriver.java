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

  /** One line on the drive's own state for a run's report (its write cache), or "". */
  default String summary() {
    return "";
  }
}
