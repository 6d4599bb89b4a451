package blksim.workload.fio.thread;

/**
 * CPU costs of fio itself, user space, from the machine profile. The system calls it makes are
 * costed by the kernel ({@link blksim.kernel.syscall.SyscallParams}).
 *
 * @param userNsPerIo fio's own user-space work per I/O (io_u get and prepare, offset generation,
 *     latency accounting), charged as user time
 */
public record FioCostParams(long userNsPerIo) {

  public FioCostParams {
    if (userNsPerIo < 0) {
      throw new IllegalArgumentException("fio CPU costs must be >= 0");
    }
  }
}
