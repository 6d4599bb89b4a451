package blksim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PartitionTest {

  @Test
  void crossPartitionSendBelowLookahead_failsNamingBothComponents() {
    Model model = new TestModels.ViolationModelFactory().build("");
    int[] placement = {0, 1};
    Partition p0 = new Partition(0, model, placement);
    p0.start();
    LookaheadViolation e = assertThrows(LookaheadViolation.class, () -> p0.runWindow(10_000));
    assertTrue(e.getMessage().contains("cpu/0"), e.getMessage());
    assertTrue(e.getMessage().contains("cpu/1"), e.getMessage());
    assertTrue(e.getMessage().contains("10 ns"), e.getMessage());
    assertTrue(e.getMessage().contains("5000"), e.getMessage());
  }

  @Test
  void shortSendWithinOnePartition_isAllowed() {
    Model model = new TestModels.ViolationModelFactory().build("");
    Partition p = new Partition(0, model, new int[] {0, 0});
    p.start();
    Partition.WindowResult r = p.runWindow(10_000);
    assertEquals(2, r.events());
    assertEquals(5010, p.lastEventTime());
  }
}
