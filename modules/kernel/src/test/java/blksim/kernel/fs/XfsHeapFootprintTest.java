package blksim.kernel.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Heap per file of the XFS model with 10^6 clean, closed 4 KiB files under fs_mark-like names
 * (40 characters, fs_mark's DEFAULT_NAME_LEN), reported in the test output. Nothing about the
 * figure is asserted: it depends on the JVM; the test checks only that the files are there.
 */
class XfsHeapFootprintTest {
  private static final int FILES = 1_000_000;
  private static final int DIRS = 8;

  @Test
  void millionSmallFiles_reportsHeapBytesPerFile() {
    long base = usedHeap();
    XfsFilesystem fs = XfsFilesystem.mkfs("sdb", 1L << 40, XfsParams.DEFAULTS);
    fs.mount(false);
    long[] dirs = new long[DIRS];
    for (int d = 0; d < DIRS; d++) {
      dirs[d] = fs.mkdir(fs.rootIno(), "d" + d);
    }
    SplittableRandom names = new SplittableRandom(11);
    SplittableRandom alloc = new SplittableRandom(12);
    char[] name = new char[40];
    String alnum = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (int i = 0; i < FILES; i++) {
      // fs_mark: a hex time stamp, then random characters up to the name length.
      String hex = String.format("%016x", i);
      hex.getChars(0, 16, name, 0);
      for (int k = 16; k < 40; k++) {
        name[k] = alnum.charAt(names.nextInt(alnum.length()));
      }
      long dir = dirs[i % DIRS];
      long ino = fs.create(dir, new String(name));
      fs.reserve(ino, 0, 1);
      fs.allocate(ino, 0, 1, alloc);
    }
    long used = usedHeap() - base;
    assertEquals(FILES + DIRS + 1, fs.inodeCount());
    System.out.printf("XfsHeapFootprintTest: %,d files, %,d bytes of heap, %.1f bytes/file"
        + " (10^7 files: about %.2f GB)%n", FILES, used, (double) used / FILES,
        used * 10.0 / 1e9);
    System.out.printf("XfsHeapFootprintTest: of which arrays and directory indexes %.1f"
        + " bytes/file%n", (double) fs.arrayBytes() / FILES);
    // Keep the filesystem reachable until the measurement is taken.
    assertEquals(FILES + DIRS + 1, fs.inodeCount());
  }

  private static long usedHeap() {
    Runtime rt = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return rt.totalMemory() - rt.freeMemory();
  }
}
