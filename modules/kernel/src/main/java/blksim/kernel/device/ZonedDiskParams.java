package blksim.kernel.device;

import blksim.kernel.block.Kblockd;
import blksim.kernel.block.RequestQueue;
import blksim.kernel.block.RequestQueueParams;
import blksim.kernel.block.Wbt;

/**
 * A host-managed zoned (SMR) SATA disk ({@code type = zoned-disk} in a scenario): the
 * {@link RotationalDisk} service model with the {@link ZonedDisk} zone rules behind the shared
 * request queue, through {@link ZonedDiskDriver}. The queue knows the zone geometry
 * ({@code chunk_sectors}: no request crosses a zone) and mq-deadline write-locks sequential zones
 * (one write in flight per zone, as up to 6.9).
 *
 * @param queue the request queue's parameters (its capacity is the drive's)
 * @param drive the mechanism
 * @param layout the zones
 * @param wbtLatNs writeback throttling's latency target ({@code wbt_lat_usec} x 1,000), 0: off
 * @param hz the kernel's clock rate (wbt's jiffies)
 * @param dmzadmSeq the reserved sequential zones {@code dmzadm --format --seq} asks for (16)
 * @param dmzadmLabel the label {@code dmzadm --format --label} gives, or "" for dmzadm's
 *     default {@code dmz-<dev>}
 * @param dmzBoundedCache whether dm-zoned on this disk keeps the kernel's bounded metadata
 *     cache ({@code min_nr_mblks}..{@code max_nr_mblks}, misses read synchronously), else every
 *     metadata block is cached
 */
public record ZonedDiskParams(RequestQueueParams queue, RotationalDiskParams drive,
    ZonedLayout layout, long wbtLatNs, int hz, long dmzadmSeq, String dmzadmLabel,
    boolean dmzBoundedCache) implements RequestBasedParams {

  /** Without writeback throttling, formatted with dmzadm's defaults. */
  public ZonedDiskParams(RequestQueueParams queue, RotationalDiskParams drive,
      ZonedLayout layout) {
    this(queue, drive, layout, 0, 250, 16, "", true);
  }

  public ZonedDiskParams {
    if (queue.capacityBytes() != drive.capacityBytes()
        || drive.capacityBytes() != layout.capacityBytes()) {
      throw new IllegalArgumentException("the queue's capacity " + queue.capacityBytes()
          + ", the drive's " + drive.capacityBytes() + " and the zone layout's "
          + layout.capacityBytes() + " differ");
    }
    if (queue.queueDepth() > drive.ncqDepth()) {
      throw new IllegalArgumentException("queue-depth " + queue.queueDepth()
          + " exceeds the drive's NCQ depth " + drive.ncqDepth());
    }
  }

  @Override
  public RequestQueue newRequestQueue(Kblockd kblockd) {
    ZonedDisk zones = new ZonedDisk(layout);
    RequestQueue q = new RequestQueue(queue, new ZonedDiskDriver(new RotationalDisk(drive), zones),
        kblockd, false, zones);
    if (wbtLatNs > 0) {
      // wbt_init(): blk_queue_depth() is the driver's queue_depth; the drive model has no
      // volatile write cache (QUEUE_FLAG_WC clear, see BlockQueue#writeCache).
      q.enableWbt(new Wbt(wbtLatNs, queue.queueDepth(), false, hz));
    }
    return q;
  }
}
