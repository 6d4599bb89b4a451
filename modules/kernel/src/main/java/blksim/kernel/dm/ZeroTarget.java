package blksim.kernel.dm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import java.util.List;

/**
 * dm-zero on one CPU ({@code drivers/md/dm-zero.c}, kernel-model.md §8.3): mirrors
 * {@code zero_map()}.
 * <ul>
 *   <li>READ with REQ_RAHEAD: {@link DmMapio#KILL}, so the bio fails with {@code -EIO}
 *       ("readahead of null bytes only wastes buffer cache");
 *   <li>other READs: {@code zero_fill_bio()}, then {@code bio_endio()};
 *   <li>WRITE and DISCARD: dropped, then {@code bio_endio()};
 *   <li>anything else: {@link DmMapio#KILL} (the core never sends it an empty flush: its
 *       {@code num_flush_bios} is 0).
 * </ul>
 * Completed bios return {@link DmMapio#SUBMITTED}, having completed inline in the submitter's
 * context. No latency: {@link DmCostParams#zeroMapNs}, plus
 * {@link DmCostParams#zeroFillPerPageNs} per 4 KiB page of a read, of CPU time.
 *
 * <p>Features: {@code DM_TARGET_NOWAIT}; no underlying device. Stateless.
 */
public final class ZeroTarget implements DmTarget {
  /** {@code zero_target.features} = {@code DM_TARGET_NOWAIT}. */
  public static final boolean FEATURE_NOWAIT = true;
  /** {@code zero_ctr()} leaves {@code ti->num_flush_bios} at 0. */
  public static final int NUM_FLUSH_BIOS = 0;

  private final DmTableEntry entry;
  private final DmCostParams costs;

  /**
   * @param entry the table line ({@code zero})
   * @param costs the DM costs
   */
  public ZeroTarget(DmTableEntry entry, DmCostParams costs) {
    if (!(entry.args() instanceof DmTargetArgs.Zero)) {
      throw new IllegalArgumentException("not a zero line: " + entry);
    }
    this.entry = entry;
    this.costs = costs;
  }

  @Override
  public DmTableEntry entry() {
    return entry;
  }

  @Override
  public List<BlockQueue> devices() {
    return List.of();
  }

  @Override
  public boolean supportsNowait() {
    return FEATURE_NOWAIT;
  }

  @Override
  public int numFlushBios() {
    return NUM_FLUSH_BIOS;
  }

  /** What {@code zero_map()} does with {@code clone}: KILL, or SUBMITTED after completing it. */
  public static DmMapio decide(Bio clone) {
    switch (clone.op()) {
      case READ:
        return clone.hasFlag(Bio.REQ_RAHEAD) ? DmMapio.KILL : DmMapio.SUBMITTED;
      case WRITE:
      case DISCARD:
        return DmMapio.SUBMITTED;
      default:
        return DmMapio.KILL;
    }
  }

  /** {@link DmCostParams#zeroMapNs}, plus the zero fill of a read it completes. */
  @Override
  public long mapCostNs(Bio clone) {
    long ns = costs.zeroMapNs();
    if (clone.op() == ReqOp.READ && decide(clone) == DmMapio.SUBMITTED) {
      ns += clone.pageCount() * costs.zeroFillPerPageNs();
    }
    return ns;
  }

  /** {@code zero_map()}. */
  @Override
  public DmMapio map(DmTargetIo tio) {
    DmMapio r = decide(tio.bio());
    if (r == DmMapio.SUBMITTED) {
      tio.endio(0);
    }
    return r;
  }
}
