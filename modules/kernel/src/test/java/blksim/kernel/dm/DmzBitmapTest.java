package blksim.kernel.dm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The run-length validity bitmap answers as the kernel's bit operations would. */
class DmzBitmapTest {

  @Test
  void setAndClear_countChangedBits_andMergeRuns() {
    DmzBitmap b = new DmzBitmap();
    assertEquals(4, b.set(10, 4));
    assertEquals(2, b.set(12, 4), "12 and 13 were set already");
    assertEquals(1, b.runCount());
    assertEquals(6, b.validAt(10));
    assertEquals(4, b.set(16, 4), "adjacent: merged");
    assertEquals(1, b.runCount());
    assertEquals(2, b.clear(13, 2));
    assertEquals(2, b.runCount());
    assertEquals(3, b.validAt(10));
    assertEquals(0, b.validAt(13));
    assertEquals(5, b.validAt(15));
    assertEquals(2, b.invalidAt(13, 100));
    assertArrayEquals(new int[] {15, 5}, b.firstValid(13));
    assertNull(b.firstValid(20));
    assertEquals(8, b.clear(0, 100));
    assertEquals(0, b.runCount());
  }

  @Test
  void setBridgingSeveralRuns_countsOnlyTheGaps() {
    DmzBitmap b = new DmzBitmap();
    b.set(0, 2);
    b.set(4, 2);
    b.set(8, 2);
    assertEquals(4, b.set(1, 8), "blocks 2, 3, 6, 7");
    assertEquals(1, b.runCount());
    assertEquals(10, b.validAt(0));
  }
}
