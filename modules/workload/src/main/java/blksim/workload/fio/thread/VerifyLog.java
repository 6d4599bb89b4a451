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
 */
final class VerifyLog {
  private final boolean sorted;
  private final ArrayDeque<long[]> fifo = new ArrayDeque<>();
  private final TreeMap<Long, Integer> tree = new TreeMap<>();

  VerifyLog(boolean sorted) {
    this.sorted = sorted;
  }

  /** {@code log_io_piece()}: a write of {@code len} bytes at {@code offset} was issued. */
  void logged(long offset, int len) {
    if (!sorted) {
      fifo.add(new long[] {offset, len});
      return;
    }
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

  /** {@code get_next_verify()}: the next block to read back, {offset, length}; removed. */
  long[] next() {
    if (!sorted) {
      return fifo.poll();
    }
    Map.Entry<Long, Integer> e = tree.pollFirstEntry();
    return e == null ? null : new long[] {e.getKey(), e.getValue()};
  }
}
