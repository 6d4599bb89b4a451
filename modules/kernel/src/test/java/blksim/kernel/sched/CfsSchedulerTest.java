package blksim.kernel.sched;

import static blksim.kernel.sched.ScriptedTask.cpu;
import static blksim.kernel.sched.ScriptedTask.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.Partitioning;
import blksim.engine.RunOutcome;
import blksim.engine.SimulationException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The CFS run queue and preemption model driven through {@link CpuComponent}: wakeup preemption,
 * preemption points per model, cond_resched, tick-driven time slices, weights, remote wakeups,
 * spawned tasks and determinism. Times are exact: a switch costs 1 us, the wakeup latency is 4 us.
 */
class CfsSchedulerTest {
  /** One-CPU tunables (6 ms latency, 0.75 ms min granularity, 1 ms wakeup granularity), HZ 250. */
  static final SchedParams P = new SchedParams(1_000, 2_000, 4_000);
  static final long SW = P.ctxSwitchNs();
  static final long WAKE_AT = 3_000_000;
  static final long K_WORK = 50_000;
  static final long MS = 1_000_000;

  /** A nice -20 kworker: sleeps, does {@link #K_WORK} of system work when woken, sleeps again. */
  static ScriptedTask kworker() {
    return new ScriptedTask("kworker/0:1H", -20, false)
        .then(TaskCpu::sleep)
        .then(c -> c.runFor(CpuMode.SYSTEM, K_WORK))
        .loop(TaskCpu::sleep);
  }

  /** A nice-0 user task "a" that arms {@code k}'s wakeup at {@link #WAKE_AT} and runs 10 ms. */
  static ScriptedTask wakerOf(ScriptedTask k) {
    return new ScriptedTask("a", 0, true).then(c -> {
      wakeAt(c, k, WAKE_AT);
      c.runFor(CpuMode.USER, 10 * MS);
    });
  }

  static void wakeAt(TaskCpu c, Task t, long at) {
    CpuComponent cpu = c.cpu();
    cpu.callAfter(at - c.now(), () -> cpu.wake(t));
  }

  @Test
  void niceMinus20Wakeup_cutsAUserBurst_andTheRemainderResumesLater() {
    CpuComponent cpu = cpu(0, P);
    ScriptedTask k = kworker();
    ScriptedTask a = wakerOf(k);
    cpu.addTask(k);
    cpu.addTask(a);
    run(P, Long.MAX_VALUE, cpu);
    // k: 0-1000 switch, sleeps; a: 1000-2000 switch, user from 2000; cut at 3 ms.
    assertEquals(List.of(SW, WAKE_AT + SW, WAKE_AT + SW + K_WORK), k.stepTimes,
        "the kworker runs right after its wakeup and one switch");
    assertEquals(1, a.nivcsw(), "the victim was preempted once");
    assertEquals(0, a.nvcsw());
    assertEquals(10 * MS, a.utimeNs(), "user time is conserved across the cut");
    assertEquals(2 * SW, a.stimeNs(), "two switch-ins");
    long ranBeforeCut = WAKE_AT - 2 * SW;
    long resumedAt = WAKE_AT + SW + K_WORK + SW;
    assertEquals(List.of(2 * SW, resumedAt + 10 * MS - ranBeforeCut), a.stepTimes,
        "the remainder resumes after the kworker sleeps, without a new step");
    assertEquals(1, cpu.nivcsw());
    assertEquals(2, cpu.nvcsw());
    // schedstat: a waited for k's first switch and sleep, then for k's switch and work.
    assertEquals(SW + SW + K_WORK, a.runDelayNs(), "run_delay: runnable but not running");
    assertEquals(2, a.pcount());
    assertEquals(0, k.runDelayNs(), "the kworker ran at once both times");
    assertEquals(2, k.pcount());
  }

