package blksim.kernel.device;

/**
 * The zone layout of a host-managed zoned disk (kernel-model.md §7.5, §15.2, §15.1.1): equal zones
 * of a power-of-two size (the kernel requires it: {@code blk_revalidate_disk_zones()} refuses
 * other sizes), the first {@code conventionalZones} conventional, the rest
 * sequential-write-required, and an open-zone limit (ZBC's MAXIMUM NUMBER OF OPEN SEQUENTIAL
 * WRITE REQUIRED ZONES, {@code /sys/block/DEV/queue/max_open_zones}).
 *
 * <table>
 * <caption>Defaults and their sources</caption>
 * <tr><th>field</th><th>default</th><th>source</th></tr>
 * <tr><td>{@code capacityBytes}</td><td>55,880 × 256 MiB</td><td>[S] the 15 TB host-managed SATA
 *     disk of §15.1.1 (zonedstorage.io, "Getting Started with SMR Disks")</td></tr>
 * <tr><td>{@code zoneSizeBytes}</td><td>256 MiB</td><td>[S] same</td></tr>
 * <tr><td>{@code conventionalZones}</td><td>524 (≈ 131 GiB)</td><td>[S] same</td></tr>
 * <tr><td>{@code maxOpenZones}</td><td>128</td><td>[S] same; §15.2</td></tr>
 * </table>
 *
 * <p>Simplified: the capacity is a whole number of zones (real drives may end with a smaller
 * last zone); a zone's capacity equals its size (SMR disks have no zone capacity below the size);
 * no active-zone limit ({@code max_active_zones} = 0, as SMR disks report).
 *
 * @param capacityBytes capacity, a whole number of zones
 * @param zoneSizeBytes zone size, a power of two of at least 4 KiB
 * @param conventionalZones conventional zones at the start of the disk, at most all zones
 * @param maxOpenZones open-zone limit, at least 1
 */
public record ZonedLayout(long capacityBytes, long zoneSizeBytes, long conventionalZones,
    int maxOpenZones) {

  /** 1 MiB. */
  private static final long MIB = 1L << 20;
  /** Default of {@link #zoneSizeBytes}: 256 MiB [S]. */
  public static final long DEFAULT_ZONE_SIZE_BYTES = 256 * MIB;
  /** Zones of the default disk: 55,880 [S]. */
  public static final long DEFAULT_ZONES = 55_880;
  /** Default of {@link #capacityBytes}: 55,880 zones of 256 MiB [S]. */
  public static final long DEFAULT_CAPACITY_BYTES = DEFAULT_ZONES * DEFAULT_ZONE_SIZE_BYTES;
  /** Default of {@link #conventionalZones}: 524 [S]. */
  public static final long DEFAULT_CONVENTIONAL_ZONES = 524;
  /** Default of {@link #maxOpenZones}: 128 [S]. */
  public static final int DEFAULT_MAX_OPEN_ZONES = 128;

  /** The 15 TB example of §15.1.1. */
  public static final ZonedLayout DEFAULTS = new ZonedLayout(DEFAULT_CAPACITY_BYTES,
      DEFAULT_ZONE_SIZE_BYTES, DEFAULT_CONVENTIONAL_ZONES, DEFAULT_MAX_OPEN_ZONES);

  public ZonedLayout {
    if (zoneSizeBytes < 4096 || Long.bitCount(zoneSizeBytes) != 1) {
      throw new IllegalArgumentException("zone-size must be a power of two of at least 4 KiB"
          + " (the kernel refuses other zone sizes), was " + zoneSizeBytes);
    }
    if (capacityBytes < zoneSizeBytes || capacityBytes % zoneSizeBytes != 0) {
      throw new IllegalArgumentException("size must be a whole number (at least one) of zones of "
          + zoneSizeBytes + " bytes, was " + capacityBytes);
    }
    long zones = capacityBytes / zoneSizeBytes;
    if (conventionalZones < 0 || conventionalZones > zones) {
      throw new IllegalArgumentException("conventional-zones must be in [0, " + zones
          + "] (the disk's zones), was " + conventionalZones);
    }
    if (maxOpenZones < 1) {
      throw new IllegalArgumentException("max-open-zones must be at least 1, was "
          + maxOpenZones);
    }
  }

  /** Zones on the disk ({@code nr_zones}). */
  public long zones() {
    return capacityBytes / zoneSizeBytes;
  }

  /** Sectors per zone. */
  public long zoneSectors() {
    return zoneSizeBytes >>> 9;
  }

  /** Sequential-write-required zones. */
  public long sequentialZones() {
    return zones() - conventionalZones;
  }
}
