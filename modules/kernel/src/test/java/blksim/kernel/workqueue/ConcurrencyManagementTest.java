package blksim.kernel.workqueue;

import static blksim.kernel.workqueue.WqHarness.MS;
import static blksim.kernel.workqueue.WqHarness.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.Partitioning;
import blksim.kernel.sched.CpuMode;
import org.junit.jupiter.api.Test;

class ConcurrencyManagementTest {

  /** A WorkerCpu passing everything to another. */
  static class ForwardingCpu implements WorkerCpu {
    final WorkerCpu d;

    ForwardingCpu(WorkerCpu d) {
      this.d = d;
    }

    @Override
    public long now() {
      return d.now();
    }

    @Override
    public blksim.kernel.sched.CpuComponent cpu() {
      return d.cpu();
    }

    @Override
    public Worker worker() {
      return d.worker();
    }

    @Override
    public WorkRef work() {
      return d.work();
    }

    @Override
    public Workqueue workqueue() {
      return d.workqueue();
    }

    @Override
    public void runFor(long ns) {
      d.runFor(ns);
    }

    @Override
    public void sleep() {
      d.sleep();
    }

    @Override
    public void sleepFor(long ns) {
      d.sleepFor(ns);
    }

    @Override
    public void condResched() {
      d.condResched();
    }

    @Override
    public boolean needResched() {
      return d.needResched();
    }

    @Override
    public void finish() {
      d.finish();
    }

    @Override
    public Runnable waker() {
      return d.waker();
    }

    @Override
    public boolean queueWork(Workqueue wq, WorkItem item) {
      return d.queueWork(wq, item);
    }

    @Override
    public void requeue() {
      d.requeue();
    }
  }

  /** Queues A then B on a per-CPU wq of a 1-CPU machine at time 0; returns the harness. */
  static WqHarness twoItems(WorkFn a, WorkFn b, WqHarness h) {
    Workqueue wq = h.builder.allocWorkqueue("test", 0, 0);
    WorkqueueSystem sys = h.build();
    WorkItem ia = new WorkItem("A", a);
    WorkItem ib = new WorkItem("B", b);
    h.driver(0).then(c -> {
      assertTrue(sys.queueWork(c.cpu(), wq, ia));
      assertTrue(sys.queueWork(c.cpu(), wq, ib));
      c.runFor(CpuMode.SYSTEM, 0);
    }).flush(sys, wq);
    h.run(Partitioning.ONE, Long.MAX_VALUE);
    return h;
  }

  static WqHarness harness() {
    return new WqHarness(WqHarness.cpus(1), WorkqueueParams.defaults(KernelMode.V6_9));
  }

  @Test
  void blockingItem_letsASecondWorkerStart() {
    WqHarness h = harness();
    twoItems(h.logged("A", 0, 10 * US, 2 * MS), h.logged("B", 0, 100 * US, 0), h);
    WqHarness.Exec a = h.log.stream().filter(e -> e.item().equals("A")).findFirst().get();
    WqHarness.Exec b = h.log.stream().filter(e -> e.item().equals("B")).findFirst().get();
    assertTrue(b.start() < a.end(), "B starts while A sleeps: " + h.log);
    assertTrue(!a.worker().equals(b.worker()), "on another worker: " + h.log);
    WqMonitorSnapshot s = h.sys.snapshot(0);
    assertEquals(1, s.row("test").stat(PwqStat.CM_WAKEUP), "one concurrency-management wakeup");
    assertEquals(2, s.row("test").total());
    assertEquals(0, s.row("test").infl());
  }

  @Test
  void cpuBoundItem_doesNotLetASecondWorkerStart() {
    WqHarness h = harness();
    twoItems(h.logged("A", 0, 500 * US, 0), h.logged("B", 0, 100 * US, 0), h);
    WqHarness.Exec a = h.log.stream().filter(e -> e.item().equals("A")).findFirst().get();
    WqHarness.Exec b = h.log.stream().filter(e -> e.item().equals("B")).findFirst().get();
    assertTrue(b.start() >= a.end(), "B waits for A: " + h.log);
    assertEquals(a.worker(), b.worker(), "the same worker keeps working");
    assertEquals(0, h.sys.snapshot(0).row("test").stat(PwqStat.CM_WAKEUP));
  }

  @Test
  void cpuHog_isFlaggedCpuIntensive_andStopsBlockingOthers() {
    WqHarness h = harness();
    // A hogs the CPU for 50 ms, calling cond_resched() every millisecond as kernel loops do.
    WorkStep[] hog = new WorkStep[100];
    for (int i = 0; i < hog.length; i += 2) {
      hog[i] = new WorkStep.Run(MS);
      hog[i + 1] = new WorkStep.CondResched();
    }
    WorkScript script = WorkScript.of(hog);
    WorkFn a = () -> {
      WorkRun r = script.begin();
      long[] start = {-1};
      return w -> {
        if (start[0] < 0) {
          start[0] = w.now();
        }
        r.step(new ForwardingCpu(w) {
          @Override
          public void finish() {
            h.log.add(new WqHarness.Exec("A", 0, 0, 0, w.worker().comm(), start[0], w.now()));
            w.finish();
          }
        });
      };
    };
    twoItems(a, h.logged("B", 0, 100 * US, 0), h);
    WqHarness.Exec a1 = h.log.stream().filter(e -> e.item().equals("A")).findFirst().get();
    WqHarness.Exec b = h.log.stream().filter(e -> e.item().equals("B")).findFirst().get();
    WqMonitorSnapshot.Row r = h.sys.snapshot(0).row("test");
    assertEquals(1, r.stat(PwqStat.CPU_INTENSIVE), "CPUitsv");
    assertEquals(1, r.stat(PwqStat.CM_WAKEUP), "the kick woke a worker");
    assertTrue(b.start() < a1.end(), "B no longer waits for A's 50 ms: " + h.log);
    assertTrue(b.start() - a1.start() < 20 * MS, "B starts about 10 ms in: " + h.log);
    assertTrue(r.stat(PwqStat.CPU_TIME) >= 48_000, "about 50 ms of ticks: " + r);
  }
}
