package blksim.kernel.block;

/**
 * What the block layer knows of a zoned device's layout ({@code q->limits.chunk_sectors} and the
 * conventional-zone bitmap {@code disk->conv_zones_bitmap}): the zone size and which zones are
 * sequential-write-required. A {@link RequestQueue} of a zoned device holds one; it keeps
 * requests inside one zone (merges never cross {@code chunk_sectors}) and lets mq-deadline lock
 * sequential zones for writing ({@code blk_req_needs_zone_write_lock()}).
 */
public interface ZoneGeometry {

  /** Sectors per zone, a power of two ({@code chunk_sectors}). */
  long zoneSectors();

  /** Whether the zone holding {@code sector} is sequential-write-required. */
  boolean sequential(long sector);

  /** Zones of the device ({@code disk->nr_zones}). */
  long zones();

  /** The open-zone limit ({@code /sys/block/DEV/queue/max_open_zones}), 0 for none. */
  int maxOpenZones();

  /**
   * The write pointer of zone {@code zone} in sectors, as REPORT ZONES gives it
   * ({@code blkdev_report_zones()}, the {@code wp} of {@code struct blk_zone}); a conventional or
   * full zone reports its end.
   */
  long writePointer(long zone);

  /** The zone number of {@code sector} ({@code disk_zone_no()}). */
  default long zoneNo(long sector) {
    return sector / zoneSectors();
  }
}
