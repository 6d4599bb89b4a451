package blksim.kernel.mm;

/**
 * CPU costs of a buffered read through the page cache (kernel-model.md §5.6), system time of the
 * reading task, from the machine profile ({@code costs.page-cache.*}).
 *
 * @param missNs a page-cache miss: lookup, page allocation and insertion, readahead set-up
 * @param copyNsPer4k copying 4 KiB from the page cache to the user buffer
 */
public record PageCacheParams(long missNs, long copyNsPer4k) {

  public PageCacheParams {
    if (missNs < 0 || copyNsPer4k < 0) {
      throw new IllegalArgumentException("page-cache costs must be >= 0");
    }
  }

  /** {@code copy_page_to_iter()} of {@code bytes} (at least one page). */
  public long copyNs(int bytes) {
    return copyNsPer4k * Math.max(1, bytes / 4096);
  }
}
