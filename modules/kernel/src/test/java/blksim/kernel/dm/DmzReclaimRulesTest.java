package blksim.kernel.dm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Reclaim's trigger and its kcopyd throttle, as dm-zoned-reclaim.c and dm-kcopyd.c set them. */
class DmzReclaimRulesTest {

  @Test
  void trigger_idleOrAtMostThirtyPercentFree() {
    assertEquals(0, DmzDevice.reclaimPercentage(100, 1), "one free zone counts as none");
    assertEquals(31, DmzDevice.reclaimPercentage(100, 31));
    assertTrue(DmzDevice.shouldReclaim(true, 100, 90), "idle: reclaim whatever is free");
    assertFalse(DmzDevice.shouldReclaim(false, 100, 31), "busy, 31 %: no");
    assertTrue(DmzDevice.shouldReclaim(false, 100, 30), "busy, 30 %: yes");
    assertTrue(DmzDevice.shouldReclaim(false, 100, 0));
    assertFalse(DmzDevice.shouldReclaim(false, 100, 50));
  }

  @Test
  void throttle_fullWhenIdleOrCriticallyLow_elseAtMost75() {
    assertEquals(100, DmzDevice.throttleFor(true, 30));
    assertEquals(100, DmzDevice.throttleFor(false, 14));
    assertEquals(75, DmzDevice.throttleFor(false, 15));
    assertEquals(75, DmzDevice.throttleFor(false, 30));
    assertEquals(70, DmzDevice.throttleFor(false, 60), "min(75, 100 - 60/2)");
  }

  @Test
  void kcopydThrottle_skewGrowsWhileIoIsInFlight() {
    DmzKcopyd.Throttle t = new DmzKcopyd.Throttle(250);
    t.throttle = 75;
    assertTrue(t.skew(0) <= 0, "nothing accounted yet");
    t.start();
    // 100 jiffies with I/O in flight all the time: 100 % busy against a 75 % budget.
    assertTrue(t.skew(100) > 0);
    t.finish(100);
    // Then 100 idle jiffies: back under budget.
    assertTrue(t.skew(200) <= 0);
    t.throttle = 100;
    t.start();
    assertEquals(0, t.skew(1000), "100 %: never throttled");
  }
}
