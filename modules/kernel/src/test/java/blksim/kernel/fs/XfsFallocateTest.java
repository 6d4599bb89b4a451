package blksim.kernel.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** i_size, truncate and fallocate (unwritten extents) of the XFS-like model. */
class XfsFallocateTest {
  private static final long GIB = 1L << 30;

  private static XfsFilesystem mounted() {
    XfsFilesystem fs = XfsFilesystem.mkfs("sdb", GIB, XfsParams.DEFAULTS);
    fs.mount(false);
    return fs;
  }

  @Test
  void fallocate_takesBlocksAtOnce_asUnwrittenExtents_thatWritebackConverts() {
    XfsFilesystem fs = mounted();
    long ino = fs.create(fs.rootIno(), "f");
    long free = fs.freeBlocks();
    SplittableRandom r = new SplittableRandom(1);
    assertEquals(0, fs.fallocate(ino, 0, 256, true, r));
    assertEquals(free - 256, fs.freeBlocks());
    assertTrue(fs.unwritten(ino, 0));
    assertTrue(fs.unwritten(ino, 255));
    assertFalse(fs.unwritten(ino, 256));
    // fallocate does not set i_size: the VFS does for mode 0.
    assertEquals(0, fs.size(ino));
    // Writing back pages [10, 20) maps them to the preallocated blocks and converts them.
    List<Extent> before = fs.allocate(ino, 0, 1, r).extents();
    assertFalse(fs.unwritten(ino, 0));
    List<Extent> ext = fs.allocate(ino, 10, 10, r).extents();
    assertEquals(1, ext.size());
    assertEquals(before.get(0).sector() + 10 * 8, ext.get(0).sector());
    assertFalse(fs.unwritten(ino, 15));
    assertTrue(fs.unwritten(ino, 9));
    assertTrue(fs.unwritten(ino, 20));
    // No further space was taken by the writeback.
    assertEquals(free - 256, fs.freeBlocks());
    // Unlink gives it all back.
    assertEquals(0, fs.unlink(fs.rootIno(), "f"));
    assertEquals(free, fs.freeBlocks());
  }

  @Test
  void fallocate_ofWrittenData_leavesNothingUnwritten_andEnospcTakesNothing() {
    XfsFilesystem fs = mounted();
    long ino = fs.create(fs.rootIno(), "f");
    SplittableRandom r = new SplittableRandom(1);
    assertEquals(0, fs.fallocate(ino, 0, 8, false, r));
    assertFalse(fs.unwritten(ino, 0));
    long free = fs.freeBlocks();
    assertEquals(-Filesystem.ENOSPC, fs.fallocate(ino, 8, (int) free + 1, true, r));
    assertEquals(free, fs.freeBlocks());
  }

  @Test
  void truncate_setsTheSize_andAShrinkFreesThePagesPastTheEnd() {
    XfsFilesystem fs = mounted();
    long ino = fs.create(fs.rootIno(), "f");
    long free = fs.freeBlocks();
    SplittableRandom r = new SplittableRandom(1);
    // A grow is a hole: nothing is allocated.
    assertEquals(0, fs.truncate(ino, 1 << 20));
    assertEquals(1 << 20, fs.size(ino));
    assertEquals(free, fs.freeBlocks());
    // 64 pages mapped, 16 more reserved (delalloc).
    assertEquals(0, fs.fallocate(ino, 0, 64, true, r));
    assertEquals(0, fs.reserve(ino, 64, 16));
    assertEquals(free - 80, fs.freeBlocks());
    // Shrink to 10 KiB: pages 0..2 stay (the partial third keeps its block).
    assertEquals(0, fs.truncate(ino, 10 * 1024));
    assertEquals(10 * 1024, fs.size(ino));
    assertEquals(free - 3, fs.freeBlocks());
    assertTrue(fs.unwritten(ino, 2));
    assertFalse(fs.unwritten(ino, 3));
    assertEquals(0, fs.truncate(ino, 0));
    assertEquals(free, fs.freeBlocks());
    assertEquals(-Filesystem.EINVAL, fs.truncate(ino, -1));
    fs.unmount();
    fs.mount(true);
    assertEquals(-Filesystem.EROFS, fs.truncate(ino, 0));
    assertEquals(-Filesystem.EROFS, fs.fallocate(ino, 0, 1, true, r));
  }

  @Test
  void convertUnwritten_inRandomOrder_convertsExactlyTheRangesWritten() {
    // Many separate unwritten ranges, converted in a random order, as direct writes of 4 pages
    // into a preallocated file do: the tree's removals must not move another range.
    XfsFilesystem fs = mounted();
    long ino = fs.create(fs.rootIno(), "f");
    assertEquals(0, fs.fallocate(ino, 0, 1024, true, new SplittableRandom(1)));
    int[] order = new int[256];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    SplittableRandom r = new SplittableRandom(7);
    for (int i = order.length - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    boolean[] written = new boolean[1024];
    for (int k = 0; k < 200; k++) {
      int block = order[k];
      fs.convertUnwritten(ino, block * 4L, 4);
      for (int p = 0; p < 4; p++) {
        written[block * 4 + p] = true;
      }
      if (k % 25 == 0 || k == 199) {
        for (int p = 0; p < 1024; p++) {
          assertEquals(!written[p], fs.unwritten(ino, p), "page " + p + " after " + (k + 1));
        }
      }
    }
    // The mapping reads the converted pages and keeps the unwritten ones as holes.
    assertTrue(fs.readSector(ino, order[0] * 4L) >= 0);
    assertEquals(-1, fs.readSector(ino, order[255] * 4L));
    assertTrue(fs.mappedSector(ino, order[255] * 4L) >= 0);
  }
}
