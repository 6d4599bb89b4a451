package blksim.kernel.sched;

/** A task is RUNNING (on a CPU or in its run queue), BLOCKED, or DEAD after it exited. */
public enum TaskState {
  RUNNING,
  BLOCKED,
  DEAD
}
