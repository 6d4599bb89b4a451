package blksim.kernel.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.kernel.block.Bio;
import blksim.kernel.block.BlkMqRules;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.Kblockd;
import blksim.kernel.block.Plug;
import blksim.kernel.block.RequestQueue;
import blksim.kernel.block.RequestQueueParams.Scheduler;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.block.Errno;
import blksim.kernel.block.ReqOp;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.topology.Cpu;
import blksim.kernel.topology.Topology;
import blksim.kernel.topology.TopologyParams;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** null_blk on the shared blk-mq request layer: completion modes, tags, merging, the queue map. */
class NullBlkDriverTest {
  static final SchedParams SCHED = new SchedParams(0, 0, 1_000);

  /** Issues {@code n} reads back to back without waiting, then waits for all of them. */
  static final class Submitter extends Task {
    final BlockQueue q;
    RequestQueue rq;
    Plug plug;
    final int n;
    final int flags;
    final List<Long> completions = new ArrayList<>();
    final List<Integer> errors = new ArrayList<>();
    int issued;
    int tagWaits;

    Submitter(BlockQueue q, int n) {
      this(q, n, 0);
    }

    Submitter(BlockQueue q, int n, int flags) {
      super("sub", 1, 0);
      this.q = q;
      this.n = n;
      this.flags = flags;
    }

    @Override
    public boolean keepsRunAlive() {
      return true;
    }

    @Override
    protected void step(TaskCpu cpu) {
      if (plug != null && issued == 0) {
        plug.start();
      }
      while (issued < n) {
        Bio bio = new Bio(ReqOp.READ, issued * 8L, 4096, flags);
        if (!q.issue(bio, (b, e) -> {
          completions.add(cpu.now());
          errors.add(e);
          cpu.cpu().wake(this);
        }, () -> cpu.cpu().wake(this), plug)) {
          tagWaits++;
          cpu.sleep();
          return;
        }
        issued++;
      }
      if (plug != null && plug.active()) {
        plug.finish();
      }
      if (completions.size() < n) {
        cpu.sleep();
        return;
      }
      cpu.exit();
    }
  }

  static NullBlkParams params(IrqMode mode, int depth) {
    return new NullBlkParams("nullb0", 1L << 30, 512, depth, mode, 10_000, 600, 500);
  }

  static Submitter run(NullBlkParams p, int n) {
    return run(p, n, 0);
  }

  static Submitter run(NullBlkParams p, int n, int flags) {
    return run(p, n, flags, false);
  }

