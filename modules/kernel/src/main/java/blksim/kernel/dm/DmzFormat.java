package blksim.kernel.dm;

import blksim.kernel.device.ZonedLayout;

/**
 * The on-disk format {@code dmzadm --format} writes on a host-managed zoned disk for dm-zoned
 * (kernel-model.md §15.1.1), computed from the zone layout as dm-zoned-tools'
 * {@code dmz_locate_metadata()} (src/dmz_lib.c) does, and checked as the kernel's
 * {@code dmz_check_sb()} (drivers/md/dm-zoned-metadata.c) would.
 *
 * <p>Blocks are 4 KiB ({@code DMZ_BLOCK_SIZE}). A metadata set is a super block, the chunk
 * mapping table ({@code DMZ_MAP_ENTRIES} = 512 8-byte entries per block) and one validity bitmap
 * per zone of the disk ({@code zone_nr_blocks / 32768} blocks each, at least one); it starts at
 * the first conventional zone, and the secondary set follows the primary
 * ({@code nr_meta_zones} zones later). The other conventional zones are random zones (data or
 * buffer); the first {@code nr_reserved_seq} free sequential zones are reserved for reclaim
 * ({@code dmz_load_mapping()}); the chunks are what is left:
 * {@code nr_chunks = nr_usable_zones - (2 * nr_meta_zones + nr_reserved_seq)}.
 *
 * <p>Simplified: one zoned device (no regular cache device, 5.8+), metadata version 2 without
 * UUIDs; every zone is usable (no offline or read-only zones).
 *
 * @param label the dm-zoned label ({@code dmzadm --label}; default {@code dmz-<dev>})
 * @param nrZones zones of the disk
 * @param zoneNrBlocks 4 KiB blocks per zone
 * @param nrConvZones conventional zones
 * @param nrReservedSeq sequential zones reserved for reclaim ({@code dmzadm --seq})
 * @param zoneNrBitmapBlocks bitmap blocks per zone
 * @param nrBitmapBlocks bitmap blocks of a set
 * @param nrMapBlocks mapping table blocks of a set
 * @param nrMetaBlocks blocks of a set, super block included
 * @param nrMetaZones zones per set
 * @param nrChunks chunks exposed (the mapped device's size in zones)
 */
