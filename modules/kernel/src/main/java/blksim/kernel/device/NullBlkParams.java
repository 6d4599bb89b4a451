package blksim.kernel.device;

import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.DriverCpu;
import java.util.SplittableRandom;

/**
 * A null_blk device ({@code drivers/block/null_blk}), with the module parameters' names.
 *
 * @param name disk name, {@code nullb0}
 * @param sizeBytes capacity ({@code gb} parameter, in bytes here)
 * @param blockSize logical block size ({@code bs}, 512 or 4096)
 * @param hwQueueDepth tags per hardware queue ({@code hw_queue_depth}, default 64)
 * @param irqmode completion mode ({@code irqmode}, default softirq)
 * @param completionNs completion time in timer mode ({@code completion_nsec}, default 10,000)
 * @param submitCostNs CPU time of the submission path per request: {@code submit_bio} through
 *     blk-mq to {@code null_queue_rq} (machine profile)
 * @param completionCostNs CPU time of completing a request in interrupt or softirq context,
 *     including the bio's end_io and the wakeup (machine profile)
 */
public record NullBlkParams(String name, long sizeBytes, int blockSize, int hwQueueDepth,
    IrqMode irqmode, long completionNs, long submitCostNs, long completionCostNs)
    implements DeviceParams {

  /** null_blk's default {@code hw_queue_depth}. */
  public static final int DEFAULT_HW_QUEUE_DEPTH = 64;
  /** null_blk's default {@code completion_nsec}. */
  public static final long DEFAULT_COMPLETION_NS = 10_000;

  public NullBlkParams {
    if (sizeBytes <= 0 || sizeBytes % 4096 != 0) {
      throw new IllegalArgumentException("size must be a positive multiple of 4 KiB, was "
          + sizeBytes);
    }
    if (blockSize != 512 && blockSize != 4096) {
      throw new IllegalArgumentException("bs must be 512 or 4096, was " + blockSize);
    }
    if (hwQueueDepth < 1 || hwQueueDepth > 65536) {
      throw new IllegalArgumentException("hw_queue_depth must be in [1, 65536], was "
          + hwQueueDepth);
    }
    if (completionNs < 0) {
      throw new IllegalArgumentException("completion_nsec must be >= 0, was " + completionNs);
    }
    if (submitCostNs < 0 || completionCostNs < 0) {
      throw new IllegalArgumentException("CPU costs must be >= 0");
    }
  }

  /** A {@link NullBlkQueue} on {@code cpu}; null_blk uses neither argument. */
  @Override
  public NullBlkQueue newQueue(DriverCpu cpu, BlockLayerParams blockLayer,
      SplittableRandom random) {
    return new NullBlkQueue(this, cpu);
  }
}
