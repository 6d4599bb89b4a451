package blksim.kernel.device;

import blksim.kernel.block.Kblockd;
import blksim.kernel.block.RequestQueue;
import blksim.kernel.block.RequestQueueParams;

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
 */
public record ZonedDiskParams(RequestQueueParams queue, RotationalDiskParams drive,
    ZonedLayout layout) implements RequestBasedParams {

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
    return new RequestQueue(queue, new ZonedDiskDriver(new RotationalDisk(drive), zones), kblockd,
        false, zones);
  }
}
