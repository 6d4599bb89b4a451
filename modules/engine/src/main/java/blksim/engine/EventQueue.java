package blksim.engine;

import java.util.Arrays;

/**
 * A partition's pending events, in the total event order of {@link Event}: (time, sender,
 * sender's sequence).
 *
 * <p>A calendar queue on the time, which is integral and never goes below the base {@code L}, the
 * time of the events now being run (a handler sends at {@code now + delay}, {@code delay >= 0};
 * another partition's events arrive at or after the window's end). Three places, by distance
 * from {@code L}:
 *
 * <ul>
 *   <li>the events at exactly {@code L}: a binary heap on (sender, sequence), so ties leave in the
 *       same order as from a binary heap on the whole key;
 *   <li>the events in {@code (L, L + W)}, {@code W = 2^14} ns: a ring of {@code W} one-nanosecond
 *       days, each an unordered singly linked list of the events at that time (one time per day,
 *       as the ring spans {@code W} ns), with a two-level bitmap of the non-empty days;
 *   <li>the events at {@code L + W} or later: a binary heap on the time (timer ticks, long device
 *       latencies).
 * </ul>
 *
 * When the heap at {@code L} runs empty, the next non-empty day (found through the bitmap) becomes
 * {@code L}: its list moves into the heap, and the far events that have come within {@code W}
 * move into the ring. An event is thus linked once, heaped once among the few events of its
 * nanosecond and, if far, heaped once more on the time alone: the cost per event does not grow
 * with the number pending. An event added below {@code L} (allowed, though the engine never does
 * it) rebuilds the queue around its time.
 *
 * <p>Array-based, so the hot path allocates nothing: an event lives in a slot (its tie and target
 * side by side in one array, its message in another, the next event of its day in a third; its
 * time is implied by where it waits), recycled last-in first-out, so the event a handler sends
 * usually takes the cache lines of the one just run. Moving a day into the tie heap loads its
 * events' keys and message references together, so their cache misses overlap. (sender, sequence)
 * is packed into one long tie ({@code sender << 40 | seq}, which orders exactly as the pair while
 * the sender is below 2^23 and the sequence below 2^40; both are checked).
 * {@link #add(long, int, int, long, Message)} and {@link #pollNext()} are the allocation-free
 * interface the partition uses; {@link #add(Event)} and {@link #poll()} are kept for callers that
 * hold {@link Event} records.
 *
 * <p>Owned by one partition and used by one thread at a time; not thread-safe.
 */
public final class EventQueue {
  private static final int SEQ_BITS = 40;
  private static final long SEQ_LIMIT = 1L << SEQ_BITS;
  private static final int SENDER_LIMIT = 1 << (63 - SEQ_BITS);
  private static final int RING_BITS = 14;
  private static final int W = 1 << RING_BITS;
  private static final int MASK = W - 1;

  private int size;
  /** The base: the time of the events in the tie heap, never above any pending event's time. */
  private long last;

  // The events at `last`: a binary heap on the packed (sender, seq).
  private long[] zTie = new long[64];
  private int[] zSlot = new int[64];
  private int zSize;

  // The ring: head slot of each day's list (-1 when empty), the non-empty days' bits, and one
  // summary bit per non-zero word of `bits`. Made at the first event that goes into the ring
  // (66 KiB: a partition that never has one, such as an idle CPU's with partitions=cpu on a
  // large machine, does not pay for it).
  private int[] head;
  private long[] bits;
  private long[] summary;
  private int ringCount;

  // The far events, at last + W or later: a binary heap on the time.
  private long[] oTime = new long[64];
  private int[] oSlot = new int[64];
  private int oSize;

  /** The earliest pending time, valid while {@code peekValid} and the tie heap is empty. */
  private long peekMin;
  private boolean peekValid;

  // The slots: each pending event's tie at sKey[2 * slot] and its target at sKey[2 * slot + 1],
  // so one cache line serves both; its message; the next event of its day (-1 for none) in a
  // small array of its own, so walking a day's list does not wait for each event's line in turn.
  // A slot's time is implied by where it waits (day, base or far heap).
  private long[] sKey = new long[2048];
  private int[] sNext = new int[1024];
  private Message[] sMessage = new Message[1024];
  private int[] free = new int[1024];
  private int freeCount;
  private int slotsUsed;

  /** Written by {@link #advance} so the message loads it makes are not optimized away. */
  private int touched;

  private long polledTime;
  private long polledTie;
  private int polledTarget;

  /** An empty queue. */
  public EventQueue() {
  }

  /** Number of pending events. */
  public int size() {
    return size;
  }

  /** Whether no event is pending. */
  public boolean isEmpty() {
    return size == 0;
  }

