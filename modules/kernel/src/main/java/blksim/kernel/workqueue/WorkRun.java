package blksim.kernel.workqueue;

/**
 * One execution of a work item's callback on a worker, as a state machine the worker drives:
 * each {@link #step} takes exactly one action of the {@link WorkerCpu} (a CPU burst, a blocking
 * wait, {@code cond_resched()}) or calls {@link WorkerCpu#finish()} (the callback returns).
 */
@FunctionalInterface
public interface WorkRun {

  /** One step of the callback. */
  void step(WorkerCpu cpu);
}
