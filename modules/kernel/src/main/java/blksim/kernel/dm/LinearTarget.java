package blksim.kernel.dm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import java.util.List;

/**
 * dm-linear on one CPU ({@code drivers/md/dm-linear.c}, kernel-model.md §8.2): mirrors
 * {@code linear_map()}, which points the clone at the underlying device and moves its sector by a
 * constant, {@code lc->start + dm_target_offset(ti, sector)}, and returns
 * {@link DmMapio#REMAPPED}. An empty flush keeps its sector ({@code linear_map()} remaps only bios
 * with sectors). No latency of its own: {@link DmCostParams#linearMapNs} of CPU time in the
 * submitter's context.
 *
 * <p>Features: {@code DM_TARGET_NOWAIT} (nowait if the device is), {@code num_flush_bios} = 1.
 * Stateless apart from its configuration.
 */
public final class LinearTarget implements DmTarget {
  /** {@code linear_target.features} has {@code DM_TARGET_NOWAIT}. */
  public static final boolean FEATURE_NOWAIT = true;
  /** {@code ti->num_flush_bios} set by {@code linear_ctr()}. */
  public static final int NUM_FLUSH_BIOS = 1;

  private final DmTableEntry entry;
  private final BlockQueue dev;
  private final long startSectors;
  private final DmCostParams costs;

  /**
   * @param entry the table line ({@code linear <dev> <offset>})
   * @param dev the underlying device's queue on this CPU
   * @param costs the DM costs
   */
  public LinearTarget(DmTableEntry entry, BlockQueue dev, DmCostParams costs) {
    if (!(entry.args() instanceof DmTargetArgs.Linear l)) {
      throw new IllegalArgumentException("not a linear line: " + entry);
    }
    this.entry = entry;
    this.dev = dev;
    this.startSectors = l.offsetSectors();
    this.costs = costs;
  }

  @Override
  public DmTableEntry entry() {
    return entry;
  }

  @Override
  public List<BlockQueue> devices() {
    return List.of(dev);
  }

  @Override
  public boolean supportsNowait() {
    return FEATURE_NOWAIT && dev.supportsNowait();
  }

  @Override
  public int numFlushBios() {
    return NUM_FLUSH_BIOS;
  }

  /** {@code linear_map_sector()}: {@code lc->start + (sector - ti->begin)}. */
  public long mapSector(long sector) {
    return startSectors + (sector - entry.beginSectors());
  }

  private long target(Bio clone) {
    return clone.sizeBytes() == 0 ? clone.sector() : mapSector(clone.sector());
  }

  /** {@link DmCostParams#linearMapNs} and the remapped clone's submission to the device. */
  @Override
  public long mapCostNs(Bio clone) {
    Bio remapped = new Bio(clone.op(), target(clone), clone.sizeBytes(), clone.flags(), clone.ioprio());
    return costs.linearMapNs() + dev.submitCostNs(remapped);
  }

  /** {@code linear_map()}. */
  @Override
  public DmMapio map(DmTargetIo tio) {
    tio.remap(dev, target(tio.bio()));
    return DmMapio.REMAPPED;
  }
}
