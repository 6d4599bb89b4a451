package blksim.kernel.dm;

import java.util.Map;
import java.util.TreeMap;

/**
 * A zone's validity bitmap (one bit per 4 KiB block, kernel-model.md §15.1.1), held as sorted,
 * disjoint, non-adjacent runs of valid blocks rather than bits: the memory is per run, not per
 * block, and a zone written sequentially is one run. Answers what {@code dmz_set_bits()},
 * {@code dmz_clear_bits()}, {@code dmz_block_valid()} and {@code dmz_first_valid_block()}
 * (drivers/md/dm-zoned-metadata.c) compute. Owned by its {@link DmzZone}.
 */
final class DmzBitmap {
  /** Run start → run end (exclusive). */
  private final TreeMap<Integer, Integer> runs = new TreeMap<>();

  /** Sets blocks [from, from + n); returns how many were not set ({@code dmz_set_bits()}). */
  int set(int from, int n) {
    int to = from + n;
    int start = from;
    int end = to;
    int already = 0;
    Map.Entry<Integer, Integer> e = runs.floorEntry(from);
    if (e != null && e.getValue() >= from) {
      start = e.getKey();
    }
    // Absorb every run that overlaps or touches [start, end).
    Map.Entry<Integer, Integer> r = runs.ceilingEntry(start);
    while (r != null && r.getKey() <= end) {
      int rs = r.getKey();
      int re = r.getValue();
      already += Math.max(0, Math.min(re, to) - Math.max(rs, from));
      end = Math.max(end, re);
      runs.remove(rs);
      r = runs.ceilingEntry(rs);
    }
    runs.put(start, end);
    return n - already;
  }

  /** Clears blocks [from, from + n); returns how many were set ({@code dmz_clear_bits()}). */
  int clear(int from, int n) {
    int to = from + n;
    int cleared = 0;
    Map.Entry<Integer, Integer> e = runs.lowerEntry(to);
    while (e != null && e.getValue() > from) {
      int rs = e.getKey();
      int re = e.getValue();
      runs.remove(rs);
      cleared += Math.min(re, to) - Math.max(rs, from);
      if (rs < from) {
        runs.put(rs, from);
      }
      if (re > to) {
        runs.put(to, re);
      }
      e = runs.lowerEntry(rs);
    }
    return cleared;
  }

  /**
   * {@code dmz_block_valid()}: the number of consecutive valid blocks from {@code block}, 0 if
   * it is not valid.
   */
  int validAt(int block) {
    Map.Entry<Integer, Integer> e = runs.floorEntry(block);
    return e != null && e.getValue() > block ? e.getValue() - block : 0;
  }

  /** Consecutive invalid blocks from {@code block}, up to {@code limit}. */
  int invalidAt(int block, int limit) {
    if (validAt(block) > 0) {
      return 0;
    }
    Integer next = runs.higherKey(block);
    return next == null ? limit - block : Math.min(next, limit) - block;
  }

  /**
   * {@code dmz_first_valid_block()}: the first valid run at or after {@code from}, as
   * {@code {start, length}}, or {@code null}.
   */
  int[] firstValid(int from) {
    int v = validAt(from);
    if (v > 0) {
      return new int[] {from, v};
    }
    Map.Entry<Integer, Integer> e = runs.higherEntry(from);
    return e == null ? null : new int[] {e.getKey(), e.getValue() - e.getKey()};
  }

  /** Runs held (the memory in use). */
  int runCount() {
    return runs.size();
  }

  /** Clears everything. */
  void clearAll() {
    runs.clear();
  }
}
