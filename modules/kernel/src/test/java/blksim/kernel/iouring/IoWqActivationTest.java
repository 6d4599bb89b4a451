package blksim.kernel.iouring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.kernel.block.Bio;
import blksim.kernel.block.BioEndIo;
import blksim.kernel.block.Errno;
import blksim.kernel.iouring.IoWq.WorkClass;
import blksim.kernel.iouring.IoWqTest.InlineQueue;
import blksim.kernel.iouring.IoWqTest.Submitter;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.syscall.SystemCall;
import blksim.kernel.topology.Cpu;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * io-wq worker activation as Linux 6.4's io_uring/io-wq.c has it ({@code io_wq_enqueue()},
 * {@code io_wq_activate_free_worker()}, {@code io_wq_create_worker()}, {@code io_wq_worker()}),
 * on one CPU with a device that completes every bio inside issue() (5 us of submit cost).
 * Costs: enter 300, sqe-issue 1300, cqe-post 200, punt 1000, worker-create 50 000, worker-loop
 * 500 ns; no context-switch cost.
 */
@Timeout(30)
class IoWqActivationTest {
  static final SchedParams P = IoWqTest.P;
  static final IoUringParams COSTS = new IoUringParams(300, 1300, 200, 1000, 50_000, 500);

  static final class Fixture {
    final CpuComponent cpu = new CpuComponent(new Cpu(0, 0, 0, 0, 0), P);
    final Submitter sub = new Submitter();
    final CompletionRing ring = new CompletionRing(sub, cpu);
    final InlineQueue q = new InlineQueue();
    final IoWq wq = new IoWq(cpu, c -> q, ring, COSTS, 1000, 4, 4, false);

    Fixture() {
      cpu.addTask(sub);
    }

    /** Submitter steps: wait until {@code n} completions are in the ring, then reap them. */
    void waitAndReap(int n) {
      IoWqTest.waitFor(sub, ring, COSTS, n);
      sub.steps.add(c -> {
        assertTrue(ring.ready() >= n, "woken with " + ring.ready() + " of " + n);
        while (ring.reap() != null) {
          // reaped
        }
        c.runFor(CpuMode.SYSTEM, 0);
      });
    }

    void run() {
      LocalRunner.run(new Model(List.of(cpu), P.wakeupLatencyNs(), Long.MAX_VALUE, 0, 1),
          Partitioning.ONE, 1, ProgressListener.NONE);
    }
  }

  static IoRequest req(int tag) {
    return IoWqTest.req(tag);
  }

  @Test
  void aFreeWorkerWokenButNotYetRun_isSkipped_andAWorkerIsCreatedInTheCaller() {
    Fixture f = new Fixture();
    long[] seen = new long[8];
    f.sub.steps.add(c -> {
      long create = f.wq.enqueue(req(1));
      seen[0] = create;
      c.runFor(CpuMode.SYSTEM, create);
    });
    f.waitAndReap(1);
    f.sub.steps.add(c -> {
      // The first worker served request 1 and sleeps on the free list: it blocked, so it no
      // longer counts as running.
      seen[1] = f.wq.running(WorkClass.BOUNDED);
      long a = f.wq.enqueue(req(2));
      // It was woken, but this task keeps the CPU: it has not run, so it does not count as
      // running either, and wake_up_process() on it now finds it runnable and returns 0.
      seen[2] = f.wq.running(WorkClass.BOUNDED);
      long b = f.wq.enqueue(req(3));
      seen[3] = a;
      seen[4] = b;
      seen[5] = f.wq.workersCreated();
      seen[6] = f.wq.running(WorkClass.BOUNDED);
      c.runFor(CpuMode.SYSTEM, a + b);
    });
    f.waitAndReap(2);
    f.run();
    assertEquals(50_000, seen[0], "no worker at all: created in the caller, which pays for it");
    assertEquals(0, seen[1], "an idle worker is not running");
    assertEquals(0, seen[2], "woken is not running: nr_running rises when it is scheduled in");
    assertEquals(0, seen[3], "request 2 woke the free worker");
    assertEquals(50_000, seen[4],
        "request 3: the only free worker was woken but has not run, nothing was activated and"
            + " none runs, so a second worker is created synchronously");
    assertEquals(2, seen[5]);
    assertEquals(1, seen[6], "the new worker counts as running from its creation");
    // The first worker, woken first, drains requests 2 and 3 before it sleeps (worker-loop +
    // sqe-issue + submit cost = 6800 ns each, plus a 1000 ns switch per switch-in; the CQE
    // posts are the submitter's task work);
    // the second one starts, finds the list empty and sleeps: its switch-in only.
    List<IoWqWorker> ws = f.wq.workers();
    assertTrue(ws.get(0).stimeNs() >= 3 * 6_800 + 1_000, "first: " + ws.get(0).stimeNs());
    assertEquals(1_000, ws.get(1).stimeNs(), "second: one switch-in, no work");
    assertEquals(1, ws.get(1).nvcsw(), "it went idle");
  }

