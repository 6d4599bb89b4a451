package blksim.kernel.device;

/**
 * A solid-state drive's service parameters (kernel-model.md §7.4, §15.5 T2), read by
 * {@link Ssd}.
 *
 * <table>
 * <caption>Defaults and their sources (a SATA SSD of the Intel DC S4500 class, §15.5 T2)</caption>
 * <tr><th>field</th><th>default</th><th>source</th></tr>
 * <tr><td>{@code capacityBytes}</td><td>960 GB</td><td>[A] one S4500 capacity point; thread 2
 *     did not say</td></tr>
 * <tr><td>{@code channels}</td><td>8</td><td>[A] flash channels of the controller</td></tr>
 * <tr><td>{@code bandwidthBytesPerSec}</td><td>490 MB/s</td><td>[A] §15.5 T2, from the S4500/S4600
 *     product specification's sequential figures</td></tr>
 * <tr><td>{@code readLatencyNs}</td><td>40 µs</td><td>[A] §15.5 T2</td></tr>
 * <tr><td>{@code writeLatencyNs}</td><td>40 µs</td><td>[A] §15.5 T2 (one figure for both)</td></tr>
 * <tr><td>{@code queueDepth}</td><td>32</td><td>[A] SATA NCQ, §15.5 T2</td></tr>
 * <tr><td>{@code pageBytes}</td><td>4 KiB</td><td>[A] the FTL's mapping unit, the striping
 *     granule</td></tr>
 * </table>
 *
 * @param capacityBytes capacity, a multiple of {@code pageBytes}
 * @param channels flash channels that work in parallel
 * @param bandwidthBytesPerSec host link rate: the device's bandwidth cap, shared by all commands
 * @param readLatencyNs time a channel is busy reading one page from flash
 * @param writeLatencyNs time a channel is busy taking one written page
 * @param queueDepth commands the device accepts in flight (tags; for an NVMe drive every
 *     hardware queue's)
 * @param pageBytes striping and flash-operation unit, a power of two ≥ 512
 */
public record SsdParams(long capacityBytes, int channels, long bandwidthBytesPerSec,
    long readLatencyNs, long writeLatencyNs, int queueDepth, int pageBytes) {

  /** Default of {@link #capacityBytes}: 960 GB [A]. */
  public static final long DEFAULT_CAPACITY_BYTES = 960_000_000_000L;
  /** Default of {@link #channels} [A]. */
  public static final int DEFAULT_CHANNELS = 8;
  /** Default of {@link #bandwidthBytesPerSec}: 490 MB/s, §15.5 T2 [A]. */
  public static final long DEFAULT_BANDWIDTH_BYTES_PER_SEC = 490_000_000L;
  /** Default of {@link #readLatencyNs}: 40 µs, §15.5 T2 [A]. */
  public static final long DEFAULT_READ_LATENCY_NS = 40_000;
  /** Default of {@link #writeLatencyNs}: 40 µs, §15.5 T2 [A]. */
  public static final long DEFAULT_WRITE_LATENCY_NS = 40_000;
  /** Default of {@link #queueDepth}: NCQ 32, §15.5 T2 [A]. */
  public static final int DEFAULT_QUEUE_DEPTH = 32;
  /** Default of {@link #pageBytes} [A]. */
  public static final int DEFAULT_PAGE_BYTES = 4096;

  /** The defaults of the table above. */
  public static final SsdParams DEFAULTS = new SsdParams(DEFAULT_CAPACITY_BYTES,
      DEFAULT_CHANNELS, DEFAULT_BANDWIDTH_BYTES_PER_SEC, DEFAULT_READ_LATENCY_NS,
      DEFAULT_WRITE_LATENCY_NS, DEFAULT_QUEUE_DEPTH, DEFAULT_PAGE_BYTES);

  public SsdParams {
    if (pageBytes < 512 || pageBytes > (1 << 20) || Integer.bitCount(pageBytes) != 1) {
      throw new IllegalArgumentException("pageBytes must be a power of two in [512, 1048576], was "
          + pageBytes);
    }
    if (capacityBytes <= 0 || capacityBytes % pageBytes != 0) {
      throw new IllegalArgumentException("capacityBytes must be a positive multiple of pageBytes ("
          + pageBytes + "), was " + capacityBytes);
    }
    if (channels < 1 || channels > 1024) {
      throw new IllegalArgumentException("channels must be in [1, 1024], was " + channels);
    }
    if (bandwidthBytesPerSec <= 0) {
      throw new IllegalArgumentException("bandwidthBytesPerSec must be > 0, was "
          + bandwidthBytesPerSec);
    }
    DeviceChecks.cost("readLatencyNs", readLatencyNs);
    DeviceChecks.cost("writeLatencyNs", writeLatencyNs);
    // No upper bound beyond the int: an NVMe drive's media model takes every hardware queue's
    // tags (up to 65,535 queues of 65,535), which the queues bound themselves.
    if (queueDepth < 1) {
      throw new IllegalArgumentException("queueDepth must be >= 1, was " + queueDepth);
    }
  }

  /** A copy with another channel count. */
  public SsdParams withChannels(int n) {
    return new SsdParams(capacityBytes, n, bandwidthBytesPerSec, readLatencyNs, writeLatencyNs,
        queueDepth, pageBytes);
  }

  /** A copy with another capacity (a multiple of {@code pageBytes}). */
  public SsdParams withCapacity(long bytes) {
    return new SsdParams(bytes, channels, bandwidthBytesPerSec, readLatencyNs, writeLatencyNs,
        queueDepth, pageBytes);
  }

  /** A copy with another queue depth. */
  public SsdParams withQueueDepth(int depth) {
    return new SsdParams(capacityBytes, channels, bandwidthBytesPerSec, readLatencyNs,
        writeLatencyNs, depth, pageBytes);
  }
}
