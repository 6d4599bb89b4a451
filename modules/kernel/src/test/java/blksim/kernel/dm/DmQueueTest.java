package blksim.kernel.dm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.block.Errno;
import blksim.kernel.block.ReqOp;
import blksim.kernel.dm.DmSubmitter.Completion;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.timer.TimerParams;
import blksim.kernel.topology.Cpu;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DmQueueTest {
  static final SchedParams SCHED = new SchedParams(0, 0, 1_000).withHz(1000);
  static final BlockLayerParams BLOCK = new BlockLayerParams(200);
  static final TimerParams TIMERS = TimerParams.defaults(1000);
  static final long MIB = 1L << 20;
  static final long DEV_NS = 1_000;
  static final DmCostParams COSTS = new DmCostParams(600, 50, 70, 200, 150, 300, 20, 1_000,
      1_000);
  static final long CORE = 600;
  static final long LINEAR = 50;
  static final long ZERO = 70;
  static final long FILL = 200;

  /** One CPU with recording devices and mapped devices built in order. */
  static final class Rig {
    final CpuComponent cpu = new CpuComponent(new Cpu(0, 0, 0, 0, 0), SCHED);
    final Map<String, BlockQueue> queues = new LinkedHashMap<>();

    RecordingQueue dev(String name, boolean nowait) {
      RecordingQueue q = new RecordingQueue(name, 64 * MIB, nowait, DEV_NS);
      q.clock = cpu::now;
      queues.put(name, q);
      return q;
    }

    DmQueue dm(String name, String table) {
      DmParams p = new DmParams(name, DmTable.parse(table), 512, DelayVersion.V6_7, 0, COSTS);
      DmQueue q = p.newQueue(cpu, BLOCK, TIMERS, queues::get);
      queues.put(name, q);
      return q;
    }

    DmSubmitter run(BlockQueue q, Bio... bios) {
      DmSubmitter s = new DmSubmitter(q, List.of(bios), false);
      cpu.addTask(s);
      DmSubmitter.run(List.of(cpu), SCHED.wakeupLatencyNs());
      return s;
    }
  }

  static Bio read(long sector, int bytes) {
    return new Bio(ReqOp.READ, sector, bytes, Bio.REQ_SYNC);
  }

  @Test
  void linear_remapsBySectorOffsetPerTarget_andSplitsAtTheBoundary() {
    Rig r = new Rig();
    RecordingQueue a = r.dev("a", true);
    RecordingQueue b = r.dev("b", true);
    DmQueue dm = r.dm("lin", "0 1000 linear /dev/a 5000\n1000 1000 linear b 0");
    assertEquals(2000L * 512, dm.capacityBytes());
    DmSubmitter s = r.run(dm, read(10, 4096), read(1008, 4096), read(996, 4096));
    assertEquals(List.of(read(5010, 4096), new Bio(ReqOp.READ, 5996, 2048, Bio.REQ_SYNC)),
        a.issued, "sector + 5000 on a; the split bio's first half");
    assertEquals(List.of(read(8, 4096), new Bio(ReqOp.READ, 0, 2048, Bio.REQ_SYNC)), b.issued,
        "sector - 1000 on b; the second half starts at b's sector 0");
    assertEquals(3, s.completions.size());
    for (Completion c : s.completions) {
      assertEquals(0, c.error());
      assertTrue(c.inline(), "a stack of synchronous devices completes inside issue()");
    }
    long one = CORE + LINEAR + DEV_NS;
    assertEquals(one, dm.submitCostNs(read(10, 4096)));
    assertEquals(2 * one, dm.submitCostNs(read(996, 4096)), "a split bio pays per clone");
    assertEquals(4 * one, s.stimeNs(), "the submitter paid the DM core, map and device");
    DiskCounters.Snapshot snap = dm.counters().snapshot(s.completions.get(2).timeNs());
    assertEquals(3, snap.readIos(), "the mapped device counts the original bios");
    assertEquals(24, snap.readSectors());
  }

  @Test
  void linear_stacked_offsetsAddUp_andErrorsComeBack() {
    Rig r = new Rig();
    RecordingQueue a = r.dev("a", true);
    a.error = -Errno.EAGAIN;
    r.dm("lower", "0 100000 linear /dev/a 100");
    DmQueue upper = r.dm("upper", "0 50000 linear /dev/mapper/lower 1000");
    DmSubmitter s = r.run(upper, read(8, 4096));
    assertEquals(List.of(read(1108, 4096)), a.issued, "8 + 1000 + 100");
    assertEquals(-Errno.EAGAIN, s.completions.get(0).error(), "the device's error reaches the"
        + " original bio through both layers");
    assertEquals(2 * (CORE + LINEAR) + DEV_NS, upper.submitCostNs(read(8, 4096)));
  }

  @Test
  void zero_killsReadaheadWithEio_zeroFillsReads_dropsWritesInline() {
    Rig r = new Rig();
    DmQueue z = r.dm("dm-zeros", "0 2097152 zero");
    Bio rahead = new Bio(ReqOp.READ, 0, 4096, Bio.REQ_RAHEAD);
    Bio write = new Bio(ReqOp.WRITE, 8, 8192, Bio.REQ_SYNC);
    Bio discard = new Bio(ReqOp.DISCARD, 0, 1 << 20, 0);
    DmSubmitter s = r.run(z, rahead, read(0, 4096), write, discard);
    assertEquals(-DmMapio.EIO, s.completions.get(0).error(), "REQ_RAHEAD read is killed");
    assertEquals(-5, -DmMapio.EIO);
    for (int i = 1; i < 4; i++) {
      assertEquals(0, s.completions.get(i).error());
    }
    for (Completion c : s.completions) {
      assertTrue(c.inline(), "dm-zero completes before submit_bio returns");
    }
    assertEquals(CORE + ZERO, z.submitCostNs(rahead), "a killed read is not zero-filled");
    assertEquals(CORE + ZERO + FILL, z.submitCostNs(read(0, 4096)));
    assertEquals(CORE + ZERO + 2 * FILL, z.submitCostNs(read(0, 8192)));
    assertEquals(CORE + ZERO, z.submitCostNs(write), "writes are dropped: no fill");
    DiskCounters.Snapshot snap = z.counters().snapshot(1_000_000);
    assertEquals(1, snap.readIos(), "the killed readahead is not accounted");
    assertEquals(2, snap.writeIos());
  }

  @Test
  void emptyFlush_goesToTargetsThatTakeFlushes_andCompletesAtOnceOnZero() {
    Rig r = new Rig();
    RecordingQueue a = r.dev("a", true);
    DmQueue mixed = r.dm("mixed", "0 100 zero\n100 100 linear /dev/a 7");
    DmQueue zero = r.dm("z", "0 100 zero");
    Bio flush = new Bio(ReqOp.FLUSH, 0, 0, Bio.REQ_PREFLUSH);
    assertEquals(CORE + LINEAR + DEV_NS, mixed.submitCostNs(flush), "one clone, to linear");
    assertEquals(CORE, zero.submitCostNs(flush), "no clone at all");
    DmSubmitter s = new DmSubmitter(mixed, List.of(flush), false);
    DmSubmitter t = new DmSubmitter(zero, List.of(flush), false);
    r.cpu.addTask(s);
    r.cpu.addTask(t);
    DmSubmitter.run(List.of(r.cpu), SCHED.wakeupLatencyNs());
    assertEquals(List.of(flush), a.issued, "an empty flush keeps its sector on linear");
    assertEquals(0, s.completions.get(0).error());
    assertEquals(0, t.completions.get(0).error());
    assertTrue(t.completions.get(0).inline());
  }

  @Test
  void nowait_onlyIfEveryTargetAndEveryDeviceSupportsIt() {
    Rig r = new Rig();
    r.dev("fast", true);
    r.dev("slow", false);
    assertTrue(r.dm("l1", "0 8 linear /dev/fast 0").supportsNowait());
    assertFalse(r.dm("l2", "0 8 linear /dev/fast 0\n8 8 linear /dev/slow 0").supportsNowait(),
        "one underlying device without nowait");
    assertTrue(r.dm("dm-zeros", "0 2097152 zero").supportsNowait(), "dm-zero has no device");
    assertTrue(r.dm("stack", "0 8 linear /dev/mapper/l1 0\n8 8 zero").supportsNowait(),
        "a stack of nowait layers");
    assertFalse(r.dm("st2", "0 8 linear /dev/mapper/l2 0").supportsNowait(),
        "nowait does not come back higher in the stack");
    assertFalse(r.dm("delayed", "0 8 delay /dev/mapper/dm-zeros 0 0").supportsNowait(),
        "dm-delay lacks DM_TARGET_NOWAIT");
  }

  @Test
  void nowaitBio_onDmDeviceWithoutNowait_failsWithEopnotsuppBeforeAnyTarget() {
    Rig r = new Rig();
    RecordingQueue slow = r.dev("slow", false);
    DmQueue dm = r.dm("l", "0 80 linear /dev/slow 0");
    Bio nw = new Bio(ReqOp.READ, 0, 4096, Bio.REQ_NOWAIT);
    assertEquals(200, dm.submitCostNs(nw), "only submit_bio_noacct's check");
    DmSubmitter s = r.run(dm, nw);
    assertEquals(-Errno.EOPNOTSUPP, s.completions.get(0).error());
    assertTrue(slow.issued.isEmpty());
    assertEquals(0, dm.counters().snapshot(1_000_000).readIos());
  }

  @Test
  void beyondTheEnd_failsWithEio() {
    Rig r = new Rig();
    DmQueue z = r.dm("z", "0 16 zero");
    Bio past = read(12, 4096);
    assertEquals(200, z.submitCostNs(past));
    DmSubmitter s = r.run(z, read(8, 4096), past);
    assertEquals(0, s.completions.get(0).error(), "sectors 8-15 are the last ones");
    assertEquals(-DmMapio.EIO, s.completions.get(1).error());
  }

  @Test
  void noTagOnTheDevice_issueReturnsFalseHavingDoneNothing_thenRetries() {
    Rig r = new Rig();
    RecordingQueue a = r.dev("a", true);
    a.tags = 0;
    List<Long> freedAt = new ArrayList<>();
    a.onBlocked = () -> r.cpu.callAfter(5_000, () -> {
      freedAt.add(r.cpu.now());
      a.freeTag();
    });
    DmQueue dm = r.dm("l", "0 80 linear /dev/a 0");
    DmSubmitter s = r.run(dm, read(0, 4096));
    assertEquals(1, a.issued.size(), "issued once, after the tag came back");
    assertEquals(freedAt.get(0), a.issuedAt.get(0), "the retry ran when the tag was freed");
    assertEquals(0, s.completions.get(0).error());
    DiskCounters.Snapshot snap = dm.counters().snapshot(1_000_000);
    assertEquals(1, snap.readIos(), "counted once, not for the failed attempt");
  }

  @Test
  void missingDeviceAtBuild_isATableError() {
    Rig r = new Rig();
    DmParams p = new DmParams("l", DmTable.parse("0 8 zero\n8 8 linear /dev/nope 0"), 512,
        DelayVersion.V6_7, 0, COSTS);
    DmTableException e = assertThrows(DmTableException.class,
        () -> p.newQueue(r.cpu, BLOCK, TIMERS, r.queues::get));
    assertEquals(2, e.line());
    assertEquals("table line 2, device: no device 'nope' (from '/dev/nope') on cpu/0",
        e.getMessage());
  }
}
