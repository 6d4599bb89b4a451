package blksim.kernel.device;

import blksim.kernel.block.Kblockd;
import blksim.kernel.block.RequestQueue;
import blksim.kernel.block.RequestQueueParams;

/**
 * A SATA rotational disk ({@code type = disk} in a scenario): the {@link RotationalDisk} service
 * model behind the shared request queue, through {@link RotationalDiskDriver}.
 *
 * @param queue the request queue's parameters (its capacity is the drive's)
 * @param drive the mechanism
 */
public record DiskParams(RequestQueueParams queue, RotationalDiskParams drive)
    implements RequestBasedParams {

  public DiskParams {
    if (queue.capacityBytes() != drive.capacityBytes()) {
      throw new IllegalArgumentException("the queue's capacity " + queue.capacityBytes()
          + " differs from the drive's " + drive.capacityBytes());
    }
    if (queue.queueDepth() > drive.ncqDepth()) {
      throw new IllegalArgumentException("queue-depth " + queue.queueDepth()
          + " exceeds the drive's NCQ depth " + drive.ncqDepth());
    }
  }

  @Override
  public RequestQueue newRequestQueue(Kblockd kblockd) {
    return new RequestQueue(queue, new RotationalDiskDriver(new RotationalDisk(drive)), kblockd);
  }
}
