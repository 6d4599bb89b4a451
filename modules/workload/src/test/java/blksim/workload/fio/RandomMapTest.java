package blksim.workload.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The random map and the lfsr order visit every block exactly once per pass. */
class RandomMapTest {

  @Test
  void uniformDrawsThroughTheMap_coverEveryBlockOncePerPass() {
    // 3 pages and a partial one, so the page skipping and the last page's end are exercised.
    long n = 3L * RandomMap.PAGE_BLOCKS + 777;
    RandomMap map = new RandomMap(n);
    SplittableRandom r = new SplittableRandom(7);
    for (int pass = 0; pass < 2; pass++) {
      boolean[] seen = new boolean[(int) n];
      for (long i = 0; i < n; i++) {
        long b = map.next(r.nextLong(n));
        assertTrue(b >= 0 && b < n, "block " + b);
        assertTrue(!seen[(int) b], "block " + b + " twice in pass " + pass);
        seen[(int) b] = true;
      }
      // n draws took n distinct blocks: the map is full and says so.
      assertEquals(n, map.usedBlocks());
      assertEquals(-1, map.next(0));
      map.reset();
    }
  }

  @Test
  void nextFree_isTheNextAfterABusyBlock_wrapping() {
    RandomMap map = new RandomMap(10);
    assertEquals(9, map.next(9));
    // 9 is busy: the next free after it wraps to 0 (axmap_next_free()).
    assertEquals(0, map.next(9));
    assertEquals(1, map.next(0));
    // a run from 2 of up to 4 blocks stops before 5 if 5 is taken.
    assertEquals(5, map.next(5));
    assertEquals(2, map.next(2));
    assertEquals(3, map.takeRun(2, 4));
    assertTrue(map.isUsed(3) && map.isUsed(4) && !map.isUsed(6));
  }

  @Test
  void pagesAreAllocatedOnlyWhenTouched() {
    // 1 TiB of 4 KiB blocks: 2^28 blocks, 4096 pages of 2^16; a few I/Os touch a few pages.
    RandomMap map = new RandomMap(1L << 28);
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < 10; i++) {
      map.next(r.nextLong(1L << 28));
    }
    assertTrue(map.allocatedPages() <= 10, "pages " + map.allocatedPages());
    // ... and inside a page only the chunk of the block: 10 chunks of 512 bytes, not 10 pages'
    // 8 KiB bitmaps.
    assertTrue(map.allocatedChunks() <= 10, "chunks " + map.allocatedChunks());
  }

  @Test
  void nextFree_crossesChunksNotYetAllocated_andFullOnes() {
    // Fill the first chunk of page 0: the next free after its last block is the first block of
    // the next chunk, which has no bitmap yet.
    RandomMap map = new RandomMap(2L * RandomMap.PAGE_BLOCKS);
    for (long b = 0; b < RandomMap.CHUNK_BLOCKS; b++) {
      assertEquals(b, map.next(b));
    }
    assertEquals(1, map.allocatedChunks());
    assertEquals(RandomMap.CHUNK_BLOCKS, map.next(5));
    assertEquals(2, map.allocatedChunks());
    // Fill the rest of page 0 from its end backwards, then a draw there moves to page 1.
    for (long b = RandomMap.PAGE_BLOCKS - 1; b > RandomMap.CHUNK_BLOCKS; b--) {
      assertEquals(b, map.next(b));
    }
    assertEquals(RandomMap.PAGE_BLOCKS, map.next(3));
    map.reset();
    assertTrue(!map.isUsed(0) && !map.isUsed(RandomMap.PAGE_BLOCKS));
    assertEquals(7, map.next(7));
  }

  @Test
  void sparseAndBitmapForms_takeTheBlocksANaiveCircularSearchTakes() {
    // fio's rule on a plain bit set: the drawn block if free, else the next free one after it,
    // wrapping. Runs of up to 300 blocks make walks longer than the sparse form's limit.
    long n = 5L * RandomMap.PAGE_BLOCKS + 123;
    RandomMap map = new RandomMap(n);
    java.util.BitSet naive = new java.util.BitSet((int) n);
    SplittableRandom r = new SplittableRandom(11);
    boolean sawSparse = false;
    for (int pass = 0; pass < 2; pass++) {
      long usedNaive = 0;
      while (usedNaive < n) {
        long b = r.nextLong(n);
        int f = naive.nextClearBit((int) b);
        if (f >= n) {
          f = naive.nextClearBit(0);
        }
        naive.set(f);
        usedNaive++;
        assertEquals(f, map.next(b), "draw of " + b + " in pass " + pass);
        sawSparse |= !map.isBitmap();
        if (r.nextInt(50) == 0) {
          int max = 1 + r.nextInt(300);
          int run = 1;
          while (run < max && f + run < n && !naive.get(f + run)) {
            naive.set(f + run);
            run++;
          }
          usedNaive += run - 1;
          assertEquals(run, map.takeRun(f, max), "run after " + f);
        }
        assertEquals(usedNaive, map.usedBlocks());
      }
      assertEquals(-1, map.next(0));
      naive.clear();
      map.reset();
    }
    assertTrue(sawSparse && map.isBitmap(), "both forms were exercised");
  }

  @Test
  void aShortJobOnALargeDeviceStaysSparse() {
    // 64 GiB of 4 KiB blocks, 1,000 random draws: no bitmap at all.
    RandomMap map = new RandomMap(16L << 20);
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < 1000; i++) {
      map.next(r.nextLong(16L << 20));
    }
    assertTrue(!map.isBitmap() && map.allocatedChunks() == 0);
    assertEquals(1000, map.usedBlocks());
  }

  @Test
  void lfsrOrder_visitsEveryBlockOncePerPass_andRepeatsAfterReset() {
    for (long n : new long[] {1, 2, 3, 1000, 4096, 5000}) {
      FullPeriodSequence s = new FullPeriodSequence(n, new SplittableRandom(n));
      long[] first = new long[(int) n];
      boolean[] seen = new boolean[(int) n];
      for (int i = 0; i < n; i++) {
        long b = s.next();
        assertTrue(b >= 0 && b < n && !seen[(int) b], "n=" + n + " block " + b);
        seen[(int) b] = true;
        first[i] = b;
      }
      assertEquals(-1, s.next());
      s.reset();
      for (int i = 0; i < n; i++) {
        assertEquals(first[i], s.next());
      }
    }
  }

  @Test
  void intKeyedSet_takesTheSameBlocksAsTheLongKeyedOne() {
    // Just under and at 2^31 blocks: the first keeps int keys, the second long ones. Draws in
    // the first 2^12 blocks collide and walk, so probing, growth and runs are all compared.
    RandomMap ints = new RandomMap((1L << 31) - 1);
    RandomMap longs = new RandomMap(1L << 31);
    assertTrue(ints.hasIntKeys() && !longs.hasIntKeys());
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < 3000; i++) {
      long d = r.nextLong(1 << 12);
      long a = ints.next(d);
      assertEquals(longs.next(d), a, "draw " + i);
      assertEquals(longs.takeRun(a, 3), ints.takeRun(a, 3), "run " + i);
    }
    assertEquals(longs.usedBlocks(), ints.usedBlocks());
    assertEquals(longs.isBitmap(), ints.isBitmap());
    ints.reset();
    longs.reset();
    assertEquals(longs.next(5), ints.next(5));
  }
}