  @Test
  void traceSwitches_recordsPerfTimehistColumns_withinTheWindowOnly() {
    CpuComponent cpu = cpu(0, P);
    cpu.traceSwitches(new TimehistParams(List.of(0), 0, 0, 1000));
    ScriptedTask k = kworker();
    ScriptedTask a = wakerOf(k);
    cpu.addTask(k);
    cpu.addTask(a);
    RunOutcome out = run(P, Long.MAX_VALUE, cpu);
    List<SwitchRecord> h = CpuReport.decode(out.reports().get(0).report().payload()).timehist();
    assertEquals(new SwitchRecord(SW, 0, k.pid(), "kworker/0:1H", 0, 0, SW, 'S'), h.get(0));
    assertEquals(new SwitchRecord(WAKE_AT, 0, a.pid(), "a", SW, SW, WAKE_AT - SW, 'R'), h.get(1),
        "a waited behind k's first turn, then ran until k's wakeup preempted it");
    assertEquals(new SwitchRecord(WAKE_AT + SW + K_WORK, 0, k.pid(), "kworker/0:1H",
        WAKE_AT - SW, 0, SW + K_WORK, 'S'), h.get(2), "k slept 3 ms, ran at once");
    assertEquals('X', h.get(h.size() - 1).state(), "a's script ends: it exits");
    // A window keeps only what it covers; a limit drops and counts the rest.
    CpuComponent cpu2 = cpu(0, P);
    cpu2.traceSwitches(new TimehistParams(List.of(0), WAKE_AT, WAKE_AT + 1, 1000));
    ScriptedTask k2 = kworker();
    cpu2.addTask(k2);
    cpu2.addTask(wakerOf(k2));
    CpuReport r2 = CpuReport.decode(run(P, Long.MAX_VALUE, cpu2).reports().get(0).report()
        .payload());
    assertEquals(1, r2.timehist().size(), r2.timehist().toString());
    assertEquals('R', r2.timehist().get(0).state());
    assertEquals(r2, CpuReport.decode(r2.encode()));
  }

  @Test
  void niceZeroWakee_withinWakeupGranularity_doesNotPreempt() {
    CpuComponent cpu = cpu(0, P);
    ScriptedTask b = new ScriptedTask("b", 0, false).then(TaskCpu::sleep)
        .then(c -> c.runFor(CpuMode.SYSTEM, K_WORK)).loop(TaskCpu::sleep);
    // a runs 0.5 ms before b wakes: b's vruntime lags by less than the 1 ms granularity.
    ScriptedTask a = new ScriptedTask("a", 0, true).then(c -> {
      wakeAt(c, b, 2 * SW + MS / 2);
      c.runFor(CpuMode.USER, MS);
    });
    cpu.addTask(b);
    cpu.addTask(a);
    run(P, Long.MAX_VALUE, cpu);
    assertEquals(0, a.nivcsw());
    assertEquals(List.of(2 * SW, 2 * SW + MS), a.stepTimes, "the burst was not cut");
  }

  @ParameterizedTest
  @EnumSource(value = PreemptModel.class, names = {"NONE", "VOLUNTARY"})
  void systemBurst_isNotPreempted_untilTheReturnToUser(PreemptModel model) {
    SchedParams p = P.withPreempt(model);
    CpuComponent cpu = cpu(0, p);
    ScriptedTask k = kworker();
    ScriptedTask a = new ScriptedTask("a", 0, true).then(c -> {
      wakeAt(c, k, WAKE_AT);
      c.runFor(CpuMode.SYSTEM, 10 * MS);
    }).then(c -> c.runFor(CpuMode.USER, MS));
    cpu.addTask(k);
    cpu.addTask(a);
    run(p, Long.MAX_VALUE, cpu);
    long sysEnd = 2 * SW + 10 * MS;
    assertEquals(sysEnd + SW, k.stepTimes.get(1),
        "the kworker waits for the end of the system burst");
    assertEquals(1, a.nivcsw(), "preempted once, at the return to user");
    assertEquals(List.of(2 * SW, sysEnd, sysEnd + SW + K_WORK + SW + MS), a.stepTimes);
    assertEquals(MS, a.utimeNs());
  }

  @Test
  void fullPreemption_cutsASystemBurst() {
    SchedParams p = P.withPreempt(PreemptModel.FULL);
    CpuComponent cpu = cpu(0, p);
    ScriptedTask k = kworker();
    ScriptedTask a = new ScriptedTask("a", 0, true).then(c -> {
      wakeAt(c, k, WAKE_AT);
      c.runFor(CpuMode.SYSTEM, 10 * MS);
    }).then(c -> c.runFor(CpuMode.USER, MS));
    cpu.addTask(k);
    cpu.addTask(a);
    run(p, Long.MAX_VALUE, cpu);
    assertEquals(WAKE_AT + SW, k.stepTimes.get(1), "kernel code is preempted at once");
    assertEquals(1, a.nivcsw());
    long sysEnd = WAKE_AT + SW + K_WORK + SW + (10 * MS - (WAKE_AT - 2 * SW));
    assertEquals(List.of(2 * SW, sysEnd, sysEnd + MS), a.stepTimes);
    assertEquals(10 * MS + 2 * SW, a.stimeNs(), "system time conserved, plus two switch-ins");
  }

