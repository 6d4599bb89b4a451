package blksim.workload.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Offsets, sizes and directions a job's pattern produces, against fio's documented behaviour. */
class IoPatternTest {
  private static final long MIB = 1 << 20;

  private static IoPattern pattern(String job, long start, long region, long device) {
    return new IoPattern(FioJobFileTest.only("[j]\n" + job), start, region, device,
        new SplittableRandom(3));
  }

  @Test
  void randomMap_visitsEveryBlockOncePerPass() {
    // randread over 1 MiB in 4 KiB blocks = 256 blocks: two passes of 256 I/Os each.
    IoPattern p = pattern("rw=randread\n", 0, MIB, MIB);
    for (int pass = 0; pass < 2; pass++) {
      boolean[] seen = new boolean[256];
      for (int i = 0; i < 256; i++) {
        p.next();
        int b = (int) (p.offset() / 4096);
        assertTrue(!seen[b], "block " + b + " twice in pass " + pass);
        seen[b] = true;
        assertEquals(4096, p.length());
      }
    }
  }

  @Test
  void sequenceDistribution_repeatsTheIndices_orStridesByItsLength() {
    // HOWTO: "random_distribution=sequence:2,0,1" accesses block indices 2, 0, 1 and repeats;
    // with random_sequence_stride=1 each cycle moves on by the sequence's length
    // (io_u.c __get_next_rand_offset_sequence()).
    IoPattern p = pattern("rw=randread\nbs=4k\nrandom_distribution=sequence:2,0,1\n", 0,
        12 * 4096, MIB);
    StringBuilder got = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      p.next();
      got.append(p.offset() / 4096).append(' ');
    }
    assertEquals("2 0 1 2 0 1 ", got.toString());
    IoPattern s = pattern("rw=randread\nbs=4k\nrandom_distribution=sequence:2,0,1\n"
        + "random_sequence_stride=1\n", 0, 12 * 4096, MIB);
    got.setLength(0);
    for (int i = 0; i < 12; i++) {
      assertTrue(!s.exhausted(), "block " + i + " is inside the 12-block region");
      s.next();
      got.append(s.offset() / 4096).append(' ');
    }
    assertEquals("2 0 1 5 3 4 8 6 7 11 9 10 ", got.toString());
    assertTrue(s.exhausted(), "the fifth cycle starts beyond the region: the I/O ends");
    assertTrue(!s.sequenceOutOfRange(), "past the end by the stride, not by a bad index");
    IoPattern bad = pattern("rw=randread\nbs=4k\nrandom_distribution=sequence:1,20\n", 0,
        12 * 4096, MIB);
    bad.next();
    assertTrue(bad.exhausted() && bad.sequenceOutOfRange(), "index 20 of 12 blocks: EINVAL");
  }

  @Test
  void sequentialWithHoles_endsAtTheEndOfTheFile_unlessTimeBased() {
    // fio's t/jobs/t0007: size=128m, rw=read:512k, bs=1m reads at 0, 1.5m, 3m, ... and ends
    // with 85 MiB read: get_next_seq_offset() wraps only for time_based jobs, the I/O that
    // would run past the file fails fill_io_u() and the file is done.
    IoPattern p = pattern("rw=read:512k\nbs=1m\n", 0, 128 * MIB, 128 * MIB);
    int ios = 0;
    while (!p.passEnded()) {
      p.next();
      assertEquals(ios * 3 * MIB / 2, p.offset());
      ios++;
      assertTrue(ios <= 128, "never ends");
    }
    assertEquals(85, ios);
    p.rewind();
    assertTrue(!p.passEnded(), "a new loop starts at the region's start");
    p.next();
    assertEquals(0, p.offset());
    IoPattern t = pattern("rw=read:512k\nbs=1m\ntime_based\nruntime=1s\n", 0, 128 * MIB,
        128 * MIB);
    for (int i = 0; i < 200; i++) {
      assertTrue(!t.passEnded(), "time_based wraps");
      t.next();
      assertTrue(t.offset() + MIB <= 128 * MIB);
    }
  }

  @Test
  void sequential_mayRunPastTheRegion_withinTheFile() {
    // size=1000k on a larger device: fio issues the I/O at 960k (offset < io_size, and the
    // I/O fits the device), then the pass is over.
    IoPattern p = pattern("rw=read\nbs=64k\nsize=1000k\n", 0, 1000 * 1024, MIB * 4);
    int ios = 0;
    while (!p.passEnded()) {
      p.next();
      ios++;
    }
    assertEquals(16, ios);
    assertEquals(960 * 1024, p.offset());
  }

  @Test
  void norandommap_drawsWithReplacement() {
    IoPattern p = pattern("rw=randread\nnorandommap\n", 0, MIB, MIB);
    assertNull(p.randomMap());
    boolean[] seen = new boolean[256];
    int repeats = 0;
    for (int i = 0; i < 256; i++) {
      p.next();
      int b = (int) (p.offset() / 4096);
      repeats += seen[b] ? 1 : 0;
      seen[b] = true;
    }
    // 256 uniform draws from 256 blocks leave 256·(1-1/256)^256 ≈ 94 blocks unseen, so about
    // 94 repeats; far from 0.
    assertTrue(repeats > 50, "repeats " + repeats);
  }

  @Test
  void bssplit_sharesPerDirection() {
    // randrw 50/50, reads 4k/30:64k/70, writes all 8k (fio's "r,w" form).
    IoPattern p = pattern("rw=randrw\nbssplit=4k/30:64k/70,8k/100\nnorandommap\n", 0, 64 * MIB,
        64 * MIB);
    TreeMap<Long, Integer> reads = new TreeMap<>();
    int n = 100_000;
    int nr = 0;
    for (int i = 0; i < n; i++) {
      p.next();
      if (p.read()) {
        nr++;
        reads.merge(p.length(), 1, Integer::sum);
        assertEquals(0, p.offset() % 4096, "aligned to the smallest read size");
      } else {
        assertEquals(8192, p.length());
      }
    }
    assertEquals(0.5, (double) nr / n, 0.01);
    assertEquals(0.30, (double) reads.get(4096L) / nr, 0.01);
    assertEquals(0.70, (double) reads.get(65536L) / nr, 0.01);
  }

  @Test
  void bsrange_isUniformOverMultiplesOfTheMinimum() {
    // min + max·u rounded down to the min and capped: 4k + 16k·u → 4k, 8k, 12k, 16k (u ≥ 3/4
    // gives ≥ 16k, capped), each with probability 1/4.
    IoPattern p = pattern("rw=read\nbsrange=4k-16k\n", 0, 64 * MIB, 64 * MIB);
    TreeMap<Long, Integer> sizes = new TreeMap<>();
    for (int i = 0; i < 40_000; i++) {
      p.next();
      sizes.merge(p.length(), 1, Integer::sum);
    }
    assertEquals(4, sizes.size(), sizes.toString());
    for (long s = 4096; s <= 16384; s += 4096) {
      assertEquals(0.25, sizes.get(s) / 40_000.0, 0.01, "size " + s);
    }
  }

  @Test
  void sequentialStride_addsAHoleAfterEachIo() {
    // rw=write:4k with bs=4k: offsets 0, 8k, 16k, ... (formats.md 1.2: the N bytes are added).
    IoPattern p = pattern("rw=write:4k\n", MIB, MIB, 4 * MIB);
    for (int i = 0; i < 10; i++) {
      p.next();
      assertEquals(MIB + i * 8192L, p.offset());
    }
  }

  @Test
  void randomWithN_newOffsetEveryNIos() {
    // rw=randread:4 (get_next_offset(): --ddir_seq_nr hits 0 every 4th I/O): the first 3 I/Os
    // continue from the start (0, 4k, 8k), then each group of 4 is a random offset and 3
    // sequential ones after it.
    IoPattern p = pattern("rw=randread:4\nnorandommap\n", 0, 64 * MIB, 64 * MIB);
    for (int k = 0; k < 3; k++) {
      p.next();
      assertEquals(k * 4096L, p.offset());
    }
    for (int group = 0; group < 20; group++) {
      p.next();
      long first = p.offset();
      for (int k = 1; k < 4; k++) {
        p.next();
        assertEquals(first + k * 4096L, p.offset(), "group " + group);
      }
    }
  }

  @Test
  void percentageRandom_shareOfSequentialIos() {
    // percentage_random=30: 70% of I/Os continue from the previous one.
    IoPattern p = pattern("rw=randread\npercentage_random=30\nnorandommap\n", 0, 1024 * MIB,
        1024 * MIB);
    p.next();
    long prevEnd = p.offset() + p.length();
    int seq = 0;
    int n = 50_000;
    for (int i = 0; i < n; i++) {
      p.next();
      seq += p.offset() == prevEnd ? 1 : 0;
      prevEnd = p.offset() + p.length();
    }
    assertEquals(0.70, (double) seq / n, 0.01);
  }

  @Test
  void stridedZones_moveByRangePlusSkip() {
    // zonerange=64k zonesize=16k zoneskip=64k, bs=4k: 4 I/Os in [0,64k), then 4 in
    // [128k,192k), then [256k,320k) ... (zone start moves by range + skip = 128k).
    IoPattern p = pattern("rw=read\nzonemode=strided\nzonerange=64k\nzonesize=16k\n"
        + "zoneskip=64k\n", 0, MIB, MIB);
    for (int zone = 0; zone < 8; zone++) {
      for (int k = 0; k < 4; k++) {
        p.next();
        assertEquals(zone * 131072L + k * 4096L, p.offset(), "zone " + zone + " io " + k);
      }
    }
    // 1 MiB / 128 KiB = 8 zones: the 9th wraps to the start offset.
    p.next();
    assertEquals(0, p.offset());
  }

  @Test
  void blockalign_offsetsAreMultiplesOfIt() {
    IoPattern p = pattern("rw=randread\nbs=4k\nba=64k\nnorandommap\n", 0, 64 * MIB, 64 * MIB);
    for (int i = 0; i < 1000; i++) {
      p.next();
      assertEquals(0, p.offset() % 65536);
    }
  }

  @Test
  void rwmixread_share() {
    IoPattern p = pattern("rw=randrw\nrwmixwrite=20\nnorandommap\n", 0, 64 * MIB, 64 * MIB);
    int reads = 0;
    for (int i = 0; i < 50_000; i++) {
      p.next();
      reads += p.read() ? 1 : 0;
    }
    assertEquals(0.80, reads / 50_000.0, 0.01);
  }
}
