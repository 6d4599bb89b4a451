package blksim.kernel.workqueue;

import static blksim.kernel.workqueue.WqHarness.MS;
import static blksim.kernel.workqueue.WqHarness.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.Partitioning;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.topology.TopologyParams;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * kernel-model.md §12.6 acceptance checks 2 and 3: effective max_active of unbound workqueues by
 * kernel mode (§4.7).
 */
class MaxActiveLimitsTest {
  /** Thread 2's machine with numa=off: 96 CPUs, one node, two cache pods of 48. */
  static final TopologyParams NUMA_OFF = new TopologyParams(1, 1, 2, 24, 2);
  /** The same with numa=on: two nodes of 48 CPUs. */
  static final TopologyParams NUMA_ON = new TopologyParams(2, 1, 1, 24, 2);
  static final String BTRFS = "btrfs-endio-write";
  static final String DMZ = "dmz_cwq_dmz_dml_072";

  /** Every CPU queues {@code perCpu} long blocking items on {@code wq} at time 0, then flushes. */
  static WqHarness run(WqHarness h, Workqueue wq, int perCpu, long blockNs) {
    WorkqueueSystem sys = h.build();
    for (int c = 0; c < h.topo.cpuCount(); c++) {
      int cpu = c;
      h.driver(c).then(t -> {
        for (int i = 0; i < perCpu; i++) {
          WorkItem item = WorkItem.oneShot(wq.name(), h.logged(wq.name(), cpu, 10 * US, blockNs));
          assertTrue(sys.queueWork(t.cpu(), wq, item));
        }
        t.runFor(CpuMode.SYSTEM, 0);
      }).flush(sys, wq);
    }
    h.run(Partitioning.ONE, Long.MAX_VALUE);
    assertEquals(h.topo.cpuCount() * perCpu, h.log.size(), "every item ran");
    return h;
  }

  static WqHarness btrfs(KernelMode mode, TopologyParams topo) {
    WqHarness h = new WqHarness(topo, WorkqueueParams.defaults(mode));
    Workqueue wq = h.builder.allocWorkqueue(BTRFS,
        Workqueue.WQ_UNBOUND | Workqueue.WQ_MEM_RECLAIM | Workqueue.WQ_FREEZABLE, 8);
    return run(h, wq, 8, 100 * MS);
  }

  @ParameterizedTest
  @EnumSource(KernelMode.class)
  void btrfsLikeWq_onOneNodeOf96Cpus_reachesTheModesLimit(KernelMode mode) {
    WqHarness h = btrfs(mode, NUMA_OFF);
    int expected = mode == KernelMode.V6_5_TO_6_8 ? 8 * 96 : 8;
    assertEquals(expected, h.maxConcurrency(BTRFS, -1), mode + ": concurrent items");
  }

  @ParameterizedTest
  @EnumSource(value = KernelMode.class, names = {"PRE_6_5", "V6_9_RC", "V6_9"})
  void btrfsLikeWq_onTwoNodesOf48Cpus_runs8PerNode16InAll(KernelMode mode) {
    WqHarness h = btrfs(mode, NUMA_ON);
    assertEquals(8, h.maxConcurrency(BTRFS, 0), mode + ": node 0");
    assertEquals(8, h.maxConcurrency(BTRFS, 1), mode + ": node 1");
    assertEquals(16, h.maxConcurrency(BTRFS, -1), mode + ": in all");
  }

  /** dm-zoned's chunk wq on 2 nodes of 8 CPUs, 300 chunk works queued at once. */
  static WqHarness dmZoned(KernelMode mode, boolean nodeBound) {
    WorkqueueParams p = WorkqueueParams.defaults(mode).withNodeBoundPools(nodeBound)
        .withMonitorIntervalNs(10 * MS);
    WqHarness h = new WqHarness(new TopologyParams(2, 1, 1, 8, 1), p);
    Workqueue wq = h.builder.allocWorkqueue(DMZ,
        Workqueue.WQ_MEM_RECLAIM | Workqueue.WQ_UNBOUND, 0);
    assertEquals(256, wq.maxActive(), "max_active 0 means WQ_DFL_ACTIVE");
    // 19 per CPU on 16 CPUs: 304 items.
    return run(h, wq, 19, 100 * MS);
  }

  @Test
  void dmZonedLikeWq_withNodelessPools_isCappedAt8_inV6_9Rc() {
    assertEquals(8, dmZoned(KernelMode.V6_9_RC, false).maxConcurrency(DMZ, -1));
  }

  @Test
  void dmZonedLikeWq_withNodelessPools_isCappedAt256_inV6_9() {
    assertEquals(256, dmZoned(KernelMode.V6_9, false).maxConcurrency(DMZ, -1));
  }

  @Test
  void dmZonedLikeWq_withNodeBoundPools_getsHalfPerNode_inV6_9Rc() {
    WqHarness h = dmZoned(KernelMode.V6_9_RC, true);
    assertEquals(128, h.maxConcurrency(DMZ, 0));
    assertEquals(128, h.maxConcurrency(DMZ, 1));
  }

  @Test
  void wqMonitorInfl_equalsTheItemsBeingProcessed_atEverySample() {
    WqHarness h = dmZoned(KernelMode.V6_9, false);
    List<WqMonitorSnapshot> samples = h.sys.monitorSamples(h.reports());
    assertTrue(samples.size() > 10, "samples every 10 ms: " + samples.size());
    long peak = 0;
    for (WqMonitorSnapshot s : samples) {
      long t = s.timeNs();
      boolean edge = h.log.stream().anyMatch(e -> e.start() == t || e.end() == t);
      if (!edge) {
        assertEquals(h.runningAt(DMZ, t), s.row(DMZ).infl(), "infl at " + t);
      }
      peak = Math.max(peak, s.row(DMZ).infl());
    }
    assertEquals(256, peak);
    WqMonitorSnapshot last = samples.get(samples.size() - 1);
    String table = WqMonitorRenderer.table(last, Pattern.compile("dmz"));
    String row = table.split("\n")[2];
    assertTrue(row.startsWith(DMZ), row);
    assertEquals("-", row.substring(24).trim().split(" +")[3], "CPUitsv is '-' for unbound: "
        + row);
  }
}
