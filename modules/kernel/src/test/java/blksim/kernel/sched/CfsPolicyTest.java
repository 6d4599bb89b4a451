package blksim.kernel.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The CFS policy on its own: weights, tunables, placement, picking and preemption checks. */
class CfsPolicyTest {
  static final long MS = 1_000_000;

  static final class Idle extends Task {
    Idle(String name, int nice, int id) {
      super(name, id, nice);
      taskId = id;
      orderKey = id;
    }

    @Override
    protected void step(TaskCpu cpu) {
      cpu.sleep();
    }
  }

  @Test
  void weights_followSchedPrioToWeight_andCalcDeltaFairScalesByThem() {
    assertEquals(1024, LoadWeight.ofNice(0));
    assertEquals(88761, LoadWeight.ofNice(-20));
    assertEquals(15, LoadWeight.ofNice(19));
    assertEquals(335, LoadWeight.ofNice(5));
    for (int n = LoadWeight.MIN_NICE; n < LoadWeight.MAX_NICE; n++) {
      double step = (double) LoadWeight.ofNice(n) / LoadWeight.ofNice(n + 1);
      assertTrue(step >= 1.19 && step <= 1.31, "nice " + n + " step " + step);
    }
    assertThrows(IllegalArgumentException.class, () -> LoadWeight.ofNice(20));
    assertEquals(MS, LoadWeight.calcDeltaFair(MS, 1024));
    assertEquals(11_536, LoadWeight.calcDeltaFair(MS, 88761), "1 ms of a nice -20 task");
    assertEquals(MS * 1024 / 15, LoadWeight.calcDeltaFair(MS, 15));
  }

  @Test
  void tunables_scaleWithOneplusLog2OfTheCpuCount_cappedAtEight() {
    assertEquals(1, SchedParams.tunableScalingFactor(1));
    assertEquals(2, SchedParams.tunableScalingFactor(3));
    assertEquals(3, SchedParams.tunableScalingFactor(4));
    assertEquals(4, SchedParams.tunableScalingFactor(8));
    assertEquals(4, SchedParams.tunableScalingFactor(48));
    SchedParams p = SchedParams.forCpus(48, PreemptModel.NONE, 300, 1_500, 2_000, 4_000);
    assertEquals(24 * MS, p.schedLatencyNs());
    assertEquals(3 * MS, p.minGranularityNs());
    assertEquals(4 * MS, p.wakeupGranularityNs());
    assertEquals(8, p.schedNrLatency());
    assertEquals(3_333_333, p.tickNs(), "TICK_NSEC rounds to nearest");
    assertEquals(4 * MS, new SchedParams(0, 0, 1).tickNs(), "HZ 250 by default");
    assertThrows(IllegalArgumentException.class, () -> p.withTunables(MS, 2 * MS, MS));
    assertThrows(IllegalArgumentException.class, () -> p.withHz(0));
    assertEquals(PreemptModel.FULL, PreemptModel.parse("full"));
    assertThrows(IllegalArgumentException.class, () -> PreemptModel.parse("rt"));
  }

  @Test
  void slices_splitTheLatencyByWeight_withTheMinimumGranularityAsFloor() {
    SchedParams p = SchedParams.forCpus(48, PreemptModel.NONE, 250, 0, 0, 1);
    CfsPolicy q = new CfsPolicy(p);
    Idle a = new Idle("a", 0, 0);
    Idle b = new Idle("b", 0, 1);
    q.enqueueInitial(a);
    q.enqueueInitial(b);
    assertEquals(12 * MS, q.schedSlice(a), "two equal tasks halve 24 ms");
    for (int i = 2; i < 10; i++) {
      q.enqueueInitial(new Idle("t" + i, 0, i));
    }
    assertEquals(10 * 3 * MS, q.schedPeriod(10), "above sched_nr_latency the period grows");
    assertEquals(3 * MS, q.schedSlice(a));
    Idle light = new Idle("light", 19, 10);
    q.enqueueInitial(light);
    assertEquals(3 * MS, q.schedSlice(light), "BASE_SLICE floor");
  }

  @Test
  void pick_takesTheSmallestVruntime_tiesByTaskId_andTracksMinVruntime() {
    CfsPolicy q = new CfsPolicy(new SchedParams(0, 0, 1));
    Idle a = new Idle("a", 0, 0);
    Idle b = new Idle("b", 0, 1);
    q.enqueueInitial(b);
    q.enqueueInitial(a);
    assertSame(a, q.pickNextTask(0), "equal vruntime: lower id first");
    q.updateCurr(5 * MS);
    assertEquals(5 * MS, a.vruntimeNs());
    assertEquals(0, q.minVruntime(), "b at 0 is still the minimum");
    q.putPrevTask(5 * MS);
    assertSame(b, q.pickNextTask(5 * MS));
    q.updateCurr(7 * MS);
    assertEquals(2 * MS, q.minVruntime());
    q.dequeueCurr(7 * MS);
    assertEquals(5 * MS, q.minVruntime(), "b asleep: a is the minimum");
    assertEquals(1, q.nrRunning());
    assertSame(a, q.pickNextTask(7 * MS));
    q.dequeueCurr(8 * MS);
    assertNull(q.pickNextTask(8 * MS));
    assertEquals(6 * MS, q.minVruntime(), "never moves backwards");
  }

