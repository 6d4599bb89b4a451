package blksim.kernel.workqueue;

import static blksim.kernel.workqueue.WqHarness.MS;
import static blksim.kernel.workqueue.WqHarness.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.Partitioning;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.timer.Jiffies;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * queue_work() semantics (kernel-model.md §4.3): PENDING, non-reentrancy, ordered wqs, delayed
 * work, flush and drain.
 */
class QueueingTest {

  static WqHarness harness(int cpus, KernelMode mode) {
    return new WqHarness(WqHarness.cpus(cpus), WorkqueueParams.defaults(mode));
  }

  @Test
  void pendingItem_isNotQueuedTwice() {
    WqHarness h = harness(1, KernelMode.V6_9);
    Workqueue wq = h.builder.allocWorkqueue("p", 0, 0);
    WorkqueueSystem sys = h.build();
    WorkItem item = new WorkItem("once", h.logged("once", 0, 10 * US, 0));
    boolean[] results = new boolean[3];
    h.driver(0).then(t -> {
      results[0] = sys.queueWork(t.cpu(), wq, item);
      results[1] = sys.queueWork(t.cpu(), wq, item);
      t.runFor(CpuMode.SYSTEM, 0);
    }).flush(sys, wq).then(t -> {
      results[2] = sys.queueWork(t.cpu(), wq, item);
      t.runFor(CpuMode.SYSTEM, 0);
    }).flush(sys, wq);
    h.run(Partitioning.ONE, Long.MAX_VALUE);
    assertTrue(results[0]);
    assertFalse(results[1], "already pending");
    assertTrue(results[2], "PENDING cleared when it started");
    assertEquals(2, h.log.size());
  }

  @Test
  void itemRequeuedFromAnotherCpuWhileRunning_runsAgainAfterwards_onTheSameCpu() {
    WqHarness h = harness(2, KernelMode.V6_9);
    Workqueue wq = h.builder.allocWorkqueue("nr", 0, 0);
    WorkqueueSystem sys = h.build();
    WorkItem item = sys.newWorkItem("nr", h.logged("nr", 0, 10 * US, 2 * MS), 0);
    h.driver(0).then(t -> {
      assertTrue(sys.queueWork(t.cpu(), wq, item));
      t.runFor(CpuMode.SYSTEM, 0);
    }).at(3 * MS).flush(sys, wq);
    // CPU 1 queues the item while it runs on CPU 0: it goes to CPU 0's pool (non-reentrancy).
    h.driver(1).at(MS).then(t -> {
      sys.queueWork(t.cpu(), wq, item);
      t.runFor(CpuMode.SYSTEM, 0);
    }).at(10 * MS).flush(sys, wq);
    h.run(Partitioning.ONE, Long.MAX_VALUE);
    assertEquals(2, h.log.size(), h.log.toString());
    assertEquals(1, h.maxConcurrency("nr", -1), "never runs twice at once");
    assertTrue(h.log.stream().allMatch(e -> e.cpu() == 0), h.log.toString());
  }

  /**
   * The kernel clears PENDING as a run starts; the item's home learns of the start a lookahead
   * later when the pool is on another CPU. A queue_work() from the home inside that window must
   * still queue the item again (it was lost before WorkStarted carried the start time, which hung
   * an unmount waiting on the flusher).
   */
  @Test
  void queueAtHome_justAfterTheRunStartedElsewhere_runsTheItemAgain() {
    long start = firstRunStart();
    long[] queuedAt = new long[1];
    WqHarness h = harness(2, KernelMode.V6_9);
    Workqueue wq = h.builder.allocWorkqueue("race", 0, 0);
    WorkqueueSystem sys = h.build();
    WorkItem item = sys.newWorkItem("race", h.logged("race", 0, 10 * US, 0), 0);
    h.driver(0).then(t -> {
      assertTrue(sys.queueWorkOn(t.cpu(), 1, wq, item));
      t.runFor(CpuMode.SYSTEM, 0);
    }).at(start + 1).then(t -> {
      queuedAt[0] = t.now();
      sys.queueWork(t.cpu(), wq, item);
      t.runFor(CpuMode.SYSTEM, 0);
    }).at(5 * MS).flush(sys, wq);
    h.run(Partitioning.ONE, Long.MAX_VALUE);
    assertEquals(start, h.log.get(0).start(), "the same first run as without the second queue");
    assertTrue(queuedAt[0] >= start && queuedAt[0] < start + h.sys.lookaheadNs(),
        "the second queue_work falls inside the window: " + queuedAt[0] + " vs " + start);
    assertEquals(2, h.log.size(), h.log.toString());
  }

