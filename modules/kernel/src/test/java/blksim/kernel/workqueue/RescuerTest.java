package blksim.kernel.workqueue;

import static blksim.kernel.workqueue.WqHarness.MS;
import static blksim.kernel.workqueue.WqHarness.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.Partitioning;
import blksim.kernel.sched.CpuMode;
import org.junit.jupiter.api.Test;

/** Rescuer and mayday when worker creation is stuck (kernel-model.md §4.5). */
class RescuerTest {
  /** Worker creation takes a full second, far beyond MAYDAY_INITIAL_TIMEOUT; pools start with
   * their boot worker only, so the first wakeup must create a worker. */
  static final long STUCK_NS = 1_000_000_000L;

  static WqHarness run(int flags, int cpus, int items) {
    WqHarness h = new WqHarness(WqHarness.cpus(cpus),
        WorkqueueParams.defaults(KernelMode.V6_9).withKthreadCreateNs(STUCK_NS)
            .withInitialWorkers(1));
    Workqueue wq = h.builder.allocWorkqueue("reclaim", flags, 0);
    WorkqueueSystem sys = h.build();
    h.driver(0).then(t -> {
      for (int i = 0; i < items; i++) {
        sys.queueWork(t.cpu(), wq, new WorkItem("r", h.logged("r", i, 10 * US, MS)));
      }
      t.runFor(CpuMode.SYSTEM, 0);
    }).flush(sys, wq);
    h.run(Partitioning.ONE, Long.MAX_VALUE);
    assertEquals(items, h.log.size());
    return h;
  }

  @Test
  void perCpuMemReclaimWq_isRescued_whileWorkerCreationIsStuck() {
    WqHarness h = run(Workqueue.WQ_MEM_RECLAIM, 1, 3);
    WqMonitorSnapshot.Row r = h.sys.snapshot(0).row("reclaim");
    assertTrue(r.stat(PwqStat.MAYDAY) >= 1, r.toString());
    assertEquals(3, r.stat(PwqStat.RESCUED), r.toString());
    for (WqHarness.Exec e : h.log) {
      assertEquals("reclaim", e.worker(), "run by the rescuer thread");
      assertTrue(e.end() < 100 * MS, "long before the worker exists: " + e);
    }
    long firstStart = h.log.stream().mapToLong(WqHarness.Exec::start).min().getAsLong();
    long tick = h.sys.timerParams().jiffies().tickNs();
    assertTrue(firstStart >= WqConstants.maydayInitialTimeout(h.sys.timerParams().hz()) * tick,
        "not before the mayday timer: " + firstStart);
  }

  @Test
  void perCpuWqWithoutMemReclaim_waitsForTheWorker() {
    WqHarness h = run(0, 1, 3);
    WqMonitorSnapshot.Row r = h.sys.snapshot(0).row("reclaim");
    assertEquals(0, r.stat(PwqStat.RESCUED));
    assertEquals(0, r.stat(PwqStat.MAYDAY));
    assertTrue(h.log.stream().allMatch(e -> e.start() >= STUCK_NS), h.log.toString());
    String row = WqMonitorRenderer.row(r);
    assertTrue(row.trim().endsWith("-       -"), "mayday and rescued shown as '-': " + row);
  }

  @Test
  void unboundMemReclaimWq_isRescuedByItsHost() {
    WqHarness h = run(Workqueue.WQ_MEM_RECLAIM | Workqueue.WQ_UNBOUND, 2, 5);
    WqMonitorSnapshot.Row r = h.sys.snapshot(0).row("reclaim");
    assertTrue(r.stat(PwqStat.MAYDAY) >= 1, r.toString());
    assertEquals(5, r.stat(PwqStat.RESCUED), r.toString());
    assertTrue(h.log.stream().allMatch(e -> e.end() < 100 * MS), h.log.toString());
  }
}
