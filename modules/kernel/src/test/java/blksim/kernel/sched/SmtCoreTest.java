package blksim.kernel.sched;

import static blksim.kernel.sched.ScriptedTask.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import blksim.kernel.topology.Cpu;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The SMT throughput factor ({@link SmtCore}): stretch while a sibling is busy, rescale. */
@Timeout(30)
class SmtCoreTest {
  private static final long MS = 1_000_000;
  /** No context-switch cost, so bursts start when their task is picked. */
  private static final SchedParams P = new SchedParams(0, 2_000, 4_000)
      .withPlacement(new PlacementParams(PlacementParams.Rule.NONE, 1.5, 0, 0, 0));

  /** CPUs 0 and 1 are the threads of core 0, CPU 2 is core 1 (one LLC). */
  private static List<CpuComponent> machine(SchedParams p) {
    List<CpuComponent> cpus = new ArrayList<>();
    int[] core = {0, 0, 1};
    for (int i = 0; i < 3; i++) {
      cpus.add(new CpuComponent(new Cpu(i, 0, 0, 0, core[i]), p));
    }
    for (CpuComponent c : cpus) {
      c.joinLlc(cpus);
    }
    return cpus;
  }

  private static ScriptedTask burst(String name, long ns) {
    return ScriptedTask.live(name).then(x -> x.runFor(CpuMode.USER, ns));
  }

  private static long took(ScriptedTask t) {
    return t.stepTimes.get(1) - t.stepTimes.get(0);
  }

  @Test
  void oneBusyThread_runsAtFullSpeed_twoBusySiblings_eachRunTheFactorSlower() {
    List<CpuComponent> c = machine(P);
    ScriptedTask alone = burst("alone", MS);
    c.get(0).addTask(alone);
    run(P, Long.MAX_VALUE, c.toArray(new CpuComponent[0]));
    assertEquals(MS, took(alone), "nothing on the sibling");
    assertEquals(MS, alone.utimeNs());

    c = machine(P);
    ScriptedTask a = burst("a", MS);
    ScriptedTask b = burst("b", MS);
    c.get(0).addTask(a);
    c.get(1).addTask(b);
    run(P, Long.MAX_VALUE, c.toArray(new CpuComponent[0]));
    assertEquals(1_500_000, took(a), "siblings busy together");
    assertEquals(1_500_000, took(b));
    assertEquals(1_500_000, a.utimeNs(), "the stretched time is CPU time");

    c = machine(P);
    a = burst("a", MS);
    ScriptedTask other = burst("other", MS);
    c.get(0).addTask(a);
    c.get(2).addTask(other);
    run(P, Long.MAX_VALUE, c.toArray(new CpuComponent[0]));
    assertEquals(MS, took(a), "CPU 2 is another core");
    assertEquals(MS, took(other));
  }

  @Test
  void siblingGoesIdleMidBurst_theRestRunsAtFullSpeed() {
    List<CpuComponent> c = machine(P);
    ScriptedTask a = burst("a", MS);
    ScriptedTask b = burst("b", 400_000);
    c.get(0).addTask(a);
    c.get(1).addTask(b);
    run(P, Long.MAX_VALUE, c.toArray(new CpuComponent[0]));
    // b: 0.4 ms of work at 1.5 = 0.6 ms. a: 0.4 ms of its work in those 0.6 ms, then 0.6 ms
    // alone.
    assertEquals(600_000, took(b));
    assertEquals(1_200_000, took(a));
    assertEquals(1_200_000, a.utimeNs());
  }

  @Test
  void siblingStartsMidBurst_bothSlowDownUntilOneEnds() {
    List<CpuComponent> c = machine(P);
    ScriptedTask a = burst("a", MS);
    ScriptedTask late = burst("late", MS);
    // A starter on CPU 1 that at time 0 creates "late" there, runnable at 0.3 ms, and exits.
    ScriptedTask starter = ScriptedTask.live("starter").then(x -> {
      x.cpu().spawn(late, 300_000);
      x.exit();
    });
    c.get(0).addTask(a);
    c.get(1).addTask(starter);
    run(P, Long.MAX_VALUE, c.toArray(new CpuComponent[0]));
    // a: 0.3 ms alone, then 0.7 ms of work at 1.5 = 1.05 ms: ends at 1.35 ms. late: from 0.3 ms,
    // 0.7 ms of work in those 1.05 ms, then 0.3 ms alone: ends at 1.65 ms.
    assertEquals(1_350_000, took(a));
    assertEquals(300_000, late.stepTimes.get(0));
    assertEquals(1_650_000, late.stepTimes.get(1));
  }

  @Test
  void interruptWork_isStretchedWhileTheSiblingIsBusy() {
    List<CpuComponent> c = machine(P);
    ScriptedTask a = burst("a", MS);
    c.get(0).addTask(a);
    long[] handled = new long[2];
    // CPU 1 is idle: an interrupt there at 0.1 ms pays the idle exit, then 10 us x 1.5.
    ScriptedTask irq = ScriptedTask.live("irq").then(x -> {
      c.get(1).callAfter(100_000,
          () -> c.get(1).interrupt(10_000, () -> handled[0] = c.get(1).now()));
      c.get(2).callAfter(100_000,
          () -> c.get(2).interrupt(10_000, () -> handled[1] = c.get(2).now()));
      x.exit();
    });
    c.get(2).addTask(irq);
    run(P, Long.MAX_VALUE, c.toArray(new CpuComponent[0]));
    assertEquals(100_000 + 2_000 + 15_000, handled[0], "sibling CPU 0 busy");
    assertEquals(100_000 + 2_000 + 10_000, handled[1], "CPU 2's sibling-less core");
  }

  @Test
  void rescale_keepsTheWorkLeft_andFactorsOutOfRangeAreRefused() {
    assertEquals(1_500, SmtCore.rescale(1_000, 1.0, 1.5));
    assertEquals(1_000, SmtCore.rescale(1_500, 1.5, 1.0));
    assertEquals(700, SmtCore.rescale(700, 1.5, 1.5));
    assertThrows(IllegalArgumentException.class, () -> new SmtCore(1.0));
    assertThrows(IllegalArgumentException.class, () -> new SmtCore(4.5));
  }
}
