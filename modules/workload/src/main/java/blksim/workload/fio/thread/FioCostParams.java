package blksim.workload.fio.thread;

/**
 * CPU costs of fio itself, user space, from the machine profile. The system calls it makes are
 * costed by the kernel ({@link blksim.kernel.syscall.SyscallParams}).
 *
 * @param userNsPerIo fio's own user-space work per I/O (io_u get and prepare, offset generation,
 *     latency accounting), charged as user time
 * @param cpuioQsortRoundNs user time of one {@code cpumode=qsort} round of the cpuio engine
 * @param randomMapNsPerIo user time per I/O of fio's random map, added to {@code userNsPerIo}
 *     for a job whose offsets are random and tracked by the map ({@link #forJob})
 */
public record FioCostParams(long userNsPerIo, long cpuioQsortRoundNs, long randomMapNsPerIo) {

  /**
   * The default of {@code costs.fio.random-map-per-io}: [A] 0. The mechanism is fio's: a random
   * job without {@code norandommap} (and with a distribution that uses the map) looks each
   * chosen block up in its {@code axmap} and marks it ({@code get_next_rand_block()} →
   * {@code axmap_isset()}, {@code axmap_next_free()} when taken, and {@code axmap_set()} in
   * {@code mark_random_map()}; {@code lib/axmap.c}, {@code io_u.c}), a walk of one 64-bit word
   * per level of a tree of {@code log64(blocks)} levels (4 for 20 GiB of 4 KiB blocks), some
   * tens of nanoseconds. No published figure separates it, and the figures validated so far
   * (nowait, dm-delay: random jobs with the map) calibrated {@code costs.fio.user-per-io} with it
   * inside, so the default keeps it there; a profile that sets it should lower
   * {@code user-per-io} by as much.
   */
  public static final long DEFAULT_RANDOM_MAP_NS = 0;

  /**
   * The default of {@code costs.fio.cpuio-qsort-round}: [A] one round of cpuio's
   * {@code do_qsort()} (engines/cpu.c: three qsorts of 256 Ki int32 values and one of their
   * 1 MiB as bytes, about 35 million comparisons at n log2 n) at about 3 ns per glibc
   * comparison call. Unsourced: no published figure times it.
   */
  public static final long DEFAULT_CPUIO_QSORT_ROUND_NS = 100_000_000L;

  public FioCostParams {
    if (userNsPerIo < 0 || cpuioQsortRoundNs < 0 || randomMapNsPerIo < 0) {
      throw new IllegalArgumentException("fio CPU costs must be >= 0");
    }
  }

  /** fio's per-I/O cost with the default qsort round and random-map cost. */
  public FioCostParams(long userNsPerIo) {
    this(userNsPerIo, DEFAULT_CPUIO_QSORT_ROUND_NS);
  }

  /** The costs with the default random-map cost. */
  public FioCostParams(long userNsPerIo, long cpuioQsortRoundNs) {
    this(userNsPerIo, cpuioQsortRoundNs, DEFAULT_RANDOM_MAP_NS);
  }

  /**
   * Whether {@code job} keeps fio's random map: random offsets, no {@code norandommap}, and a
   * distribution that uses the map (uniform; fio's {@code random_map} is not allocated for the
   * others), the rule {@link FioFileSet} follows for ending at {@code size}.
   */
  public static boolean usesRandomMap(blksim.workload.fio.FioJob job) {
    blksim.workload.fio.FioRw rw = job.rw();
    return rw.isRandom() && !job.norandommap()
        && job.randomDistribution(rw.writes() ? 1 : 0).usesRandomMap();
  }

  /**
   * The costs {@code job} pays: {@code userNsPerIo} plus the random map's per-I/O work when the
   * job keeps the map ({@link #usesRandomMap}).
   */
  public FioCostParams forJob(blksim.workload.fio.FioJob job) {
    if (randomMapNsPerIo == 0 || !usesRandomMap(job)) {
      return this;
    }
    return new FioCostParams(userNsPerIo + randomMapNsPerIo, cpuioQsortRoundNs, randomMapNsPerIo);
  }
}