  private static long firstRunStart() {
    WqHarness h = harness(2, KernelMode.V6_9);
    Workqueue wq = h.builder.allocWorkqueue("race", 0, 0);
    WorkqueueSystem sys = h.build();
    WorkItem item = sys.newWorkItem("race", h.logged("race", 0, 10 * US, 0), 0);
    h.driver(0).then(t -> {
      assertTrue(sys.queueWorkOn(t.cpu(), 1, wq, item));
      t.runFor(CpuMode.SYSTEM, 0);
    }).at(5 * MS).flush(sys, wq);
    h.run(Partitioning.ONE, Long.MAX_VALUE);
    assertEquals(1, h.log.size());
    return h.log.get(0).start();
  }

  @Test
  void itemRequeuingItself_runsAgainAfterItsCurrentRun() {
    WqHarness h = harness(1, KernelMode.V6_9);
    Workqueue wq = h.builder.allocWorkqueue("self", Workqueue.WQ_UNBOUND, 0);
    WorkqueueSystem sys = h.build();
    List<Long> starts = new ArrayList<>();
    WorkScript body = WorkScript.of(new WorkStep.Run(50 * US), new WorkStep.Sleep(MS),
        new WorkStep.Run(50 * US));
    WorkFn fn = () -> {
      WorkRun r = body.begin();
      boolean[] first = {true};
      return w -> {
        if (first[0]) {
          first[0] = false;
          starts.add(w.now());
          if (starts.size() < 3) {
            w.requeue();
          }
        }
        r.step(w);
      };
    };
    WorkItem item = new WorkItem("self", fn);
    h.driver(0).then(t -> {
      sys.queueWork(t.cpu(), wq, item);
      t.runFor(CpuMode.SYSTEM, 0);
    }).at(20 * MS).flush(sys, wq);
    h.run(Partitioning.ONE, Long.MAX_VALUE);
    assertEquals(3, starts.size(), starts.toString());
    for (int i = 1; i < starts.size(); i++) {
      assertTrue(starts.get(i) - starts.get(i - 1) >= MS + 100 * US, "no overlap: " + starts);
    }
    assertEquals(3, h.sys.snapshot(0).row("self").total());
  }

  @Test
  void orderedWq_runsItemsOneAtATime_inQueueingOrder() {
    WqHarness h = harness(4, KernelMode.V6_9);
    Workqueue wq = h.builder.allocOrderedWorkqueue("dmz_fwq", Workqueue.WQ_MEM_RECLAIM);
    WorkqueueSystem sys = h.build();
    assertEquals(1, wq.maxActive());
    List<long[]> queued = new ArrayList<>();
    for (int c = 0; c < 4; c++) {
      int cpu = c;
      WqHarness.Driver d = h.driver(c);
      for (int i = 0; i < 5; i++) {
        int tag = cpu * 10 + i;
        long at = (long) (i * 4 + cpu) * 37 * US;
        d.at(at).then(t -> {
          queued.add(new long[] {t.now(), tag});
          sys.queueWork(t.cpu(), wq, new WorkItem("o", h.logged("o", tag,
              (tag % 3 + 1) * 20 * US, tag % 2 == 0 ? 300 * US : 0)));
          t.runFor(CpuMode.SYSTEM, 0);
        });
      }
      d.at(2 * MS).flush(sys, wq);
    }
    h.run(Partitioning.ONE, Long.MAX_VALUE);
    assertEquals(20, h.log.size());
    assertEquals(1, h.maxConcurrency("o", -1));
    queued.sort(Comparator.comparingLong(a -> a[0]));
    List<WqHarness.Exec> byStart = new ArrayList<>(h.log);
    byStart.sort(Comparator.comparingLong(WqHarness.Exec::start));
    for (int i = 0; i < 20; i++) {
      assertEquals(queued.get(i)[1], byStart.get(i).tag(), "strict FIFO at position " + i);
    }
  }

