package blksim.kernel.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The XFS-like model: AG rotor, delayed allocation and placement, unlink, ro, ENOSPC. */
class XfsFilesystemTest {
  private static final long GIB = 1L << 30;

  private static XfsFilesystem mounted(long bytes, XfsParams p) {
    XfsFilesystem fs = XfsFilesystem.mkfs("sdb", bytes, p);
    fs.mount(false);
    return fs;
  }

  /** Creates, reserves one page and writes back {@code n} files in {@code dir}: their extents. */
  private static Extent[] smallFiles(XfsFilesystem fs, long dir, int n, SplittableRandom r) {
    Extent[] out = new Extent[n];
    for (int i = 0; i < n; i++) {
      long ino = fs.create(dir, "f" + i);
      assertEquals(0, fs.reserve(ino, 0, 1));
      List<Extent> ext = fs.allocate(ino, 0, 1, r).extents();
      assertEquals(1, ext.size());
      out[i] = ext.get(0);
    }
    return out;
  }

  @Test
  void newDirectories_rotateOverTheAgs_andFilesTakeTheirDirectorysAg() {
    // 1 GiB: 4 AGs (XfsGeometryTest). xfs_ialloc_next_ag() returns the rotor, then advances it:
    // the first mkdir after mount gets AG 0, then 1, 2, 3, and wraps to 0, 1.
    XfsFilesystem fs = mounted(GIB, XfsParams.DEFAULTS);
    assertEquals(4, fs.geometry().agCount());
    long[] d = new long[6];
    for (int i = 0; i < 6; i++) {
      d[i] = fs.mkdir(fs.rootIno(), "d" + i);
    }
    int[] expected = {0, 1, 2, 3, 0, 1};
    for (int i = 0; i < 6; i++) {
      assertEquals(expected[i], fs.agOf(d[i]), "d" + i);
    }
    // A subdirectory is a new directory too: it takes the rotor (2), not its parent's AG (3).
    assertEquals(2, fs.agOf(fs.mkdir(d[3], "sub")));
    assertEquals(3, fs.agOf(fs.create(d[3], "file")));
    assertEquals(0, fs.agOf(fs.create(fs.rootIno(), "top")));
    // The file's blocks are in its AG: AG 3 spans blocks [3 * 65,536, 4 * 65,536).
    long f = fs.lookupPath("d3/file");
    assertEquals(0, fs.reserve(f, 0, 1));
    long block = fs.allocate(f, 0, 1, new SplittableRandom(1)).extents().get(0).sector() / 8;
    assertEquals(3 * 65_536L + XfsFilesystem.AG_HEADER_BLOCKS, block);
  }

  @Test
  void pContigOne_sameDirectoryFilesGetAdjacentBlocks() {
    XfsFilesystem fs = mounted(GIB, XfsParams.DEFAULTS.withPContig(1.0));
    long dir = fs.mkdir(fs.rootIno(), "d");
    Extent[] e = smallFiles(fs, dir, 200, new SplittableRandom(7));
    // First file: AG 0's first block after the headers, 8 blocks = 64 sectors.
    assertEquals(XfsFilesystem.AG_HEADER_BLOCKS * 8L, e[0].sector());
    for (int i = 1; i < e.length; i++) {
      assertEquals(e[i - 1].endSector(), e[i].sector(), "file " + i);
    }
  }

  @Test
  void pContigZero_neverAdjacent_eachFileJumpsOneInodeChunk() {
    XfsFilesystem fs = mounted(GIB, XfsParams.DEFAULTS.withPContig(0.0));
    long dir = fs.mkdir(fs.rootIno(), "d");
    Extent[] e = smallFiles(fs, dir, 200, new SplittableRandom(7));
    for (int i = 1; i < e.length; i++) {
      assertNotEquals(e[i - 1].endSector(), e[i].sector(), "file " + i);
      // the jump: 8 blocks = 64 sectors past the previous file's end
      assertEquals(e[i - 1].endSector() + 64, e[i].sector(), "file " + i);
    }
    // The skipped blocks stay free: 1 GiB has 262,144 blocks, 4 x 8 header blocks, 200 files.
    assertEquals(262_144L - 32 - 200, fs.freeBlocks());
  }

  @Test
  void pContigPointNine_contiguousShareIsWithinBinomialBounds() {
    XfsFilesystem fs = mounted(GIB, XfsParams.DEFAULTS);
    long dir = fs.mkdir(fs.rootIno(), "d");
    int n = 10_000;
    Extent[] e = smallFiles(fs, dir, n, new SplittableRandom(42));
    int contiguous = 0;
    for (int i = 1; i < n; i++) {
      if (e[i].sector() == e[i - 1].endSector()) {
        contiguous++;
      }
    }
    // 9,999 Bernoulli(0.9) transitions: mean 8,999.1, sd sqrt(9,999 * 0.9 * 0.1) = 30.0;
    // 4 sd = 120 -> [8,879, 9,119].
    assertTrue(contiguous >= 8_879 && contiguous <= 9_119, "contiguous " + contiguous);
  }

