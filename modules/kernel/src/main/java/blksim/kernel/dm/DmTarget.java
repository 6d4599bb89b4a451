package blksim.kernel.dm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import java.util.List;

/**
 * One target of a mapped device's table, on one CPU: mirrors {@code struct dm_target} with its
 * {@code struct target_type} operations ({@code map}, the {@code DM_TARGET_NOWAIT} feature,
 * {@code iterate_devices}, {@code num_flush_bios}).
 *
 * <p>A target sees a clone of each bio (or of the part of it in the target's range) through a
 * {@link DmTargetIo}, at the sector of the mapped device ({@code dm_target_offset()} is the
 * target's job), and answers with a {@link DmMapio}. Owned by the {@link DmQueue} of one CPU; it
 * acts only while that CPU handles a message.
 */
public interface DmTarget {

  /** The table line this target was built from ({@code ti->begin}, {@code ti->len}). */
  DmTableEntry entry();

  /** The devices the target maps to ({@code iterate_devices}), once each. */
  List<BlockQueue> devices();

  /**
   * Whether the target takes REQ_NOWAIT bios: its type has {@code DM_TARGET_NOWAIT} and every
   * device it maps to supports nowait.
   */
  boolean supportsNowait();

  /**
   * {@code ti->num_flush_bios}: how many clones of an empty flush the core sends this target (0:
   * none, the flush skips it).
   */
  int numFlushBios();

  /**
   * CPU time, in the submitting context, of {@link #map} for {@code clone}, plus, if the clone
   * will be remapped at once, its submission to the underlying device
   * ({@link BlockQueue#submitCostNs}). A pure function of the clone and the target's
   * configuration.
   */
  long mapCostNs(Bio clone);

  /**
   * The target's {@code map()}: remaps the clone ({@link DmTargetIo#remap}) and returns
   * {@link DmMapio#REMAPPED}, takes it ({@link DmMapio#SUBMITTED}; it may already have completed
   * it with {@link DmTargetIo#endio}), or asks the core to fail it ({@link DmMapio#KILL}).
   */
  DmMapio map(DmTargetIo tio);

  /** Whether {@code clone} is an empty flush: REQ_OP_FLUSH, or no data with REQ_PREFLUSH. */
  static boolean isEmptyFlush(Bio clone) {
    return clone.op() == ReqOp.FLUSH
        || (clone.sizeBytes() == 0 && clone.hasFlag(Bio.REQ_PREFLUSH));
  }
}
