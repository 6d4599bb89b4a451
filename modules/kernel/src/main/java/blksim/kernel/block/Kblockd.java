package blksim.kernel.block;

/**
 * Where a deferred hardware-queue run goes: the {@code kblockd} workqueue
 * ({@code kblockd_mod_delayed_work_on(cpu, &hctx->run_work, 0)}, kernel-model.md §5.5). The block
 * layer only asks for a run; the wiring decides how it is executed, so that this package does not
 * depend on the workqueue model.
 *
 * <p>{@link #bind} is called while the model is built, once per (request queue, CPU); the
 * returned {@link Runnable} is the {@code queue_work()} of that queue's run work on that CPU. A
 * device with one hardware queue queues the work on the local CPU ({@code blk_mq_hctx_next_cpu()}
 * returns {@code WORK_CPU_UNBOUND} when {@code nr_hw_queues == 1}; the legacy
 * {@code blk_run_queue_async()} likewise uses {@code mod_delayed_work()} on the local CPU).
 */
@FunctionalInterface
public interface Kblockd {

  /**
   * Sets up the run work of {@code queueName} on {@code cpu}; {@code run} is the work's body
   * (the queue run, {@code blk_mq_run_work_fn()}). Returns what queues it.
   */
  Runnable bind(String queueName, DriverCpu cpu, Runnable run);

  /**
   * No workqueue: the run happens on the same CPU as a zero-delay event (no kworker, no CPU
   * cost). For unit tests and models without a workqueue system.
   */
  Kblockd INLINE = (name, cpu, run) -> () -> cpu.callAfter(0, run);
}
