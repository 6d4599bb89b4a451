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
 * @param cache the drive's volatile write cache (§15.2: on by default for this drive, 256 MiB
 *     [A]); {@link WriteCacheParams#OFF}: every write timed on the media
 */
public record ZonedDiskParams(RequestQueueParams queue, RotationalDiskParams drive,
    ZonedLayout layout, long wbtLatNs, int hz, long dmzadmSeq, String dmzadmLabel,
    boolean dmzBoundedCache, WriteCacheParams cache) implements RequestBasedParams {

  /** Without writeback throttling or a write cache, formatted with dmzadm's defaults. */
  public ZonedDiskParams(RequestQueueParams queue, RotationalDiskParams drive,
      ZonedLayout layout) {
    this(queue, drive, layout, 0, 250, 16, "", true, WriteCacheParams.OFF);
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
    RotationalDisk disk = new RotationalDisk(drive);
    RequestQueue q = new RequestQueue(queue, cache.enabled()
        ? new CachedDiskDriver(disk, zones, cache) : new ZonedDiskDriver(disk, zones),
        kblockd, false, zones);
    if (cache.enabled()) {
      q.enableWriteCache();
    }
    if (wbtLatNs > 0) {
      // wbt_init(): blk_queue_depth() is the driver's queue_depth; rwb->wc is QUEUE_FLAG_WC.
      q.enableWbt(new Wbt(wbtLatNs, queue.queueDepth(), cache.enabled(), hz));
    }
    return q;
  }
}
