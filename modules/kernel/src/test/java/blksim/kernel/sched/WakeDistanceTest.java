package blksim.kernel.sched;

import static blksim.kernel.sched.ScriptedTask.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

import blksim.kernel.topology.Cpu;
import blksim.kernel.topology.CpuDistance;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Cross-CPU wakeups and cache-line transfers by distance class (issue 15 item 4). */
@Timeout(30)
class WakeDistanceTest {
  private static final long WAKE = 4_000;
  private static final long CROSS_LLC = 500;
  private static final long CROSS_NODE = 900;
  private static final SchedParams P = new SchedParams(0, 2_000, WAKE).withPlacement(
      new PlacementParams(PlacementParams.Rule.NONE, 1.0, 40, 130, 0, CROSS_LLC, CROSS_NODE));

  /** CPU 0; 1 its SMT sibling; 2 another core of its LLC; 3 another LLC of node 0; 4 node 1. */
  private static final Cpu[] CPUS = {
      new Cpu(0, 0, 0, 0, 0), new Cpu(1, 0, 0, 0, 0), new Cpu(2, 0, 0, 0, 1),
      new Cpu(3, 0, 0, 1, 2), new Cpu(4, 1, 1, 2, 3)};

  @Test
  void distanceClasses_followTheTopology() {
    assertEquals(CpuDistance.SAME, CpuDistance.of(CPUS[0], CPUS[0]));
    assertEquals(CpuDistance.SMT, CpuDistance.of(CPUS[0], CPUS[1]));
    assertEquals(CpuDistance.LLC, CpuDistance.of(CPUS[0], CPUS[2]));
    assertEquals(CpuDistance.NODE, CpuDistance.of(CPUS[0], CPUS[3]));
    assertEquals(CpuDistance.REMOTE, CpuDistance.of(CPUS[0], CPUS[4]));
    assertEquals(CpuDistance.REMOTE, CpuDistance.of(CPUS[4], CPUS[0]), "symmetric");
    // Two nodes of one socket are remote too.
    assertEquals(CpuDistance.REMOTE, CpuDistance.of(CPUS[0], new Cpu(5, 0, 1, 3, 4)));
  }

  @Test
  void wakeupsFromCpu0_arriveAfterTheLatencyOfTheirDistance() {
    List<CpuComponent> cpus = new ArrayList<>();
    List<ScriptedTask> sleepers = new ArrayList<>();
    for (Cpu c : CPUS) {
      CpuComponent x = new CpuComponent(c, P);
      cpus.add(x);
      if (c.id() > 0) {
        ScriptedTask s = ScriptedTask.live("s" + c.id()).then(TaskCpu::sleep);
        x.addTask(s);
        sleepers.add(s);
      }
    }
    long at = 10_000;
    ScriptedTask waker = ScriptedTask.live("waker").then(x -> x.runFor(CpuMode.SYSTEM, at))
        .then(x -> {
          for (ScriptedTask s : sleepers) {
            x.cpu().wakeUp(s);
          }
          x.exit();
        });
    cpus.get(0).addTask(waker);
    run(P, Long.MAX_VALUE, cpus.toArray(new CpuComponent[0]));
    assertEquals(at + WAKE, sleepers.get(0).stepTimes.get(1), "SMT sibling: the LLC's latency");
    assertEquals(at + WAKE, sleepers.get(1).stepTimes.get(1), "same LLC");
    assertEquals(at + WAKE + CROSS_LLC, sleepers.get(2).stepTimes.get(1), "other LLC, node 0");
    assertEquals(at + WAKE + CROSS_NODE, sleepers.get(3).stepTimes.get(1), "other node");
  }

  @Test
  void lineTransfers_costTheRemoteRateFromAnotherNode_evenOfTheSameSocket() {
    CpuComponent here = new CpuComponent(CPUS[0], P);
    assertEquals(0, here.lineTransferNs(CPUS[1], 4), "SMT sibling");
    assertEquals(4 * 40, here.lineTransferNs(CPUS[3], 4), "other LLC of the node");
    assertEquals(4 * 130, here.lineTransferNs(CPUS[4], 4), "other socket");
    assertEquals(4 * 130, here.lineTransferNs(new Cpu(5, 0, 1, 3, 4), 4),
        "other node of the same socket");
  }
}
