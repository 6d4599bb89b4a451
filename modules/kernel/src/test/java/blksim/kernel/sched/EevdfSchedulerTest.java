package blksim.kernel.sched;

import static blksim.kernel.sched.ScriptedTask.cpu;
import static blksim.kernel.sched.ScriptedTask.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.sched.SchedParams.SchedClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * EEVDF (6.6) through {@link CpuComponent}: requests of one base slice ended by the tick,
 * fair shares by weight, wakeup preemption only when the wakee would be picked, and the slice
 * protection of RUN_TO_PARITY. One CPU: base slice 0.75 ms, HZ 1000, 1 us switches.
 */
@Timeout(30)
class EevdfSchedulerTest {
  static final SchedParams CFS = new SchedParams(1_000, 2_000, 4_000).withHz(1000);
  static final SchedParams P = CFS.withScheduler(SchedClass.EEVDF);
  static final long MS = 1_000_000;

  /** A user-mode hog: {@code n} bursts of {@code ms} ms, then exit. */
  static ScriptedTask hog(String name, int nice, int n, long ms) {
    ScriptedTask t = new ScriptedTask(name, nice, true);
    for (int i = 0; i < n; i++) {
      t.then(c -> c.runFor(CpuMode.USER, ms * MS));
    }
    return t;
  }

  /** Two nice-0 hogs of 20 x 5 ms on one CPU with {@code p}, run to the end. */
  static ScriptedTask[] twoHogs(SchedParams p) {
    CpuComponent c = cpu(0, p);
    ScriptedTask a = hog("a", 0, 20, 5);
    ScriptedTask b = hog("b", 0, 20, 5);
    c.addTask(a);
    c.addTask(b);
    run(p, Long.MAX_VALUE, c);
    return new ScriptedTask[] {a, b};
  }

  @Test
  void twoHogs_alternateAboutEveryTick_whereCfsGivesThemLongerSlices() {
    ScriptedTask[] ab = twoHogs(P);
    ScriptedTask a = ab[0];
    ScriptedTask b = ab[1];
    // Each request is one base slice (0.75 ms); the 1 ms tick notices its end.
    assertTrue(a.nivcsw() >= 80 && b.nivcsw() >= 80, a.nivcsw() + " / " + b.nivcsw());
    long aEnd = a.stepTimes.get(a.stepTimes.size() - 1);
    long bEnd = b.stepTimes.get(b.stepTimes.size() - 1);
    assertTrue(Math.abs(aEnd - bEnd) < 2 * MS, "they share the CPU evenly: " + aEnd + " "
        + bEnd);
    ScriptedTask ca = twoHogs(CFS)[0];
    assertTrue(ca.nivcsw() <= 40, "CFS: 3 ms slices (6 ms latency / 2): " + ca.nivcsw());
  }

  @Test
  void niceWeights_shareTheCpuInProportion() {
    CpuComponent e = cpu(0, P);
    ScriptedTask hi = hog("hi", -5, 40, 5);
    ScriptedTask lo = hog("lo", 0, 40, 5);
    e.addTask(hi);
    e.addTask(lo);
    run(P, 100 * MS, e);
    double ratio = (double) hi.sumExecRuntimeNs() / lo.sumExecRuntimeNs();
    assertEquals(3121.0 / 1024, ratio, 0.15, "weights 3121 : 1024, ratio " + ratio);
  }

  @Test
  void wokenTask_preemptsOnlyWhenItWouldBePicked_afterTheCurrentRequest() {
    CpuComponent e = cpu(0, P);
    ScriptedTask hog = hog("hog", 0, 10, 5);
    ScriptedTask s = new ScriptedTask("s", 0, false);
    long wakeAt = 10 * MS + 300_000;
    s.then(c -> {
      CpuComponent cpu = c.cpu();
      cpu.callAfter(wakeAt - c.now(), () -> cpu.wake(s));
      c.sleep();
    }).then(c -> c.runFor(CpuMode.USER, 100_000)).then(TaskCpu::sleep);
    e.addTask(s);
    e.addTask(hog);
    run(P, Long.MAX_VALUE, e);
    long ranAt = s.stepTimes.get(1);
    // s slept long with lag 0 (alone when it slept): placed at V, it is eligible with an earlier
    // deadline than the hog's, but the hog keeps the CPU until its current request is served.
    assertTrue(ranAt > wakeAt, "not at once: " + (ranAt - wakeAt));
    assertTrue(ranAt - wakeAt <= MS + 2_000, "within the hog's request and a tick: "
        + (ranAt - wakeAt));
    assertEquals(1, s.nvcsw() - 1, "s slept twice, ran once in between");
  }
}
