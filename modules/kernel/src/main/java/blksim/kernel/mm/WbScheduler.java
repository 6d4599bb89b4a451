package blksim.kernel.mm;

/**
 * How a {@link BdiWriteback} gets its flusher run: {@code mod_delayed_work(bdi_wq, &wb->dwork,
 * delay)} on the unbound {@code writeback} workqueue, provided by whoever wires the machine (the
 * mm package does not know the workqueue system's CPUs).
 */
public interface WbScheduler {

  /** {@code mod_delayed_work()}: queues (0) or re-arms the wb's work after {@code delayJiffies}. */
  void modDelayedWork(BdiWriteback wb, long delayJiffies);

  /** {@code queue_delayed_work()}: arms the wb's work after {@code delayJiffies} unless pending. */
  void queueDelayedWork(BdiWriteback wb, long delayJiffies);
}
