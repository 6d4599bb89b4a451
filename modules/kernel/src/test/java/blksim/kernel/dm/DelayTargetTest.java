package blksim.kernel.dm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.sched.TaskReport;
import blksim.kernel.topology.Cpu;
import blksim.kernel.timer.TimerParams;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * dm-delay over dm-zero on one CPU at HZ 1000: the mode rule, the classes, and the acceptance
 * check of kernel-model.md §12.6 item 1 at the bio level.
 */
class DelayTargetTest {
  static final long MS = 1_000_000;
  static final SchedParams SCHED = new SchedParams(1_000, 0, 1_000).withHz(1000);
  static final TimerParams TIMERS = TimerParams.defaults(1000);
  static final BlockLayerParams BLOCK = BlockLayerParams.DEFAULTS;
  static final Bio WRITE = new Bio(ReqOp.WRITE, 0, 4096, Bio.REQ_SYNC);
  static final Bio READ = new Bio(ReqOp.READ, 0, 4096, 0);
  static final int IOS = 20;

  /** One CPU with dm-zeros and mapped devices over it. */
  static final class Rig {
    final CpuComponent cpu;
    final TimerParams timers;
    final Map<String, BlockQueue> queues = new LinkedHashMap<>();
    final DelayVersion version;
    final long pollBatchNs;

    Rig(DelayVersion version, long pollBatchNs) {
      this(version, pollBatchNs, 1000);
    }

    Rig(DelayVersion version, long pollBatchNs, int hz) {
      this.cpu = new CpuComponent(new Cpu(0, 0, 0, 0, 0), SCHED.withHz(hz));
      this.timers = TimerParams.defaults(hz);
      this.version = version;
      this.pollBatchNs = pollBatchNs;
      dm("dm-zeros", "0 2097152 zero");
    }

    DmQueue dm(String name, String table) {
      DmParams p = new DmParams(name, DmTable.parse(table), 512, version, pollBatchNs,
          DmCostParams.DEFAULTS);
      DmQueue q = p.newQueue(cpu, BLOCK, timers, queues::get);
      queues.put(name, q);
      return q;
    }

    RecordingQueue dev(String name) {
      RecordingQueue q = new RecordingQueue(name, 1L << 30, true, 1_000);
      q.clock = cpu::now;
      queues.put(name, q);
      return q;
    }

    DmSubmitter submit(BlockQueue q, List<Bio> ios, boolean buffered) {
      DmSubmitter s = new DmSubmitter(q, ios, buffered);
      cpu.addTask(s);
      return s;
    }

    void run() {
      DmSubmitter.run(List.of(cpu), SCHED.wakeupLatencyNs());
    }
  }

  static DelayTarget delay(DmQueue q) {
    return (DelayTarget) q.targets().get(0);
  }

  /** Time per I/O in steady state: the mean interval between I/O completions after the first. */
  static double meanIntervalNs(DmSubmitter s) {
    List<Long> done = s.ioDone;
    return (double) (done.get(done.size() - 1) - done.get(0)) / (done.size() - 1);
  }

  static double iops(DmSubmitter s) {
    return 1e9 / meanIntervalNs(s);
  }

  /** Runs IOS QD1 I/Os through dm-delay-{delayMs}ms over dm-zeros and returns the submitter. */
  static DmSubmitter qd1(DelayVersion v, long delayMs, Bio io, boolean buffered) {
    return qd1(v, delayMs, io, buffered, 1000);
  }

  static DmSubmitter qd1(DelayVersion v, long delayMs, Bio io, boolean buffered, int hz) {
    Rig r = new Rig(v, 0, hz);
    DmQueue d = r.dm("dm-delay", "0 2097152 delay /dev/mapper/dm-zeros 0 " + delayMs);
    DmSubmitter s = r.submit(d, DmSubmitter.times(IOS, io), buffered);
    r.run();
    assertEquals(IOS, s.ioDone.size());
    return s;
  }

