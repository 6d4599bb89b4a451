package blksim.kernel.sched;

/**
 * A task's fair-scheduling state: mirrors the parts of {@code struct sched_entity} the model uses.
 * Owned by the {@link SchedPolicy} of the task's CPU; never changed while the task sits in the
 * policy's ordered timeline (only the current task's runtime advances).
 */
final class SchedEntity {
  /** {@code load.weight}, from the task's nice value. */
  final long weight;
  /** {@code vruntime}: weighted runtime, ns of virtual time. */
  long vruntime;
  /** {@code sum_exec_runtime}: real runtime while current, ns. */
  long sumExecRuntime;
  /** {@code prev_sum_exec_runtime}: {@link #sumExecRuntime} when last picked. */
  long prevSumExecRuntime;
  /** {@code exec_start}: when runtime was last charged. */
  long execStart;
  /** {@code on_rq}: runnable (queued or current). */
  boolean onRq;
  /** EEVDF {@code deadline}: virtual deadline of the current request. */
  long deadline;
  /**
   * EEVDF {@code vlag}: lag at the last dequeue, carried across the sleep; while the task is
   * current it holds the deadline it was picked with (RUN_TO_PARITY's slice protection).
   */
  long vlag;

  SchedEntity(long weight) {
    this.weight = weight;
  }
}
