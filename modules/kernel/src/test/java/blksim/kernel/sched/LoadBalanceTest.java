package blksim.kernel.sched;

import static blksim.kernel.sched.ScriptedTask.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.RunOutcome;
import blksim.kernel.topology.Cpu;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * CFS load balancing within an LLC (issue 15 items 3 and 8): domains from the topology,
 * imbalance detection, migration, the cache-hot rule, affinity, per-CPU (bound) tasks, new-idle
 * and nohz idle balancing. 1 us switches, 4 us IPIs, HZ 250.
 */
@Timeout(30)
class LoadBalanceTest {
  static final SchedParams P = CfsSchedulerTest.P;
  static final long MS = 1_000_000;
  static final long TICK = P.tickNs();

  /** CPUs {@code 0..n-1} of one LLC, {@code threads} per core, joined and balanced with {@code p}. */
  static List<CpuComponent> llc(int n, int threads, LoadBalanceParams p) {
    List<CpuComponent> cpus = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      cpus.add(new CpuComponent(new Cpu(i, 0, 0, 0, i / threads), P));
    }
    for (CpuComponent c : cpus) {
      c.joinLlc(cpus);
    }
    CpuComponent.loadBalance(cpus, p);
    return cpus;
  }

  /** An unbound user-mode hog: 1 ms bursts for ever (a live task). */
  static ScriptedTask hog(String name) {
    ScriptedTask t = ScriptedTask.live(name);
    t.setUnbound(true);
    return t.loop(c -> c.runFor(CpuMode.USER, MS));
  }

  static RunOutcome go(long maxNs, List<CpuComponent> cpus) {
    return run(P, maxNs, cpus.toArray(new CpuComponent[0]));
  }

  static long userNs(RunOutcome out, int cpu) {
    return CpuReport.decode(out.reports().get(cpu).report().payload()).userNs();
  }

  @Test
  void domains_areBuiltFromTheTopology_smtThenMc() {
    List<CpuComponent> smt = llc(4, 2, LoadBalanceParams.DEFAULT);
    assertEquals(List.of("SMT: {0} {1}", "MC: {0,1} {2,3}"), smt.get(0).schedDomains());
    assertEquals(List.of("SMT: {2} {3}", "MC: {0,1} {2,3}"), smt.get(3).schedDomains());
    List<CpuComponent> flat = llc(3, 1, LoadBalanceParams.DEFAULT);
    assertEquals(List.of("MC: {0} {1} {2}"), flat.get(1).schedDomains());
    List<CpuComponent> oneCore = llc(2, 2, LoadBalanceParams.DEFAULT);
    assertEquals(List.of("SMT: {0} {1}"), oneCore.get(0).schedDomains(),
        "an MC level spanning the core only is degenerate");
    assertTrue(llc(3, 1, LoadBalanceParams.OFF).get(0).schedDomains().isEmpty());
  }

  @Test
  void imbalance_isDetected_andTheIdleCpusPullUntilEachRunsOneTask() {
    List<CpuComponent> cpus = llc(3, 1, LoadBalanceParams.DEFAULT);
    List<ScriptedTask> hogs = List.of(hog("a"), hog("b"), hog("c"));
    for (ScriptedTask h : hogs) {
      cpus.get(0).addTask(h);
    }
    RunOutcome out = go(40 * MS, cpus);
    long ipi = P.wakeupLatencyNs();
    long sw = P.ctxSwitchNs();
    // The first tick of the overloaded CPU 0 kicks CPU 1 (the first idle CPU), which balances
    // for CPU 2, then for itself, after the IPI: CPU 2 gets c, which never ran (cold).
    assertEquals(40 * MS - (TICK + ipi + sw), userNs(out, 2));
    // The task CPU 1 could take was preempted by that very tick: cache hot at the kicks of
    // ticks 1 and 2 (nr_balance_failed 0 and 1), pulled at tick 3 (2 > cache_nice_tries 1).
    assertEquals(40 * MS - (3 * TICK + ipi + sw), userNs(out, 1));
    assertTrue(userNs(out, 0) > 30 * MS);
    long moved = hogs.stream().mapToLong(Task::migrations).sum();
    assertEquals(2, moved, "two hogs moved, once each: the load was then balanced");
    // nohz idle balancing: the first tick of the overloaded CPU kicks an idle CPU, which pulls
    // for both idle CPUs after the IPI.
    assertEquals(1, cpus.get(1).loadBalanceStats()[0]);
    assertEquals(1, cpus.get(2).loadBalanceStats()[0]);
  }

  @Test
  void off_movesNothing() {
    List<CpuComponent> cpus = llc(3, 1, LoadBalanceParams.OFF);
    List<ScriptedTask> hogs = List.of(hog("a"), hog("b"), hog("c"));
    for (ScriptedTask h : hogs) {
      cpus.get(0).addTask(h);
    }
    RunOutcome out = go(40 * MS, cpus);
    assertEquals(0, userNs(out, 1));
    assertEquals(0, userNs(out, 2));
    assertEquals(0, hogs.stream().mapToLong(Task::migrations).sum());
  }

  /**
   * CPU 1 runs a 1 ms task and goes idle while CPU 0 has a hog running and {@code b} queued
   * (never run: its {@code exec_start} is 0): the new-idle balance pulls {@code b} unless it is
   * cache hot. The run stops before CPU 0's first tick, so only the new-idle balance acts.
   */
  ScriptedTask newidle(LoadBalanceParams p, int[] bAffinity, boolean bUnbound) {
    List<CpuComponent> cpus = llc(2, 1, p);
    ScriptedTask a = hog("a");
    ScriptedTask b = ScriptedTask.live("b");
    b.setUnbound(bUnbound);
    b.setAllowedCpus(bAffinity);
    b.loop(c -> c.runFor(CpuMode.USER, MS));
    cpus.get(0).addTask(a);
    cpus.get(0).addTask(b);
    cpus.get(1).addTask(new ScriptedTask("short", 0, false)
        .then(c -> c.runFor(CpuMode.USER, MS)));
    go(TICK - 1, cpus);
    return b;
  }

  @Test
  void newidle_pullsAColdQueuedTask_atOnce() {
    ScriptedTask b = newidle(LoadBalanceParams.DEFAULT, null, true);
    assertEquals(1, b.migrations());
    assertEquals("cpu/1", b.cpu().id());
    // short: switch-in (1 us) + 1 ms, exits; b: pulled then switched in (1 us)
    long expected = P.ctxSwitchNs() + MS + P.ctxSwitchNs();
    assertEquals(expected, b.stepTimes.get(0), "b's first step on CPU 1");
  }

  @Test
  void newidle_refusesACacheHotTask() {
    // migration cost 10 ms: b, never run, "ran" less than that ago at 1 ms.
    ScriptedTask b = newidle(new LoadBalanceParams(true, 10 * MS, 32), null, true);
    assertEquals(0, b.migrations());
    assertEquals("cpu/0", b.cpu().id());
  }

  @Test
  void affinity_isRespected() {
    ScriptedTask b = newidle(LoadBalanceParams.DEFAULT, new int[] {0}, true);
    assertEquals(0, b.migrations(), "b may run on CPU 0 only");
    ScriptedTask c = newidle(LoadBalanceParams.DEFAULT, new int[] {0, 1}, true);
    assertEquals(1, c.migrations());
  }

  @Test
  void perCpuTasks_neverMove() {
    ScriptedTask b = newidle(LoadBalanceParams.DEFAULT, null, false);
    assertEquals(0, b.migrations(), "a bound (per-CPU kthread-like) task stays");
  }

  @Test
  void smtLevel_ignoresCacheHotness_siblingsShareTheCaches() {
    // Two threads of one core: b is "hot" by a 10 ms migration cost but the SMT domain never
    // calls a task hot (SD_SHARE_CPUCAPACITY).
    List<CpuComponent> cpus = llc(2, 2, new LoadBalanceParams(true, 10 * MS, 32));
    ScriptedTask a = hog("a");
    ScriptedTask b = hog("b");
    cpus.get(0).addTask(a);
    cpus.get(0).addTask(b);
    cpus.get(1).addTask(new ScriptedTask("short", 0, false)
        .then(c -> c.runFor(CpuMode.USER, MS)));
    go(TICK - 1, cpus);
    assertEquals(1, b.migrations());
  }

  @Test
  void samples_recordRunQueueLengthAndMigrations() {
    List<CpuComponent> cpus = llc(2, 1, LoadBalanceParams.DEFAULT);
    for (CpuComponent c : cpus) {
      c.sample(MS);
    }
    cpus.get(0).addTask(hog("a"));
    cpus.get(0).addTask(hog("b"));
    cpus.get(0).addTask(hog("c"));
    RunOutcome out = go(20 * MS, cpus);
    CpuSamples.Series s0 = CpuReport.decode(out.reports().get(0).report().payload()).samples();
    CpuSamples.Series s1 = CpuReport.decode(out.reports().get(1).report().payload()).samples();
    assertEquals(3 * MS, s0.nrRunningNs()[0], "3 runnable tasks for the first interval");
    assertEquals(0, s1.nrRunningNs()[0]);
    long last = s0.nrRunningNs().length - 1;
    assertTrue(s1.nrRunningNs()[(int) last] >= MS, "CPU 1 runs a pulled hog at the end");
    assertEquals(1, java.util.Arrays.stream(s1.migrations()).sum());
    assertEquals(0, java.util.Arrays.stream(s0.migrations()).sum());
  }
}
