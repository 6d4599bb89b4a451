package blksim.kernel.device;

import static org.junit.jupiter.api.Assertions.assertEquals;

import blksim.kernel.block.Kblockd;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.topology.Cpu;
import blksim.kernel.topology.Topology;
import blksim.kernel.topology.TopologyParams;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A null_blk hardware context homed on another node costs its submitters remote lines. */
@Timeout(30)
class NullBlkRemoteAccessTest {
  private static final long LINE = 134;
  /** 2 nodes x 2 cores, no SMT: CPUs 0-1 on node 0, 2-3 on node 1. */
  private static final List<Cpu> CPUS = Topology.of(new TopologyParams(2, 1, 1, 2, 1)).cpus();
  private static final SchedParams SCHED = new SchedParams(0, 0, 1_000);

  private static long[] submitCosts(int queues, long line) {
    NullBlkParams p = new NullBlkParams("nullb0", 1L << 30, 512, 64, IrqMode.NONE,
        0, 600, 500);
    NullBlkDriver d = new NullBlkDriver(p, NullBlkDriver.mapQueues(CPUS, queues), queues,
        Kblockd.INLINE).remoteAccess(CPUS, line);
    long[] cost = new long[CPUS.size()];
    for (Cpu c : CPUS) {
      cost[c.id()] = d.attach(new CpuComponent(c, SCHED)).submitCostNs(null);
    }
    return cost;
  }

  @Test
  void oneQueue_isHomedOnNode0_soNode1PaysTheRequestsLines() {
    long remote = 600 + NullBlkDriver.REQUEST_LINES * LINE;
    assertEquals(List.of(600L, 600L, remote, remote), boxed(submitCosts(1, LINE)));
  }

  @Test
  void queuesWithinANode_orNoRemoteCost_payNothingMore() {
    List<Long> local = List.of(600L, 600L, 600L, 600L);
    assertEquals(local, boxed(submitCosts(2, LINE)), "a queue per node");
    assertEquals(local, boxed(submitCosts(4, LINE)), "a queue per CPU");
    assertEquals(local, boxed(submitCosts(1, 0)), "cacheline-remote = 0");
  }

  private static List<Long> boxed(long[] a) {
    return java.util.Arrays.stream(a).boxed().toList();
  }
}
