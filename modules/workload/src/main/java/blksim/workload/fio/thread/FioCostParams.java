package blksim.workload.fio.thread;

/**
 * CPU costs of fio itself, user space, from the machine profile. The system calls it makes are
 * costed by the kernel ({@link blksim.kernel.syscall.SyscallParams}).
 *
 * <p>{@code userNsPerIo} is the cost of the job shape it was calibrated on (the nowait and
 * dm-delay experiments: uniform random offsets from fio's default generator, with the random
 * map). Two shares of it are fio's random-offset work, which other jobs do not do or do
 * differently ({@link #forJob}): the generator's draw and the map's lookup and mark. A sequential
 * job saves both, a {@code norandommap} (or {@code random_generator=lfsr}) job the map, a
 * zipf or pareto job pays its own draw instead of the uniform one. So the calibrated random jobs
 * pay {@code userNsPerIo} exactly, whatever the shares are.
 *
 * @param userNsPerIo fio's own user-space work per I/O of a uniform random job with the map (io_u
 *     get and prepare, offset generation, latency accounting), charged as user time
 * @param cpuioQsortRoundNs user time of one {@code cpumode=qsort} round of the cpuio engine
 * @param randomMapNsPerIo the share of {@code userNsPerIo} that is fio's random map
 *     ({@code costs.fio.random-map-per-io})
 * @param randomDrawNsPerIo the share that is the uniform generator's draw and scaling
 *     ({@code costs.fio.random-draw-per-io})
 * @param zipfDrawNsPerIo a {@code random_distribution=zipf} draw, instead of the uniform one
 *     (0: the uniform one's)
 * @param paretoDrawNsPerIo a {@code random_distribution=pareto} draw, likewise
 * @param posixAioEnqueueNs {@code ioengine=posixaio}: glibc's user time to queue one request
 *     ({@code costs.fio.posixaio-enqueue})
 * @param posixAioHelperNs {@code ioengine=posixaio}: a glibc helper thread's user time per
 *     request besides its system call ({@code costs.fio.posixaio-helper})
 */
