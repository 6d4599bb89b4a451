package blksim.kernel.workqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.topology.TopologyParams;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Thread 2's two boots of the same 96-CPU machine with the existing topology keys
 * (kernel-model.md §4.6, §12.2): {@code numa=off}, one node whose 96 CPUs form two LLCs of 48
 * ({@code llcs-per-node = 2}), against {@code numa=on}, two nodes of 48 CPUs each one LLC. The
 * btrfs completion wq's pwqs must follow the pods of each kernel mode.
 */
class NumaOffPodsTest {
  static final TopologyParams NUMA_OFF = MaxActiveLimitsTest.NUMA_OFF;
  static final TopologyParams NUMA_ON = MaxActiveLimitsTest.NUMA_ON;

  record Layout(WorkqueueSystem sys, Workqueue wq) {
    /** CPUs per pool the wq's per-CPU (or per-node) pwqs use. */
    TreeMap<Integer, Integer> cpusPerPool() {
      TreeMap<Integer, Integer> m = new TreeMap<>();
      for (int c = 0; c < sys.topology().cpuCount(); c++) {
        m.merge(wq.poolOfCpu(c), 1, Integer::sum);
      }
      return m;
    }

    /** Distinct pwqs of the wq (keys). */
    int pwqs() {
      return (int) java.util.stream.IntStream.range(0, sys.topology().cpuCount())
          .map(wq::pwqKeyOf).distinct().count();
    }
  }

  static Layout layout(KernelMode mode, TopologyParams tp) {
    WqHarness h = new WqHarness(tp, WorkqueueParams.defaults(mode));
    Workqueue wq = h.builder.allocWorkqueue("btrfs-endio-write",
        Workqueue.WQ_UNBOUND | Workqueue.WQ_MEM_RECLAIM, 8);
    return new Layout(h.build(), wq);
  }

  @ParameterizedTest
  @EnumSource(KernelMode.class)
  void bothBoots_haveTwoLlcsOf48_andOneOrTwoNodes(KernelMode mode) {
    for (TopologyParams tp : new TopologyParams[] {NUMA_OFF, NUMA_ON}) {
      Layout l = layout(mode, tp);
      assertEquals(96, l.sys().topology().cpuCount());
      assertEquals(2, l.sys().podType(AffinityScope.CACHE).nrPods(), tp.toString());
      assertEquals(tp == NUMA_OFF ? 1 : 2, l.sys().podType(AffinityScope.NUMA).nrPods());
      assertEquals(tp == NUMA_OFF ? 1 : 2, l.sys().topology().nodeCount());
    }
  }

  @ParameterizedTest
  @EnumSource(KernelMode.class)
  void pwqsFollowThePodsOfEachMode(KernelMode mode) {
    Layout off = layout(mode, NUMA_OFF);
    Layout on = layout(mode, NUMA_ON);
    if (mode.perNodeUnbound()) {
      // Up to 6.4: one pwq per node on a strict node pool; numa=off has a single one.
      assertEquals(1, off.pwqs());
      assertEquals(1, off.cpusPerPool().size());
      assertEquals(96, off.cpusPerPool().firstEntry().getValue());
      assertEquals(2, on.pwqs());
      assertEquals(java.util.List.of(48, 48), java.util.List.copyOf(on.cpusPerPool().values()));
      assertEquals(AffinityScope.NUMA, off.wq().affinityScope());
      assertTrue(off.wq().affinityStrict());
    } else {
      // 6.5+: one pwq per CPU, pointing at its cache pod's pool: two pools of 48 either way.
      for (Layout l : new Layout[] {off, on}) {
        assertEquals(96, l.pwqs());
        assertEquals(java.util.List.of(48, 48), java.util.List.copyOf(l.cpusPerPool().values()));
        assertEquals(AffinityScope.CACHE, l.wq().affinityScope());
      }
      // The pools' nodes: both in node 0 with numa=off, one per node with numa=on.
      int[] offNodes = off.cpusPerPool().keySet().stream().mapToInt(off.sys()::poolNode)
          .toArray();
      int[] onNodes = on.cpusPerPool().keySet().stream().mapToInt(on.sys()::poolNode).toArray();
      assertEquals("[0, 0]", java.util.Arrays.toString(offNodes));
      assertEquals("[0, 1]", java.util.Arrays.toString(onNodes));
    }
    if (mode.nodeNrActive()) {
      // 6.9+: max_active 8 per node counter (clamp(ceil(8 x 48 / 96), 8, 8) with numa=on).
      assertEquals(8, off.wq().nodeMaxActive(0));
      assertEquals(8, on.wq().nodeMaxActive(0));
      assertEquals(8, on.wq().nodeMaxActive(1));
    }
  }
}
