package blksim.kernel.device;

import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.DriverCpu;
import blksim.kernel.block.Kblockd;
import blksim.kernel.block.RequestQueue;
import blksim.kernel.block.RequestQueueParams;
import java.util.SplittableRandom;

/**
 * A device behind the shared blk-mq request layer ({@link RequestQueue}): one queue for the whole
 * device, built once with {@link #newRequestQueue} and mapped to each CPU with
 * {@link RequestQueue#attach}. Because that queue is shared by every CPU, the scenario loader
 * refuses partitionings that split the CPUs when such a device exists.
 */
public sealed interface RequestBasedParams extends DeviceParams
    permits DiskParams, SsdDeviceParams, ZonedDiskParams {

  /** The queue's limits, scheduler and costs. */
  RequestQueueParams queue();

  /** Builds the device's one request queue and its driver. */
  RequestQueue newRequestQueue(Kblockd kblockd);

  @Override
  default String name() {
    return queue().name();
  }

  @Override
  default long sizeBytes() {
    return queue().capacityBytes();
  }

  @Override
  default int blockSize() {
    return queue().logicalBlockSize();
  }

  /**
   * Not per CPU: a request-based device has one queue shared by all CPUs; build it with
   * {@link #newRequestQueue} and {@link RequestQueue#attach}.
   */
  @Override
  default BlockQueue newQueue(DriverCpu cpu, BlockLayerParams blockLayer,
      SplittableRandom random) {
    throw new UnsupportedOperationException(name() + " has one request queue shared by all"
        + " CPUs: build it with newRequestQueue() and attach() each CPU");
  }
}