public record FioCostParams(long userNsPerIo, long cpuioQsortRoundNs, long randomMapNsPerIo,
    long randomDrawNsPerIo, long zipfDrawNsPerIo, long paretoDrawNsPerIo,
    long posixAioEnqueueNs, long posixAioHelperNs) {

  /**
   * The default of {@code costs.fio.posixaio-enqueue}: glibc's {@code aio_read()} /
   * {@code aio_write()} in the job thread ({@code __aio_enqueue_request()}: one lock and unlock
   * of {@code __aio_requests_mutex}, a request from the pool, {@code add_request_to_list()}).
   * [D] 25 ns for the uncontended mutex lock/unlock ("Latency numbers every programmer should
   * know", J. Dean / P. Norvig) plus [A] 25 ns for the request and the list.
   */
  public static final long DEFAULT_POSIXAIO_ENQUEUE_NS = 50;

  /**
   * The default of {@code costs.fio.posixaio-helper}: a helper thread's user time per request
   * around its {@code pread()}/{@code pwrite()} ({@code handle_fildes_io()}: the mutex taken
   * twice, {@code __aio_notify()}, the request freed and the next one of the descriptor
   * looked up). [D] 2 x 25 ns for the mutex (as above) plus [A] 50 ns of bookkeeping.
   */
  public static final long DEFAULT_POSIXAIO_HELPER_NS = 100;

  /** The costs without posixaio's (their defaults). */
  public FioCostParams(long userNsPerIo, long cpuioQsortRoundNs, long randomMapNsPerIo,
      long randomDrawNsPerIo, long zipfDrawNsPerIo, long paretoDrawNsPerIo) {
    this(userNsPerIo, cpuioQsortRoundNs, randomMapNsPerIo, randomDrawNsPerIo, zipfDrawNsPerIo,
        paretoDrawNsPerIo, DEFAULT_POSIXAIO_ENQUEUE_NS, DEFAULT_POSIXAIO_HELPER_NS);
  }

  /**
   * The default of {@code costs.fio.random-map-per-io} and of the other offset shares: 0, so
   * that every job pays {@code user-per-io} (sequential and random cost the same), as before the
   * shares existed. The mechanism is fio's: a random job without {@code norandommap} (and with a
   * distribution that uses the map) looks each chosen block up in its {@code axmap} and marks it
   * ({@code get_next_rand_block()} → {@code axmap_isset()}, {@code axmap_next_free()} when taken,
   * and {@code axmap_set()} in {@code mark_random_map()}; {@code lib/axmap.c}, {@code io_u.c}),
   * a walk of one 64-bit word per level of a tree of {@code log64(blocks)} levels (4 for 20 GiB
   * of 4 KiB blocks). The generic-x86 profile sets the shares from fio's own code, timed
   * ({@code scenarios/profiles/fio-offset-cost.c}).
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
    if (userNsPerIo < 0 || cpuioQsortRoundNs < 0 || randomMapNsPerIo < 0 || randomDrawNsPerIo < 0
        || zipfDrawNsPerIo < 0 || paretoDrawNsPerIo < 0 || posixAioEnqueueNs < 0
        || posixAioHelperNs < 0) {
      throw new IllegalArgumentException("fio CPU costs must be >= 0");
    }
    if (randomMapNsPerIo + randomDrawNsPerIo > userNsPerIo) {
      throw new IllegalArgumentException(SHARES_RULE);
    }
  }

  /** The rule the offset shares obey; the loader reports it as an input error. */
  public static final String SHARES_RULE = "costs.fio.random-map-per-io + random-draw-per-io"
      + " must not exceed costs.fio.user-per-io, which holds them (it is a uniform random job's"
      + " cost with the map)";

  /** The costs with only the map's share (no draw share, no distribution draws). */
  public FioCostParams(long userNsPerIo, long cpuioQsortRoundNs, long randomMapNsPerIo) {
    this(userNsPerIo, cpuioQsortRoundNs, randomMapNsPerIo, 0, 0, 0);
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
   * The costs {@code job} pays: {@code userNsPerIo} without the random-offset shares, plus the
   * offset work the job does. fio's {@code get_next_offset()} (io_u.c): a sequential offset is
   * an addition ({@code get_next_seq_offset()}); a random one is a draw
   * ({@code __get_next_rand_offset()}: {@code __rand()} scaled to the blocks, or
   * {@code lfsr_next()}, timed the same within noise), then with the map
   * {@code random_map_free()} and {@code mark_random_map()}; {@code zipf_next()} and
   * {@code pareto_next()} (lib/zipf.c) replace the uniform draw, and skip the map. With
   * {@code percentage_random} below 100 the random work is paid on that share of the I/Os.
   * Simplified: {@code normal}, {@code zoned} and {@code zoned_abs} are costed as the uniform
   * draw; rwmix's direction draw and {@code bssplit}'s size draw are inside the fixed part.
   */
  public FioCostParams forJob(blksim.workload.fio.FioJob job) {
    long shares = randomMapNsPerIo + randomDrawNsPerIo;
    if (shares == 0 && zipfDrawNsPerIo == 0 && paretoDrawNsPerIo == 0) {
      return this;
    }
    blksim.workload.fio.FioRw rw = job.rw();
    long work = 0;
    if (rw.isRandom()) {
      int ddir = rw.writes() ? 1 : 0;
      blksim.workload.fio.RandomDistribution.Kind k = job.randomDistribution(ddir).kind();
      long draw = k == blksim.workload.fio.RandomDistribution.Kind.ZIPF && zipfDrawNsPerIo > 0
          ? zipfDrawNsPerIo
          : k == blksim.workload.fio.RandomDistribution.Kind.PARETO && paretoDrawNsPerIo > 0
              ? paretoDrawNsPerIo : randomDrawNsPerIo;
      // setup_random_seeds()/init_random_map(): an lfsr job gets no axmap (filesetup.c).
      boolean map = usesRandomMap(job) && !job.randomGenerator().equals("lfsr");
      work = draw + (map ? randomMapNsPerIo : 0);
      int pct = job.percentageRandom(ddir);
      if (pct < 100) {
        work = work * pct / 100;
      }
    }
    // The job's own cost, shares applied (and cleared: forJob() on it changes nothing).
    return new FioCostParams(userNsPerIo - shares + work, cpuioQsortRoundNs, 0, 0, 0, 0,
        posixAioEnqueueNs, posixAioHelperNs);
  }
}
