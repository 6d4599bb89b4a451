package blksim.kernel.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.block.Errno;
import blksim.kernel.block.ReqOp;
import blksim.kernel.device.ScriptedSubmitter.Completion;
import java.util.List;
import org.junit.jupiter.api.Test;

class BrdQueueTest {
  static final long GIB = 1L << 30;
  static final BlockLayerParams BLOCK = new BlockLayerParams(200);

  static BrdParams brd(boolean nowait, boolean prefilled) {
    return new BrdParams("ram0", GIB, nowait, 500, 5_000, 4_000, 1_000, prefilled);
  }

  static ScriptedSubmitter run(BrdParams p, Bio... bios) {
    return ScriptedSubmitter.run(cpu -> new BrdQueue(p, BLOCK, cpu), List.of(bios));
  }

  static Bio read(long sector, int bytes, int flags) {
    return new Bio(ReqOp.READ, sector, bytes, flags);
  }

  @Test
  void read_completesInsideIssueAfterTheSubmitterPaidItsCost() {
    ScriptedSubmitter s = run(brd(false, true), read(0, 4096, Bio.REQ_SYNC));
    assertEquals(List.of(new Completion(5_500, 0, true)), s.completions);
    assertEquals(5_500, s.stimeNs(), "the copy is system time of the submitter");
    assertEquals(0, s.nvcsw(), "an inline completion never sleeps");
  }

  @Test
  void cost_scalesWithTheNumberOfPages_4kVersus64k() {
    BrdQueue q = new BrdQueue(brd(false, true), BLOCK, null);
    long c4k = q.submitCostNs(read(0, 4096, 0));
    long c64k = q.submitCostNs(read(0, 65536, 0));
    assertEquals(500 + 5_000, c4k);
    assertEquals(500 + 16 * 5_000, c64k);
    assertEquals(15 * 5_000, c64k - c4k, "each extra page adds perPageReadNs");
    // 4 KiB starting at sector 1 straddles two pages.
    assertEquals(500 + 2 * 5_000, q.submitCostNs(read(1, 4096, 0)));

    ScriptedSubmitter s = run(brd(false, true), read(0, 4096, 0), read(8, 65536, 0));
    assertEquals(5_500, s.completions.get(0).timeNs());
    assertEquals(5_500 + 80_500, s.completions.get(1).timeNs());
  }

  @Test
  void write_paysTheAllocationOnlyOnAnUnfilledDevice() {
    Bio w = new Bio(ReqOp.WRITE, 0, 8192, 0);
    assertEquals(500 + 2 * 4_000, new BrdQueue(brd(false, true), BLOCK, null).submitCostNs(w));
    assertEquals(500 + 2 * (4_000 + 1_000),
        new BrdQueue(brd(false, false), BLOCK, null).submitCostNs(w));
    assertEquals(500, new BrdQueue(brd(false, false), BLOCK, null)
        .submitCostNs(new Bio(ReqOp.FLUSH, 0, 0, 0)));
  }

  @Test
  void nowaitBio_onDeviceWithoutNowait_failsWithEopnotsuppWithoutWorkOrAccounting() {
    ScriptedSubmitter s = run(brd(false, true), read(0, 65536, Bio.REQ_NOWAIT));
    assertEquals(List.of(new Completion(200, -Errno.EOPNOTSUPP, true)), s.completions);
    assertEquals(200, s.stimeNs(), "only submit_bio_noacct's check is paid, not the copy");
    DiskCounters.Snapshot snap = s.q.counters().snapshot(1_000_000);
    assertEquals(0, snap.readIos());
    assertEquals(0, snap.readSectors());
    assertEquals(0, snap.ioTicksNs());
    assertFalse(s.q.supportsNowait());
  }

  @Test
  void nowaitBio_onDeviceWithNowait_isServedInline() {
    ScriptedSubmitter s = run(brd(true, true), read(0, 4096, Bio.REQ_NOWAIT | Bio.REQ_SYNC));
    assertEquals(List.of(new Completion(5_500, 0, true)), s.completions);
    assertEquals(1, s.q.counters().snapshot(10_000).readIos());
    assertTrue(s.q.supportsNowait());
  }

  @Test
  void blockingBio_onDeviceWithoutNowait_isServed() {
    ScriptedSubmitter s = run(brd(false, true), read(0, 4096, 0));
    assertEquals(0, s.completions.get(0).error());
  }

  @Test
  void counters_countIosSectorsAndTheDriversCpuTimeAsTicks() {
    ScriptedSubmitter s = run(brd(false, true), read(0, 4096, 0),
        new Bio(ReqOp.WRITE, 64, 65536, 0));
    DiskCounters.Snapshot snap = s.q.counters().snapshot(200_000);
    assertEquals(1, snap.readIos());
    assertEquals(8, snap.readSectors());
    assertEquals(5_500, snap.readTicksNs());
    assertEquals(1, snap.writeIos());
    assertEquals(128, snap.writeSectors());
    assertEquals(500 + 16 * 4_000, snap.writeTicksNs());
    assertEquals(5_500 + 64_500, snap.ioTicksNs());
  }

  @Test
  void defaults_matchTheDocumentedValuesAndAreNowaitOff() {
    BrdParams d = BrdParams.defaults("ram0", GIB);
    assertFalse(d.nowait());
    assertTrue(d.prefilled());
    assertEquals(5_500, new BrdQueue(d, BlockLayerParams.DEFAULTS, null)
        .submitCostNs(read(0, 4096, 0)), "device part of §12.5's 7.9 us, see BrdParams");
    assertTrue(d.withNowait(true).nowait());
    assertEquals(512, new BrdQueue(d, BLOCK, null).logicalBlockSize());
  }

  @Test
  void params_rejectBadValuesNamingTheFieldAndRule() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new BrdParams("ram0", 1000, false, 0, 0, 0, 0, true));
    assertEquals("sizeBytes must be a positive multiple of 1024 (brd's rd_size is in KiB), was"
        + " 1000", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new BrdParams("ram0", GIB, false, 0, -1, 0, 0, true));
    assertEquals("perPageReadNs must be in [0, 1000000000] ns, was -1", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new BrdParams("ram0", GIB, false, 0, 0, 0, 2_000_000_000L, true));
    assertEquals("firstWriteAllocNs must be in [0, 1000000000] ns, was 2000000000",
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new BrdParams(" ", GIB, false, 0, 0, 0, 0, true));
    assertEquals("name must be a non-empty disk name, was ' '", e.getMessage());
  }

  @Test
  void aPerPageDistribution_isDrawnOncePerBio_theDiskTicksAreTheTimeCharged() {
    BrdParams p = new BrdParams("ram0", GIB, false, 500,
        blksim.engine.CostDistribution.uniform(1_000, 9_000),
        blksim.engine.CostDistribution.constant(4_000), 1_000, true);
    ScriptedSubmitter s = ScriptedSubmitter.run(
        cpu -> new BrdQueue(p, BLOCK, cpu, new java.util.SplittableRandom(3)),
        List.of(read(0, 4096, 0), read(8, 8192, 0), read(64, 4096, 0)));
    assertEquals(3, s.completions.size());
    // Bios run back to back from 0: the device was busy exactly the submitter's system time,
    // which it would not be if issue() drew the pages again for the ticks.
    assertEquals(s.stimeNs(), s.q.counters().ioTicksNs(s.completions.get(2).timeNs()));
  }
}
