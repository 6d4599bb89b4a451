package blksim.kernel.syscall;

/**
 * CPU costs of the system-call paths around the block layer, system time of the calling task,
 * from the machine profile ({@code costs.fio.syscall}, {@code costs.fio.syscall-return}).
 *
 * @param rwEntryNs a read/write system call up to {@code submit_bio()}: entry, VFS, the O_DIRECT
 *     block-device path; charged before the block layer's own cost
 * @param wakeReturnNs after the task is woken by a completion until the system call returns to
 *     user space
 * @param timerSlackNs a user task's {@code timer_slack_ns}: how late its {@code nanosleep()} may
 *     be woken (the hrtimer's hard expiry is the request plus the slack)
 */
public record SyscallParams(long rwEntryNs, long wakeReturnNs, long timerSlackNs) {

  /** {@code init_task.timer_slack_ns} (include/linux/init_task.h): 50 us, inherited by fork. */
  public static final long DEFAULT_TIMER_SLACK_NS = 50_000;

  public SyscallParams {
    if (rwEntryNs < 0 || wakeReturnNs < 0 || timerSlackNs < 0) {
      throw new IllegalArgumentException("system-call costs must be >= 0, were " + rwEntryNs
          + ", " + wakeReturnNs + " and " + timerSlackNs);
    }
  }

  /** The read/write costs with the default timer slack. */
  public SyscallParams(long rwEntryNs, long wakeReturnNs) {
    this(rwEntryNs, wakeReturnNs, DEFAULT_TIMER_SLACK_NS);
  }
}
