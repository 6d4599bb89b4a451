package blksim.kernel.workqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.timer.TimerParams;
import blksim.kernel.topology.Topology;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** wq_monitor.py's and wq_dump.py's text, reproduced (kernel-model.md §10). */
class WqMonitorRendererTest {

  static long[] stats(long started, long completed, long cpuUs, long itsv, long cmw, long rpr,
      long mayday, long rescued) {
    return new long[] {started, completed, cpuUs, itsv, cmw, rpr, mayday, rescued};
  }

  @Test
  void table_matchesTheScriptsLayout() {
    WqMonitorSnapshot s = new WqMonitorSnapshot(2_000_000_000L, List.of(
        new WqMonitorSnapshot.Row("dmz_cwq_dmz_dml_072", true, true,
            stats(613, 580, 4_650_000, 0, 0, 0, 0, 0)),
        new WqMonitorSnapshot.Row("events", false, false, stats(10, 12, 150_000, 2, 7, 0, 0, 0)),
        new WqMonitorSnapshot.Row("a_very_long_workqueue_name_here", false, true,
            stats(1, 0, 0, 0, 0, 0, 1, 1))));
    String t = WqMonitorRenderer.table(s, null);
    String[] lines = t.split("\n", -1);
    assertEquals("", lines[0], "a blank line first");
    assertEquals("                            total  infl  CPUtime CPUitsv CMW/RPR  mayday"
        + " rescued", lines[1]);
    assertEquals("dmz_cwq_dmz_dml_072           613    33      4.7       -       0       0"
        + "       0 ", lines[2]);
    assertEquals("events                         10     0      0.1       2       7       -"
        + "       - ", lines[3], "infl floored at 0; 0.15 rounds half-even on its binary value");
    assertTrue(lines[4].startsWith("long_workqueue_name_here "), "last 24 characters: "
        + lines[4]);
    String filtered = WqMonitorRenderer.table(s, Pattern.compile("dmz|^ev"));
    assertEquals(5, filtered.split("\n", -1).length);
  }

  @Test
  void json_printsOneDictPerWorkqueue() {
    WqMonitorSnapshot s = new WqMonitorSnapshot(1_500_000_000L, List.of(
        new WqMonitorSnapshot.Row("kblockd", false, true, stats(1, 1, 4000, 0, 0, 0, 0, 0))));
    assertEquals("{'timestamp': 1.5, 'name': 'kblockd', 'unbound': False, 'mem_reclaim': True,"
        + " 'started': 1, 'completed': 1, 'cpu_time': 4000, 'cpu_intensive': 0, 'cm_wakeup': 0,"
        + " 'repatriated': 0, 'mayday': 0, 'rescued': 0}\n", WqMonitorRenderer.json(s, null));
  }

  @Test
  void dump_showsScopesPoolsAndNodeCounters() {
    Topology t = Topology.of(MaxActiveLimitsTest.NUMA_OFF);
    WorkqueueSystem.Builder b = WorkqueueSystem.builder(t, WqHarness.SCHED,
        TimerParams.defaults(WqHarness.SCHED.hz()), WorkqueueParams.defaults(KernelMode.V6_9));
    b.allocWorkqueue("btrfs-endio-write", Workqueue.WQ_UNBOUND, 8);
    WorkqueueSystem sys = b.build();
    sys.components(new WqHarness(MaxActiveLimitsTest.NUMA_OFF,
        WorkqueueParams.defaults(KernelMode.V6_9)).cpus);
    String d = WqDump.render(sys, sys.ownerReports(0));
    assertTrue(d.contains("CACHE (default)\n  nr_pods  2\n"), d);
    assertTrue(d.contains("pool[192] ref= 2 nice=  0 idle/workers=  2/  2 cpus=0xffffffff"
        + " 0xffffffff ffffffff pod_cpus=0xffffffff 0xffffffff ffffffff\n"), d);
    assertTrue(d.contains("\nbtrfs-endio-write        unbound    193 193"), d);
    assertTrue(d.contains("\nbtrfs-endio-write          8   8   0/  8   0/  8\n"), d);
    assertEquals("0xffffffff 0000000f", WqDump.cpumaskStr(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8,
        9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
        32, 33, 34, 35}));
  }
}
