package blksim.workload.fio;

/**
 * The simulated machine as fio's reserved keywords see it.
 *
 * <p>Mirrors {@code fio_keywords_init()} in fio's {@code options.c}, which fills {@code $ncpus}
 * ({@code cpus_online()}), {@code $mb_memory} ({@code os_phys_mem() / 1 MiB}) and {@code $pagesize}
 * from the host. In blksim they describe the <em>simulated</em> machine, never the host running the
 * simulator, so the same job file always expands to the same values.
 *
 * @param ncpus online CPUs, substituted for {@code $ncpus}; at least 1
 * @param mbMemory memory in MiB, substituted for {@code $mb_memory}; at least 1
 * @param pagesize page size in bytes, substituted for {@code $pagesize}; a power of 2 of at least 512
 * @param paths maps a path named by a trace rather than the job file (an iolog's {@code add}
 *     lines) as {@code run --map} / {@code fio.map} maps the job file's paths; the identity
 *     when none is given
 */
public record FioEnvironment(int ncpus, long mbMemory, int pagesize,
    java.util.function.UnaryOperator<String> paths) {

  /** The machine with no path mapping. */
  public FioEnvironment(int ncpus, long mbMemory, int pagesize) {
    this(ncpus, mbMemory, pagesize, java.util.function.UnaryOperator.identity());
  }

  /** This machine with {@code newPaths} as its path mapping. */
  public FioEnvironment withPaths(java.util.function.UnaryOperator<String> newPaths) {
    return new FioEnvironment(ncpus, mbMemory, pagesize, newPaths);
  }

  /** Checks the ranges above. */
  public FioEnvironment {
    java.util.Objects.requireNonNull(paths, "paths");
    if (ncpus < 1) {
      throw new IllegalArgumentException("ncpus must be >= 1, was " + ncpus);
    }
    if (mbMemory < 1) {
      throw new IllegalArgumentException("mbMemory must be >= 1, was " + mbMemory);
    }
    if (pagesize < 512 || Integer.bitCount(pagesize) != 1) {
      throw new IllegalArgumentException("pagesize must be a power of 2 >= 512, was " + pagesize);
    }
  }
}
