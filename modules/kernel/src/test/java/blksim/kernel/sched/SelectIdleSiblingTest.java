package blksim.kernel.sched;

import static blksim.kernel.sched.ScriptedTask.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.topology.Cpu;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code kernel.wake-placement = sis}: Linux 6.4's {@code select_task_rq_fair()} for a non-sync
 * wakeup, and the SMT slowdown. One LLC of 4 cores x 2 threads numbered as Linux does (CPU
 * {@code i} and {@code i + 4} are siblings). Task {@code a} sleeps on CPU 0 from the start; a
 * waker on CPU 1 wakes it at 3 ms; bound hogs keep chosen CPUs busy past that.
 */
@Timeout(30)
class SelectIdleSiblingTest {
  static final long MS = 1_000_000;
  static final long WAKE_AT = 3 * MS;
  static final long LINE = 100;
  static final long REMOTE = 1_000;
  static final SchedParams P = new SchedParams(1_000, 2_000, 4_000)
      .withPlacement(new PlacementParams(PlacementParams.Rule.SIS, 1.0, LINE, 250, REMOTE));

  final List<CpuComponent> c = new ArrayList<>();
  final List<CpuComponent> ranOn = new ArrayList<>();
  final ScriptedTask a = new ScriptedTask("a", 0, true);
  final ScriptedTask waker = new ScriptedTask("w", 0, true);

  SelectIdleSiblingTest() {
    for (int i = 0; i < 8; i++) {
      c.add(new CpuComponent(new Cpu(i, 0, 0, 0, i % 4), P));
    }
    for (CpuComponent x : c) {
      x.joinLlc(c);
    }
    a.setUnbound(true);
    a.then(TaskCpu::sleep).then(t -> {
      ranOn.add(t.cpu());
      t.runFor(CpuMode.USER, 1_000);
    });
    c.get(0).addTask(a);
    waker.then(t -> t.runFor(CpuMode.SYSTEM, WAKE_AT)).then(t -> {
      t.cpu().wakeUp(a);
      t.runFor(CpuMode.SYSTEM, 10 * MS);
    });
    c.get(1).addTask(waker);
  }

  /** Keeps the CPUs {@code ids} busy past the wakeup. */
  void busy(int... ids) {
    for (int i : ids) {
      c.get(i).addTask(WakePlacementTest.hog("h" + i));
    }
  }

  List<CpuComponent> runAll() {
    run(P, Long.MAX_VALUE, c.toArray(new CpuComponent[0]));
    return ranOn;
  }

  @Test
  void previousCpuIdle_wakeAffineKeepsIt_althoughTheWakerIsElsewhere() {
    assertEquals(List.of(c.get(0)), runAll());
    assertEquals(0, a.migrations());
  }

  @Test
  void withAnIdleCore_theScanTakesAWhollyIdleCore_notAnIdleThreadOfABusyOne() {
    // Busy: 0 (a's prev), 1 (waker), 5, 6. Core 2 = {2, 6} has CPU 2 idle, core 3 = {3, 7} is
    // idle: the scan from CPU 1 passes CPU 2 and takes CPU 3 (the llc rule would take CPU 2).
    busy(0, 5, 6);
    assertEquals(List.of(c.get(3)), runAll());
    // Tests of CPUs other than the waker's: prev in wake_affine, target, then 5, 2, 6, 3, 7.
    assertEquals(7, c.get(1).placementStats()[1]);
    assertEquals(1_000 + WAKE_AT + 10 * MS + 7 * LINE + REMOTE, waker.stimeNs,
        "the waker pays its switch-in, its bursts, one line per CPU tested and the remote wakeup");
  }

  @Test
  void withoutAnIdleCore_thePreviousCpusSmtSiblingComesBeforeTheScan() {
    // Every core has a busy thread (0, 1, 6, 7); idle: 2, 3, 4, 5. select_idle_smt(prev) takes
    // CPU 4, the sibling of CPU 0, where the llc rule would take CPU 2.
    busy(0, 6, 7);
    assertEquals(List.of(c.get(4)), runAll());
  }

  @Test
  void sisUtil_boundsTheScan_soABusyLlcKeepsTheTaskOnItsPreviousCpu() {
    // Busy 0-4 (5 of 8): nr_idle_scan = 8 * (1024 - 640^2 * 117^2 / (10000 * 1024)) / 1024 = 3:
    // the scan tests CPUs 1, 2, 3 and stops before idle CPU 5; the target (prev) is kept.
    busy(0, 2, 3, 4);
    assertEquals(3, c.get(0).nrIdleScanForTest(5));
    assertEquals(List.of(c.get(0)), runAll());
    assertEquals(0, a.migrations());
    assertTrue(a.stepTimes.get(1) >= 10 * MS, "waits for CPU 0's hog: " + a.stepTimes.get(1));
  }