  @Test
  void delayedWork_isQueuedByItsTimer_atTickEPlusOne() {
    WqHarness h = harness(1, KernelMode.V6_9);
    Workqueue wq = h.builder.allocWorkqueue("kdelayd", Workqueue.WQ_MEM_RECLAIM, 0);
    WorkqueueSystem sys = h.build();
    DelayedWork dw = new DelayedWork(new WorkItem("d", h.logged("d", 0, 10 * US, 0)));
    boolean[] again = new boolean[1];
    h.driver(0).at(MS).then(t -> {
      Jiffies j = sys.timerParams().jiffies();
      assertTrue(sys.queueDelayedWork(t.cpu(), wq, dw, j.msecsToJiffies(10)));
      again[0] = sys.queueDelayedWork(t.cpu(), wq, dw, 1);
      assertTrue(dw.timerPending());
      t.runFor(CpuMode.SYSTEM, 0);
    }).at(30 * MS).flush(sys, wq);
    h.run(Partitioning.ONE, Long.MAX_VALUE);
    assertFalse(again[0], "pending while its timer is armed");
    // HZ 250: armed in jiffy 0 with expires 0 + 3, runs at tick 4 = 16 ms, then the softirq,
    // a wakeup and a switch-in.
    long start = h.log.get(0).start();
    assertTrue(start >= 16 * MS && start < 16 * MS + 50 * US, "started at " + start);
  }

  @Test
  void modDelayedWork_withZeroDelay_queuesAtOnce_andCancelStopsTheTimer() {
    WqHarness h = harness(1, KernelMode.V6_9);
    Workqueue wq = h.builder.allocWorkqueue("dz", 0, 0);
    WorkqueueSystem sys = h.build();
    DelayedWork now = new DelayedWork(new WorkItem("now", h.logged("now", 0, 10 * US, 0)));
    DelayedWork never = new DelayedWork(new WorkItem("never", h.logged("never", 0, 10 * US, 0)));
    h.driver(0).then(t -> {
      sys.queueDelayedWork(t.cpu(), wq, now, 100);
      assertTrue(sys.modDelayedWork(t.cpu(), wq, now, 0), "was pending");
      sys.queueDelayedWork(t.cpu(), wq, never, 2);
      assertTrue(sys.cancelDelayedWork(t.cpu(), never));
      assertFalse(never.work().workPending());
      t.runFor(CpuMode.SYSTEM, 0);
    }).at(50 * MS).flush(sys, wq);
    h.run(Partitioning.ONE, Long.MAX_VALUE);
    assertEquals(1, h.log.size(), h.log.toString());
    assertEquals("now", h.log.get(0).item());
    assertTrue(h.log.get(0).start() < MS);
  }

  @Test
  void flush_waitsForItemsQueuedBefore_drain_forAll() {
    WqHarness h = harness(2, KernelMode.V6_5_TO_6_8);
    Workqueue wq = h.builder.allocWorkqueue("f", Workqueue.WQ_UNBOUND, 0);
    WorkqueueSystem sys = h.build();
    long[] flushedAt = new long[2];
    h.driver(0).then(t -> {
      sys.queueWork(t.cpu(), wq, new WorkItem("a", h.logged("a", 0, 10 * US, 5 * MS)));
      t.runFor(CpuMode.SYSTEM, 0);
    }).flush(sys, wq).then(t -> {
      flushedAt[0] = t.now();
      sys.queueWork(t.cpu(), wq, new WorkItem("b", h.logged("b", 0, 10 * US, 5 * MS)));
      t.runFor(CpuMode.SYSTEM, 0);
    }).drain(sys, wq).then(t -> {
      flushedAt[1] = t.now();
      t.runFor(CpuMode.SYSTEM, 0);
    });
    h.run(Partitioning.ONE, Long.MAX_VALUE);
    long aEnd = h.log.stream().filter(e -> e.item().equals("a")).findFirst().get().end();
    long bEnd = h.log.stream().filter(e -> e.item().equals("b")).findFirst().get().end();
    assertTrue(flushedAt[0] >= aEnd && flushedAt[0] < aEnd + 50 * US, flushedAt[0] + " " + aEnd);
    assertTrue(flushedAt[1] >= bEnd && flushedAt[1] < bEnd + 50 * US, flushedAt[1] + " " + bEnd);
  }
}