  @Test
  void condResched_yieldsOnlyWhenNeedReschedIsSet_andDoesNotSubmitWork() {
    CpuComponent cpu = cpu(0, P);
    ScriptedTask k = kworker();
    boolean[] sawNeedResched = new boolean[2];
    ScriptedTask a = new ScriptedTask("a", 0, true).then(c -> {
      wakeAt(c, k, WAKE_AT);
      c.runFor(CpuMode.SYSTEM, 10 * MS);
    }).then(c -> {
      sawNeedResched[0] = c.needResched();
      c.condResched();
    }).then(c -> {
      sawNeedResched[1] = c.needResched();
      c.condResched();
    }).then(c -> c.runFor(CpuMode.SYSTEM, MS));
    cpu.addTask(k);
    cpu.addTask(a);
    run(P, Long.MAX_VALUE, cpu);
    long sysEnd = 2 * SW + 10 * MS;
    long back = sysEnd + SW + K_WORK + SW;
    assertTrue(sawNeedResched[0], "the kworker's wakeup set need-resched");
    assertEquals(false, sawNeedResched[1]);
    assertEquals(sysEnd + SW, k.stepTimes.get(1), "cond_resched let the kworker run");
    assertEquals(List.of(2 * SW, sysEnd, back, back, back + MS), a.stepTimes,
        "the second cond_resched went on at once");
    assertEquals(1, a.nivcsw(), "cond_resched's yield is involuntary");
    assertEquals(0, a.nvcsw());
    assertEquals(0, a.submitWorkCalls, "cond_resched does not flush the plug");
    assertEquals(2, k.submitWorkCalls, "each sleep does");
    assertEquals(1, k.updateWorkerCalls, "the kworker ran again once after blocking");
  }

  @ParameterizedTest
  @EnumSource(PreemptModel.class)
  void mightResched_yieldsUnderVoluntaryAndFull_only(PreemptModel model) {
    SchedParams p = P.withPreempt(model);
    CpuComponent cpu = cpu(0, p);
    ScriptedTask k = kworker();
    // a first runs 1 ms, so the kworker's vruntime lags far more than its wakeup granularity.
    ScriptedTask a = new ScriptedTask("a", 0, true).then(c -> c.runFor(CpuMode.SYSTEM, MS))
        .then(c -> {
          c.cpu().wake(k);
          c.mightResched();
        }).then(c -> c.runFor(CpuMode.SYSTEM, MS));
    cpu.addTask(k);
    cpu.addTask(a);
    run(p, Long.MAX_VALUE, cpu);
    boolean yields = model != PreemptModel.NONE;
    assertEquals(yields ? 1 : 0, a.nivcsw());
    long woke = 2 * SW + MS;
    assertEquals(yields ? woke + SW : woke + MS + SW, k.stepTimes.get(1));
  }

  @Test
  void twoCpuBoundTasks_shareTheCpuEvenly_switchingEverySliceRoundedUpToATick() {
    SchedParams p = P.withHz(1000);
    CpuComponent cpu = cpu(0, p);
    ScriptedTask a = new ScriptedTask("a", 0, false).loop(c -> c.runFor(CpuMode.USER, 1_000 * MS));
    ScriptedTask b = new ScriptedTask("b", 0, false).loop(c -> c.runFor(CpuMode.USER, 1_000 * MS));
    cpu.addTask(a);
    cpu.addTask(b);
    long horizon = 100 * MS;
    RunOutcome out = run(p, horizon, cpu);
    // Two equal tasks: slice = latency / 2 = 3 ms; the tick preempts at the first tick after the
    // task ran more than that (check_preempt_tick's strict >), so every 4 ms at HZ=1000.
    long slice = p.schedLatencyNs() / 2;
    long turn = (slice / p.tickNs() + 1) * p.tickNs();
    long turns = horizon / turn;
    assertEquals(turns - 1, a.nivcsw() + b.nivcsw(), "one preemption per slice");
    assertEquals(turns, cpu.contextSwitches());
    assertEquals(horizon / p.tickNs() - 1, cpu.ticks(), "a tick per jiffy while contended");
    long ua = a.utimeNs();
    long ub = b.utimeNs();
    assertEquals(horizon, ua + ub + a.stimeNs() + b.stimeNs(), "the CPU was never idle");
    assertTrue(Math.abs(ua - ub) <= turn, "within one turn of 50/50: " + ua + " vs " + ub);
    CpuReport r = CpuReport.decode(out.reports().get(0).report().payload());
    assertEquals(0, r.idleNs());
    assertEquals(turns - 1, r.nivcsw());
  }

