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
import blksim.kernel.block.DiskCounters;
import blksim.kernel.block.Errno;
import blksim.kernel.block.ReqOp;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.topology.Cpu;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NullBlkQueueTest {
  static final SchedParams SCHED = new SchedParams(0, 0, 1_000);

  /** Issues {@code n} reads back to back without waiting, then waits for all of them. */
  static final class Submitter extends Task {
    final NullBlkQueue q;
    final int n;
    final int flags;
    final List<Long> completions = new ArrayList<>();
    final List<Integer> errors = new ArrayList<>();
    int issued;
    int tagWaits;

    Submitter(NullBlkQueue q, int n) {
      this(q, n, 0);
    }

    Submitter(NullBlkQueue q, int n, int flags) {
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
      while (issued < n) {
        Bio bio = new Bio(ReqOp.READ, issued * 8L, 4096, flags);
        if (!q.issue(bio, (b, e) -> {
          completions.add(cpu.now());
          errors.add(e);
          cpu.cpu().wake(this);
        }, () -> cpu.cpu().wake(this))) {
          tagWaits++;
          cpu.sleep();
          return;
        }
        issued++;
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
    CpuComponent cpu = new CpuComponent(new Cpu(0, 0, 0, 0, 0), SCHED);
    NullBlkQueue q = new NullBlkQueue(p, cpu);
    cpu.attach(q);
    Submitter s = new Submitter(q, n, flags);
    cpu.addTask(s);
    LocalRunner.run(new Model(List.of(cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE, 1,
        ProgressListener.NONE);
    return s;
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
    assertEquals(0, s.q.tagWaiters());
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
    CpuComponent cpu = new CpuComponent(new Cpu(0, 0, 0, 0, 0), SCHED);
    NullBlkQueue q = new NullBlkQueue(params(IrqMode.TIMER, 64), cpu);
    cpu.attach(q);
    Submitter s = new Submitter(q, 2);
    cpu.addTask(s);
    LocalRunner.run(new Model(List.of(cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE, 1,
        ProgressListener.NONE);
    DiskCounters.Snapshot snap = q.counters().snapshot(100_000);
    assertEquals(2, snap.readIos());
    assertEquals(16, snap.readSectors());
    assertEquals(0, snap.writeIos());
    assertTrue(snap.ioTicksNs() >= 10_000 && snap.ioTicksNs() <= 11_000, "" + snap.ioTicksNs());
    assertFalse(q.tagsInUse() > 0);
  }

  @Test
  void params_rejectOutOfRangeValues() {
    assertThrows(IllegalArgumentException.class, () -> params(IrqMode.TIMER, 0));
    assertThrows(IllegalArgumentException.class,
        () -> new NullBlkParams("x", 1000, 512, 64, IrqMode.NONE, 0, 0, 0));
    assertEquals(IrqMode.TIMER, IrqMode.parse("2"));
    assertThrows(IllegalArgumentException.class, () -> IrqMode.parse("fast"));
  }

}
