package blksim.kernel.device;

/**
 * The busy intervals of one serial resource (an SSD channel or its host link), booked ahead: a
 * booking takes the earliest gap at or after its ready time that is long enough, so a later
 * booking may fill a gap an earlier one left. Bookings are never moved once made.
 *
 * <p>Held sorted by start in two primitive arrays (starts and ends, the live part from
 * {@code head} to {@code tail}): the intervals do not overlap, so the ends are sorted too, the
 * lookups are binary searches and forgetting the oldest only moves {@code head}. A write fills
 * the tail of a saturated channel, so most insertions append. (A {@code TreeMap<Long, Long>}
 * did the same with a boxed node per interval and two map lookups per page; it cost ~9 % of a
 * 96-CPU btrfs run.) Nothing depends on hashing.
 */
final class BusyIntervals {
  private long[] starts = new long[16];
  private long[] ends = new long[16];
  /** Index of the earliest interval held. */
  private int head;
  /** One past the last interval held. */
  private int tail;

  /** The index of the last interval starting at or before {@code t}, {@code head - 1} if none. */
  private int floor(long t) {
    int lo = head;
    int hi = tail - 1;
    if (hi < lo || starts[hi] <= t) {
      return hi;
    }
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (starts[mid] <= t) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return hi;
  }

  /** The start of the earliest free slot of {@code durationNs} at or after {@code readyNs}. */
  long earliestStart(long readyNs, long durationNs) {
    long start = readyNs;
    int i = floor(start);
    if (i >= head && ends[i] > start) {
      start = ends[i];
    }
    // Each booking that starts inside [start, start + duration) pushes start to its end. The
    // intervals are sorted and disjoint, so the next candidate is always the next index.
    int n = i + 1;
    while (n < tail && starts[n] < start + durationNs) {
      if (starts[n] >= start) {
        start = ends[n];
      }
      n++;
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
      long e = start + durationNs;
      int before = floor(start);
      boolean joinBefore = before >= head && ends[before] == start;
      int after = before + 1;
      boolean joinAfter = after < tail && starts[after] == e;
      if (joinBefore && joinAfter) {
        ends[before] = ends[after];
        System.arraycopy(starts, after + 1, starts, after, tail - after - 1);
        System.arraycopy(ends, after + 1, ends, after, tail - after - 1);
        tail--;
      } else if (joinBefore) {
        ends[before] = e;
      } else if (joinAfter) {
        starts[after] = start;
      } else {
        insert(after, start, e);
      }
    }
    return start + durationNs;
  }

  /** Inserts interval [s, e) at index {@code at} (between head and tail). */
  private void insert(int at, long s, long e) {
    if (tail == starts.length) {
      int live = tail - head;
      if (head > 0 && live < starts.length / 2) {
        // Reuse the room freed at the front.
        System.arraycopy(starts, head, starts, 0, live);
        System.arraycopy(ends, head, ends, 0, live);
      } else {
        long[] ns = new long[starts.length * 2];
        long[] ne = new long[starts.length * 2];
        System.arraycopy(starts, head, ns, 0, live);
        System.arraycopy(ends, head, ne, 0, live);
        starts = ns;
        ends = ne;
      }
      at -= head;
      head = 0;
      tail = live;
    }
    System.arraycopy(starts, at, starts, at + 1, tail - at);
    System.arraycopy(ends, at, ends, at + 1, tail - at);
    starts[at] = s;
    ends[at] = e;
    tail++;
  }

  /** Forgets bookings that end by {@code ns}: no later booking can be ready before then. */
  void forgetBefore(long ns) {
    while (head < tail && ends[head] <= ns) {
      head++;
    }
    if (head == tail) {
      head = 0;
      tail = 0;
    }
  }

  /** The end of the last booking, {@link Long#MIN_VALUE} if none is held. */
  long lastEnd() {
    return head == tail ? Long.MIN_VALUE : ends[tail - 1];
  }

  /** Intervals held (touching bookings count as one), for tests. */
  int size() {
    return tail - head;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("[");
    for (int i = head; i < tail; i++) {
      b.append(i == head ? "" : ", ").append(starts[i]).append('-').append(ends[i]);
    }
    return b.append(']').toString();
  }
}