  @Test
  void modeRule_kthreadBelow50ms_timerFrom50_withPre67AndV1Switches() {
    assertEquals(DelayMode.KTHREAD, DelayVersion.V6_7.mode(49));
    assertEquals(DelayMode.TIMER, DelayVersion.V6_7.mode(DelayVersion.KTHREAD_THRESHOLD_MS));
    assertEquals(DelayMode.KTHREAD, DelayVersion.FSLEEP.mode(1));
    assertEquals(DelayMode.TIMER, DelayVersion.PRE_6_7.mode(1));
    assertEquals(DelayMode.KTHREAD, DelayVersion.V1.mode(500));

    Rig r = new Rig(DelayVersion.V6_7, 0);
    DelayTarget small = delay(r.dm("a", "0 8 delay dm-zeros 0 1"));
    DelayTarget bigWrite = delay(r.dm("b", "0 8 delay dm-zeros 0 1 dm-zeros 0 50"));
    DelayTarget bigFlush = delay(r.dm("c", "0 8 delay dm-zeros 0 1 dm-zeros 0 1 dm-zeros 0 80"));
    assertEquals(DelayMode.KTHREAD, small.mode());
    assertEquals(DelayMode.TIMER, bigWrite.mode(), "the largest class decides");
    assertEquals(DelayMode.TIMER, bigFlush.mode());
    assertTrue(small.worker() instanceof DelayFlushWorker);
    assertEquals(DelayTarget.FLUSH_WORKER_COMM, small.worker().comm());
    assertTrue(bigWrite.worker() instanceof DelayKworker);
    assertEquals("kworker/0:0-kdelayd", bigWrite.worker().comm());
  }

  @Test
  void workerSleepUs_isAnEighthOfTheSmallestDelayUpTo1ms() {
    assertEquals(125, DelayVersion.workerSleepUs(1));
    assertEquals(875, DelayVersion.workerSleepUs(7));
    assertEquals(1000, DelayVersion.workerSleepUs(8));
    assertEquals(1000, DelayVersion.workerSleepUs(40));
  }

  @Test
  void classes_readWriteFlush_goToTheirDevicesAndOffsets_delay0RemapsStraight() {
    Rig r = new Rig(DelayVersion.V6_7, 0);
    RecordingQueue a = r.dev("a");
    RecordingQueue b = r.dev("b");
    RecordingQueue c = r.dev("c");
    DmQueue d = r.dm("d", "0 1000 zero\n1000 1000 delay a 10 0 b 20 0 c 30 0");
    DelayTarget t = (DelayTarget) d.targets().get(1);
    Bio rd = new Bio(ReqOp.READ, 1008, 4096, 0);
    Bio wr = new Bio(ReqOp.WRITE, 1016, 4096, 0);
    Bio disc = new Bio(ReqOp.DISCARD, 1024, 4096, 0);
    Bio fua = new Bio(ReqOp.WRITE, 1032, 4096, Bio.REQ_PREFLUSH);
    assertSame(t.readClass(), t.classOf(rd));
    assertSame(t.writeClass(), t.classOf(wr));
    assertSame(t.writeClass(), t.classOf(disc), "a discard is a write");
    assertSame(t.flushClass(), t.classOf(fua), "a write with REQ_PREFLUSH is a flush");
    DmSubmitter s = r.submit(d, List.of(rd, wr, disc, fua), false);
    r.run();
    assertEquals(List.of(new Bio(ReqOp.READ, 18, 4096, 0)), a.issued, "10 + (1008 - 1000)");
    assertEquals(List.of(new Bio(ReqOp.WRITE, 36, 4096, 0), new Bio(ReqOp.DISCARD, 44, 4096, 0)),
        b.issued);
    assertEquals(List.of(new Bio(ReqOp.WRITE, 62, 4096, Bio.REQ_PREFLUSH)), c.issued);
    for (DmSubmitter.Completion done : s.completions) {
      assertTrue(done.inline(), "delay 0: remapped straight through, completed inline");
    }
    assertEquals(0, t.released(), "nothing was held back");
    assertEquals(0, t.worker().stimeNs() - SCHED.ctxSwitchNs(),
        "the kthread never ran after its start");
  }

