package blksim.kernel.workqueue;

import static blksim.kernel.workqueue.WqHarness.MS;
import static blksim.kernel.workqueue.WqHarness.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.Partitioning;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.topology.TopologyParams;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Unbound pools grow to hundreds of kworkers when the 6.5-6.8 per-CPU pwqs let hundreds of items
 * block at once (kernel-model.md §4.6, §12.2), one serial {@code create_worker()} at a time, and
 * cull their idle workers after {@code IDLE_WORKER_TIMEOUT} (§4.2, §4.4).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WorkerGrowthTest {
  static final TopologyParams NUMA_OFF = MaxActiveLimitsTest.NUMA_OFF;
  static final String WQ = "btrfs-endio-write";
  static final long SECOND = 1_000 * MS;

  /**
   * Every CPU queues 8 items blocking 100 ms on an unbound wq of max_active 8 at time 0; a driver
   * keeps the run alive until {@code untilNs}.
   */
  static WqHarness run(WorkqueueParams p, long untilNs) {
    WqHarness h = new WqHarness(NUMA_OFF, p);
    Workqueue wq = h.builder.allocWorkqueue(WQ,
        Workqueue.WQ_UNBOUND | Workqueue.WQ_MEM_RECLAIM | Workqueue.WQ_FREEZABLE, 8);
    WorkqueueSystem sys = h.build();
    for (int c = 0; c < h.topo.cpuCount(); c++) {
      int cpu = c;
      h.driver(c).then(t -> {
        for (int i = 0; i < 8; i++) {
          assertTrue(sys.queueWork(t.cpu(), wq,
              WorkItem.oneShot(WQ, h.logged(WQ, cpu, 10 * US, 100 * MS))));
        }
        t.runFor(CpuMode.SYSTEM, 0);
      }).flush(sys, wq);
    }
    h.driver(0).at(untilNs);
    h.run(Partitioning.ONE, Long.MAX_VALUE);
    assertEquals(768, h.log.size(), "every item ran");
    return h;
  }

  /** The cache pods' pools of {@link #WQ} (ids of its per-CPU pwqs), with their end states. */
  static List<WqOwnerReport.PoolState> podPools(WqHarness h) {
    Workqueue wq = h.sys.workqueues().stream().filter(w -> w.name().equals(WQ)).findFirst()
        .orElseThrow();
    java.util.Set<Integer> ids = new java.util.TreeSet<>();
    for (int c = 0; c < h.topo.cpuCount(); c++) {
      ids.add(wq.poolOfCpu(c));
    }
    return WorkqueueSystem.ownerReports(h.reports()).stream().flatMap(o -> o.pools().stream())
        .filter(ps -> ids.contains(ps.id())).toList();
  }

  static long lastStart(WqHarness h) {
    return h.log.stream().mapToLong(WqHarness.Exec::start).max().orElseThrow();
  }

  @Test
  void v6_5PerCpuPwqs_growEachCachePodPoolToHundredsOfWorkers_oneCreationAtATime() {
    WorkqueueParams p = WorkqueueParams.defaults(KernelMode.V6_5_TO_6_8);
    WqHarness h = run(p, 0);
    assertEquals(768, h.maxConcurrency(WQ, -1), "8 x 96 items blocked at once");
    List<WqOwnerReport.PoolState> pools = podPools(h);
    assertEquals(2, pools.size(), "numa=off: two cache pods of 48 CPUs");
    for (WqOwnerReport.PoolState ps : pools) {
      // 384 items at once per pod, plus the spare the pool keeps.
      assertTrue(ps.nrWorkers() >= 385, "pool " + ps.id() + ": " + ps.nrWorkers() + " workers");
      assertEquals(ps.nrWorkers(), ps.nrIdle(), "all idle again at the end");
    }
    // create_worker() is serial per pool: the last of 384 items of a pod waits for ~382
    // creations of kthreadCreateNs each.
    long serial = (384 - p.initialWorkers()) * p.kthreadCreateNs();
    assertTrue(lastStart(h) >= serial, "last start " + lastStart(h) + " ns, serial creation "
        + serial + " ns");
  }

  @Test
  void creationCpuCost_delaysEveryCreationByItsBurst() {
    WorkqueueParams base = WorkqueueParams.defaults(KernelMode.V6_5_TO_6_8);
    long without = lastStart(run(base, 0));
    long cpuNs = 50 * US;
    long with = lastStart(run(base.withCreateWorkerCpuNs(cpuNs), 0));
    assertTrue(with - without >= (384 - base.initialWorkers()) * cpuNs,
        "last start " + without + " -> " + with + " ns with " + cpuNs + " ns per creation");
  }

  @Test
  void idleWorkers_stayUntilIdleWorkerTimeout_thenAreCulledDownToTwo() {
    WorkqueueParams p = WorkqueueParams.defaults(KernelMode.V6_5_TO_6_8);
    // Items end by ~0.2 s: at 200 s nothing has been idle for IDLE_WORKER_TIMEOUT (300 s).
    for (WqOwnerReport.PoolState ps : podPools(run(p, 200 * SECOND))) {
      assertTrue(ps.nrWorkers() >= 385, "at 200 s pool " + ps.id() + ": " + ps.nrWorkers());
    }
    for (WqOwnerReport.PoolState ps : podPools(run(p, 400 * SECOND))) {
      // too_many_workers() with nothing busy: cull while more than 2 are idle.
      assertEquals(2, ps.nrWorkers(), "at 400 s pool " + ps.id());
      assertEquals(2, ps.nrIdle(), "at 400 s pool " + ps.id());
    }
  }

  @Test
  void pre6_5_numaOff_keepsOnePoolAtMaxActivePlusSpare() {
    WqHarness h = run(WorkqueueParams.defaults(KernelMode.PRE_6_5), 0);
    assertEquals(8, h.maxConcurrency(WQ, -1));
    List<WqOwnerReport.PoolState> pools = podPools(h);
    assertEquals(1, pools.size(), "one node: one pwq, one pool");
    assertTrue(pools.get(0).nrWorkers() <= 8 + 2, pools.get(0).toString());
  }

  /** A per-CPU wq on 1 CPU: 20 items that each block 10 ms make the normal pool grow. */
  static WqHarness perCpu(long untilNs) {
    WqHarness h = new WqHarness(WqHarness.cpus(1), WorkqueueParams.defaults(KernelMode.V6_9));
    Workqueue wq = h.builder.allocWorkqueue("kdelayd", Workqueue.WQ_MEM_RECLAIM, 0);
    WorkqueueSystem sys = h.build();
    h.driver(0).then(t -> {
      for (int i = 0; i < 20; i++) {
        assertTrue(sys.queueWork(t.cpu(), wq,
            WorkItem.oneShot("kdelayd", h.logged("kdelayd", 0, 10 * US, 10 * MS))));
      }
      t.runFor(CpuMode.SYSTEM, 0);
    }).flush(sys, wq).at(untilNs);
    h.run(Partitioning.ONE, Long.MAX_VALUE);
    assertEquals(20, h.log.size());
    return h;
  }

  static WqOwnerReport.PoolState normalPool(WqHarness h) {
    return WorkqueueSystem.ownerReports(h.reports()).stream().flatMap(o -> o.pools().stream())
        .filter(ps -> ps.id() == 0).findFirst().orElseThrow();
  }

  @Test
  void perCpuPool_growsWhileItemsBlock_andIsCulledAfterIdleWorkerTimeout() {
    WqOwnerReport.PoolState early = normalPool(perCpu(200 * SECOND));
    assertTrue(early.nrWorkers() >= 20, "one worker per blocked item: " + early);
    WqOwnerReport.PoolState late = normalPool(perCpu(400 * SECOND));
    assertEquals(2, late.nrWorkers(), "culled down to 2 idle: " + late);
  }
}