  @Test
  void niceZeroAndNiceFive_shareInProportionToTheirWeights() {
    SchedParams p = P.withHz(1000);
    CpuComponent cpu = cpu(0, p);
    ScriptedTask a = new ScriptedTask("a", 0, false).loop(c -> c.runFor(CpuMode.USER, 10_000 * MS));
    ScriptedTask b = new ScriptedTask("b", 5, false).loop(c -> c.runFor(CpuMode.USER, 10_000 * MS));
    cpu.addTask(a);
    cpu.addTask(b);
    run(p, 1_000 * MS, cpu);
    double expected = (double) LoadWeight.ofNice(0) / (LoadWeight.ofNice(0) + LoadWeight.ofNice(5));
    double share = (double) a.sumExecRuntimeNs() / (a.sumExecRuntimeNs() + b.sumExecRuntimeNs());
    assertEquals(1024.0 / (1024 + 335), expected, 1e-12);
    assertEquals(expected, share, 0.02, "nice 0 share");
    assertTrue(b.nivcsw() > 10, "they alternate: " + b.nivcsw());
  }

  @Test
  void loneCpuBoundTask_takesNoTicksAndNoSwitches() {
    CpuComponent cpu = cpu(0, P);
    ScriptedTask a = new ScriptedTask("a", 0, false).loop(c -> c.runFor(CpuMode.USER, 7 * MS));
    cpu.addTask(a);
    run(P, 100 * MS, cpu);
    assertEquals(0, cpu.ticks());
    assertEquals(0, a.nivcsw());
    assertEquals(100 * MS - SW, a.utimeNs(), "the burst in progress is charged up to the end");
  }

  @Test
  void remoteWake_arrivesAfterTheWakeupLatency_inOneOrManyPartitions() {
    for (Partitioning parts : new Partitioning[] {Partitioning.ONE, Partitioning.parse("cpu")}) {
      CpuComponent c0 = cpu(0, P);
      CpuComponent c1 = cpu(1, P);
      ScriptedTask s = new ScriptedTask("sleeper", 0, true).then(TaskCpu::sleep);
      c1.addTask(s);
      long[] wokeAt = new long[1];
      ScriptedTask w = new ScriptedTask("waker", 0, true).then(c -> c.runFor(CpuMode.USER, MS))
          .then(c -> {
            wokeAt[0] = c.now();
            c.cpu().wakeRemote(c.cpu().context().indexOf(c1.id()), s.taskId());
            c.exit();
          });
      c0.addTask(w);
      run(P, Long.MAX_VALUE, parts, c0, c1);
      assertEquals(List.of(SW, wokeAt[0] + P.wakeupLatencyNs() + SW), s.stepTimes,
          "woken one wakeup latency (the lookahead) after the wake, then one switch: " + parts);
    }
  }

  @Test
  void wakeUp_ofAnotherCpusTask_goesRemote_andLocalWakeOfItFails() {
    CpuComponent c0 = cpu(0, P);
    CpuComponent c1 = cpu(1, P);
    ScriptedTask s = new ScriptedTask("sleeper", 0, true).then(TaskCpu::sleep);
    c1.addTask(s);
    ScriptedTask w = new ScriptedTask("waker", 0, true).then(c -> {
      c.cpu().wakeUp(s);
      c.exit();
    });
    c0.addTask(w);
    run(P, Long.MAX_VALUE, c0, c1);
    assertEquals(List.of(SW, SW + P.wakeupLatencyNs() + SW), s.stepTimes);

    CpuComponent d0 = cpu(0, P);
    CpuComponent d1 = cpu(1, P);
    ScriptedTask t = new ScriptedTask("t", 0, true).then(TaskCpu::sleep);
    d1.addTask(t);
    d0.addTask(new ScriptedTask("bad", 0, true).then(c -> {
      c.cpu().wake(t);
      c.exit();
    }));
    SimulationException e = assertThrows(SimulationException.class,
        () -> run(P, Long.MAX_VALUE, d0, d1));
    assertTrue(e.getMessage().contains("belongs to cpu/1"), e.getMessage());
  }

