package blksim.kernel.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.CostDistribution;
import blksim.kernel.device.BrdParams;
import blksim.kernel.device.BrdQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Issue 10 item 9: cache-cold first touches ({@code kernel.cache-cold}). */
class CacheFootprintTest {
  static final BlockLayerParams BLOCK = new BlockLayerParams(200);

  static Bio read(long page, int pages) {
    return new Bio(ReqOp.READ, page * 8, pages * 4096, 0);
  }

  @Test
  void aPageIsColdUntilTouched_andLeavesLeastRecentlyUsedFirst() {
    CacheFootprint f = new CacheFootprint(3 * 4096);
    assertEquals(3, f.capacityPages());
    assertEquals(2, f.touch(0, 10, 2), "10, 11 cold");
    assertEquals(0, f.touch(0, 10, 2), "then warm");
    assertEquals(1, f.touch(1, 10, 1), "the same page of another device is another page");
    assertEquals(0, f.touch(0, 10, 1), "10 is now the most recent");
    assertEquals(1, f.touch(0, 12, 1), "12 evicts the least recent, 11");
    assertEquals(1, f.touch(0, 11, 1), "11 was evicted");
    assertEquals(0, f.touch(0, 12, 1));
    assertEquals(9, f.touches());
    assertEquals(5, f.coldTouches());
  }

  @Test
  void brd_paysTheColdPathOnce_andTheColdPagePerColdPage() {
    BrdQueue q = new BrdQueue(new BrdParams("ram0", 1L << 30, false, 500, 5_000, 4_000, 1_000,
        true), BLOCK, null);
    assertEquals(5_500, q.submitCostNs(read(0, 1)), "off: the calibrated cost");
    q.coldTouches(new CacheFootprint(1 << 20), 0, CostDistribution.constant(300),
        CostDistribution.constant(7_000), null);
    assertEquals(500 + 2 * 5_000 + 7_000 + 2 * 300, q.submitCostNs(read(4, 2)),
        "first bio: the path and two cold pages");
    assertEquals(500 + 2 * 5_000, q.submitCostNs(read(4, 2)), "warm");
    assertEquals(500 + 2 * 5_000 + 300, q.submitCostNs(read(5, 2)), "one warm, one cold");
    assertEquals(500, q.submitCostNs(new Bio(ReqOp.FLUSH, 0, 0, 0)), "a flush touches no page");
  }

  @Test
  void aColdPageDistribution_drawsFromTheQueuesStream_sameSeedSameCosts() {
    long[] a = costs(11);
    assertTrue(a[0] != a[1] || a[1] != a[2], "cold pages spread");
    assertEquals(java.util.Arrays.toString(a), java.util.Arrays.toString(costs(11)));
    assertNotEquals(java.util.Arrays.toString(a), java.util.Arrays.toString(costs(12)));
  }

  private static long[] costs(long seed) {
    BrdQueue q = new BrdQueue(new BrdParams("ram0", 1L << 30, false, 0, 0, 0, 0, true), BLOCK,
        null);
    q.coldTouches(new CacheFootprint(1 << 20), 0, CostDistribution.uniform(100, 900),
        CostDistribution.constant(0), new SplittableRandom(seed));
    long[] c = new long[8];
    for (int i = 0; i < c.length; i++) {
      c[i] = q.submitCostNs(read(100 + i, 1));
    }
    return c;
  }
}
