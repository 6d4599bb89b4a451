package blksim.kernel.workqueue;

/**
 * What a work item does: {@code work_func_t}. {@link #begin} is called by
 * {@code process_one_work()} on the worker that runs the item and returns the state of that one
 * run, which the worker then drives step by step ({@link WorkRun#step}).
 *
 * <p>A work item may run on another CPU, or in another partition, than the code that queued it,
 * so its function travels inside messages: to cross JVMs it must be a record registered with Kryo
 * (as {@link WorkScript} is). A lambda works within one JVM only. The run it returns executes on
 * the worker's CPU and may touch only state owned by that CPU; anything else it reaches by
 * messages.
 */
@FunctionalInterface
public interface WorkFn {

  /** Starts one execution of the callback. */
  WorkRun begin();
}
