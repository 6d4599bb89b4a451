package blksim.kernel.syscall;

import blksim.kernel.sched.TaskCpu;

/**
 * One system call in progress: the kernel's side of a call a user task makes, run on the task's
 * CPU as a state machine of its own (the task's {@link blksim.kernel.sched.Task#step} hands
 * control to it until it returns).
 *
 * <p>Protocol: the calling task calls {@link #step} at each of its steps while the call is in
 * progress. A step either takes exactly one action on the {@link TaskCpu} (a burst of system
 * time, a sleep) and returns false, or takes none and returns true: the call has returned to user
 * space, {@link #ret()} holds its return value, and the task goes on with its own next action in
 * the same step. The entry cost is the first action; a call therefore never returns in its first
 * step unless it costs nothing.
 *
 * <p>Instances are re-armed and reused by the object that made them (one call in progress per
 * open file or ring at a time, as one task drives it), so a call allocates nothing per I/O beyond
 * its bio.
 */
public abstract class SystemCall {
  private long ret;

  /** Takes the call's next action and returns false, or returns true when the call returned. */
  public abstract boolean step(TaskCpu cpu);

  /** Records the return value; returns true, for {@code return returned(v);} in a step. */
  protected final boolean returned(long value) {
    ret = value;
    return true;
  }

  /** The call's return value: a count of bytes or events, 0, or a negative errno. */
  public final long ret() {
    return ret;
  }
}
