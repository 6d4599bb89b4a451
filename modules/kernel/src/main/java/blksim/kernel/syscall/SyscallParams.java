package blksim.kernel.syscall;

/**
 * CPU costs of the system-call paths around the block layer, system time of the calling task,
 * from the machine profile ({@code costs.fio.syscall}, {@code costs.fio.syscall-return}).
 *
 * @param rwEntryNs a read/write system call up to {@code submit_bio()}: entry, VFS, the O_DIRECT
 *     block-device path; charged before the block layer's own cost
 * @param wakeReturnNs after the task is woken by a completion until the system call returns to
 *     user space
 */
public record SyscallParams(long rwEntryNs, long wakeReturnNs) {

  public SyscallParams {
    if (rwEntryNs < 0 || wakeReturnNs < 0) {
      throw new IllegalArgumentException("system-call costs must be >= 0, were " + rwEntryNs
          + " and " + wakeReturnNs);
    }
  }
}