  @Test
  void delallocConversion_mapsTheWholeReservedRun_andAppendsStayContiguous() {
    XfsFilesystem fs = mounted(GIB, XfsParams.DEFAULTS.withPContig(0.0));
    long dir = fs.mkdir(fs.rootIno(), "d");
    long a = fs.create(dir, "a");
    long b = fs.create(dir, "b");
    assertEquals(0, fs.reserve(a, 0, 4));
    long free = fs.freeBlocks();
    // Writeback of pages 0-1 converts the whole reserved run 0-3 (xfs_bmapi_convert_delalloc).
    Extent a01 = fs.allocate(a, 0, 2, new SplittableRandom(1)).extents().get(0);
    assertEquals(2, a01.pages());
    assertEquals(free, fs.freeBlocks(), "reserved blocks were already counted as used");
    assertEquals(0, fs.reserve(b, 0, 1));
    Extent b0 = fs.allocate(b, 0, 1, new SplittableRandom(1)).extents().get(0);
    // Pages 2-3 of a were placed with 0-1: contiguous with them, not after b.
    Extent a23 = fs.allocate(a, 2, 2, new SplittableRandom(1)).extents().get(0);
    assertEquals(a01.endSector(), a23.sector());
    assertTrue(b0.sector() >= a23.endSector());
    // An append to b, reserved later, goes right after b's first block even with p_contig = 0:
    // within a file the next extent follows the previous one when that block is free.
    assertEquals(0, fs.reserve(b, 1, 3));
    List<Extent> whole = fs.allocate(b, 0, 4, new SplittableRandom(1)).extents();
    assertEquals(List.of(new Extent(b0.sector(), 4)), whole);
  }

  @Test
  void appendAfterAnotherFilesBlocks_makesASecondExtent_andUnlinkFreesBoth() {
    XfsFilesystem fs = mounted(GIB, XfsParams.DEFAULTS.withPContig(1.0));
    long before = fs.freeBlocks();
    long a = fs.create(fs.rootIno(), "a");
    long b = fs.create(fs.rootIno(), "b");
    SplittableRandom r = new SplittableRandom(1);
    fs.reserve(a, 0, 1);
    Extent a0 = fs.allocate(a, 0, 1, r).extents().get(0);
    fs.reserve(b, 0, 1);
    Extent b0 = fs.allocate(b, 0, 1, r).extents().get(0);
    assertEquals(a0.endSector(), b0.sector());
    // a's page 1 cannot follow page 0 (b is there): it lands after b, a second extent.
    fs.reserve(a, 1, 1);
    List<Extent> ext = fs.allocate(a, 0, 2, r).extents();
    assertEquals(List.of(a0, new Extent(b0.endSector(), 1)), ext);
    assertEquals(before - 3, fs.freeBlocks());
    assertEquals(0, fs.unlink(fs.rootIno(), "a"));
    assertEquals(before - 1, fs.freeBlocks());
    assertEquals(0, fs.unlink(fs.rootIno(), "b"));
    assertEquals(before, fs.freeBlocks());
    // Everything merged back into AG 0's tail: a new file starts where a did.
    long c = fs.create(fs.rootIno(), "c");
    fs.reserve(c, 0, 1);
    assertEquals(a0.sector(), fs.allocate(c, 0, 1, r).extents().get(0).sector());
  }

  @Test
  void allocation_costsCWbPerCall() {
    XfsFilesystem fs = mounted(GIB, XfsParams.DEFAULTS);
    long f = fs.create(fs.rootIno(), "f");
    fs.reserve(f, 0, 1);
    assertEquals(25_000L, fs.allocate(f, 0, 1, new SplittableRandom(1)).cpuNs());
    assertEquals(15_000L, fs.createCostNs());
    assertEquals(10_000L, fs.unlinkCostNs());
  }

  @Test
  void unlink_freesBlocksAndReservation_andTheSpaceIsReused() {
    XfsFilesystem fs = mounted(GIB, XfsParams.DEFAULTS.withPContig(1.0));
    long dir = fs.mkdir(fs.rootIno(), "d");
    long before = fs.freeBlocks();
    Extent[] e = smallFiles(fs, dir, 10, new SplittableRandom(3));
    long g = fs.create(dir, "delayed");
    fs.reserve(g, 0, 5);
    assertEquals(before - 10 - 5, fs.freeBlocks());
    assertEquals(13, fs.inodeCount(), "root, d, f0-f9 and delayed");
    for (int i = 0; i < 10; i++) {
      assertEquals(0, fs.unlink(dir, "f" + i));
    }
    assertEquals(0, fs.unlink(dir, "delayed"));
    assertEquals(before, fs.freeBlocks());
    assertEquals(2, fs.inodeCount());
    assertEquals(-Filesystem.ENOENT, fs.lookup(dir, "f0"));
    assertEquals(-Filesystem.ENOENT, fs.unlink(dir, "f0"));
    // All of AG 0's allocations were freed: the next file starts where the first one did.
    Extent again = smallFiles(fs, dir, 1, new SplittableRandom(3))[0];
    assertEquals(e[0].sector(), again.sector());
  }