  @Test
  void spawnedTask_getsTheNextId_startsAfterItsCreationDelay_andWaitsForTheTick() {
    CpuComponent cpu = cpu(0, P);
    ScriptedTask a = new ScriptedTask("a", 0, true);
    ScriptedTask k = new ScriptedTask("kworker/0:2H", -20, false).loop(TaskCpu::sleep);
    int[] kid = new int[1];
    long delay = 50_000;
    a.then(c -> {
      kid[0] = c.cpu().spawn(k, delay);
      c.runFor(CpuMode.USER, 10 * MS);
    });
    cpu.addTask(a);
    run(P, Long.MAX_VALUE, cpu);
    assertEquals(1, kid[0]);
    assertEquals(k, cpu.task(1));
    // START_DEBIT places the new task a vslice right of a, so no wakeup preemption; a has run
    // more than its slice at the first tick (4 ms at HZ=250), which preempts it.
    assertEquals(P.tickNs() + SW, k.stepTimes.get(0));
    assertEquals(1, a.nivcsw());
    assertEquals(10 * MS, a.utimeNs());
  }

  @Test
  void spawnedTaskThatKeepsTheRunAlive_onACpuWithNone_isRefused() {
    CpuComponent cpu = cpu(0, P);
    cpu.addTask(new ScriptedTask("k", 0, false).then(c -> {
      c.cpu().spawn(new ScriptedTask("job", 0, true));
      c.exit();
    }));
    SimulationException e = assertThrows(SimulationException.class,
        () -> run(P, 10 * MS, cpu));
    assertTrue(e.getMessage().contains("keeps the run alive"), e.getMessage());
  }

  /** Two CPUs, mixed nice values, local and remote wakeups, interrupts and random bursts. */
  static byte[][] mixedRun() {
    SchedParams p = SchedParams.forCpus(2, PreemptModel.VOLUNTARY, 1000, 1_500, 2_000, 4_000);
    CpuComponent c0 = cpu(0, p);
    CpuComponent c1 = cpu(1, p);
    ScriptedTask[] sleepers = new ScriptedTask[2];
    CpuComponent[] cpus = {c0, c1};
    for (int i = 0; i < 2; i++) {
      sleepers[i] = new ScriptedTask("kw" + i, -20, false).loop(c -> {
        if (c.random().nextInt(3) == 0) {
          c.runFor(CpuMode.SYSTEM, 20_000 + c.random().nextInt(20_000));
        } else {
          c.sleep();
        }
      });
      cpus[i].addTask(sleepers[i]);
    }
    for (int i = 0; i < 2; i++) {
      int other = 1 - i;
      for (int j = 0; j < 3; j++) {
        int nice = j * 3 - 2;
        int[] n = new int[1];
        ScriptedTask t = new ScriptedTask("job" + i + "." + j, nice, true);
        t.loop(c -> {
          if (++n[0] > 400) {
            c.exit();
            return;
          }
          int r = c.random().nextInt(5);
          CpuComponent me = c.cpu();
          if (r == 0) {
            me.interrupt(700, () -> me.wake(sleepers[me.cpu().id()]));
            c.runFor(CpuMode.SYSTEM, 3_000);
          } else if (r == 1) {
            me.wakeRemote(me.context().indexOf(cpus[other].id()), sleepers[other].taskId());
            c.condResched();
          } else if (r == 2) {
            me.callAfter(30_000, () -> me.wake(t));
            c.sleep();
          } else {
            c.runFor(CpuMode.USER, 50_000 + c.random().nextInt(400_000));
          }
        });
        cpus[i].addTask(t);
      }
    }
    RunOutcome out = run(p, Long.MAX_VALUE, c0, c1);
    return new byte[][] {out.reports().get(0).report().payload(),
        out.reports().get(1).report().payload()};
  }

  @Test
  void sameRunTwice_givesIdenticalCpuReports() {
    byte[][] first = mixedRun();
    byte[][] second = mixedRun();
    assertArrayEquals(first[0], second[0]);
    assertArrayEquals(first[1], second[1]);
    CpuReport r = CpuReport.decode(first[0]);
    assertTrue(r.nivcsw() > 0 && r.nvcsw() > 0 && r.contextSwitches() > 0, r.toString());
    assertTrue(r.userNs() > 0 && r.sysNs() > 0 && r.irqNs() > 0, r.toString());
  }
}