  @Test
  void classes_eachDelayedByItsOwnDelay() {
    Rig r = new Rig(DelayVersion.V6_7, 0);
    DmQueue d = r.dm("d", "0 2097152 delay dm-zeros 0 1 dm-zeros 0 3 dm-zeros 0 5");
    DmSubmitter s = r.submit(d, List.of(READ, WRITE, new Bio(ReqOp.FLUSH, 0, 0,
        Bio.REQ_PREFLUSH)), false);
    r.run();
    long[] jiffiesTaken = new long[3];
    long start = 0;
    for (int i = 0; i < 3; i++) {
      long end = s.ioDone.get(i);
      jiffiesTaken[i] = end / MS - start / MS;
      start = end;
    }
    assertEquals(1, jiffiesTaken[0]);
    assertEquals(3, jiffiesTaken[1]);
    assertEquals(5, jiffiesTaken[2], "the empty flush takes the flush class's delay");
    assertEquals(0, delay(d).readClass().ops() + delay(d).writeClass().ops()
        + delay(d).flushClass().ops(), "nothing left delayed");
  }

  @Test
  void timerMode_1ms_directWrites_take2JiffiesEach_500iops() {
    DmSubmitter s = qd1(DelayVersion.PRE_6_7, 1, WRITE, false);
    for (int i = 1; i < IOS; i++) {
      assertEquals(2 * MS, s.ioDone.get(i) - s.ioDone.get(i - 1),
          "d+1 jiffies: the level-0 timer fires at tick expires+1");
    }
    assertEquals(500, iops(s), 1e-9);
  }

  @Test
  void kthreadMode_1ms_directWrites_take1JiffyEach_1000iops() {
    DmSubmitter s = qd1(DelayVersion.V6_7, 1, WRITE, false);
    for (int i = 1; i < IOS; i++) {
      long dt = s.ioDone.get(i) - s.ioDone.get(i - 1);
      assertTrue(dt > MS - 5_000 && dt < MS + 5_000, "d jiffies, was " + dt + " ns");
    }
    assertEquals(1000, iops(s), 1.0);
  }

  @Test
  void bufferedReads_costTwoDelayedBios_250iopsTimer_500iopsKthread() {
    DmSubmitter timer = qd1(DelayVersion.PRE_6_7, 1, READ, true);
    assertEquals(2 * IOS, timer.completions.size(), "a readahead bio and a sync read per I/O");
    for (int i = 0; i < timer.completions.size(); i += 2) {
      assertEquals(-DmMapio.EIO, timer.completions.get(i).error(), "dm-zero kills readahead");
      assertTrue(timer.completions.get(i).bio().hasFlag(Bio.REQ_RAHEAD));
      assertEquals(0, timer.completions.get(i + 1).error());
      assertFalse(timer.completions.get(i + 1).bio().hasFlag(Bio.REQ_RAHEAD));
    }
    assertEquals(250, iops(timer), 1e-9);

    DmSubmitter kthread = qd1(DelayVersion.V6_7, 1, READ, true);
    assertEquals(2 * IOS, kthread.completions.size());
    assertEquals(500, iops(kthread), 1.0);
  }

  @Test
  void tenMs_giveTheCorrespondingFigures() {
    assertEquals(1000.0 / 11, iops(qd1(DelayVersion.PRE_6_7, 10, WRITE, false)), 1e-9);
    assertEquals(100, iops(qd1(DelayVersion.V6_7, 10, WRITE, false)), 0.1);
    assertEquals(1000.0 / 22, iops(qd1(DelayVersion.PRE_6_7, 10, READ, true)), 1e-9);
    assertEquals(50, iops(qd1(DelayVersion.V6_7, 10, READ, true)), 0.05);
  }

