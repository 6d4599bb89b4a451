package blksim.kernel.mm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Dirty pages held as extents ({@link PageCache#dirtyRange}): merging and splitting, the
 * accounting, writeback taking and ending pieces, and a volume of hundreds of GB costing a few
 * extents.
 */
@Timeout(60)
class DirtyExtentTest {
  private final PageCache pc = new PageCache(1L << 30, DirtyParams.DEFAULTS, 250, 2);
  private final BdiWriteback wb = pc.newWb("sdb", new PageCacheTest.Sched());
  private final AddressSpace as = pc.newAddressSpace(PageCacheTest.BDEV, wb);

  private static String extents(AddressSpace as) {
    StringBuilder sb = new StringBuilder();
    for (long[] e : as.dirtyExtentList()) {
      sb.append('[').append(e[0]).append(',').append(e[1]).append(')');
    }
    return sb.toString();
  }

  @Test
  void overlappingAndAdjacentRangesMergeAndCountOnce() {
    assertEquals(10, pc.dirtyRange(as, 10, 10, 5));
    assertEquals(10, pc.dirtyRange(as, 40, 10, 6));
    assertEquals("[10,20)[40,50)", extents(as));
    // Overlaps [10,20) by 5 pages and touches nothing else.
    assertEquals(5, pc.dirtyRange(as, 15, 10, 7));
    assertEquals("[10,25)[40,50)", extents(as));
    // Adjacent to both: one extent, only the gap is new.
    assertEquals(15, pc.dirtyRange(as, 25, 15, 8));
    assertEquals("[10,50)", extents(as));
    // Inside: nothing new.
    assertEquals(0, pc.dirtyRange(as, 12, 3, 9));
    assertEquals(40, as.nrDirty());
    assertEquals(40, pc.nrDirty());
    assertEquals(40, pc.nrDirtied());
    assertEquals(40, wb.reclaimablePages());
    assertEquals(40, pc.nrFilePages());
    assertEquals(10, as.firstDirty());
    assertEquals(50, as.endDirty());
    // The first dirtying put the inode on b_dirty with its time.
    assertSame(as, wb.bDirty.oldest());
    assertEquals(5, as.dirtiedWhenNs);
    // A page inside an extent is already dirty for the per-page path.
    assertFalse(pc.setPageDirty(as, 30, 10, 0));
    assertEquals(40, pc.nrDirty());
  }

  @Test
  void writebackSplitsExtentsAndItsEndCleansThePages() {
    pc.dirtyRange(as, 0, 100, 0);
    // A piece from the middle splits the extent in two.
    assertArrayEquals(new long[] {30, 20}, pc.startWritebackExtent(as, 30, 20));
    assertEquals("[0,30)[50,100)", extents(as));
    assertEquals(80, pc.nrDirty());
    assertEquals(20, pc.nrWriteback());
    assertEquals(20, as.nrWriteback());
    // From inside the gap: the next extent, cut at max.
    assertArrayEquals(new long[] {50, 50}, pc.startWritebackExtent(as, 35, 256));
    assertEquals("[0,30)", extents(as));
    assertNull(pc.startWritebackExtent(as, 30, 10), "nothing dirty at or after 30");
    boolean[] woken = {false};
    assertTrue(as.awaitWriteback(() -> woken[0] = true));
    pc.endWritebackExtent(as, 20);
    assertFalse(woken[0], "50 pages are still under writeback");
    pc.endWritebackExtent(as, 50);
    assertTrue(woken[0], "the last end wakes the waiter");
    assertEquals(0, pc.nrWriteback());
    assertEquals(70, pc.nrWritten());
    assertEquals(70, wb.written);
    // Written pages leave the cache; the 30 dirty ones stay.
    assertEquals(30, pc.nrFilePages());
    assertEquals(30, as.nrPages());
    assertEquals(30, pc.nrDirty());
  }

  @Test
  void truncateDropsDirtyExtents() {
    pc.dirtyRange(as, 0, 64, 0);
    pc.startWritebackExtent(as, 0, 16);
    pc.truncate(as);
    assertEquals(0, pc.nrDirty());
    assertEquals(0, wb.reclaimablePages());
    assertEquals(16, pc.nrFilePages(), "pages under writeback stay until their bio ends");
    pc.endWritebackExtent(as, 16);
    assertEquals(0, pc.nrFilePages());
  }

  @Test
  void aHundredGigabytesCostAFewExtents() {
    long pages = (100L << 30) / 4096;
    PageCache big = new PageCache(pages * 2, DirtyParams.DEFAULTS, 250, 2);
    BdiWriteback w = big.newWb("sdb", new PageCacheTest.Sched());
    // 100 files of 1 GiB, each dirty as one extent: no page has a record.
    List<AddressSpace> files = new java.util.ArrayList<>();
    for (int i = 0; i < 100; i++) {
      AddressSpace f = big.newAddressSpace(PageCacheTest.BDEV, w);
      big.dirtyRange(f, 0, pages / 100, 0);
      files.add(f);
    }
    assertEquals(pages, big.nrDirty());
    for (AddressSpace f : files) {
      assertEquals(1, f.dirtyExtentList().size());
      assertEquals(0, f.dirtyBits.length, "no page bits");
      assertEquals(0, f.cachedBits.length, "no page bits");
    }
    // Writing it all back in 1 MiB pieces leaves nothing, with no page touched.
    long pieces = 0;
    for (AddressSpace f : files) {
      for (long[] r = big.startWritebackExtent(f, 0, 256); r != null;
          r = big.startWritebackExtent(f, r[0] + r[1], 256)) {
        big.endWritebackExtent(f, r[1]);
        pieces++;
      }
    }
    assertEquals(pages / 256, pieces);
    assertEquals(0, big.nrDirty());
    assertEquals(pages, big.nrWritten());
    assertEquals(0, big.nrFilePages());
  }
}
