package blksim.kernel.workqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.topology.TopologyParams;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * wq_dump (tools/workqueue/wq_dump.py) of thread 2's btrfs completion wq on 96 CPUs: the pool of
 * every CPU's pwq, the pools' {@code ref} and {@code idle/workers}, and from 6.9 the per-node
 * {@code nr/max} (kernel-model.md §4.6, §4.7, §10).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WqDumpScaleTest {
  static final String WQ = WorkerGrowthTest.WQ;

  static String dumpOf(KernelMode mode, TopologyParams tp) {
    WqHarness h = new WqHarness(tp, WorkqueueParams.defaults(mode));
    Workqueue wq = h.builder.allocWorkqueue(WQ,
        Workqueue.WQ_UNBOUND | Workqueue.WQ_MEM_RECLAIM | Workqueue.WQ_FREEZABLE, 8);
    MaxActiveLimitsTest.run(h, wq, 8, 100 * WqHarness.MS);
    return WqDump.render(h.sys, WorkqueueSystem.ownerReports(h.reports()));
  }

  /** The pool ids of {@link #WQ}'s "Workqueue CPU -> pool" row: 96 CPUs, then dfl. */
  static int[] cpuPoolRow(String dump) {
    String row = Arrays.stream(dump.split("\n")).filter(l -> l.startsWith(WQ + " "))
        .findFirst().orElseThrow();
    assertEquals("unbound", row.substring(24).trim().split(" +")[0], row);
    return Arrays.stream(row.substring(24).trim().split(" +")).skip(1)
        .mapToInt(Integer::parseInt).toArray();
  }

  static String poolLine(String dump, int id) {
    return Arrays.stream(dump.split("\n")).filter(l -> l.startsWith("pool[" + id + "]"))
        .findFirst().orElseThrow();
  }

  static int workers(String poolLine) {
    String f = poolLine.replaceAll(".*idle/workers= *\\d+/ *(\\d+).*", "$1");
    return Integer.parseInt(f);
  }

  @Test
  void v6_5NumaOff_everyCpuHasItsPwqOnItsCachePodsPool_poolsOfHundredsOfWorkers() {
    String d = dumpOf(KernelMode.V6_5_TO_6_8, MaxActiveLimitsTest.NUMA_OFF);
    assertTrue(d.contains("CACHE (default)\n  nr_pods  2\n"), d);
    assertTrue(d.contains("NUMA\n  nr_pods  1\n"), "numa=off: one node");
    int[] row = cpuPoolRow(d);
    assertEquals(97, row.length, "96 CPUs and dfl");
    assertEquals(192, row[96], "the default pool follows the 192 per-CPU pools");
    TreeMap<Integer, Integer> cpusPerPool = new TreeMap<>();
    for (int c = 0; c < 96; c++) {
      cpusPerPool.merge(row[c], 1, Integer::sum);
    }
    assertEquals(List.of(193, 194), List.copyOf(cpusPerPool.keySet()));
    assertEquals(List.of(48, 48), List.copyOf(cpusPerPool.values()));
    for (int id : List.of(193, 194)) {
      String line = poolLine(d, id);
      // One pwq per CPU: 48 refs from this wq (plus events_unbound's 48).
      int ref = Integer.parseInt(line.replaceAll(".*ref= *(\\d+) .*", "$1"));
      assertEquals(96, ref, line);
      assertTrue(workers(line) >= 385, line);
      assertTrue(line.contains(" pod_cpus="), line);
    }
    assertFalse(d.contains("node_nr/max_active"), "6.9+ only");
  }

  @Test
  void v6_9_samePods_fewWorkers_andTheNodeCounterOf8() {
    String d = dumpOf(KernelMode.V6_9, MaxActiveLimitsTest.NUMA_OFF);
    int[] row = cpuPoolRow(d);
    assertEquals(193, row[0]);
    assertTrue(workers(poolLine(d, 193)) <= 8 + 2, poolLine(d, 193));
    String nna = Arrays.stream(d.split("\n")).filter(l -> l.startsWith(WQ + " "))
        .reduce((a, b) -> b).orElseThrow();
    // wq_dump.py: f'{name:{WQ_NAME_LEN}} ', f'{min:3} {max:3}', then ' {nr:3}/{max:3}' per node and dfl.
    assertEquals(String.format("%-24s %3d %3d", WQ, 8, 8) + "   0/  8".repeat(2), nna);
  }

  @Test
  void v6_9NumaOn_cachePodsAreTheNodes_eachNodeCounterCappedAt8() {
    String d = dumpOf(KernelMode.V6_9, MaxActiveLimitsTest.NUMA_ON);
    assertTrue(d.contains("NUMA\n  nr_pods  2\n"), d);
    assertTrue(d.contains("NODE[00]=") && d.contains("NODE[01]="), d);
    String nna = Arrays.stream(d.split("\n")).filter(l -> l.startsWith(WQ + " "))
        .reduce((a, b) -> b).orElseThrow();
    assertEquals(String.format("%-24s %3d %3d", WQ, 8, 8) + "   0/  8".repeat(3), nna);
  }
}
