package blksim.workload.fio.thread;

/**
 * CPU costs of fio itself, user space, from the machine profile. The system calls it makes are
 * costed by the kernel ({@link blksim.kernel.syscall.SyscallParams}).
 *
 * @param userNsPerIo fio's own user-space work per I/O (io_u get and prepare, offset generation,
 *     latency accounting), charged as user time
 * @param cpuioQsortRoundNs user time of one {@code cpumode=qsort} round of the cpuio engine
 */
public record FioCostParams(long userNsPerIo, long cpuioQsortRoundNs) {

  /**
   * The default of {@code costs.fio.cpuio-qsort-round}: [A] one round of cpuio's
   * {@code do_qsort()} (engines/cpu.c: three qsorts of 256 Ki int32 values and one of their
   * 1 MiB as bytes, about 35 million comparisons at n log2 n) at about 3 ns per glibc
   * comparison call. Unsourced: no published figure times it.
   */
  public static final long DEFAULT_CPUIO_QSORT_ROUND_NS = 100_000_000L;

  public FioCostParams {
    if (userNsPerIo < 0 || cpuioQsortRoundNs < 0) {
      throw new IllegalArgumentException("fio CPU costs must be >= 0");
    }
  }

  /** fio's per-I/O cost with the default qsort round. */
  public FioCostParams(long userNsPerIo) {
    this(userNsPerIo, DEFAULT_CPUIO_QSORT_ROUND_NS);
  }
}