  /** The earliest pending event's time, or {@link Long#MAX_VALUE} when empty. */
  public long peekTime() {
    if (zSize > 0) {
      return last;
    }
    if (size == 0) {
      return Long.MAX_VALUE;
    }
    if (!peekValid) {
      peekMin = ringCount > 0 ? dayTime(nextDay()) : oTime[0];
      peekValid = true;
    }
    return peekMin;
  }

  /** Adds an event. */
  public void add(Event e) {
    add(e.time(), e.target(), e.sender(), e.seq(), e.message());
  }

  /** Adds the event (time, target, sender, seq, message), without allocating. */
  public void add(long time, int target, int sender, long seq, Message message) {
    if (sender < 0 || sender >= SENDER_LIMIT || seq < 0 || seq >= SEQ_LIMIT || time < 0) {
      throw new SimulationException("event order key out of range: time " + time + ", sender "
          + sender + " (limit " + SENDER_LIMIT + "), sequence " + seq + " (limit " + SEQ_LIMIT
          + ")");
    }
    long tie = ((long) sender << SEQ_BITS) | seq;
    int slot;
    if (freeCount > 0) {
      slot = free[--freeCount];
    } else {
      if (slotsUsed == sMessage.length) {
        growSlots();
      }
      slot = slotsUsed++;
    }
    sKey[2 * slot] = tie;
    sKey[2 * slot + 1] = target;
    sMessage[slot] = message;
    if (time < last) {
      rebase(time);
    }
    place(time, tie, slot);
    size++;
    if (peekValid && time < peekMin && time != last) {
      // (an event at the base goes to the tie heap, which peekTime reads first)
      peekMin = time;
    }
  }

  private void growSlots() {
    int n = slotsUsed * 2;
    sKey = Arrays.copyOf(sKey, 2 * n);
    sNext = Arrays.copyOf(sNext, n);
    sMessage = Arrays.copyOf(sMessage, n);
    free = Arrays.copyOf(free, n);
  }

  /**
   * Puts an entry (tie and target already in its slot) where its distance from {@code last} says
   * (its time is at least last).
   */
  private void place(long time, long tie, int slot) {
    long d = time - last;
    if (d == 0) {
      zPush(tie, slot);
    } else if (d < W) {
      ringPush(time, slot);
    } else {
      farPush(time, slot);
    }
  }

  private void ringPush(long time, int slot) {
    int day = (int) time & MASK;
    if (head == null) {
      makeRing();
    }
    int h = head[day];
    sNext[slot] = h;
    head[day] = slot;
    if (h < 0) {
      bits[day >>> 6] |= 1L << day;
      summary[day >>> 12] |= 1L << (day >>> 6);
    }
    ringCount++;
  }

  private void makeRing() {
    head = new int[W];
    Arrays.fill(head, -1);
    bits = new long[W >>> 6];
    summary = new long[W >>> 12];
  }

  /**
   * The first non-empty day at or after {@code (last + 1) mod W}, cyclically (the ring must not
   * be empty). The days hold the times last+1 .. last+W-1, so this is the earliest.
   */
  private int nextDay() {
    int from = (int) (last + 1) & MASK;
    int d = firstFrom(from);
    return d >= 0 ? d : firstFrom(0);
  }

  /** The time of the events in {@code day}: days hold the times last+1 .. last+W-1. */
  private long dayTime(int day) {
    return last + ((day - (int) last) & MASK);
  }

  /** The first non-empty day at or after {@code from}, or -1. */
  private int firstFrom(int from) {
    int w = from >>> 6;
    long word = bits[w] & (-1L << from);
    if (word != 0) {
      return (w << 6) + Long.numberOfTrailingZeros(word);
    }
    int nw = w + 1;
    for (int s = nw >>> 6; s < summary.length; s++) {
      long sm = summary[s];
      if (s == nw >>> 6) {
        sm &= -1L << nw;
      }
      if (sm != 0) {
        int ww = (s << 6) + Long.numberOfTrailingZeros(sm);
        return (ww << 6) + Long.numberOfTrailingZeros(bits[ww]);
      }
    }
    return -1;
  }

  private void farPush(long time, int slot) {
    if (oSize == oTime.length) {
      oTime = Arrays.copyOf(oTime, oSize * 2);
      oSlot = Arrays.copyOf(oSlot, oSize * 2);
    }
    siftUp(oTime, oSlot, oSize++, time, slot);
  }

  /** Removes the far heap's earliest entry (its time and slot are read before). */
  private void farPop() {
    int n = --oSize;
    if (n > 0) {
      siftDown(oTime, oSlot, n);
    }
  }

