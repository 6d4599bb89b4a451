package blksim.kernel.fs;

import java.util.List;

/**
 * What a filesystem's writeback hook returns for one inode's dirty range: the disk extents of the
 * range, in file order, and the CPU time the mapping and any allocation transaction cost. The
 * cost is only reported: the caller (the flusher, or a task in fsync) charges it as system time.
 *
 * @param extents the range's extents in file-page order; together they cover the range exactly
 * @param cpuNs system time to charge to the task that writes the inode back, >= 0
 */
public record Allocation(List<Extent> extents, long cpuNs) {
  public Allocation {
    extents = List.copyOf(extents);
    if (extents.isEmpty()) {
      throw new IllegalArgumentException("extents must not be empty");
    }
    if (cpuNs < 0) {
      throw new IllegalArgumentException("cpuNs must be >= 0, was " + cpuNs);
    }
  }

  /** Total pages over all extents. */
  public long pages() {
    long n = 0;
    for (Extent e : extents) {
      n += e.pages();
    }
    return n;
  }
}
