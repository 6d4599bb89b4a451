package blksim.kernel.workqueue;

import static blksim.kernel.workqueue.WqHarness.MS;
import static blksim.kernel.workqueue.WqHarness.US;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.ComponentReport;
import blksim.engine.Partitioning;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.topology.TopologyParams;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The same workqueue scenario gives identical results whatever the partitioning: one, per node,
 * per CPU (design.md §1 principle 2).
 */
class DeterminismTest {
  /** 2 nodes x 2 LLCs x 2 cores: 8 CPUs. */
  static final TopologyParams TOPO = new TopologyParams(2, 1, 2, 2, 1);

  record Result(List<ComponentReport> reports, WqMonitorSnapshot last,
      List<WqMonitorSnapshot> samples, long events, long endNs) {}

  static Result run(KernelMode mode, Partitioning p) {
    WqHarness h = new WqHarness(TOPO, WorkqueueParams.defaults(mode).withMonitorIntervalNs(MS));
    Workqueue pc = h.builder.allocWorkqueue("pc", 0, 2);
    Workqueue hp = h.builder.allocWorkqueue("hp", Workqueue.WQ_HIGHPRI | Workqueue.WQ_MEM_RECLAIM,
        0);
    Workqueue ub = h.builder.allocWorkqueue("ub", Workqueue.WQ_UNBOUND, 3);
    Workqueue ord = h.builder.allocOrderedWorkqueue("ord", 0);
    Workqueue sysub = h.builder.allocWorkqueue("ub-sys", Workqueue.WQ_UNBOUND, 0,
        AffinityScope.SYSTEM, false);
    WorkqueueSystem sys = h.build();
    Workqueue[] wqs = {pc, hp, ub, ord, sysub};
    WorkItem[] shared = new WorkItem[8];
    for (int c = 0; c < 8; c++) {
      shared[c] = sys.newWorkItem("shared" + c, WorkScript.of(new WorkStep.Run(30 * US),
          new WorkStep.Sleep(200 * US), new WorkStep.Run(20 * US)), c);
    }
    for (int c = 0; c < 8; c++) {
      int cpu = c;
      WqHarness.Driver d = h.driver(c);
      DelayedWork dw = new DelayedWork(new WorkItem("delayed" + c,
          WorkScript.of(new WorkStep.Run(15 * US))));
      for (int i = 0; i < 12; i++) {
        int k = i;
        d.then(t -> {
          Workqueue wq = wqs[(cpu + k) % wqs.length];
          long run = (5 + (cpu * 7 + k * 13) % 40) * US;
          long block = (k % 3 == 0) ? (100 + (cpu * 31 + k * 17) % 700) * US : 0;
          WorkScript s = block > 0
              ? WorkScript.of(new WorkStep.Run(run), new WorkStep.Sleep(block),
                  new WorkStep.Run(run))
              : (k % 4 == 1 ? WorkScript.of(new WorkStep.Run(run), new WorkStep.CondResched(),
                  new WorkStep.Run(run)) : WorkScript.cpu(run));
          sys.queueWork(t.cpu(), wq, new WorkItem("w" + cpu + "." + k, s));
          if (k % 5 == 2) {
            sys.queueWork(t.cpu(), wqs[k % wqs.length], shared[(cpu + k) % 8]);
          }
          if (k == 6) {
            sys.queueDelayedWork(t.cpu(), wqs[cpu % wqs.length], dw, 1 + cpu % 3);
          }
          t.runFor(CpuMode.USER, (20 + (cpu * 11 + k * 3) % 90) * US);
        });
      }
      d.at(30 * MS);
      for (Workqueue wq : wqs) {
        d.flush(sys, wq);
      }
    }
    h.run(p, 200 * MS);
    List<ComponentReport> reports = h.reports();
    return new Result(reports, h.sys.fromReports(reports, h.outcome.stats().simulatedTimeNs()),
        h.sys.monitorSamples(reports), h.outcome.stats().events(),
        h.outcome.stats().simulatedTimeNs());
  }

  @ParameterizedTest
  @EnumSource(value = KernelMode.class, names = {"V6_5_TO_6_8", "V6_9"})
  void sameScenario_givesIdenticalResults_withPartitioningOneNodeAndCpu(KernelMode mode) {
    Result one = run(mode, Partitioning.ONE);
    assertTrue(one.last().row("ub").total() > 0 && one.last().row("pc").total() > 0,
        one.last().toString());
    assertTrue(one.samples().size() > 5, "monitor samples: " + one.samples().size());
    assertTrue(one.endNs() < 100 * MS, "every flush returned: " + one.endNs());
    for (WqMonitorSnapshot.Row row : one.last().rows()) {
      assertEquals(0, row.infl(), row.toString());
    }
    for (String part : new String[] {"node", "cpu"}) {
      Result r = run(mode, Partitioning.parse(part));
      assertEquals(one.endNs(), r.endNs(), part);
      assertEquals(one.events(), r.events(), part);
      assertEquals(one.last(), r.last(), part);
      assertEquals(one.samples(), r.samples(), part);
      assertEquals(one.reports().size(), r.reports().size());
      for (int i = 0; i < one.reports().size(); i++) {
        assertEquals(one.reports().get(i).componentId(), r.reports().get(i).componentId());
        assertArrayEquals(one.reports().get(i).payload(), r.reports().get(i).payload(),
            part + ": report of " + one.reports().get(i).componentId());
      }
    }
  }
}
