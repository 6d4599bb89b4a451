package blksim.kernel.device;

import blksim.kernel.block.Kblockd;
import blksim.kernel.block.RequestQueue;
import blksim.kernel.block.RequestQueueParams;

/**
 * A SATA SSD ({@code type = ssd} in a scenario): the {@link Ssd} service model behind the shared
 * request queue, through {@link SsdDriver}.
 *
 * @param queue the request queue's parameters (its capacity is the drive's)
 * @param drive the drive's service parameters
 */
public record SsdDeviceParams(RequestQueueParams queue, SsdParams drive)
    implements RequestBasedParams {

  public SsdDeviceParams {
    if (queue.capacityBytes() != drive.capacityBytes()) {
      throw new IllegalArgumentException("the queue's capacity " + queue.capacityBytes()
          + " differs from the drive's " + drive.capacityBytes());
    }
    if (queue.queueDepth() > drive.queueDepth()) {
      throw new IllegalArgumentException("queue-depth " + queue.queueDepth()
          + " exceeds the drive's queue depth " + drive.queueDepth());
    }
  }

  @Override
  public RequestQueue newRequestQueue(Kblockd kblockd) {
    return new RequestQueue(queue, new SsdDriver(new Ssd(drive)), kblockd);
  }
}
