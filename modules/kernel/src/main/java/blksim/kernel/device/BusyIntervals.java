package blksim.kernel.device;

import java.util.Map;
import java.util.TreeMap;

/**
 * The busy intervals of one serial resource (an SSD channel or its host link), booked ahead: a
 * booking takes the earliest gap at or after its ready time that is long enough, so a later
 * booking may fill a gap an earlier one left. Bookings are never moved once made. Sorted by
 * start in a {@link TreeMap}, so the result does not depend on hashing. Owned by its {@link Ssd}.
 */
final class BusyIntervals {
  /** start → end of each booking, non-overlapping. */
  private final TreeMap<Long, Long> busy = new TreeMap<>();

  /** The start of the earliest free slot of {@code durationNs} at or after {@code readyNs}. */
  long earliestStart(long readyNs, long durationNs) {
    long start = readyNs;
    Map.Entry<Long, Long> before = busy.floorEntry(start);
    if (before != null && before.getValue() > start) {
      start = before.getValue();
    }
    // Each booking that starts inside [start, start + duration) pushes start to its end.
    for (Map.Entry<Long, Long> next = busy.ceilingEntry(start); next != null
        && next.getKey() < start + durationNs; next = busy.ceilingEntry(start)) {
      start = next.getValue();
    }
    return start;
  }

  /** Books the earliest free slot of {@code durationNs} at or after {@code readyNs}; its end. */
  long book(long readyNs, long durationNs) {
    long start = earliestStart(readyNs, durationNs);
    if (durationNs > 0) {
      // Bookings that touch are held as one interval: no gap of positive length lies between
      // them, so every later earliestStart() is the same, and a saturated channel is one entry
      // to step over instead of one per page booked.
      long s = start;
      long e = start + durationNs;
      Map.Entry<Long, Long> before = busy.floorEntry(s);
      if (before != null && before.getValue() == s) {
        s = before.getKey();
      }
      Long after = busy.get(e);
      if (after != null) {
        busy.remove(e);
        e = after;
      }
      busy.put(s, e);
    }
    return start + durationNs;
  }

  /** Forgets bookings that end by {@code ns}: no later booking can be ready before then. */
  void forgetBefore(long ns) {
    while (!busy.isEmpty() && busy.firstEntry().getValue() <= ns) {
      busy.pollFirstEntry();
    }
  }

  /** The end of the last booking, {@link Long#MIN_VALUE} if none is held. */
  long lastEnd() {
    return busy.isEmpty() ? Long.MIN_VALUE : busy.lastEntry().getValue();
  }

  /** Intervals held (touching bookings count as one), for tests. */
  int size() {
    return busy.size();
  }
}