  /** {@code n} contiguous 4 KiB reads by one task on a one-CPU machine, in a plug if asked. */
  static Submitter run(NullBlkParams p, int n, int flags, boolean plugged) {
    CpuComponent cpu = new CpuComponent(new Cpu(0, 0, 0, 0, 0), SCHED);
    NullBlkDriver d = new NullBlkDriver(p, new int[] {0}, 1, Kblockd.INLINE);
    BlockQueue q = d.attach(cpu);
    cpu.attach(q);
    Submitter s = new Submitter(q, n, flags);
    s.rq = d.hctx(0).queue();
    if (plugged) {
      s.plug = new Plug(BlkMqRules.V6);
    }
    cpu.addTask(s);
    LocalRunner.run(new Model(List.of(cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE, 1,
        ProgressListener.NONE);
    return s;
  }

  /** Issues {@code n} reads with {@code flags}, then polls once after {@code waitNs} of work. */
  static final class Poller extends Task {
    final BlockQueue q;
    final int n;
    final int flags;
    final List<Long> completions = new ArrayList<>();
    int phase;
    int polledCount;

    Poller(BlockQueue q, int n, int flags) {
      super("poller", 1, 0);
      this.q = q;
      this.n = n;
      this.flags = flags;
    }

    @Override
    public boolean keepsRunAlive() {
      return true;
    }

    @Override
    protected void step(TaskCpu cpu) {
      if (phase == 0) {
        for (int i = 0; i < n; i++) {
          assertTrue(q.issue(new Bio(ReqOp.READ, i * 8L, 4096, flags),
              (b, e) -> completions.add(cpu.now()), () -> { }));
        }
        phase = 1;
        cpu.runFor(blksim.kernel.sched.CpuMode.SYSTEM, 50_000); // past completion_nsec
        return;
      }
      if (phase == 1) {
        phase = 2;
        polledCount = q.poll(cpu.cpu());
        cpu.runFor(blksim.kernel.sched.CpuMode.SYSTEM, 1_000);
        return;
      }
      cpu.exit();
    }
  }

  static Poller poll(NullBlkParams p, int n, int flags) {
    CpuComponent cpu = new CpuComponent(new Cpu(0, 0, 0, 0, 0), SCHED);
    NullBlkDriver d = new NullBlkDriver(p, new int[] {0}, 1, Kblockd.INLINE);
    BlockQueue q = d.attach(cpu);
    cpu.attach(q);
    Poller s = new Poller(q, n, flags);
    cpu.addTask(s);
    LocalRunner.run(new Model(List.of(cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE, 1,
        ProgressListener.NONE);
    return s;
  }

  @Test
  @org.junit.jupiter.api.Timeout(30)
  void pollQueues_polledRequestsWaitForThePoll_whateverTheTimer() {
    Poller s = poll(params(IrqMode.TIMER, 64).withPollQueues(1), 3, Bio.REQ_POLLED);
    assertTrue(s.q.polled());
    // Nothing completes at completion_nsec (10 us): the three end in the poll at 50 us.
    assertEquals(List.of(50_000L, 50_000L, 50_000L), s.completions);
    assertEquals(3, s.polledCount);
  }

  @Test
  @org.junit.jupiter.api.Timeout(30)
  void pollQueues_unpolledRequestsKeepTheirIrqmode_andNoPollQueuesMeansNoPolling() {
    Poller s = poll(params(IrqMode.TIMER, 64).withPollQueues(1), 1, 0);
    assertEquals(List.of(10_500L), s.completions);
    assertEquals(0, s.polledCount);
    Poller none = poll(params(IrqMode.TIMER, 64), 1, 0);
    assertFalse(none.q.polled());
    assertEquals(List.of(10_500L), none.completions);
  }

  @Test
  void timerMode_completesAfterCompletionNsecPlusInterruptCost() {
    Submitter s = run(params(IrqMode.TIMER, 64), 1);
    assertEquals(List.of(10_500L), s.completions);
  }

  @Test
  void noneMode_completesInsideIssue() {
    Submitter s = run(params(IrqMode.NONE, 64), 3);
    assertEquals(List.of(0L, 0L, 0L), s.completions);
  }

  @Test
  void softirqMode_completionsSerialiseOnTheCpu() {
    Submitter s = run(params(IrqMode.SOFTIRQ, 64), 2);
    // The task is running while issuing, so each completion steals 500 ns from it in turn.
    assertEquals(2, s.completions.size());
    assertEquals(500L, s.completions.get(0));
  }

  @Test
  void tagExhaustion_makesTheSubmitterWaitForAFreeTag() {
    Submitter s = run(params(IrqMode.TIMER, 2), 4);
    assertTrue(s.tagWaits >= 1, "4 requests on 2 tags must wait");
    assertEquals(4, s.completions.size());
    // two complete at 10.5 us, the next two are issued then and complete 10.5 us later.
    assertEquals(10_500L, s.completions.get(0));
    assertTrue(s.completions.get(3) >= 21_000L, "second pair waits for tags: " + s.completions);
  }

  @Test
  void tagExhaustion_failsANowaitSubmitterWithEagainInsteadOfQueueingIt() {
    Submitter s = run(params(IrqMode.TIMER, 2), 4, Bio.REQ_NOWAIT);
    assertEquals(0, s.tagWaits, "a NOWAIT submitter never sleeps for a tag");
    assertEquals(0, s.rq.tagWaiters());
    assertEquals(4, s.completions.size());
    // The third and fourth bios fail at once, at time 0, before the first two complete (whose
    // interrupts, both due at 10 us, take 500 ns each in turn on the idle CPU).
    assertEquals(List.of(0L, 0L, 10_500L, 11_000L), s.completions);
    assertEquals(List.of(-Errno.EAGAIN, -Errno.EAGAIN, 0, 0), s.errors);
    DiskCounters.Snapshot snap = s.q.counters().snapshot(100_000);
    assertEquals(2, snap.readIos(), "failed bios are not counted");
    assertTrue(s.q.supportsNowait(), "blk-mq supports nowait");
  }

  @Test
  void nowaitBio_withAFreeTag_isServedNormally() {
    Submitter s = run(params(IrqMode.TIMER, 64), 1, Bio.REQ_NOWAIT);
    assertEquals(List.of(10_500L), s.completions);
    assertEquals(List.of(0), s.errors);
  }

  @Test
  void counters_countIosSectorsAndBusyTime() {
    Submitter s = run(params(IrqMode.TIMER, 64), 2);
    DiskCounters.Snapshot snap = s.q.counters().snapshot(100_000);
    assertEquals(2, snap.readIos());
    assertEquals(16, snap.readSectors());
    assertEquals(0, snap.writeIos());
    assertEquals(0, snap.readMerges(), "two bios without a plug are two requests");
    assertTrue(snap.ioTicksNs() >= 10_000 && snap.ioTicksNs() <= 11_000, "" + snap.ioTicksNs());
    assertEquals(0, s.rq.requestsInUse());
    assertEquals(0, s.rq.driverTagsInUse());
  }

  @Test
  void tagExhaustion_backpressure_submitterSleepsUntilACompletionFreesATag() {
    Submitter s = run(params(IrqMode.TIMER, 1), 3);
    // One tag: each bio waits for the previous completion (10 us + 500 ns of interrupt).
    assertTrue(s.tagWaits >= 2, "two of three bios wait for the one tag: " + s.tagWaits);
    assertEquals(3, s.completions.size());
    assertTrue(s.completions.get(1) >= 2 * 10_500L, s.completions.toString());
    assertTrue(s.completions.get(2) >= 3 * 10_500L, s.completions.toString());
  }

  @Test
  void plug_mergesContiguousBiosIntoOneRequest() {
    Submitter s = run(params(IrqMode.TIMER, 64), 4, 0, true);
    DiskCounters.Snapshot snap = s.q.counters().snapshot(100_000);
    assertEquals(1, snap.readIos(), "four contiguous 4 KiB bios in a plug: one request");
    assertEquals(3, snap.readMerges());
    assertEquals(32, snap.readSectors());
    assertEquals(4, s.completions.size());
    assertEquals(1, s.rq.dispatched());
    // All four bios end with their one request, together.
    assertEquals(s.completions.get(0), s.completions.get(3));
  }

  @Test
  void plug_mergingStopsAtMaxSectors() {
    NullBlkParams p = new NullBlkParams("nullb0", 1L << 30, 512, 64, IrqMode.TIMER, 10_000, 600,
        500, NullBlkParams.PER_CPU, Scheduler.NONE, 0, 8192, BlkMqRules.V6);
    Submitter s = run(p, 4, 0, true);
    DiskCounters.Snapshot snap = s.q.counters().snapshot(100_000);
    assertEquals(2, snap.readIos(), "max_sectors 8 KiB: two requests of two bios");
    assertEquals(2, snap.readMerges());
  }

  @Test
  void scheduler_autoIsMqDeadlineForOneHardwareQueueAndNoneForSeveral() {
    NullBlkParams auto = new NullBlkParams("nullb0", 1L << 30, 512, 64, IrqMode.NONE, 0, 0, 0,
        NullBlkParams.PER_CPU, null, 0, NullBlkParams.DEFAULT_MAX_BYTES, BlkMqRules.V6);
    assertEquals(Scheduler.MQ_DEADLINE, auto.schedulerFor(1));
    assertEquals(Scheduler.NONE, auto.schedulerFor(4));
    assertEquals(128, auto.nrRequestsFor(1), "2 x min(64, 128) scheduler tags");
    assertEquals(64, auto.nrRequestsFor(4), "without a scheduler: the driver tags");
    NullBlkDriver one = new NullBlkDriver(auto, new int[] {0, 0}, 1, Kblockd.INLINE);
    assertEquals("mq-deadline", one.hctx(1).queue().schedulerName());
    NullBlkDriver two = new NullBlkDriver(auto, new int[] {0, 1}, 2, Kblockd.INLINE);
    assertEquals("none", two.hctx(1).queue().schedulerName());
    NullBlkParams forced = new NullBlkParams("nullb0", 1L << 30, 512, 64, IrqMode.NONE, 0, 0,
        0, NullBlkParams.PER_CPU, Scheduler.MQ_DEADLINE, 0, NullBlkParams.DEFAULT_MAX_BYTES,
        BlkMqRules.V6);
    assertEquals(Scheduler.MQ_DEADLINE, forced.schedulerFor(4));
    assertEquals(1, forced.hwQueues(1));
    assertEquals(8, forced.hwQueues(8));
  }

  @Test
  void mqDeadline_queueMergesContiguousBiosWaitingForTheKblockdRun() {
    NullBlkParams p = new NullBlkParams("nullb0", 1L << 30, 512, 2, IrqMode.TIMER, 10_000, 600,
        500, NullBlkParams.PER_CPU, Scheduler.MQ_DEADLINE, 0, NullBlkParams.DEFAULT_MAX_BYTES,
        BlkMqRules.V6);
    Submitter s = run(p, 6);
    assertEquals(6, s.completions.size());
    assertEquals(0, s.tagWaits);
    assertEquals(List.of(0, 0, 0, 0, 0, 0), s.errors);
    // With an elevator the unplugged request waits for kblockd's run (6.x), so the next
    // contiguous bios merge into it in the scheduler (blk_mq_sched_bio_merge()).
    assertEquals(1, s.rq.dispatched());
    assertEquals(5, s.q.counters().snapshot(100_000).readMerges());
  }

  @Test
  void mapQueues_groupsSiblingsAndNodesAndGivesEachCpuItsOwnWhenQueuesEqualCpus() {
    // 2 nodes x 2 cores x 2 threads: CPU ids 0-3 are thread 0 of cores 0-3, 4-7 thread 1.
    List<Cpu> cpus = Topology.of(new TopologyParams(2, 1, 1, 2, 2)).cpus();
    int[] perCpu = NullBlkDriver.mapQueues(cpus, 8);
    assertEquals(8, java.util.Arrays.stream(perCpu).distinct().count());
    int[] perNode = NullBlkDriver.mapQueues(cpus, 2);
    for (Cpu c : cpus) {
      assertEquals(c.node(), perNode[c.id()], "cpu " + c.id());
    }
    int[] perCore = NullBlkDriver.mapQueues(cpus, 4);
    for (Cpu c : cpus) {
      assertEquals(c.core(), perCore[c.id()], "SMT siblings share a queue: cpu " + c.id());
    }
    int[] one = NullBlkDriver.mapQueues(cpus, 1);
    assertEquals(0, java.util.Arrays.stream(one).sum());
    assertThrows(IllegalArgumentException.class, () -> NullBlkDriver.mapQueues(cpus, 9));
    // The driver hands each CPU its context's queue.
    NullBlkDriver d = new NullBlkDriver(params(IrqMode.NONE, 64), cpus, Kblockd.INLINE);
    assertEquals(8, d.hctxs().size());
    assertTrue(d.hctx(5).cpuLocal());
  }

  @Test
  void params_rejectOutOfRangeValues() {
    assertThrows(IllegalArgumentException.class, () -> params(IrqMode.TIMER, 0));
    assertThrows(IllegalArgumentException.class,
        () -> new NullBlkParams("x", 1000, 512, 64, IrqMode.NONE, 0, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new NullBlkParams("x", 1L << 30, 512, 8,
        IrqMode.NONE, 0, 0, 0, 1, Scheduler.NONE, 16, NullBlkParams.DEFAULT_MAX_BYTES,
        BlkMqRules.V6));
    assertThrows(IllegalArgumentException.class, () -> new NullBlkParams("x", 1L << 30, 4096, 8,
        IrqMode.NONE, 0, 0, 0, 1, null, 0, 2048, BlkMqRules.V6));
    assertEquals(IrqMode.TIMER, IrqMode.parse("2"));
    assertThrows(IllegalArgumentException.class, () -> IrqMode.parse("fast"));
  }

}
