package blksim.kernel.block;

/**
 * The submission side of a block device as one CPU sees it: a blk-mq hardware context mapped to
 * the CPU, or a bio-based driver's {@code submit_bio}. One instance per (device, CPU); it acts
 * only inside its CPU's handling of a message.
 */
public interface BlockQueue {

  /** The disk's name, {@code nullb0}. */
  String diskName();

  /** Capacity in bytes. */
  long capacityBytes();

  /** Logical block size in bytes (512 or 4096). */
  int logicalBlockSize();

  /**
   * CPU time in system mode that the submitting task spends in the block layer and the driver to
   * submit {@code bio} (from {@code submit_bio()} to the driver's {@code queue_rq()} returning).
   */
  long submitCostNs(Bio bio);

  /**
   * Issues {@code bio} after its submission cost was paid. Returns false, and does nothing, if no
   * driver tag is free: the caller sleeps and retries after {@code onTagFree} runs (mirrors
   * {@code blk_mq_get_tag()} sleeping on the tag wait queue). On success, {@code endIo} runs when
   * the bio completes, possibly before this method returns (a driver that completes inline).
   */
  boolean issue(Bio bio, BioEndIo endIo, Runnable onTagFree);

  /** This CPU's share of the disk's statistics. */
  DiskCounters counters();
}
