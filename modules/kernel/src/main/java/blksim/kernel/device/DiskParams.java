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
 * @param cache the drive's write cache ({@link WriteCacheParams#OFF}: none, every write timed
 *     on the media)
 */
public record DiskParams(RequestQueueParams queue, RotationalDiskParams drive,
    WriteCacheParams cache) implements RequestBasedParams {

  /** Without a write cache. */
  public DiskParams(RequestQueueParams queue, RotationalDiskParams drive) {
    this(queue, drive, WriteCacheParams.OFF);
  }

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
    if (!cache.enabled()) {
      return new RequestQueue(queue, new RotationalDiskDriver(new RotationalDisk(drive)),
          kblockd);
    }
    RequestQueue q = new RequestQueue(queue,
        new CachedDiskDriver(new RotationalDisk(drive), null, cache), kblockd);
    q.enableWriteCache();
    return q;
  }
}