  @Test
  void smtSlowdown_stretchesABurstThatStartsWhileTheSiblingRuns() {
    assertEquals(1_500_000, burstWithBusyCpu(1.5, 0), "sibling CPU 0 busy");
    assertEquals(1_000_000, burstWithBusyCpu(1.5, 1), "CPU 1 is another core");
    assertEquals(1_000_000, burstWithBusyCpu(1.0, 0), "no slowdown");
  }

  /** How long a 1 ms burst on CPU 4 takes while a hog runs on CPU {@code busyCpu}. */
  static long burstWithBusyCpu(double slowdown, int busyCpu) {
    SchedParams p = new SchedParams(1_000, 2_000, 4_000)
        .withPlacement(new PlacementParams(PlacementParams.Rule.NONE, slowdown, 0, 0, 0));
    List<CpuComponent> cpus = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      CpuComponent x = new CpuComponent(new Cpu(i, 0, 0, 0, i % 4), p);
      cpus.add(x);
    }
    for (CpuComponent x : cpus) {
      x.joinLlc(cpus);
    }
    cpus.get(busyCpu).addTask(WakePlacementTest.hog("hog"));
    ScriptedTask b = ScriptedTask.live("b").then(x -> x.runFor(CpuMode.SYSTEM, 10_000))
        .then(x -> x.runFor(CpuMode.USER, MS));
    cpus.get(4).addTask(b);
    run(p, Long.MAX_VALUE, cpus.toArray(new CpuComponent[0]));
    return b.stepTimes.get(2) - b.stepTimes.get(1);
  }

  @Test
  void lineTransfers_areFreeOnTheSameCore_andCostMoreAcrossSockets() {
    CpuComponent here = new CpuComponent(new Cpu(0, 0, 0, 0, 0), P);
    assertEquals(0, here.lineTransferNs(null, 4), "no last writer");
    assertEquals(0, here.lineTransferNs(new Cpu(4, 0, 0, 0, 0), 4), "SMT sibling: shared L2");
    assertEquals(4 * LINE, here.lineTransferNs(new Cpu(1, 0, 0, 0, 1), 4), "same socket");
    assertEquals(4 * 250, here.lineTransferNs(new Cpu(8, 1, 1, 1, 8), 4), "other socket");
  }

  @Test
  void recentUsedCpu_isTriedBeforeTheScan() {
    // Separate tasks: a sleeps on CPU 0 and is woken twice by w on CPU 1, at 3 ms and 6 ms.
    List<CpuComponent> cpus = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      cpus.add(new CpuComponent(new Cpu(i, 0, 0, 0, i % 4), P));
    }
    for (CpuComponent x : cpus) {
      x.joinLlc(cpus);
    }
    List<CpuComponent> where = new ArrayList<>();
    ScriptedTask b = new ScriptedTask("b", 0, true);
    b.setUnbound(true);
    b.then(TaskCpu::sleep).then(t -> {
      where.add(t.cpu());
      t.runFor(CpuMode.USER, 1_000);
    }).then(TaskCpu::sleep).then(t -> {
      where.add(t.cpu());
      t.runFor(CpuMode.USER, 1_000);
    });
    cpus.get(0).addTask(b);
    ScriptedTask w = ScriptedTask.live("w").then(t -> t.runFor(CpuMode.SYSTEM, WAKE_AT))
        .then(t -> {
          t.cpu().wakeUp(b);
          t.runFor(CpuMode.SYSTEM, WAKE_AT);
        }).then(t -> {
          t.cpu().wakeUp(b);
          t.runFor(CpuMode.SYSTEM, MS);
        });
    cpus.get(1).addTask(w);
    // CPU 0 busy until 5 ms; CPU 6 busy throughout; CPU 3 busy from 4 ms.
    cpus.get(0).addTask(ScriptedTask.live("h0").then(t -> t.runFor(CpuMode.SYSTEM, 5 * MS)));
    cpus.get(6).addTask(WakePlacementTest.hog("h6"));
    ScriptedTask h3 = ScriptedTask.live("h3");
    h3.then(t -> {
      CpuComponent cpu = t.cpu();
      cpu.callAfter(4 * MS - t.now(), () -> cpu.wake(h3));
      t.sleep();
    }).then(t -> t.runFor(CpuMode.SYSTEM, 10 * MS));
    cpus.get(3).addTask(h3);
    run(P, Long.MAX_VALUE, cpus.toArray(new CpuComponent[0]));
    // 3 ms: the scan from CPU 1 passes core 1 (CPU 1 busy) and core 2 (CPU 6 busy) and takes
    // idle core 3; recent_used_cpu becomes CPU 0. 6 ms: CPU 3 is busy, CPU 0 idle again and
    // tried before the scan, which would have taken idle core 0 at CPU 4.
    assertEquals(List.of(cpus.get(3), cpus.get(0)), where);
  }
}
