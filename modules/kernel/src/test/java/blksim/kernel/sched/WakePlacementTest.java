package blksim.kernel.sched;

import static blksim.kernel.sched.ScriptedTask.cpu;
import static blksim.kernel.sched.ScriptedTask.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.RunOutcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Wakeup placement of unbound tasks within an LLC (kernel-model.md §1.3): previous CPU if idle,
 * else an idle CPU of the LLC, else the previous CPU; a move costs the wakeup latency and keeps
 * the task's distance to {@code min_vruntime}. Three CPUs of one LLC, 1 us switches, 4 us
 * wakeup latency.
 */
@Timeout(30)
class WakePlacementTest {
  static final SchedParams P = CfsSchedulerTest.P;
  static final long SW = P.ctxSwitchNs();
  static final long MS = 1_000_000;
  static final long WAKE_AT = 3 * MS;

  final CpuComponent c0 = cpu(0, P);
  final CpuComponent c1 = cpu(1, P);
  final CpuComponent c2 = cpu(2, P);
  final List<CpuComponent> ranOn = new ArrayList<>();

  WakePlacementTest() {
    for (CpuComponent c : List.of(c0, c1, c2)) {
      c.joinLlc(List.of(c0, c1, c2));
    }
  }

  /** Unbound: sleeps, woken by a timer of CPU 0 at 3 ms, notes where it runs, works 1 us. */
  ScriptedTask sleeper() {
    ScriptedTask a = new ScriptedTask("a", 0, true);
    a.setUnbound(true);
    a.then(c -> {
      CpuComponent cpu = c.cpu();
      cpu.callAfter(WAKE_AT - c.now(), () -> cpu.wake(a));
      c.sleep();
    }).then(c -> {
      ranOn.add(c.cpu());
      c.runFor(CpuMode.USER, 1_000);
    });
    return a;
  }

  /** A bound kernel-mode hog: a 10 ms burst no nice-0 wakeup can cut (voluntary model). */
  static ScriptedTask hog(String name) {
    return ScriptedTask.live(name).then(c -> c.runFor(CpuMode.SYSTEM, 10 * MS));
  }

  @Test
  void previousCpuIdle_wakesThereAtOnce() {
    ScriptedTask a = sleeper();
    c0.addTask(a);
    run(P, Long.MAX_VALUE, c0, c1, c2);
    assertEquals(List.of(c0), ranOn);
    assertEquals(WAKE_AT + SW, a.stepTimes.get(1));
    assertEquals(0, a.migrations());
  }

  @Test
  void previousCpuBusy_movesToAnIdleCpuOfTheLlc_afterTheWakeupLatency() {
    ScriptedTask a = sleeper();
    c0.addTask(a);
    c0.addTask(hog("hog"));
    RunOutcome out = run(P, Long.MAX_VALUE, c0, c1, c2);
    assertEquals(List.of(c1), ranOn, "the first idle CPU after the previous one");
    assertEquals(WAKE_AT + P.wakeupLatencyNs() + SW, a.stepTimes.get(1),
        "the IPI to the chosen CPU, then its switch");
    assertEquals(1, a.migrations());
    assertSame(c0, a.home(), "reported where it was placed");
    CpuReport r0 = CpuReport.decode(out.reports().get(0).report().payload());
    CpuReport r1 = CpuReport.decode(out.reports().get(1).report().payload());
    assertEquals(1, r0.threads().stream().filter(t -> t.comm().equals("a")).count());
    assertEquals(1, r0.threads().stream().filter(t -> t.comm().equals("a")).findFirst()
        .orElseThrow().migrations());
    assertEquals(1_000, r1.userNs(), "its user time was spent on CPU 1");
    assertTrue(r1.threads().isEmpty(), "CPU 1 placed no task");
  }

  @Test
  void previousCpuInAnInterrupt_countsAsIdle_soTheTaskStays() {
    // Woken from a completion interrupt of its own, idle CPU while a second interrupt is still
    // queued there: idle_cpu() sees the idle task as rq->curr, so the task is not moved.
    ScriptedTask a = new ScriptedTask("a", 0, true);
    a.setUnbound(true);
    a.then(c -> {
      CpuComponent cpu = c.cpu();
      cpu.callAfter(WAKE_AT - c.now(), () -> {
        cpu.interrupt(1_000, () -> cpu.wake(a));
        cpu.interrupt(50_000, () -> { });
      });
      c.sleep();
    }).then(c -> {
      ranOn.add(c.cpu());
      c.runFor(CpuMode.USER, 1_000);
    });
    c0.addTask(a);
    run(P, Long.MAX_VALUE, c0, c1, c2);
    assertEquals(List.of(c0), ranOn);
    assertEquals(0, a.migrations());
    assertTrue(a.stepTimes.get(1) >= WAKE_AT + 51_000,
        "runs once both interrupts are over: " + a.stepTimes.get(1));
  }

  @Test
  void wholeLlcBusy_staysQueuedOnThePreviousCpu() {
    ScriptedTask a = sleeper();
    c0.addTask(a);
    c0.addTask(hog("h0"));
    c1.addTask(hog("h1"));
    c2.addTask(hog("h2"));
    run(P, Long.MAX_VALUE, c0, c1, c2);
    assertEquals(List.of(c0), ranOn);
    assertEquals(0, a.migrations());
    assertTrue(a.stepTimes.get(1) >= 10 * MS, "waits for the hog's burst to end: "
        + a.stepTimes.get(1));
  }

  @Test
  void migration_keepsTheDistanceToMinVruntime() {
    // a slept long enough to be placed at min_vruntime - latency/2 on either CPU: after the
    // move it is that far behind CPU 1's min_vruntime, not CPU 0's.
    ScriptedTask a = sleeper();
    c0.addTask(a);
    c0.addTask(hog("hog"));
    ScriptedTask b = new ScriptedTask("b", 0, false).then(c -> c.runFor(CpuMode.USER, 2 * MS))
        .then(TaskCpu::sleep);
    c1.addTask(b);
    c2.addTask(hog("h2"));
    run(P, Long.MAX_VALUE, c0, c1, c2);
    assertEquals(List.of(c1), ranOn, "b sleeps at 2 ms: CPU 1 is idle at 3 ms");
    assertTrue(a.vruntimeNs() >= c1.policy().minVruntime() - P.schedLatencyNs() / 2
        && a.vruntimeNs() < 2 * MS + 10_000, "renormalised to CPU 1: " + a.vruntimeNs());
  }

  @Test
  void unboundTask_needsAnLlc_andAnLlcIsSetBeforeTheRun() {
    ScriptedTask a = new ScriptedTask("a", 0, true);
    a.setUnbound(true);
    CpuComponent lone = cpu(5, P);
    assertThrows(IllegalStateException.class, () -> lone.addTask(a));
    assertThrows(IllegalArgumentException.class, () -> lone.joinLlc(List.of(c0)));
  }
}
