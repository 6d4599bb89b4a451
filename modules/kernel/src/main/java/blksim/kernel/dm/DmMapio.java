package blksim.kernel.dm;

/**
 * What a target's {@code map()} did with a clone: the {@code DM_MAPIO_*} return values of
 * {@code include/linux/device-mapper.h}, as {@code __map_bio()} ({@code drivers/md/dm.c}) acts on
 * them (kernel-model.md §8.1).
 *
 * <p>{@code DM_MAPIO_REQUEUE} and {@code DM_MAPIO_DELAY_REQUEUE} are not modelled: none of the
 * modelled targets returns them.
 */
public enum DmMapio {
  /**
   * {@code DM_MAPIO_SUBMITTED}: the target took ownership of the clone; it completes it, or
   * submits it to a device, later and possibly from another context (dm-zero completes it before
   * returning, dm-delay queues it).
   */
  SUBMITTED,
  /**
   * {@code DM_MAPIO_REMAPPED}: the target pointed the clone at a device and sector; the core
   * submits it there at once, in the same context ({@code dm_submit_bio_remap()}).
   */
  REMAPPED,
  /** {@code DM_MAPIO_KILL}: the clone fails with {@code BLK_STS_IOERR}, that is {@link #EIO}. */
  KILL;

  /**
   * {@code EIO} (5, {@code include/uapi/asm-generic/errno-base.h}): the errno a killed clone
   * completes with ({@code blk_status_to_errno(BLK_STS_IOERR)}); a bio's end_io sees
   * {@code -EIO}. Kept here until {@code blksim.kernel.block.Errno} names it.
   */
  public static final int EIO = 5;
}
