package blksim.kernel.dm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.Component;
import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.sched.Task;
import blksim.kernel.timer.TimerParams;
import blksim.kernel.topology.Topology;
import blksim.kernel.topology.TopologyParams;
import blksim.kernel.workqueue.KernelMode;
import blksim.kernel.workqueue.Workqueue;
import blksim.kernel.workqueue.WorkqueueParams;
import blksim.kernel.workqueue.WorkqueueSystem;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Timer-mode dm-delay with its work item on the workqueue model's kdelayd (a per-CPU
 * WQ_MEM_RECLAIM workqueue), on one CPU at HZ 1000: the same d+1 jiffies per bio as with the
 * stand-in worker, run by the CPU's kworker.
 */
class DelayKdelaydTest {
  static final SchedParams SCHED = DelayTargetTest.SCHED;
  static final TimerParams TIMERS = TimerParams.defaults(1000);

  /** One CPU, a workqueue system with kdelayd, dm-zeros and dm-delay over it; QD1 I/Os. */
  static DmSubmitter run(long delayMs, Bio io, boolean buffered, DmQueue[] out) {
    Topology topo = Topology.of(new TopologyParams(1, 1, 1, 1, 1));
    WorkqueueSystem.Builder b = WorkqueueSystem.builder(topo, SCHED, TIMERS,
        WorkqueueParams.defaults(KernelMode.V6_9));
    Workqueue kd = Kdelayd.alloc(b);
    WorkqueueSystem sys = b.build();
    CpuComponent cpu = new CpuComponent(topo.cpu(0), SCHED);
    Kdelayd binding = Kdelayd.on(sys, kd);
    Map<String, BlockQueue> queues = new LinkedHashMap<>();
    for (String[] dev : new String[][] {{"dm-zeros", "0 2097152 zero"},
        {"dm-delay", "0 2097152 delay /dev/mapper/dm-zeros 0 " + delayMs}}) {
      DmParams p = new DmParams(dev[0], DmTable.parse(dev[1]), 512, DelayVersion.PRE_6_7, 0,
          DmCostParams.DEFAULTS);
      queues.put(dev[0], p.newQueue(cpu, BlockLayerParams.DEFAULTS, TIMERS, binding,
          queues::get));
    }
    DmQueue d = (DmQueue) queues.get("dm-delay");
    out[0] = d;
    DmSubmitter s = new DmSubmitter(d, DmSubmitter.times(DelayTargetTest.IOS, io), buffered);
    cpu.addTask(s);
    List<Component> comps = sys.components(List.of(cpu));
    LocalRunner.run(new Model(comps, SCHED.wakeupLatencyNs(), Long.MAX_VALUE, 0, 1),
        Partitioning.ONE, 1, ProgressListener.NONE);
    return s;
  }

  @Test
  void timerMode_onKdelayd_1ms_writes500iops_bufferedReads250iops() {
    DmQueue[] d = new DmQueue[1];
    DmSubmitter w = run(1, DelayTargetTest.WRITE, false, d);
    for (int i = 1; i < DelayTargetTest.IOS; i++) {
      assertEquals(2 * DelayTargetTest.MS, w.ioDone.get(i) - w.ioDone.get(i - 1));
    }
    DelayTarget t = DelayTargetTest.delay(d[0]);
    assertEquals(DelayTargetTest.IOS, t.workRuns(), "one run of flush_expired_bios per bio");
    assertNull(t.worker(), "no worker of its own: the CPU's kworker runs the item");
    boolean kworker = false;
    for (Task task : d[0].cpu().tasks()) {
      kworker |= task.comm().startsWith("kworker/0:") && task.stimeNs() > 0;
    }
    assertTrue(kworker, "a per-CPU kworker of cpu 0 did the work");

    DmSubmitter r = run(1, DelayTargetTest.READ, true, d);
    assertEquals(250, DelayTargetTest.iops(r), 1e-9);
    assertEquals(2 * DelayTargetTest.IOS, DelayTargetTest.delay(d[0]).workRuns());
  }

  @Test
  void timerMode_onKdelayd_10ms_writesTake11Jiffies() {
    DmQueue[] d = new DmQueue[1];
    assertEquals(1000.0 / 11, DelayTargetTest.iops(run(10, DelayTargetTest.WRITE, false, d)),
        1e-9);
  }
}
