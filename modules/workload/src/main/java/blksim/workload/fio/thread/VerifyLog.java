package blksim.workload.fio.thread;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;

/**
 * The written blocks fio will read back to verify ({@code td->io_hist_list} /
 * {@code io_hist_tree}, filled by {@code log_io_piece()} in {@code iolog.c} as each write is
 * issued, emptied by {@code get_next_verify()}).
 *
 * <p>Without an overlap risk the blocks are verified in the order they were written (a FIFO
 * list). With one ({@code fio_offset_overlap_risk()}: {@code norandommap}, a sequential
 * {@code :N} stride, or {@code io_size} beyond {@code size}) fio keeps them in a tree sorted by
 * offset and drops an older block that a newer write overlaps, so they are verified by
 * ascending offset, each once.
 *
 * <p>Each block carries the index of the job's file it was written to ({@code ipo->file}); the
 * tree is sorted by file, then offset, as {@code log_io_piece()} compares the file first (fio
 * compares {@code struct fio_file} pointers, allocated in the job's file order; here the
 * file's index). A device job has one file, 0.
 */
final class VerifyLog {
  /** Offsets are below 2^56 bytes, so (file, offset) packs into one ordered long key. */
  private static final int FILE_SHIFT = 56;

  private final boolean sorted;
  private final ArrayDeque<long[]> fifo = new ArrayDeque<>();
  private final TreeMap<Long, Integer> tree = new TreeMap<>();

  VerifyLog(boolean sorted) {
    this.sorted = sorted;
  }

  /** {@code log_io_piece()}: a write of {@code len} bytes at {@code offset} was issued. */
  void logged(long offset, int len) {
    logged(0, offset, len);
  }

  /** {@code log_io_piece()}: a write of {@code len} bytes at {@code offset} of file {@code file}. */
  void logged(int file, long offset, int len) {
    if (!sorted) {
      fifo.add(new long[] {offset, len, file});
      return;
    }
    offset = key(file, offset);
    // Drop every older block the new one overlaps (fio erases it and restarts the insert).
    Map.Entry<Long, Integer> before = tree.floorEntry(offset);
    if (before != null && before.getKey() + before.getValue() > offset) {
      tree.remove(before.getKey());
    }
    while (true) {
      Map.Entry<Long, Integer> after = tree.ceilingEntry(offset);
      if (after == null || after.getKey() >= offset + len) {
        break;
      }
      tree.remove(after.getKey());
    }
    tree.put(offset, len);
  }

  /** The blocks waiting to be verified. */
  int size() {
    return sorted ? tree.size() : fifo.size();
  }

  boolean isEmpty() {
    return size() == 0;
  }

  /** {@code get_next_verify()}: the next block to read back, {offset, length, file}; removed. */
  long[] next() {
    if (!sorted) {
      return fifo.poll();
    }
    Map.Entry<Long, Integer> e = tree.pollFirstEntry();
    return e == null ? null : new long[] {offsetOf(e.getKey()), e.getValue(), fileOf(e.getKey())};
  }

  /** The file of the next block to read back; the log must not be empty. */
  int nextFile() {
    return sorted ? (int) fileOf(tree.firstKey()) : (int) fifo.peek()[2];
  }

  private static long key(int file, long offset) {
    if (offset >>> FILE_SHIFT != 0 || file < 0 || file >= 1 << (63 - FILE_SHIFT)) {
      throw new IllegalArgumentException("verify log: file " + file + " offset " + offset);
    }
    return (long) file << FILE_SHIFT | offset;
  }

  private static long fileOf(long key) {
    return key >>> FILE_SHIFT;
  }

  private static long offsetOf(long key) {
    return key & ((1L << FILE_SHIFT) - 1);
  }
}
