package blksim.kernel.workqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** {@link KernelMode#forVersion}: the mode a version a user types falls in. */
class KernelModeVersionTest {
  @Test
  void versions_mapToTheModeWhoseRangeHoldsThem() {
    assertEquals(KernelMode.V4_3_RC1, KernelMode.forVersion("4.3-rc1"));
    assertEquals(KernelMode.PRE_6_5, KernelMode.forVersion("5.15"));
    assertEquals(KernelMode.PRE_6_5, KernelMode.forVersion("v6.4.16"));
    assertEquals(KernelMode.V6_5_TO_6_8, KernelMode.forVersion("V6_6"));
    assertEquals(KernelMode.V6_5_TO_6_8, KernelMode.forVersion("6.8"));
    assertEquals(KernelMode.V6_9_RC, KernelMode.forVersion("6.9-rc2"));
    assertEquals(KernelMode.V6_9, KernelMode.forVersion("6.9"));
    assertEquals(KernelMode.V6_9, KernelMode.forVersion("6.12.3"));
    assertEquals(KernelMode.V6_13, KernelMode.forVersion("6.13"));
    assertEquals(KernelMode.V6_13, KernelMode.forVersion("v6.18"));
  }

  @Test
  void aNameThatIsNoVersion_hasNoMode() {
    assertNull(KernelMode.forVersion("latest"));
    assertNull(KernelMode.forVersion("6"));
  }
}
