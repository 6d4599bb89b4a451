package blksim.kernel.mm;

/**
 * The {@code vm.dirty_*} sysctls of the simulated kernel (kernel-model.md §9.1; their variables
 * and defaults in 4.3's mm/page-writeback.c, their limits in kernel/sysctl.c).
 *
 * <p>A byte value of 0 means "not set": the ratio is used. When a byte value is set it wins over
 * the ratio ({@code domain_dirty_limits()}). The kernel keeps only one of each pair by zeroing the
 * other when one is written; a scenario may give both, and then the bytes win as in the kernel's
 * arithmetic.
 *
 * <p>Beyond the kernel's own sysctl limits, the constructor refuses a background threshold above
 * the throttling threshold when both are in the same unit: the kernel would silently use half
 * the throttling threshold instead (kernel-model.md §15.4.2), which a scenario almost certainly
 * did not mean. An equal pair, or a pair in different units, is accepted; when the background
 * threshold then reaches the other, it is halved as in the kernel
 * ({@link DirtyLimits#domainDirtyLimits}).
 *
 * @param dirtyBackgroundRatio {@code vm.dirty_background_ratio}, percent of dirtyable memory, in
 *     [0, 100]
 * @param dirtyBackgroundBytes {@code vm.dirty_background_bytes}; 0 = use the ratio, else >= 1
 * @param dirtyRatio {@code vm.dirty_ratio}, percent of dirtyable memory, in [0, 100]
 * @param dirtyBytes {@code vm.dirty_bytes}; 0 = use the ratio, else at least two pages
 *     ({@code dirty_bytes_min})
 * @param dirtyWritebackCentisecs {@code vm.dirty_writeback_centisecs}: the period of kupdate
 *     writeback, >= 0 (0 disables it)
 * @param dirtyExpireCentisecs {@code vm.dirty_expire_centisecs}: age at which dirty data is written
 *     by kupdate, >= 0
 */
public record DirtyParams(int dirtyBackgroundRatio, long dirtyBackgroundBytes, int dirtyRatio,
    long dirtyBytes, int dirtyWritebackCentisecs, int dirtyExpireCentisecs) {

  /** Default {@code dirty_background_ratio}. */
  public static final int DEFAULT_DIRTY_BACKGROUND_RATIO = 10;
  /** Default {@code vm_dirty_ratio}. */
  public static final int DEFAULT_DIRTY_RATIO = 20;
  /** Default {@code dirty_writeback_interval}: {@code 5 * 100} centiseconds. */
  public static final int DEFAULT_DIRTY_WRITEBACK_CENTISECS = 500;
  /** Default {@code dirty_expire_interval}: {@code 30 * 100} centiseconds. */
  public static final int DEFAULT_DIRTY_EXPIRE_CENTISECS = 3000;
  /** {@code dirty_bytes_min} (kernel/sysctl.c): {@code 2 * PAGE_SIZE}. */
  public static final long DIRTY_BYTES_MIN = 2 * BalanceDirtyPages.PAGE_SIZE;

  /** The kernel's defaults: 10 %, 20 %, 5 s, 30 s, no byte values. */
  public static final DirtyParams DEFAULTS = new DirtyParams(DEFAULT_DIRTY_BACKGROUND_RATIO, 0,
      DEFAULT_DIRTY_RATIO, 0, DEFAULT_DIRTY_WRITEBACK_CENTISECS, DEFAULT_DIRTY_EXPIRE_CENTISECS);

  public DirtyParams {
    requireRatio("dirtyBackgroundRatio", dirtyBackgroundRatio);
    requireRatio("dirtyRatio", dirtyRatio);
    if (dirtyBackgroundBytes < 0) {
      throw new IllegalArgumentException(
          "dirtyBackgroundBytes must be 0 (use the ratio) or >= 1, was " + dirtyBackgroundBytes);
    }
    if (dirtyBytes != 0 && dirtyBytes < DIRTY_BYTES_MIN) {
      throw new IllegalArgumentException("dirtyBytes must be 0 (use the ratio) or >= "
          + DIRTY_BYTES_MIN + " (two pages), was " + dirtyBytes);
    }
    if (dirtyWritebackCentisecs < 0) {
      throw new IllegalArgumentException("dirtyWritebackCentisecs must be >= 0, was "
          + dirtyWritebackCentisecs);
    }
    if (dirtyExpireCentisecs < 0) {
      throw new IllegalArgumentException("dirtyExpireCentisecs must be >= 0, was "
          + dirtyExpireCentisecs);
    }
    // Same-unit comparison only: with one value in bytes and the other a ratio the order depends
    // on the dirtyable memory, which is known only at run time.
    if (dirtyBackgroundBytes != 0 && dirtyBytes != 0 && dirtyBackgroundBytes > dirtyBytes) {
      throw new IllegalArgumentException("dirtyBackgroundBytes must be <= dirtyBytes, was "
          + dirtyBackgroundBytes + " > " + dirtyBytes);
    }
    if (dirtyBackgroundBytes == 0 && dirtyBytes == 0 && dirtyBackgroundRatio > dirtyRatio) {
      throw new IllegalArgumentException("dirtyBackgroundRatio must be <= dirtyRatio, was "
          + dirtyBackgroundRatio + " > " + dirtyRatio);
    }
  }

  /** These parameters with both thresholds in bytes (Chris Mason's "1.5GB/3GB", §12.4). */
  public DirtyParams withBytes(long backgroundBytes, long bytes) {
    return new DirtyParams(dirtyBackgroundRatio, backgroundBytes, dirtyRatio, bytes,
        dirtyWritebackCentisecs, dirtyExpireCentisecs);
  }

  /** These parameters with both thresholds as ratios and no byte values. */
  public DirtyParams withRatios(int backgroundRatio, int ratio) {
    return new DirtyParams(backgroundRatio, 0, ratio, 0, dirtyWritebackCentisecs,
        dirtyExpireCentisecs);
  }

  /** The kupdate period in ms ({@code dirty_writeback_interval * 10}). */
  public long dirtyWritebackIntervalMs() {
    return dirtyWritebackCentisecs * 10L;
  }

  /** The expiry age in ms ({@code dirty_expire_interval * 10}). */
  public long dirtyExpireIntervalMs() {
    return dirtyExpireCentisecs * 10L;
  }

  private static void requireRatio(String name, int v) {
    if (v < 0 || v > 100) {
      throw new IllegalArgumentException(name + " must be in [0, 100], was " + v);
    }
  }
}
