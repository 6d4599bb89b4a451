package blksim.kernel.fs;

/**
 * The data-section geometry mkfs.xfs gives a device: 4 KiB blocks, the number of allocation
 * groups (AGs) and their size.
 *
 * <p>{@link #mkfsDefault} mirrors xfsprogs' {@code calc_default_ag_geometry()}
 * ({@code libxfs/topology.c}, formerly {@code mkfs/xfs_mkfs.c}) for a single device without
 * stripe geometry ({@code multidisk = 0}): 4 AGs from 128 MiB up to 4 TiB
 * ({@code XFS_NOMULTIDISK_AGLOG = 2}), 1 TiB AGs ({@code XFS_AG_MAX_BLOCKS}) from 4 TiB on, and
 * the multidisk shifts below 128 MiB. An explicit AG count ({@code mkfs.xfs -d agcount=N}) sizes
 * AGs as {@code ceil(dblocks / N)}.
 *
 * <p>Simplified: the whole device is the data section (the internal log and the realtime section
 * take no room); the last AG, when shorter, must hold 16 MiB ({@code XFS_AG_MIN_BLOCKS}):
 * the default geometry drops a shorter one and the blocks in it (as mkfs's
 * {@code align_ag_geometry()} does), an explicit AG count that leaves one is refused
 * ({@code validate_ag_geometry()}); xfsprogs 6.x's {@code -d concurrency} sizing and stripe-aligned (multidisk) geometry are not
 * modelled.
 *
 * @param dataBlocks {@code sb_dblocks}: 4 KiB blocks of the data section, >= 1
 * @param agBlocks {@code sb_agblocks}: blocks per AG (the last may be shorter)
 * @param agCount {@code sb_agcount}
 */
public record XfsGeometry(long dataBlocks, long agBlocks, int agCount) {
  /** Block size log2: 4 KiB blocks, mkfs.xfs's default ({@code XFS_DFL_BLOCKSIZE_LOG}). */
  public static final int BLOCK_LOG = 12;
  /** {@code XFS_AG_MIN_BLOCKS(12)}: 16 MiB ({@code XFS_AG_MIN_BYTES}) of 4 KiB blocks. */
  public static final long AG_MIN_BLOCKS = (512L << 15) >> BLOCK_LOG;
  /** {@code XFS_AG_MAX_BLOCKS(12)}: (1 TiB - 1) >> 12 ({@code XFS_AG_MAX_BYTES}). */
  public static final long AG_MAX_BLOCKS = ((512L << 31) - 1) >> BLOCK_LOG;
  /** The most AGs the model takes (an AG number is stored in 16 bits per inode). */
  public static final int MAX_AG_COUNT = Short.MAX_VALUE;

  private static final int MULTIDISK_AGLOG = 5;
  private static final int NOMULTIDISK_AGLOG = 2;

  public XfsGeometry {
    if (dataBlocks < 1 || agBlocks < 1 || agCount < 1 || agCount > MAX_AG_COUNT) {
      throw new IllegalArgumentException("dataBlocks, agBlocks must be >= 1 and agCount in [1, "
          + MAX_AG_COUNT + "], were " + dataBlocks + ", " + agBlocks + ", " + agCount);
    }
    if ((agCount - 1) * agBlocks >= dataBlocks || agCount * agBlocks < dataBlocks) {
      throw new IllegalArgumentException("agCount x agBlocks must cover dataBlocks with a"
          + " non-empty last AG, were " + agCount + " x " + agBlocks + " for " + dataBlocks);
    }
  }

  /** Data blocks of a device of {@code deviceBytes} (whole 4 KiB blocks). */
  public static long dataBlocks(long deviceBytes) {
    return deviceBytes >> BLOCK_LOG;
  }

