package blksim.kernel.device;

import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.DriverCpu;
import java.util.SplittableRandom;

/**
 * The parameters of one simulated block device, whatever its driver: what a scenario's device
 * list holds, and what builds the device's queue on each CPU.
 */
public sealed interface DeviceParams
    permits NullBlkParams, NvmeParams, BrdParams, ZramParams, RequestBasedParams,
    DeviceParams.Stacked {

  /**
   * A device that maps to other devices, defined in another package (device-mapper's
   * {@code blksim.kernel.dm.DmParams}): a sealed interface can only permit classes of its own
   * package outside a named module, hence this open extension point.
   */
  non-sealed interface Stacked extends DeviceParams {}

  /** The disk's name ({@code nullb0}, {@code ram0}, {@code zram0}). */
  String name();

  /** Capacity in bytes. */
  long sizeBytes();

  /** Logical block size in bytes: every bio's size is a multiple of it. */
  int blockSize();

  /**
   * Builds the device's queue on {@code cpu}.
   *
   * @param blockLayer generic block-layer costs
   * @param random a seeded stream for devices that draw from one (zram fixes the kinds of its
   *     pages with one draw; give every CPU's queue of a device the same seed so that they agree);
   *     devices that need none ignore it
   */
  BlockQueue newQueue(DriverCpu cpu, BlockLayerParams blockLayer, SplittableRandom random);
}