  @Test
  void aPuntInTheSubmitCall_createsTheFirstWorkerInsideTheCall_atTheSubmittersExpense() {
    Fixture f = new Fixture();
    // A device without nowait support: a REQ_NOWAIT bio ends at once with -EOPNOTSUPP.
    InlineQueue refusing = new InlineQueue() {
      @Override
      public boolean issue(Bio bio, BioEndIo endIo, Runnable onTagFree) {
        endIo.endIo(bio, bio.nowait() ? -Errno.EOPNOTSUPP : 0);
        return true;
      }
    };
    CpuComponent cpu = f.cpu;
    IoWq wq = new IoWq(cpu, c -> refusing, f.ring, COSTS, 1000, 4, 4, false);
    SubmitCall submit = new SubmitCall(f.sub, c -> refusing, f.ring, COSTS, wq);
    long[] seen = new long[4];
    SystemCall[] call = new SystemCall[1];
    f.sub.steps.add(c -> {
      call[0] = submit.arm(List.of(req(1)));
      seen[0] = c.now();
      seen[2] = -f.sub.stimeNs();
      if (call[0].step(c)) {
        throw new AssertionError("the entry is the first action");
      }
    });
    f.sub.steps.add(new java.util.function.Consumer<>() {
      @Override
      public void accept(blksim.kernel.sched.TaskCpu c) {
        if (!call[0].step(c)) {
          f.sub.pc--; // the call is still in progress: this step again
          return;
        }
        seen[1] = c.now();
        seen[2] += f.sub.stimeNs();
        seen[3] = wq.workersCreated();
        c.runFor(CpuMode.SYSTEM, 0);
      }
    });
    f.waitAndReap(1);
    f.run();
    // enter 300 + sqe-issue 1300 + submit cost 5000 + punt 1000 + create_io_worker 50 000.
    long expected = 300 + 1300 + 5_000 + 1000 + 50_000;
    assertEquals(expected, seen[1] - seen[0], "the call's duration");
    assertEquals(expected, seen[2], "all of it the submitter's system time");
    assertEquals(1, seen[3]);
    IoWqWorker w = wq.workers().get(0);
    assertTrue(w.stimeNs() >= 500 + 1300 + 5_000, "the worker did the read");
  }

  @Test
  void theFreeListIsLifo_theWorkerThatWentIdleLastIsWokenFirst() {
    Fixture f = new Fixture();
    IoWqWorker[] order = new IoWqWorker[2];
    long[] before = new long[2];
    // Two workers, as in the first test.
    f.sub.steps.add(c -> c.runFor(CpuMode.SYSTEM, f.wq.enqueue(req(1))));
    f.waitAndReap(1);
    f.sub.steps.add(c -> {
      long a = f.wq.enqueue(req(2));
      long b = f.wq.enqueue(req(3));
      c.runFor(CpuMode.SYSTEM, a + b);
    });
    f.waitAndReap(2);
    // Let both workers go idle.
    f.sub.steps.add(c -> {
      c.cpu().callAfter(100_000, () -> c.cpu().wake(f.sub));
      c.sleep();
    });
    f.sub.steps.add(c -> {
      List<IoWqWorker> free = f.wq.freeList();
      for (IoWqWorker w : free) {
        assertEquals(blksim.kernel.sched.TaskState.BLOCKED, w.state(), w + " sleeps");
      }
      // Order of joining the list: the second worker joined at its creation and, having never
      // taken work, never left it (__io_worker_idle() adds only a worker not flagged FREE); the
      // first left it for request 2 and rejoined the head when it went idle.
      assertSame(f.wq.workers().get(0), free.get(0), "the first worker rejoined the head");
      assertEquals(2, free.size(), "both idle");
      order[0] = free.get(0);
      order[1] = free.get(1);
      before[0] = order[0].stimeNs();
      before[1] = order[1].stimeNs();
      c.runFor(CpuMode.SYSTEM, f.wq.enqueue(req(4)));
    });
    f.waitAndReap(1);
    f.run();
    long didHead = order[0].stimeNs() - before[0];
    assertTrue(didHead >= 500 + 1300 + 5_000, "the head worker served request 4: "
        + didHead);
    assertEquals(before[1], order[1].stimeNs(), "the other slept on");
    assertSame(order[0], f.wq.freeList().get(0), "and went back to the head");
  }

  @Test
  void aWorkerDrainsItsListBeforeSleeping() {
    Fixture f = new Fixture();
    f.sub.steps.add(c -> {
      long create = f.wq.enqueue(req(1));
      for (int i = 2; i <= 4; i++) {
        // The new worker has not started (TASK_NEW) and counts as running: nothing more made.
        create += f.wq.enqueue(req(i));
      }
      c.runFor(CpuMode.SYSTEM, create);
    });
    f.waitAndReap(4);
    f.run();
    assertEquals(1, f.wq.workersCreated());
    IoWqWorker w = f.wq.workers().get(0);
    assertEquals(1, w.nvcsw(), "four requests, then one idle sleep");
    assertEquals(0, f.wq.pending());
  }
}
