package blksim.kernel.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DeviceParamsTest {
  static final long GIB = 1L << 30;
  static final blksim.kernel.block.DriverCpu CPU0 = new blksim.kernel.block.DriverCpu() {
    @Override
    public int cpuId() {
      return 0;
    }

    @Override
    public long now() {
      return 0;
    }

    @Override
    public void interrupt(long costNs, Runnable handler) {
      handler.run();
    }

    @Override
    public void callAfter(long delayNs, Runnable callback) {
      callback.run();
    }
  };

  @Test
  void newQueue_buildsEachDriversQueueWithItsBlockSize() {
    List<DeviceParams> devices = List.of(
        new NullBlkParams("nullb0", GIB, 4096, 64, IrqMode.NONE, 0, 600, 500),
        BrdParams.defaults("ram0", GIB), ZramParams.defaults("zram0", GIB));
    List<Class<?>> types = List.of(BlockQueue.class, BrdQueue.class, ZramQueue.class);
    List<Integer> blockSizes = List.of(4096, 512, 4096);
    for (int i = 0; i < devices.size(); i++) {
      DeviceParams d = devices.get(i);
      // null_blk's stand-alone view needs the CPU's id; the bio-based drivers ignore the CPU.
      BlockQueue q = d.newQueue(d instanceof NullBlkParams ? CPU0 : null,
          BlockLayerParams.DEFAULTS, new SplittableRandom(1));
      assertInstanceOf(types.get(i), q);
      assertEquals(d.name(), q.diskName());
      assertEquals(GIB, q.capacityBytes());
      assertEquals(blockSizes.get(i), d.blockSize());
      assertEquals(d.blockSize(), q.logicalBlockSize());
    }
  }

  @Test
  void zramQueuesBuiltFromEqualSeeds_agreeOnPageKinds() {
    ZramParams p = ZramParams.defaults("zram0", GIB).withMix(0.2, 0.3);
    ZramQueue a = p.newQueue(null, BlockLayerParams.DEFAULTS, new SplittableRandom(99));
    ZramQueue b = p.newQueue(null, BlockLayerParams.DEFAULTS, new SplittableRandom(99));
    Bio bio = new Bio(ReqOp.READ, 0, 1 << 20, 0);
    assertEquals(a.submitCostNs(bio), b.submitCostNs(bio));
  }
}