  @Test
  void hz250_roundsTheDelayUpToWholeJiffiesOf4ms() {
    // msecs_to_jiffies(1) = 1 and msecs_to_jiffies(10) = 3 at HZ 250.
    assertEquals(1000.0 / 8, iops(qd1(DelayVersion.PRE_6_7, 1, WRITE, false, 250)), 1e-9);
    assertEquals(1000.0 / 4, iops(qd1(DelayVersion.V6_7, 1, WRITE, false, 250)), 0.1);
    assertEquals(1000.0 / 16, iops(qd1(DelayVersion.PRE_6_7, 10, WRITE, false, 250)), 1e-9);
    assertEquals(1000.0 / 12, iops(qd1(DelayVersion.V6_7, 10, WRITE, false, 250)), 0.1);
  }

  @Test
  void hzMismatchBetweenTimersAndScheduler_isRefused() {
    CpuComponent cpu = new CpuComponent(new Cpu(0, 0, 0, 0, 0), SCHED.withHz(250));
    DmParams p = new DmParams("z", DmTable.parse("0 8 zero"), 512, DelayVersion.V6_7, 0,
        DmCostParams.DEFAULTS);
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> p.newQueue(cpu, BLOCK, TIMERS, n -> null));
    assertEquals("dm device z: the timers' HZ 1000 differs from the scheduler's 250 on cpu/0",
        e.getMessage());
  }

  @Test
  void timerMode_isUsedFor50msAndMore_on67() {
    assertEquals(1000.0 / 51, iops(qd1(DelayVersion.V6_7, 50, WRITE, false)), 1e-9);
    assertEquals(1000.0 / 50, iops(qd1(DelayVersion.V1, 50, WRITE, false)), 0.01,
        "v1 used the kthread for every delay");
  }

  @Test
  void kthread_burnsCpuWhileBiosArePending_andNoneWhenIdle() {
    Rig r = new Rig(DelayVersion.V6_7, 0);
    DmQueue d = r.dm("dm-delay", "0 2097152 delay /dev/mapper/dm-zeros 0 1");
    DelayFlushWorker k = (DelayFlushWorker) delay(d).worker();
    // Five writes from 0, nothing from about 5 ms to 55 ms, five writes from 55 ms.
    DmSubmitter first = r.submit(d, DmSubmitter.times(5, WRITE), false);
    DmSubmitter second = new DmSubmitter(d, DmSubmitter.times(5, WRITE), false, 55 * MS);
    r.cpu.addTask(second);
    r.run();
    long busy = 10 * MS;
    assertTrue(first.ioDone.get(4) < 6 * MS, "first batch done by " + first.ioDone.get(4));
    assertTrue(second.ioDone.get(4) > 60 * MS, "the second ends after the idle gap");
    assertTrue(k.stimeNs() > 0.95 * busy, "busy-polls through each 1 ms delay: " + k.stimeNs());
    assertTrue(k.stimeNs() < busy + MS, "and never in the 50 ms with nothing pending: "
        + k.stimeNs());
    assertTrue(first.stimeNs() < 100_000, "the submitter's own CPU stays small: "
        + first.stimeNs());
    assertEquals(10, delay(d).released());
    TaskReport rep = k.report(r.cpu.now());
    DelayWorkerReport w = DelayWorkerReport.decode(rep.payload());
    assertEquals(DelayWorkerReport.KIND, rep.kind());
    assertEquals(k.stimeNs(), w.stimeNs());
    assertEquals(k.passes(), w.passes());
    assertEquals(DelayMode.KTHREAD, w.mode());
  }

  @Test
  void timerMode_worker_costsLittleCpu_oneRunPerBio() {
    Rig r = new Rig(DelayVersion.PRE_6_7, 0);
    DmQueue d = r.dm("dm-delay", "0 2097152 delay /dev/mapper/dm-zeros 0 1");
    DmSubmitter s = r.submit(d, DmSubmitter.times(IOS, WRITE), false);
    r.run();
    DelayKworker w = (DelayKworker) delay(d).worker();
    assertEquals(IOS, delay(d).workRuns(), "the timer fires once per bio at QD 1");
    assertTrue(w.stimeNs() < IOS * 10_000L, "a few us per run: " + w.stimeNs());
    assertFalse(delay(d).timer().timerPending());
    assertEquals(IOS, s.ioDone.size());
  }

  @Test
  void timerMode_modTimerOnlyIfNotPendingOrEarlier() {
    Rig r = new Rig(DelayVersion.PRE_6_7, 0);
    DmQueue d = r.dm("d", "0 2097152 delay dm-zeros 0 1 dm-zeros 0 5");
    DmSubmitter w = r.submit(d, List.of(WRITE), false);
    DmSubmitter rd = r.submit(d, List.of(READ), false);
    r.run();
    // The write arms the timer for jiffy 5; the read, mapped in jiffy 0 too, moves it to 1.
    assertEquals(2, rd.ioDone.get(0) / MS, "read released at tick 2 (expires 1, +1)");
    assertEquals(6, w.ioDone.get(0) / MS, "write released at tick 6: the work re-armed the"
        + " timer for its expiry, 5");
    assertEquals(2, delay(d).workRuns());
  }

  @Test
  void pollBatch_givesTheSameReleaseTimes_withFarFewerPasses() {
    Rig exact = new Rig(DelayVersion.V6_7, 0);
    DmSubmitter a = exact.submit(exact.dm("d", "0 2097152 delay dm-zeros 0 2"),
        DmSubmitter.times(5, WRITE), false);
    exact.run();
    Rig batched = new Rig(DelayVersion.V6_7, 100_000);
    DmQueue bq = batched.dm("d", "0 2097152 delay dm-zeros 0 2");
    DmSubmitter b = batched.submit(bq, DmSubmitter.times(5, WRITE), false);
    batched.run();
    assertEquals(a.ioDone, b.ioDone, "bios are found due on the same pass");
    DelayFlushWorker ka = (DelayFlushWorker) delay((DmQueue) exact.queues.get("d")).worker();
    DelayFlushWorker kb = (DelayFlushWorker) delay(bq).worker();
    assertEquals(ka.passes(), kb.passes(), "the same passes are counted");
    assertEquals(ka.stimeNs(), kb.stimeNs(), "and charged");
    assertTrue(kb.nivcsw() + kb.nvcsw() <= ka.nivcsw() + ka.nvcsw());
  }

  /** The largest time from the start of a jiffy to an I/O's completion in it. */
  static long maxLagInJiffyNs(DmSubmitter s) {
    long max = 0;
    for (long t : s.ioDone) {
      max = Math.max(max, t % MS);
    }
    return max;
  }

  @Test
  void fsleepRevision_pollsEveryEighthOfTheDelay_burningFarLessCpu() {
    DmSubmitter busy = qd1(DelayVersion.V6_7, 1, WRITE, false);
    Rig r = new Rig(DelayVersion.FSLEEP, 0);
    DmQueue d = r.dm("dm-delay", "0 2097152 delay /dev/mapper/dm-zeros 0 1");
    DmSubmitter s = r.submit(d, DmSubmitter.times(IOS, WRITE), false);
    r.run();
    assertEquals(1000, iops(s), 15, "still d jiffies per bio on average");
    long lag = maxLagInJiffyNs(s);
    assertTrue(lag > 20_000 && lag < 260_000, "released on the first poll after the jiffy,"
        + " polls 2 x 125 us apart (usleep_range's hard expiry): lag " + lag);
    assertTrue(maxLagInJiffyNs(busy) < 20_000, "the busy poll releases within a pass or two: "
        + maxLagInJiffyNs(busy));
    DelayFlushWorker k = (DelayFlushWorker) delay(d).worker();
    DelayFlushWorker kb = (DelayFlushWorker) delay((DmQueue) busy.q).worker();
    assertTrue(k.stimeNs() < IOS * 100_000L, "a few passes per bio: " + k.stimeNs());
    assertTrue(kb.stimeNs() > 10 * k.stimeNs(), "the busy poll burns far more: " + kb.stimeNs());
    assertTrue(k.passes() <= IOS * 6L, "about 4-5 passes per bio: " + k.passes());
    assertTrue(k.nvcsw() > IOS, "it sleeps between passes");
  }
}
