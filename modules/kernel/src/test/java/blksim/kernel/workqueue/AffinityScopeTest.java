package blksim.kernel.workqueue;

import static blksim.kernel.workqueue.WqHarness.MS;
import static blksim.kernel.workqueue.WqHarness.US;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.Partitioning;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.topology.Topology;
import blksim.kernel.topology.TopologyParams;
import java.util.Arrays;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Pods and unbound pools for each affinity scope on a 2-node topology (kernel-model.md §4.6). */
class AffinityScopeTest {
  /** 2 nodes x 2 LLCs x 2 cores x 2 threads: 16 CPUs; CPU c and c+8 are SMT siblings. */
  static final TopologyParams TWO_NODES = new TopologyParams(2, 1, 2, 2, 2);

  @Test
  void podTypes_groupCpusByScope() {
    Topology t = Topology.of(TWO_NODES);
    assertEquals(16, WqPodType.of(t, AffinityScope.CPU).nrPods());
    WqPodType smt = WqPodType.of(t, AffinityScope.SMT);
    assertEquals(8, smt.nrPods());
    assertArrayEquals(new int[] {3, 11}, smt.podCpus(smt.cpuPod(11)));
    WqPodType cache = WqPodType.of(t, AffinityScope.CACHE);
    assertEquals(4, cache.nrPods());
    assertArrayEquals(new int[] {2, 3, 10, 11}, cache.podCpus(cache.cpuPod(2)));
    assertEquals(0, cache.podNode(1));
    assertEquals(1, cache.podNode(2));
    WqPodType numa = WqPodType.of(t, AffinityScope.NUMA);
    assertEquals(2, numa.nrPods());
    assertArrayEquals(new int[] {4, 5, 6, 7, 12, 13, 14, 15}, numa.podCpus(1));
    WqPodType sys = WqPodType.of(t, AffinityScope.SYSTEM);
    assertEquals(1, sys.nrPods());
    assertEquals(WqConstants.NUMA_NO_NODE, sys.podNode(0));
  }

  @Test
  void unboundWq_getsOnePoolPerPod_tiedToItsNodeUnlessItSpansNodes() {
    WqHarness h = new WqHarness(TWO_NODES, WorkqueueParams.defaults(KernelMode.V6_9));
    Workqueue[] wqs = new Workqueue[AffinityScope.values().length];
    for (AffinityScope a : AffinityScope.values()) {
      wqs[a.ordinal()] = h.builder.allocWorkqueue("wq-" + a.kernelName(), Workqueue.WQ_UNBOUND,
          0, a, a == AffinityScope.NUMA);
    }
    Workqueue sameAsCache = h.builder.allocWorkqueue("wq-cache-2", Workqueue.WQ_UNBOUND, 0,
        AffinityScope.CACHE, false);
    WorkqueueSystem sys = h.build();
    int[] pods = {16, 8, 4, 2, 1};
    for (AffinityScope a : AffinityScope.values()) {
      Workqueue wq = wqs[a.ordinal()];
      TreeSet<Integer> pools = new TreeSet<>();
      for (int cpu = 0; cpu < 16; cpu++) {
        int c = cpu;
        int pool = wq.poolOfCpu(c);
        pools.add(pool);
        int[] podCpus = sys.poolCpus(pool);
        assertTrue(Arrays.stream(podCpus).anyMatch(x -> x == c), a + ": cpu "
            + c + " is in its pod");
        int node = sys.poolNode(pool);
        assertEquals(a == AffinityScope.SYSTEM ? WqConstants.NUMA_NO_NODE
            : sys.topology().cpu(c).node(), node, a + ": node of cpu " + c + "'s pool");
        assertEquals(a == AffinityScope.NUMA, sys.poolStrict(pool), a + ": strict");
      }
      assertEquals(pods[a.ordinal()], pools.size(), a + ": one pool per pod");
    }
    for (int c = 0; c < 16; c++) {
      assertEquals(wqs[AffinityScope.CACHE.ordinal()].poolOfCpu(c), sameAsCache.poolOfCpu(c),
          "wqs with identical attributes share pools");
    }
    assertEquals(2 * 16, sys.workqueue("wq-cpu").dflPool, "unbound pool ids follow the per-CPU"
        + " ones; the first is the first unbound wq's default pool");
  }

  @Test
  void pre6_5_hasOnePwqPerNode_onStrictNodePools() {
    WqHarness h = new WqHarness(TWO_NODES, WorkqueueParams.defaults(KernelMode.PRE_6_5));
    Workqueue wq = h.builder.allocWorkqueue("old", Workqueue.WQ_UNBOUND, 0, AffinityScope.CPU,
        false);
    WorkqueueSystem sys = h.build();
    assertEquals(AffinityScope.NUMA, wq.affinityScope(), "no scopes before 6.5");
    assertEquals(1, wq.pwqKeyOf(5));
    assertEquals(0, wq.pwqKeyOf(9));
    assertEquals(wq.poolOfCpu(0), wq.poolOfCpu(11));
    assertTrue(sys.poolStrict(wq.poolOfCpu(0)));
  }

  @Test
  void unboundItem_runsOnACpuOfItsQueueingCpusPod() {
    WqHarness h = new WqHarness(TWO_NODES, WorkqueueParams.defaults(KernelMode.V6_9));
    Workqueue wq = h.builder.allocWorkqueue("cachewq", Workqueue.WQ_UNBOUND, 0);
    WorkqueueSystem sys = h.build();
    for (int c : new int[] {2, 13}) {
      h.driver(c).then(t -> {
        for (int i = 0; i < 6; i++) {
          sys.queueWork(t.cpu(), wq, new WorkItem("x" + c, h.logged("x" + c, c, 10 * US, MS)));
        }
        t.runFor(CpuMode.SYSTEM, 0);
      }).flush(sys, wq);
    }
    h.run(Partitioning.ONE, Long.MAX_VALUE);
    assertEquals(12, h.log.size());
    for (WqHarness.Exec e : h.log) {
      int[] pod = e.tag() == 2 ? new int[] {2, 3, 10, 11} : new int[] {4, 5, 12, 13};
      assertTrue(Arrays.stream(pod).anyMatch(x -> x == e.cpu()), e.toString());
    }
  }
}
