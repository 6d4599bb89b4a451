package blksim.kernel.sched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Idle states deeper than C1 ({@code kernel.cpuidle}, {@link CpuComponent#useIdleStates}). */
@Timeout(30)
class CpuIdleStatesTest {
  /** skx_cstates beyond C1 as the scenario factory sets them: C1E and C6, above C1's exit. */
  static final long[] EXIT = {8_000, 131_000};
  static final long[] RESIDENCY = {20_000, 600_000};

  /** A task that sleeps at once and is woken by a timer {@code idleNs} later; its step times. */
  static List<Long> wokenAfter(long idleNs, boolean idleStates, long[] exits) {
    CpuComponent cpu = CpuComponentTest.cpu();
    if (idleStates) {
      cpu.useIdleStates(EXIT, RESIDENCY);
    }
    ScriptedTask t = ScriptedTask.live("sleeper");
    t.then(c -> {
      c.cpu().callAfter(idleNs, () -> c.cpu().wake(t));
      c.sleep();
    });
    cpu.addTask(t);
    CpuComponentTest.run(cpu);
    if (exits != null) {
      System.arraycopy(cpu.idleStateExits(), 0, exits, 0, exits.length);
    }
    return t.stepTimes;
  }

  @Test
  void shortIdle_staysInC1_andCostsNothingMore() {
    // asleep from 1000 (switch-in), woken at 11000: 10 us idle < C1E's 20 us residency.
    assertEquals(wokenAfter(10_000, false, null), wokenAfter(10_000, true, null));
    assertEquals(List.of(1_000L, 12_000L), wokenAfter(10_000, true, null));
  }

  @Test
  void idleBeyondC1eResidency_paysC1eExit() {
    long[] exits = new long[2];
    // woken at 51000: 50 us idle -> C1E, 8 us more than C1, then the 1 us switch-in.
    assertEquals(List.of(1_000L, 60_000L), wokenAfter(50_000, true, exits));
    assertArrayEquals(new long[] {1, 0}, exits);
    assertEquals(List.of(1_000L, 52_000L), wokenAfter(50_000, false, null), "off: C1 only");
  }

  @Test
  void idleBeyondC6Residency_paysC6Exit() {
    long[] exits = new long[2];
    assertEquals(List.of(1_000L, 1_001_000L + 131_000 + 1_000),
        wokenAfter(1_000_000, true, exits));
    assertArrayEquals(new long[] {0, 1}, exits);
  }

  @Test
  void interruptOnACpuLongIdle_paysC6ExitBeforeTheHandler_andTheWakeupItCausesDoesNotPayAgain() {
    CpuComponent cpu = CpuComponentTest.cpu();
    cpu.useIdleStates(EXIT, RESIDENCY);
    ScriptedTask t = ScriptedTask.live("t");
    long[] handledAt = new long[1];
    t.then(c -> {
      c.cpu().callAfter(1_000_000, () -> c.cpu().interrupt(500, () -> {
        handledAt[0] = c.now();
        c.cpu().wake(t);
      }));
      c.sleep();
    });
    cpu.addTask(t);
    CpuComponentTest.run(cpu);
    // asleep from 1000; interrupt at 1001000: C1 exit 2000 + C6 131000, then 500 of handler.
    assertEquals(1_001_000 + 2_000 + 131_000 + 500, handledAt[0]);
    assertEquals(List.of(1_000L, handledAt[0] + 1_000), t.stepTimes);
    assertArrayEquals(new long[] {0, 1}, cpu.idleStateExits());
  }

  @Test
  void mismatchedTables_areRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> CpuComponentTest.cpu().useIdleStates(new long[] {1}, new long[0]));
  }
}