  @Test
  void unlinkOfAnOpenFile_freesAtTheLastIput() {
    XfsFilesystem fs = mounted(GIB, XfsParams.DEFAULTS);
    long f = fs.create(fs.rootIno(), "f");
    fs.reserve(f, 0, 3);
    long free = fs.freeBlocks();
    fs.iget(f);
    assertEquals(0, fs.unlink(fs.rootIno(), "f"));
    assertEquals(-Filesystem.ENOENT, fs.lookup(fs.rootIno(), "f"));
    assertEquals(free, fs.freeBlocks(), "still held open");
    assertEquals(-Filesystem.EBUSY, fs.unmount());
    fs.iput(f);
    assertEquals(free + 3, fs.freeBlocks());
    assertEquals(0, fs.unmount());
    assertFalse(fs.mounted());
  }

  @Test
  void readOnlyMount_refusesCreateUnlinkAndWrites() {
    XfsFilesystem fs = XfsFilesystem.mkfs("sdb", GIB, XfsParams.DEFAULTS);
    fs.mount(false);
    long f = fs.create(fs.rootIno(), "f");
    assertEquals(0, fs.unmount());
    fs.mount(true);
    assertTrue(fs.readOnly());
    assertEquals(-Filesystem.EROFS, fs.create(fs.rootIno(), "g"));
    assertEquals(-Filesystem.EROFS, fs.mkdir(fs.rootIno(), "d"));
    assertEquals(-Filesystem.EROFS, fs.unlink(fs.rootIno(), "f"));
    assertEquals(-Filesystem.EROFS, fs.reserve(f, 0, 1));
    assertEquals(f, fs.lookup(fs.rootIno(), "f"), "lookups still work");
  }

  @Test
  void namespaceErrors_areNegatedErrnos() {
    XfsFilesystem fs = mounted(GIB, XfsParams.DEFAULTS);
    long root = fs.rootIno();
    long d = fs.mkdir(root, "d");
    long f = fs.create(d, "f");
    assertEquals(-Filesystem.EEXIST, fs.create(d, "f"));
    assertEquals(-Filesystem.ENOTDIR, fs.create(f, "x"));
    assertEquals(-Filesystem.EISDIR, fs.unlink(root, "d"));
    assertEquals(-Filesystem.ENOTEMPTY, fs.rmdir(root, "d"));
    assertEquals(-Filesystem.EINVAL, fs.create(d, "a/b"));
    assertEquals(-Filesystem.ENAMETOOLONG, fs.create(d, "x".repeat(256)));
    assertEquals(f, fs.lookupPath("d/f"));
    assertEquals(-Filesystem.ENOTDIR, fs.lookupPath("d/f/g"));
    assertEquals(root, fs.lookup(d, ".."));
    assertEquals(0, fs.unlink(d, "f"));
    assertEquals(0, fs.rmdir(root, "d"));
    assertEquals(1, fs.inodeCount());
    assertThrows(IllegalStateException.class, () -> fs.isDirectory(f));
  }

  @Test
  void reservationsBeyondTheFreeSpace_failWithEnospc() {
    // 16 MiB, one AG of 4,096 blocks less 8 header blocks: 4,088 free.
    XfsFilesystem fs = mounted(16L << 20, XfsParams.DEFAULTS);
    assertEquals(4_088L, fs.freeBlocks());
    long f = fs.create(fs.rootIno(), "f");
    assertEquals(0, fs.reserve(f, 0, 4_000));
    long g = fs.create(fs.rootIno(), "g");
    assertEquals(-Filesystem.ENOSPC, fs.reserve(g, 0, 89));
    assertEquals(0, fs.reserve(g, 0, 88));
    assertEquals(0L, fs.freeBlocks());
    assertEquals(-Filesystem.ENOSPC, fs.create(fs.rootIno(), "h"));
    // Everything reserved can still be allocated, even split around holes.
    SplittableRandom r = new SplittableRandom(5);
    assertEquals(4_000L, fs.allocate(f, 0, 4_000, r).pages());
    assertEquals(88L, fs.allocate(g, 0, 88, r).pages());
  }

  @Test
  void fullAg_spillsIntoTheNextAg() {
    // 64 MiB: 4 AGs of 4,096 blocks (16 MiB); all files in AG 0's directory.
    XfsFilesystem fs = mounted(64L << 20, XfsParams.DEFAULTS.withPContig(1.0));
    assertEquals(4, fs.geometry().agCount());
    long dir = fs.mkdir(fs.rootIno(), "d");
    long big = fs.create(dir, "big");
    assertEquals(0, fs.reserve(big, 0, 5_000));
    List<Extent> ext = fs.allocate(big, 0, 5_000, new SplittableRandom(1)).extents();
    // AG 0 holds 4,088 blocks after its headers; the other 912 go to AG 1 after its headers.
    assertEquals(List.of(new Extent(8 * 8L, 4_088), new Extent((4_096 + 8) * 8L, 912)), ext);
  }
}
