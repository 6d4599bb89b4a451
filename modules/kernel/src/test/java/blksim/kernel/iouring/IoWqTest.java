package blksim.kernel.iouring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.kernel.block.Bio;
import blksim.kernel.block.BioEndIo;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.block.ReqOp;
import blksim.kernel.iouring.IoWq.WorkClass;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.topology.Cpu;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * io-wq's two accounting classes on one CPU: each class gets its own worker, a worker only takes
 * its class's work, and a free worker of the other class is never the one woken.
 */
@Timeout(30)
class IoWqTest {
  static final SchedParams P = new SchedParams(1_000, 2_000, 4_000);

  /** A device that completes every bio inside issue(), 5 us of CPU each. */
  static class InlineQueue implements BlockQueue {
    final DiskCounters counters = new DiskCounters("inl0");

    @Override
    public String diskName() {
      return "inl0";
    }

    @Override
    public long capacityBytes() {
      return 1L << 30;
    }

    @Override
    public int logicalBlockSize() {
      return 512;
    }

    @Override
    public long submitCostNs(Bio bio) {
      return 5_000;
    }

    @Override
    public boolean issue(Bio bio, BioEndIo endIo, Runnable onTagFree) {
      endIo.endIo(bio, 0);
      return true;
    }

    @Override
    public DiskCounters counters() {
      return counters;
    }
  }

  /** The submitter: runs one action per step. */
  static final class Submitter extends Task {
    final List<Consumer<TaskCpu>> steps = new ArrayList<>();
    int pc;

    Submitter() {
      super("sub", 1000, 0);
    }

    @Override
    public boolean keepsRunAlive() {
      return true;
    }

    @Override
    protected void step(TaskCpu cpu) {
      if (pc < steps.size()) {
        steps.get(pc++).accept(cpu);
      } else {
        cpu.exit();
      }
    }
  }

  /**
   * A submitter step that waits in {@code io_uring_enter(0, n, GETEVENTS)} ({@link WaitCall}:
   * it runs the completion task work the workers queued) until {@code n} CQEs are in the ring;
   * the step repeats while the call is in progress.
   */
  static void waitFor(Submitter sub, CompletionRing ring, IoUringParams costs, int n) {
    WaitCall call = new WaitCall(sub, ring, costs, 0, false);
    boolean[] armed = new boolean[1];
    sub.steps.add(c -> {
      if (!armed[0]) {
        call.arm(n);
        armed[0] = true;
      }
      if (!call.step(c)) {
        sub.pc--;
        return;
      }
      armed[0] = false;
      c.runFor(CpuMode.SYSTEM, 0);
    });
  }

  static IoRequest req(int tag) {
    return new IoRequest(new Bio(ReqOp.READ, 8L * tag, 4096, 0), tag);
  }

  @Test
  void eachClass_getsItsOwnWorker_andAFreeWorkerOfTheOtherClassIsNotWoken() {
    CpuComponent cpu = new CpuComponent(new Cpu(0, 0, 0, 0, 0), P);
    Submitter sub = new Submitter();
    CompletionRing ring = new CompletionRing(sub, cpu);
    InlineQueue q = new InlineQueue();
    IoUringParams costs = new IoUringParams(300, 1300, 200, 1000, 50_000, 500);
    IoWq wq = new IoWq(cpu, c -> q, ring, costs, 1000, 4, 4, false);
    int[] seen = new int[8];
    sub.steps.add(c -> {
      wq.enqueue(req(1), WorkClass.BOUNDED);
      wq.enqueue(req(2), WorkClass.UNBOUNDED);
      seen[0] = wq.workers(WorkClass.BOUNDED);
      seen[1] = wq.workers(WorkClass.UNBOUNDED);
      c.runFor(CpuMode.SYSTEM, 1_000);
    });
    waitFor(sub, ring, costs, 2);
    sub.steps.add(c -> {
      seen[2] = ring.ready();
      ring.reap();
      ring.reap();
      // Both workers are free; the unbounded one went idle last or not: only it may serve this.
      wq.enqueue(req(3), WorkClass.UNBOUNDED);
      seen[3] = (int) wq.workersCreated();
      c.runFor(CpuMode.SYSTEM, 1_000);
    });
    waitFor(sub, ring, costs, 1);
    sub.steps.add(c -> {
      seen[4] = ring.ready();
      seen[5] = (int) wq.workersCreated();
      seen[6] = wq.pending();
      c.exit();
    });
    cpu.addTask(sub);
    LocalRunner.run(new Model(List.of(cpu), P.wakeupLatencyNs(), Long.MAX_VALUE, 0, 1),
        Partitioning.ONE, 1, ProgressListener.NONE);
    assertEquals(1, seen[0], "bounded work, no bounded worker running: one created");
    assertEquals(1, seen[1], "unbounded work gets a worker of its own class");
    assertEquals(2, seen[2], "both completed");
    assertEquals(2, seen[3], "a free unbounded worker exists: nothing created");
    assertEquals(1, seen[4], "served by the unbounded worker");
    assertEquals(2, seen[5]);
    assertEquals(0, seen[6]);
    for (IoWqWorker w : wq.workers()) {
      assertTrue(w.nvcsw() >= 1, w.comm() + " slept idle");
    }
    IoWqWorker unb = wq.workers().stream().filter(w -> w.workClass() == WorkClass.UNBOUNDED)
        .findFirst().orElseThrow();
    IoWqWorker bnd = wq.workers().stream().filter(w -> w.workClass() == WorkClass.BOUNDED)
        .findFirst().orElseThrow();
    assertTrue(unb.stimeNs() > bnd.stimeNs(), "the unbounded worker did two requests, the"
        + " bounded one: " + unb.stimeNs() + " vs " + bnd.stimeNs());
  }
}
