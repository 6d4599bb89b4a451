package blksim.kernel.device;

/**
 * A rotational drive's volatile write cache (kernel-model.md §15.2): writes complete once the
 * drive holds them, while it holds less than {@code bytes}; the drive destages them to the media
 * in the background with its own scheduling, and a FLUSH CACHE completes once everything it held
 * is on the media. Read by {@link CachedDiskDriver}.
 *
 * <table>
 * <caption>Defaults and their sources</caption>
 * <tr><th>field</th><th>default</th><th>source</th></tr>
 * <tr><td>{@code bytes}</td><td>256 MiB on a {@code zoned-disk} (on by default, §15.2 [S]);
 *     0 (off) on a {@code disk}</td><td>[A] §15.2's cacheBytes</td></tr>
 * <tr><td>{@code acceptNs}</td><td>100 µs</td><td>[A] §15.2: 50 to 200 µs plus the
 *     transfer</td></tr>
 * <tr><td>{@code linkBytesPerSec}</td><td>600 MB/s</td><td>[S] SATA 3.x: 6 Gb/s line rate,
 *     8b/10b encoding</td></tr>
 * </table>
 *
 * @param bytes the cache's capacity; 0: no write cache (every write timed on the media)
 * @param acceptNs controller time to take a write into the cache, before its transfer
 * @param linkBytesPerSec the host link's rate, at which a cached write's data arrives
 */
public record WriteCacheParams(long bytes, long acceptNs, long linkBytesPerSec) {

  /** Default of {@link #acceptNs} [A]. */
  public static final long DEFAULT_ACCEPT_NS = 100_000;
  /** Default of {@link #linkBytesPerSec} [S]. */
  public static final long DEFAULT_LINK_BYTES_PER_SEC = 600_000_000L;
  /** Default capacity where the cache is on: 256 MiB [A]. */
  public static final long DEFAULT_BYTES = 256L << 20;
  /** No write cache. */
  public static final WriteCacheParams OFF = new WriteCacheParams(0, DEFAULT_ACCEPT_NS,
      DEFAULT_LINK_BYTES_PER_SEC);

  public WriteCacheParams {
    if (bytes < 0 || bytes % 512 != 0) {
      throw new IllegalArgumentException("write-cache-size must be a non-negative multiple of 512,"
          + " was " + bytes);
    }
    DeviceChecks.cost("acceptNs", acceptNs);
    if (linkBytesPerSec <= 0) {
      throw new IllegalArgumentException("link-rate must be > 0, was " + linkBytesPerSec);
    }
  }

  /** Whether the drive has a write cache. */
  public boolean enabled() {
    return bytes > 0;
  }

  /** Time the drive takes to hold a write of {@code len} bytes: acceptance plus the transfer. */
  public long holdNs(long len) {
    return acceptNs + Math.round(len * 1e9 / linkBytesPerSec);
  }
}