  @Test
  void wakeup_placesASleeperAtMostHalfALatencyBehindMinVruntime() {
    CfsPolicy q = new CfsPolicy(new SchedParams(0, 0, 1));
    Idle sleeper = new Idle("sleeper", 0, 0);
    Idle runner = new Idle("runner", 0, 1);
    q.enqueueInitial(sleeper);
    q.enqueueInitial(runner);
    assertSame(sleeper, q.pickNextTask(0));
    q.dequeueCurr(0);
    assertSame(runner, q.pickNextTask(0));
    q.enqueueWakeup(sleeper, 100 * MS);
    assertEquals(100 * MS - 3 * MS, sleeper.vruntimeNs(), "GENTLE_FAIR_SLEEPERS: 6 ms / 2");
    assertTrue(q.checkPreemptWakeup(sleeper, 100 * MS), "3 ms behind > 1 ms granularity");

    CfsPolicy q2 = new CfsPolicy(new SchedParams(0, 0, 1));
    Idle s2 = new Idle("sleeper", 0, 0);
    Idle r2 = new Idle("runner", 0, 1);
    q2.enqueueInitial(s2);
    q2.enqueueInitial(r2);
    assertSame(s2, q2.pickNextTask(0));
    q2.updateCurr(MS);
    q2.dequeueCurr(MS);
    assertSame(r2, q2.pickNextTask(MS));
    q2.enqueueWakeup(s2, MS + MS / 2);
    assertEquals(MS, s2.vruntimeNs(), "a short sleeper keeps its own larger vruntime");
    assertFalse(q2.checkPreemptWakeup(s2, MS + MS / 2), "only 0.5 ms behind");
  }

  @Test
  void wakeupGranularity_isConvertedByTheWakeesWeight() {
    CfsPolicy q = new CfsPolicy(new SchedParams(0, 0, 1));
    Idle hi = new Idle("hi", -20, 0);
    Idle cur = new Idle("cur", 0, 1);
    q.enqueueInitial(hi);
    q.enqueueInitial(cur);
    assertSame(hi, q.pickNextTask(0));
    q.dequeueCurr(0);
    assertSame(cur, q.pickNextTask(0));
    // min_vruntime - 3 ms is below 0, so hi keeps vruntime 0; cur is 12 us ahead.
    q.enqueueWakeup(hi, 12_000);
    assertTrue(q.checkPreemptWakeup(hi, 12_000), "12 us > 1 ms * 1024 / 88761 = 11.5 us");
    q.putPrevTask(12_000);
    assertSame(hi, q.pickNextTask(12_000));

    CfsPolicy q2 = new CfsPolicy(new SchedParams(0, 0, 1));
    Idle peer = new Idle("peer", 0, 0);
    Idle cur2 = new Idle("cur", 0, 1);
    q2.enqueueInitial(peer);
    q2.enqueueInitial(cur2);
    assertSame(peer, q2.pickNextTask(0));
    q2.dequeueCurr(0);
    assertSame(cur2, q2.pickNextTask(0));
    q2.enqueueWakeup(peer, 12_000);
    assertFalse(q2.checkPreemptWakeup(peer, 12_000), "a nice-0 wakee needs more than 1 ms");
  }

  @Test
  void tick_preemptsAfterTheSlice_andNotBeforeTheMinimumGranularity() {
    CfsPolicy q = new CfsPolicy(new SchedParams(0, 0, 1));
    Idle a = new Idle("a", 0, 0);
    Idle b = new Idle("b", 0, 1);
    q.enqueueInitial(a);
    q.enqueueInitial(b);
    assertSame(a, q.pickNextTask(0));
    assertFalse(q.taskTick(MS / 2), "below min granularity");
    assertFalse(q.taskTick(3 * MS), "exactly the 3 ms slice is not more than it");
    assertTrue(q.taskTick(3 * MS + 1));
    q.putPrevTask(3 * MS + 1);
    assertSame(b, q.pickNextTask(3 * MS + 1), "the buddy-free pick is the leftmost");
  }

  @Test
  void newTask_isPlacedOneVsliceRightOfMinVruntime() {
    CfsPolicy q = new CfsPolicy(new SchedParams(0, 0, 1));
    Idle parent = new Idle("parent", 0, 0);
    q.enqueueInitial(parent);
    assertSame(parent, q.pickNextTask(0));
    Idle child = new Idle("child", 0, 1);
    q.enqueueNew(child, parent, 2 * MS);
    // vslice with two tasks: 6 ms * 1024 / 2048 = 3 ms.
    assertEquals(2 * MS + 3 * MS, child.vruntimeNs());
    assertFalse(q.checkPreemptWakeup(child, 2 * MS), "START_DEBIT: no preemption at fork");
  }
}
