package blksim.kernel.mm;

/**
 * What a wb's flusher did, for the run's report: works, inodes and pages written, bios
 * submitted, how often each scheduling point between inodes acted.
 */
public final class FlusherStats {
  long works;
  long inodes;
  long pages;
  long bios;
  /** Between inodes, {@code need_resched()} was set (so a cond_resched yields). */
  long reschedBetweenInodes;
  /** The patch's {@code blk_flush_plug()} before {@code cond_resched()} ran. */
  long flushBeforeResched;
  /** Times the flusher slept waiting for a request or a tag. */
  long tagSleeps;

  public long works() {
    return works;
  }

  public long inodes() {
    return inodes;
  }

  public long pages() {
    return pages;
  }

  public long bios() {
    return bios;
  }

  public long reschedBetweenInodes() {
    return reschedBetweenInodes;
  }

  public long flushBeforeResched() {
    return flushBeforeResched;
  }

  public long tagSleeps() {
    return tagSleeps;
  }
}
