package blksim.kernel.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class BlockLayerTest {

  /** A queue that only answers supportsNowait(). */
  static BlockQueue queue(boolean nowait) {
    return new BlockQueue() {
      @Override
      public String diskName() {
        return "x";
      }

      @Override
      public long capacityBytes() {
        return 1 << 20;
      }

      @Override
      public int logicalBlockSize() {
        return 512;
      }

      @Override
      public boolean supportsNowait() {
        return nowait;
      }

      @Override
      public long submitCostNs(Bio bio) {
        return 0;
      }

      @Override
      public boolean issue(Bio bio, BioEndIo endIo, Runnable onTagFree) {
        return true;
      }

      @Override
      public DiskCounters counters() {
        return new DiskCounters("x");
      }
    };
  }

  static final Bio NOWAIT = new Bio(ReqOp.READ, 0, 4096, Bio.REQ_NOWAIT);
  static final Bio BLOCKING = new Bio(ReqOp.READ, 0, 4096, 0);

  @Test
  void checkSubmit_rejectsOnlyNowaitBiosOnDevicesWithoutNowait() {
    assertEquals(-95, BlockLayer.checkSubmit(queue(false), NOWAIT));
    assertEquals(0, BlockLayer.checkSubmit(queue(false), BLOCKING));
    assertEquals(0, BlockLayer.checkSubmit(queue(true), NOWAIT));
    assertEquals(0, BlockLayer.checkSubmit(queue(true), BLOCKING));
  }

  @Test
  void blockQueue_supportsNowaitByDefault_asBlkMqDoes() {
    BlockQueue plain = new BlockQueue() {
      @Override
      public String diskName() {
        return "x";
      }

      @Override
      public long capacityBytes() {
        return 0;
      }

      @Override
      public int logicalBlockSize() {
        return 512;
      }

      @Override
      public long submitCostNs(Bio bio) {
        return 0;
      }

      @Override
      public boolean issue(Bio bio, BioEndIo endIo, Runnable onTagFree) {
        return true;
      }

      @Override
      public DiskCounters counters() {
        return null;
      }
    };
    assertEquals(0, BlockLayer.checkSubmit(plain, NOWAIT));
  }

  @Test
  void errno_hasTheKernelsNumbersAndNames() {
    assertEquals(11, Errno.EAGAIN);
    assertEquals(95, Errno.EOPNOTSUPP);
    assertEquals("-EOPNOTSUPP", Errno.name(-Errno.EOPNOTSUPP));
    assertEquals("-EAGAIN", Errno.name(-11));
    assertEquals("0", Errno.name(0));
    assertEquals(5, Errno.EIO);
    assertEquals(109, Errno.ETOOMANYREFS);
    assertEquals("-EIO", Errno.name(-5));
    assertEquals("-ETOOMANYREFS", Errno.name(-109));
    assertEquals("-22", Errno.name(-22));
  }

  @Test
  void params_rejectANegativeCost() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new BlockLayerParams(-1));
    assertEquals("nowaitRejectNs must be >= 0, was -1", e.getMessage());
    assertEquals(BlockLayerParams.DEFAULT_NOWAIT_REJECT_NS,
        BlockLayerParams.DEFAULTS.nowaitRejectNs());
  }
}
