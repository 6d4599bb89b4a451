package blksim.kernel.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.block.Errno;
import blksim.kernel.block.ReqOp;
import blksim.kernel.device.ScriptedSubmitter.Completion;
import blksim.kernel.device.ZramQueue.PageKind;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ZramQueueTest {
  static final long GIB = 1L << 30;
  static final BlockLayerParams BLOCK = new BlockLayerParams(200);
  static final long FIXED = 500;
  static final long SLOT = 400;
  static final long DECOMPRESS = 30_000;
  static final long COMPRESS = 70_000;
  static final long COPY = 3_000;

  static ZramParams zram(boolean nowait, double same, double huge) {
    return new ZramParams("zram0", GIB, nowait, same, huge, FIXED, SLOT, DECOMPRESS, COMPRESS,
        COPY);
  }

  static ZramQueue queue(ZramParams p, long seed) {
    return new ZramQueue(p, BLOCK, null, new SplittableRandom(seed));
  }

  static Bio read(long page, int pages) {
    return new Bio(ReqOp.READ, page * 8, pages * 4096, 0);
  }

  static Bio write(long page, int pages) {
    return new Bio(ReqOp.WRITE, page * 8, pages * 4096, 0);
  }

  @Test
  void pureMixes_costExactlyTheirKindsCost() {
    assertEquals(FIXED + SLOT + DECOMPRESS, queue(zram(false, 0, 0), 1).submitCostNs(read(5, 1)));
    assertEquals(FIXED + SLOT, queue(zram(false, 1, 0), 1).submitCostNs(read(5, 1)),
        "a same-filled page is only looked up");
    assertEquals(FIXED + SLOT + COPY, queue(zram(false, 0, 1), 1).submitCostNs(read(5, 1)),
        "a huge page is copied, not decompressed");
    assertEquals(FIXED + 16 * (SLOT + DECOMPRESS),
        queue(zram(false, 0, 0), 1).submitCostNs(read(0, 16)), "64 KiB = 16 pages");
  }

  @Test
  void writes_compressUnlessSameFilled_andHugePagesAlsoCopy() {
    assertEquals(FIXED + SLOT + COMPRESS, queue(zram(false, 0, 0), 1).submitCostNs(write(3, 1)));
    assertEquals(FIXED + SLOT + COMPRESS + COPY,
        queue(zram(false, 0, 1), 1).submitCostNs(write(3, 1)));
    assertEquals(FIXED + SLOT, queue(zram(false, 1, 0), 1).submitCostNs(write(3, 1)));
    assertEquals(FIXED + 4 * SLOT,
        queue(zram(false, 0, 0), 1).submitCostNs(new Bio(ReqOp.DISCARD, 0, 4 * 4096, 0)));
  }

  @Test
  void mixedData_meanReadCostOverManyPagesMatchesTheFractions() {
    ZramQueue q = queue(zram(false, 0.25, 0.25), 42);
    int n = 40_000;
    long total = 0;
    int[] kinds = new int[3];
    for (int p = 0; p < n; p++) {
      total += q.submitCostNs(read(p, 1));
      kinds[q.pageKind(p).ordinal()]++;
    }
    double mean = (double) total / n;
    double expected = FIXED + SLOT + 0.25 * 0 + 0.25 * COPY + 0.5 * DECOMPRESS;
    // Standard error of the mean is about 75 ns here; 2 % is about 5 standard errors.
    assertEquals(expected, mean, 0.02 * expected);
    assertEquals(0.25, kinds[PageKind.SAME_FILLED.ordinal()] / (double) n, 0.01);
    assertEquals(0.25, kinds[PageKind.HUGE.ordinal()] / (double) n, 0.01);
    assertEquals(0.5, kinds[PageKind.COMPRESSED.ordinal()] / (double) n, 0.01);
  }

  @Test
  void pageKinds_areAFixedPropertyOfThePage_andFollowTheSeed() {
    ZramQueue a = queue(zram(false, 0.3, 0.3), 7);
    ZramQueue b = queue(zram(false, 0.3, 0.3), 7);
    ZramQueue c = queue(zram(false, 0.3, 0.3), 8);
    List<PageKind> ka = new ArrayList<>();
    List<PageKind> kb = new ArrayList<>();
    List<PageKind> kc = new ArrayList<>();
    for (int p = 0; p < 200; p++) {
      ka.add(a.pageKind(p));
      kb.add(b.pageKind(p));
      kc.add(c.pageKind(p));
    }
    assertEquals(ka, kb, "same seed, same data");
    assertNotEquals(ka, kc, "another seed, other data");
    Bio bio = read(10, 16);
    assertEquals(a.submitCostNs(bio), a.submitCostNs(bio), "the cost of a bio is pure");
    long perPage = 0;
    for (int p = 10; p < 26; p++) {
      perPage += a.submitCostNs(read(p, 1)) - FIXED;
    }
    assertEquals(FIXED + perPage, a.submitCostNs(bio), "a bio costs the sum of its pages");
  }

  @Test
  void read_completesInlineAfterItsCost_andIsCounted() {
    ScriptedSubmitter s = ScriptedSubmitter.run(
        cpu -> new ZramQueue(zram(false, 0, 0), BLOCK, cpu, new SplittableRandom(1)),
        List.of(read(0, 1), read(1, 1)));
    long c = FIXED + SLOT + DECOMPRESS;
    assertEquals(List.of(new Completion(c, 0, true), new Completion(2 * c, 0, true)),
        s.completions);
    assertEquals(2 * c, s.stimeNs());
    DiskCounters.Snapshot snap = s.q.counters().snapshot(10 * c);
    assertEquals(2, snap.readIos());
    assertEquals(16, snap.readSectors());
    assertEquals(2 * c, snap.readTicksNs());
  }

  @Test
  void nowaitBio_onZramWithoutNowait_failsWithEopnotsuppWithoutWorkOrAccounting() {
    Bio bio = new Bio(ReqOp.READ, 0, 4096, Bio.REQ_NOWAIT);
    ScriptedSubmitter s = ScriptedSubmitter.run(
        cpu -> new ZramQueue(zram(false, 0, 0), BLOCK, cpu, new SplittableRandom(1)),
        List.of(bio));
    assertEquals(List.of(new Completion(200, -Errno.EOPNOTSUPP, true)), s.completions);
    assertEquals(200, s.stimeNs());
    assertEquals(0, s.q.counters().snapshot(1_000).readIos());
  }

  @Test
  void nowaitBio_onZramWithNowait_isServedInline() {
    Bio bio = new Bio(ReqOp.READ, 0, 4096, Bio.REQ_NOWAIT);
    ScriptedSubmitter s = ScriptedSubmitter.run(
        cpu -> new ZramQueue(zram(true, 0, 0), BLOCK, cpu, new SplittableRandom(1)),
        List.of(bio));
    assertEquals(List.of(new Completion(FIXED + SLOT + DECOMPRESS, 0, true)), s.completions);
    assertEquals(1, s.q.counters().snapshot(1_000_000).readIos());
  }

  @Test
  void defaults_areNowaitOffCompressibleAndMatchTheDocumentedReadCost() {
    ZramParams d = ZramParams.defaults("zram0", GIB);
    assertFalse(d.nowait());
    assertEquals(0, d.sameFilledFraction());
    assertEquals(0, d.hugeFraction());
    ZramQueue q = new ZramQueue(d, BlockLayerParams.DEFAULTS, null, new SplittableRandom(1));
    assertEquals(49_300, q.submitCostNs(read(0, 1)), "device part of §12.5's 51.9 us");
    assertEquals(4096, q.logicalBlockSize());
    assertTrue(d.withNowait(true).nowait());
  }

  @Test
  void params_rejectBadValuesNamingTheFieldAndRule() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> zram(false, 0.7, 0.4));
    assertEquals("sameFilledFraction + hugeFraction must be <= 1, was 0.7 + 0.4",
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> zram(false, -0.1, 0));
    assertEquals("sameFilledFraction must be in [0, 1], was -0.1", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> zram(false, 0, Double.NaN));
    assertEquals("hugeFraction must be in [0, 1], was NaN", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new ZramParams("zram0", 6000, false, 0, 0, 0, 0, 0, 0, 0));
    assertEquals("sizeBytes must be a positive multiple of 4096 (zram page-aligns disksize),"
        + " was 6000", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new ZramParams("zram0", GIB, false, 0, 0, 0, 0, -5, 0, 0));
    assertEquals("decompressNs must be in [0, 1000000000] ns, was -5", e.getMessage());
  }
}
