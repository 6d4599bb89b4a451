package blksim.kernel.block;

/**
 * The device-independent part of bio submission: mirrors the checks {@code submit_bio()} and
 * {@code submit_bio_noacct()} ({@code block/blk-core.c}) make before {@code __submit_bio()} hands a
 * bio to a bio-based driver's {@code ->submit_bio} or to blk-mq (kernel-model.md §5.2).
 *
 * <p>Modelled: the REQ_NOWAIT test. A bio with REQ_NOWAIT sent to a device that does not support
 * nowait ({@link BlockQueue#supportsNowait}, the kernel's {@code bdev_nowait()}) is completed at
 * once with -EOPNOTSUPP: no work is done, nothing blocks, and it is not counted in the disk's
 * statistics. The submitter pays {@link BlockLayerParams#nowaitRejectNs}.
 *
 * <p>Simplified: the other checks of {@code submit_bio_noacct()} (read-only devices, partition
 * remapping, throttling, the per-task {@code bio_list} that flattens stacked submissions) are
 * not modelled here; their CPU time is part of each device's submission cost. Bio splitting at
 * the queue limits ({@code bio_split_to_limits()}) is modelled where blk-mq does it, in
 * {@link RequestQueue} (request-based devices only; bio-based queues such as dm never split in
 * the model, see {@link BlockQueue#maxRequestBytes}). Stateless.
 */
public final class BlockLayer {
  private BlockLayer() {}

  /**
   * The error {@code submit_bio_noacct()} fails {@code bio} with before it reaches the driver of
   * {@code q}, or 0 if it goes on: {@code -EOPNOTSUPP} for a REQ_NOWAIT bio and a device without
   * nowait support.
   */
  public static int checkSubmit(BlockQueue q, Bio bio) {
    if (bio.nowait() && !q.supportsNowait()) {
      return -Errno.EOPNOTSUPP;
    }
    return 0;
  }
}