public record DmzFormat(String label, long nrZones, long zoneNrBlocks, long nrConvZones,
    long nrReservedSeq, long zoneNrBitmapBlocks, long nrBitmapBlocks, long nrMapBlocks,
    long nrMetaBlocks, long nrMetaZones, long nrChunks) {

  /** {@code DMZ_BLOCK_SIZE}: 4 KiB. */
  public static final int BLOCK_SIZE = 4096;
  /** {@code DMZ_BLOCK_SHIFT}. */
  public static final int BLOCK_SHIFT = 12;
  /** Sectors per block. */
  public static final int BLOCK_SECTORS = BLOCK_SIZE >> DmTable.SECTOR_SHIFT;
  /** {@code DMZ_MAP_ENTRIES}: mapping entries per metadata block. */
  public static final int MAP_ENTRIES = 512;
  /** Bits per metadata block ({@code DMZ_BLOCK_SIZE_BITS}). */
  public static final int BLOCK_SIZE_BITS = BLOCK_SIZE * 8;
  /** dmzadm's default {@code --seq}: 16 reserved sequential zones [S]. */
  public static final int DEFAULT_RESERVED_SEQ = 16;

  /**
   * Formats {@code layout} as {@code dmzadm --format --seq=nrReservedSeq --label=label} would;
   * an {@link IllegalArgumentException} with dmzadm's reason if the disk cannot hold dm-zoned.
   */
  public static DmzFormat of(ZonedLayout layout, long nrReservedSeq, String label) {
    long zones = layout.zones();
    long zoneBlocks = layout.zoneSizeBytes() / BLOCK_SIZE;
    if (zoneBlocks < 1) {
      throw new IllegalArgumentException("the zone size must hold at least one 4 KiB block");
    }
    long conv = layout.conventionalZones();
    if (conv < 3) {
      throw new IllegalArgumentException("Not enough random zones found: dm-zoned needs at"
          + " least 3 conventional zones (two for metadata, one to buffer random writes), the"
          + " disk has " + conv);
    }
    long reserved = nrReservedSeq;
    if (reserved < 1) {
      throw new IllegalArgumentException("the reserved sequential zones must be at least 1"
          + " (dmz_check_sb(): \"Invalid number of reserved sequential zones\"), was " + reserved);
    }
    // dmz_locate_metadata(): no more reserved sequential zones than random zones.
    if (reserved > conv) {
      reserved = conv - 1;
    }
    long usable = zones;
    if (reserved >= usable) {
      throw new IllegalArgumentException("Not enough usable zones found");
    }
    long zoneBitmapBlocks = Math.max(1, zoneBlocks >> (BLOCK_SHIFT + 3));
    long bitmapBlocks = zones * zoneBitmapBlocks;
    long bitmapZones = (bitmapBlocks + zoneBlocks - 1) / zoneBlocks;
    if (bitmapZones + reserved > usable) {
      throw new IllegalArgumentException("Not enough zones");
    }
    long chunks = usable - (bitmapZones + reserved);
    long mapBlocks = (chunks + MAP_ENTRIES - 1) / MAP_ENTRIES;
    long metaBlocks = 1 + mapBlocks + bitmapBlocks;
    long metaZones = (metaBlocks + zoneBlocks - 1) / zoneBlocks;
    if (2 * metaZones > conv) {
      throw new IllegalArgumentException("Insufficient number of cache zones (need "
          + 2 * metaZones + ", have " + conv + ")");
    }
    chunks = usable - (2 * metaZones + reserved);
    mapBlocks = (chunks + MAP_ENTRIES - 1) / MAP_ENTRIES;
    metaBlocks = 1 + mapBlocks + bitmapBlocks;
    metaZones = (metaBlocks + zoneBlocks - 1) / zoneBlocks;
    // dmz_check_sb(): the kernel refuses a set that leaves no random zone.
    if (metaZones >= conv) {
      throw new IllegalArgumentException("Invalid number of metadata blocks");
    }
    return new DmzFormat(label, zones, zoneBlocks, conv, reserved, zoneBitmapBlocks,
        bitmapBlocks, mapBlocks, metaBlocks, metaZones, chunks);
  }

  /** dmzadm's default label for device {@code dev}: {@code dmz-<dev>}. */
  public static String defaultLabel(String dev) {
    return "dmz-" + dev;
  }

  /** Zones holding metadata, both sets. */
  public long totalNrMetaZones() {
    return 2 * nrMetaZones;
  }

  /** Random (conventional) zones left for data and buffers: {@code dev->nr_rnd}. */
  public long nrRndZones() {
    return nrConvZones - totalNrMetaZones();
  }

  /** Sequential zones usable as data zones (the reserved ones excluded). */
  public long nrSeqZones() {
    return nrZones - nrConvZones - nrReservedSeq;
  }

  /** The primary super block's block ({@code sb_block}): the first block of zone 0. */
  public long sbBlock() {
    return 0;
  }

  /** Sectors per zone. */
  public long zoneNrSectors() {
    return zoneNrBlocks * BLOCK_SECTORS;
  }

  /** The mapped device's length in sectors ({@code ti->len} set by {@code dmz_ctr()}). */
  public long targetSectors() {
    return nrChunks * zoneNrSectors();
  }

  /** The verbose summary {@code dmzadm --format -v} prints ({@code dmz_format()}). */
  public String summary() {
    long dataZones = nrZones - (totalNrMetaZones() + nrRndZones() + nrReservedSeq);
    StringBuilder b = new StringBuilder();
    b.append("Format metadata 2:\n");
    b.append("  DM-Zoned Label ").append(label).append('\n');
    b.append("  ").append(nrZones).append(" useble zones\n");
    b.append("  Primary meta-data set: ").append(nrMetaBlocks)
        .append(" metadata blocks from block ").append(sbBlock()).append(" (zone 0)\n");
    b.append("    Super block at block ").append(sbBlock()).append(" and ")
        .append(sbBlock() + nrMetaZones * zoneNrBlocks).append('\n');
    b.append("    ").append(nrMapBlocks).append(" chunk mapping table blocks\n");
    b.append("    ").append(nrBitmapBlocks).append(" bitmap blocks\n");
    b.append("    Using ").append(nrMetaZones).append(" zones per meta-data set (")
        .append(totalNrMetaZones()).append(" total)\n");
    b.append("  ").append(nrChunks).append(" data chunks capacity\n");
    b.append("    ").append(nrRndZones()).append(" cache zone")
        .append(nrRndZones() > 1 ? "s" : "").append('\n');
    b.append("    ").append(dataZones).append(" data zone").append(dataZones > 1 ? "s" : "")
        .append('\n');
    b.append("  ").append(nrReservedSeq).append(" sequential zone")
        .append(nrReservedSeq > 1 ? "s" : "").append(" reserved for reclaim\n");
    return b.toString();
  }
}
