package blksim.kernel.fs;

import blksim.kernel.sched.TaskCpu;

/**
 * An asynchronous direct I/O as {@code io_submit()} drives it in the submitting task
 * ({@link FileAio}): XFS's iomap path ({@link DirectIo.Dio}) or a filesystem's own
 * ({@link OwnDirectIo}, btrfs).
 */
public interface AsyncDio {
  /** The errno of a request refused before any I/O (alignment), else 0. */
  int check();

  /**
   * One step of the submission in the caller's task: true while it took an action (the caller
   * returns from its step), false once the bios are submitted; the event is posted at completion.
   */
  boolean stepSubmit(TaskCpu cpu);
}