  /** Lowers the base to {@code time}: every pending entry is placed again. */
  private void rebase(long time) {
    int n = size;
    long[] times = new long[n];
    int[] slots = new int[n];
    int k = 0;
    for (int i = 0; i < zSize; i++) {
      times[k] = last;
      slots[k++] = zSlot[i];
    }
    zSize = 0;
    if (ringCount > 0) {
      for (int day = 0; day < W; day++) {
        for (int s = head[day]; s >= 0; s = sNext[s]) {
          times[k] = dayTime(day);
          slots[k++] = s;
        }
        head[day] = -1;
      }
      Arrays.fill(bits, 0);
      Arrays.fill(summary, 0);
      ringCount = 0;
    }
    for (int i = 0; i < oSize; i++) {
      times[k] = oTime[i];
      slots[k++] = oSlot[i];
    }
    oSize = 0;
    last = time;
    peekValid = false;
    for (int i = 0; i < k; i++) {
      place(times[i], sKey[2 * slots[i]], slots[i]);
    }
  }

  private void zPush(long tie, int slot) {
    if (zSize == zTie.length) {
      zTie = Arrays.copyOf(zTie, zSize * 2);
      zSlot = Arrays.copyOf(zSlot, zSize * 2);
    }
    siftUp(zTie, zSlot, zSize++, tie, slot);
  }

  /*
   * The two binary heaps (ties at the base, times of the far events) share these sift loops: a
   * key array and its slots side by side. Keys equal to the one moving stay above it; the tie
   * heap's keys are all distinct, so for it that choice makes no difference.
   */

  /** Puts (key, slot) into the heap whose entries 0 .. i-1 are in heap order, from index i up. */
  private static void siftUp(long[] h, int[] s, int i, long key, int slot) {
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (h[parent] <= key) {
        break;
      }
      h[i] = h[parent];
      s[i] = s[parent];
      i = parent;
    }
    h[i] = key;
    s[i] = slot;
  }

  /**
   * Removes the root of a heap of n + 1 entries: the last one, entry n, moves in from the root
   * down (n > 0).
   */
  private static void siftDown(long[] h, int[] s, int n) {
    long lt = h[n];
    int ls = s[n];
    int i = 0;
    int half = n >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      long c = h[child];
      int right = child + 1;
      if (right < n && h[right] < c) {
        child = right;
        c = h[right];
      }
      if (lt <= c) {
        break;
      }
      h[i] = c;
      s[i] = s[child];
      i = child;
    }
    h[i] = lt;
    s[i] = ls;
  }

  /**
   * Removes the earliest event (the queue must not be empty) and returns its message; its time
   * and target are then {@link #polledTime()} and {@link #polledTarget()}. (The message is
   * returned, not kept in a field: a reference store per event costs a GC write barrier.)
   */
  public Message pollNext() {
    if (zSize == 0) {
      advance();
    }
    long[] h = zTie;
    int[] s = zSlot;
    int slot = s[0];
    polledTime = last;
    polledTie = h[0];
    polledTarget = (int) sKey[2 * slot + 1];
    Message polledMessage = sMessage[slot];
    sMessage[slot] = null;
    free[freeCount++] = slot;
    size--;
    int n = --zSize;
    if (n > 0) {
      siftDown(h, s, n);
    }
    return polledMessage;
  }

  /**
   * The tie heap is empty: the earliest pending time becomes the base. Its day's events move
   * into the tie heap, then the far events now within the ring's span move in (the far heap holds
   * only times at or after the old base + W, so none is earlier than a ring event).
   */
  private void advance() {
    if (ringCount > 0) {
      int day = peekValid ? (int) peekMin & MASK : nextDay();
      int s = head[day];
      last = dayTime(day);
      head[day] = -1;
      long word = bits[day >>> 6] & ~(1L << day);
      bits[day >>> 6] = word;
      if (word == 0) {
        summary[day >>> 12] &= ~(1L << (day >>> 6));
      }
      int k = 0;
      long[] key = sKey;
      int[] next = sNext;
      Message[] msg = sMessage;
      int present = 0;
      do {
        zPush(key[2 * s], s);
        // Load each message reference now, with the keys: the lines arrive together instead of
        // one miss per event when it is run.
        present += msg[s] != null ? 1 : 0;
        s = next[s];
        k++;
      } while (s >= 0);
      touched = present;
      ringCount -= k;
    } else {
      last = oTime[0];
    }
    peekValid = false;
    long limit = last + W;
    while (oSize > 0 && oTime[0] < limit) {
      long t = oTime[0];
      int s = oSlot[0];
      farPop();
      if (t == last) {
        zPush(sKey[2 * s], s);
      } else {
        ringPush(t, s);
      }
    }
  }

  /** Time of the event last removed by {@link #pollNext()}. */
  public long polledTime() {
    return polledTime;
  }

  /** Target of the event last removed by {@link #pollNext()}. */
  public int polledTarget() {
    return polledTarget;
  }

  /** Removes and returns the earliest event as an {@link Event}; the queue must not be empty. */
  public Event poll() {
    Message m = pollNext();
    return new Event(polledTime, polledTarget, (int) (polledTie >>> SEQ_BITS),
        polledTie & (SEQ_LIMIT - 1), m);
  }
}
