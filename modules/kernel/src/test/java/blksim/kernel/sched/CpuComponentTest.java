package blksim.kernel.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.engine.SimulationException;
import blksim.kernel.topology.Cpu;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpuComponentTest {
  static final SchedParams PARAMS = new SchedParams(1_000, 2_000, 4_000);

  static RunOutcome run(CpuComponent cpu) {
    Model m = new Model(List.of(cpu), PARAMS.wakeupLatencyNs(), Long.MAX_VALUE, 0, 1);
    return LocalRunner.run(m, Partitioning.ONE, 1, ProgressListener.NONE);
  }

  static CpuComponent cpu() {
    return new CpuComponent(new Cpu(0, 0, 0, 0, 0), PARAMS);
  }

  @Test
  void burst_chargesUserAndSystemTime_andRunEndsOneLookaheadAfterExit() {
    CpuComponent cpu = cpu();
    ScriptedTask t = ScriptedTask.live("t").then(c -> c.runFor(CpuMode.USER, 10_000))
        .then(c -> c.runFor(CpuMode.SYSTEM, 3_000));
    cpu.addTask(t);
    RunOutcome out = run(cpu);
    assertEquals(10_000, t.utimeNs());
    assertEquals(3_000 + PARAMS.ctxSwitchNs(), t.stimeNs(), "switch-in cost is system time");
    assertEquals(TaskState.DEAD, t.state());
    // switch-in 1000, user 10000, sys 3000 -> exit at 14000; stop rule adds the lookahead.
    assertEquals(14_000 + PARAMS.wakeupLatencyNs(), out.stats().simulatedTimeNs());
  }

  @Test
  void sleepAndTimerWakeup_countVoluntarySwitch_andResumeAfterSwitchIn() {
    CpuComponent cpu = cpu();
    ScriptedTask t = ScriptedTask.live("sleeper");
    t.then(c -> {
      c.cpu().callAfter(50_000, () -> c.cpu().wake(t));
      c.sleep();
    });
    cpu.addTask(t);
    run(cpu);
    assertEquals(1, t.nvcsw());
    // first step at 1000 (after switch-in), woken at 51000, resumes after another switch-in.
    assertEquals(List.of(1_000L, 52_000L), t.stepTimes);
  }

  @Test
  void wakeDuringSameStep_cancelsTheSleep() {
    CpuComponent cpu = cpu();
    ScriptedTask t = ScriptedTask.live("t");
    t.then(c -> {
      c.cpu().wake(t);
      c.sleep();
    });
    cpu.addTask(t);
    run(cpu);
    assertEquals(0, t.nvcsw(), "the condition was met before sleeping: no switch");
  }

  @Test
  void interruptDuringBurst_delaysTheBurstAndIsChargedToTheTask() {
    CpuComponent cpu = cpu();
    ScriptedTask t = ScriptedTask.live("t");
    long[] handledAt = new long[1];
    t.then(c -> {
      c.cpu().callAfter(2_000, () -> c.cpu().interrupt(700, () -> handledAt[0] = c.now()));
      c.runFor(CpuMode.USER, 10_000);
    });
    cpu.addTask(t);
    run(cpu);
    assertEquals(10_000, t.utimeNs());
    assertEquals(1_000 + 700, t.stimeNs());
    assertEquals(3_700, handledAt[0], "handler runs when the interrupt's work is done");
    assertEquals(List.of(1_000L, 11_700L), t.stepTimes, "burst ended 700 ns late");
  }

  @Test
  void interruptsTakenTogether_areSerialised() {
    CpuComponent cpu = cpu();
    ScriptedTask t = ScriptedTask.live("t");
    List<Long> handled = new ArrayList<>();
    t.then(c -> {
      c.cpu().interrupt(700, () -> handled.add(c.now()));
      c.cpu().interrupt(300, () -> handled.add(c.now()));
      c.runFor(CpuMode.USER, 10_000);
    });
    cpu.addTask(t);
    run(cpu);
    assertEquals(List.of(1_700L, 2_000L), handled, "the second waits for the first");
    assertEquals(List.of(1_000L, 12_000L), t.stepTimes, "both delay the burst");
    assertEquals(1_000, cpu.irqNs());
    assertEquals(1_000 + 1_000, t.stimeNs(), "switch-in plus both interrupts");
  }

  @Test
  void interruptOnIdleCpu_paysIdleExitBeforeTheHandler() {
    CpuComponent cpu = cpu();
    ScriptedTask t = ScriptedTask.live("t");
    long[] handledAt = new long[1];
    t.then(c -> {
      c.cpu().callAfter(10_000, () -> c.cpu().interrupt(500, () -> {
        handledAt[0] = c.now();
        c.cpu().wake(t);
      }));
      c.sleep();
    });
    cpu.addTask(t);
    run(cpu);
    // asleep from 1000; timer at 11000; idle exit 2000 + irq 500 -> handler at 13500.
    assertEquals(13_500, handledAt[0]);
    assertEquals(List.of(1_000L, 14_500L), t.stepTimes);
  }

  @Test
  void equalVruntimes_runInOrderOfAddition_andShortBurstsAreNotPreempted() {
    CpuComponent cpu = cpu();
    ScriptedTask a = ScriptedTask.live("a").then(c -> c.runFor(CpuMode.USER, 5_000));
    ScriptedTask b = ScriptedTask.live("b").then(c -> c.runFor(CpuMode.USER, 5_000));
    cpu.addTask(a);
    cpu.addTask(b);
    run(cpu);
    assertEquals(1_000, a.stepTimes.get(0));
    assertEquals(6_000, a.stepTimes.get(1), "a exits at 6000: 5 us is far below its slice");
    assertEquals(7_000, b.stepTimes.get(0), "b starts after a exits and one switch-in");
  }

  @Test
  void stepWithoutAction_failsNamingTheCpuAndTask() {
    CpuComponent cpu = cpu();
    ScriptedTask t = ScriptedTask.live("lazy").then(c -> { });
    cpu.addTask(t);
    SimulationException e = assertThrows(SimulationException.class, () -> run(cpu));
    assertTrue(e.getMessage().contains("cpu/0") && e.getMessage().contains("lazy"),
        e.getMessage());
  }

  @Test
  void taskThatNeverWakes_isReportedAsAStall() {
    CpuComponent cpu = cpu();
    cpu.addTask(ScriptedTask.live("forever").then(TaskCpu::sleep));
    SimulationException e = assertThrows(SimulationException.class, () -> run(cpu));
    assertTrue(e.getMessage().contains("stalled") && e.getMessage().contains("cpu/0"),
        e.getMessage());
  }

  @Test
  void cpuReport_roundTripsThroughItsEncoding() {
    CpuComponent cpu = cpu();
    cpu.addTask(ScriptedTask.live("t").then(c -> c.runFor(CpuMode.USER, 2_000)));
    RunOutcome out = run(cpu);
    CpuReport r = CpuReport.decode(out.reports().get(0).report().payload());
    assertEquals(2_000, r.userNs());
    assertEquals(1_000, r.sysNs());
    assertEquals(1, r.contextSwitches());
    assertEquals(0, r.nvcsw());
    assertEquals(0, r.nivcsw());
    assertEquals(out.stats().simulatedTimeNs() - 3_000, r.idleNs());
    assertEquals(r, CpuReport.decode(r.encode()));
    assertEquals(1, r.threads().size(), "one task, one schedstat line");
    TaskStat t = r.threads().get(0);
    assertEquals("t", t.comm());
    assertEquals(2_000, t.utimeNs());
    assertEquals(1_000, t.stimeNs(), "the switch-in");
    assertEquals(1, t.pcount());
    assertEquals(0, t.runDelayNs());
    CpuReport full = new CpuReport(3, 1, 2, 3, 4, 5, 6, 100, List.of(), List.of(),
        List.of(new TaskStat(7, "iou-wrk-7", -5, 1, 2, 3, 4, 5, 6, 7)));
    assertEquals(full, CpuReport.decode(full.encode()));
  }
}