  /** The geometry {@code calc_default_ag_geometry()} chooses for a single plain device. */
  public static XfsGeometry mkfsDefault(long deviceBytes) {
    long dblocks = dataBlocks(deviceBytes);
    if (dblocks < 1) {
      throw new IllegalArgumentException("the device must hold at least one 4 KiB block, has "
          + deviceBytes + " bytes");
    }
    long blocks;
    if (dblocks >= tib(4)) {
      // From 32 TiB the maximum AG size whatever the storage, and from 4 TiB for one device.
      blocks = AG_MAX_BLOCKS;
    } else {
      int shift;
      if (dblocks >= mib(128)) {
        shift = NOMULTIDISK_AGLOG;
      } else {
        shift = MULTIDISK_AGLOG;
        if (dblocks <= gib(512)) {
          shift--;
        }
        if (dblocks <= gib(8)) {
          shift--;
        }
        if (dblocks < mib(128)) {
          shift--;
        }
        if (dblocks < mib(64)) {
          shift--;
        }
        if (dblocks < mib(32)) {
          shift--;
        }
      }
      blocks = dblocks >> shift;
      // Round up so the last bit of the device is not lost.
      if ((dblocks & ((1L << shift) - 1)) != 0 && blocks < AG_MAX_BLOCKS) {
        blocks++;
      }
    }
    long count = (dblocks + blocks - 1) / blocks;
    if (dblocks % blocks != 0 && dblocks % blocks < AG_MIN_BLOCKS && count > 1) {
      // mkfs drops a last AG below 16 MiB and shrinks the filesystem (align_ag_geometry()).
      count--;
      dblocks = count * blocks;
    }
    return new XfsGeometry(dblocks, blocks, (int) count);
  }

  /**
   * The geometry of {@code mkfs.xfs -d agcount=N}: AGs of {@code ceil(dblocks / N)} blocks.
   *
   * @throws IllegalArgumentException if an AG would be outside [16 MiB, 1 TiB), naming the rule
   */
  public static XfsGeometry withAgCount(long deviceBytes, int agCount) {
    long dblocks = dataBlocks(deviceBytes);
    if (agCount < 1 || agCount > MAX_AG_COUNT) {
      throw new IllegalArgumentException("ag-count must be in [1, " + MAX_AG_COUNT + "], was "
          + agCount);
    }
    long blocks = (dblocks + agCount - 1) / agCount;
    if (blocks < AG_MIN_BLOCKS || blocks > AG_MAX_BLOCKS) {
      throw new IllegalArgumentException("ag-count " + agCount + " gives allocation groups of "
          + (blocks << BLOCK_LOG >> 20) + " MiB on " + (deviceBytes >> 20) + " MiB; XFS needs"
          + " 16 MiB to 1 TiB per AG (XFS_AG_MIN_BYTES, XFS_AG_MAX_BYTES)");
    }
    if (dblocks % blocks != 0 && dblocks % blocks < AG_MIN_BLOCKS) {
      // validate_ag_geometry(): "last AG size ... blocks too small".
      throw new IllegalArgumentException("ag-count " + agCount + " leaves a last allocation"
          + " group of " + (dblocks % blocks) + " blocks, below XFS's minimum of "
          + AG_MIN_BLOCKS + " (16 MiB)");
    }
    // ceil(dblocks / blocks) may be below agCount when the division is far from even.
    return new XfsGeometry(dblocks, blocks, (int) ((dblocks + blocks - 1) / blocks));
  }

  /** First block of AG {@code ag}. */
  public long agStart(int ag) {
    return ag * agBlocks;
  }

  /** The block after the last of AG {@code ag}. */
  public long agEnd(int ag) {
    return Math.min((ag + 1) * agBlocks, dataBlocks);
  }

  private static long tib(long n) {
    return n << (40 - BLOCK_LOG);
  }

  private static long gib(long n) {
    return n << (30 - BLOCK_LOG);
  }

  private static long mib(long n) {
    return n << (20 - BLOCK_LOG);
  }
}
