package blksim.workload.fio.thread;

/**
 * CPU costs of fio itself and of the system calls its engines make, from the machine profile.
 *
 * @param userNsPerIo fio's own user-space work per I/O (io_u get and prepare, offset generation,
 *     latency accounting), charged as user time
 * @param syscallNs system time of a read/write system call up to {@code submit_bio()} (entry,
 *     VFS, the O_DIRECT block-device path), charged before the block layer's own cost
 * @param syscallReturnNs system time after the task is woken by the completion until the system
 *     call returns to user space
 */
public record FioCostParams(long userNsPerIo, long syscallNs, long syscallReturnNs) {

  public FioCostParams {
    if (userNsPerIo < 0 || syscallNs < 0 || syscallReturnNs < 0) {
      throw new IllegalArgumentException("fio CPU costs must be >= 0");
    }
  }
}
