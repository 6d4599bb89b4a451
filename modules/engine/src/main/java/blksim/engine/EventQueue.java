package blksim.engine;

import java.util.Arrays;

/**
 * A partition's pending events, in the total event order of {@link Event}: (time, sender,
 * sender's sequence).
 *
 * <p>A radix heap on the time, which is integral and never goes below the last time taken out (a
 * handler sends at {@code now + delay}, {@code delay >= 0}; another partition's events arrive at
 * or after the window's end): an event whose time first differs from that last time {@code L} in
 * bit {@code b - 1} waits, unordered, in bucket {@code b}; the events at exactly {@code L} wait in
 * bucket 0, a binary heap on (sender, sequence), so ties leave in the same order as from a binary
 * heap on the whole key. When bucket 0 is empty, the lowest non-empty bucket's earliest time
 * becomes {@code L} and its events move down into lower buckets; an event moves at most 64 times
 * and typically a few, each move a sequential append. An event added below {@code L} (allowed,
 * though the engine never does it) rebuilds the buckets around its time.
 *
 * <p>Array-based, so the hot path allocates nothing and follows no pointer: the key lives in
 * {@code long[]} arrays next to the number of the slot holding the event's target and message;
 * (sender, sequence) is packed into one long ({@code sender << 40 | seq}, which orders exactly as
 * the pair while the sender is below 2^23 and the sequence below 2^40; both are checked). Slots are
 * recycled through a free list. {@link #add(long, int, int, long, Message)} and
 * {@link #pollNext()} are the allocation-free interface the partition uses; {@link #add(Event)}
 * and {@link #poll()} are kept for callers that hold {@link Event} records.
 *
 * <p>Owned by one partition and used by one thread at a time; not thread-safe.
 */
public final class EventQueue {
  private static final int SEQ_BITS = 40;
  private static final long SEQ_LIMIT = 1L << SEQ_BITS;
  private static final int SENDER_LIMIT = 1 << (63 - SEQ_BITS);
  private static final int BUCKETS = 65;

  private int size;
  /** The radix base: the time of bucket 0's events, never above any pending event's time. */
  private long last;

  // Bucket 0: a binary heap on the packed (sender, seq) of the events at time `last`.
  private long[] zTie = new long[64];
  private int[] zSlot = new int[64];
  private int zSize;

  // Buckets 1..64: unordered (time, tie, slot); bit b-1 of `nonEmpty` set when bucket b is not.
  private final long[][] bTime = new long[BUCKETS][];
  private final long[][] bTie = new long[BUCKETS][];
  private final int[][] bSlot = new int[BUCKETS][];
  private final int[] bSize = new int[BUCKETS];
  private long nonEmpty;

  /** The earliest time in the buckets, valid while {@code peekValid} and bucket 0 is empty. */
  private long peekMin;
  private boolean peekValid;

  // The slots: payload of each pending event, and the free list.
  private int[] sTarget = new int[1024];
  private Message[] sMessage = new Message[1024];
  private int[] free = new int[1024];
  private int freeCount;
  private int slotsUsed;

  private long polledTime;
  private long polledTie;
  private int polledTarget;

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
      int b = Long.numberOfTrailingZeros(nonEmpty) + 1;
      long[] t = bTime[b];
      long m = Long.MAX_VALUE;
      for (int i = 0, n = bSize[b]; i < n; i++) {
        m = Math.min(m, t[i]);
      }
      peekMin = m;
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
      if (slotsUsed == sTarget.length) {
        int n = slotsUsed * 2;
        sTarget = Arrays.copyOf(sTarget, n);
        sMessage = Arrays.copyOf(sMessage, n);
        free = Arrays.copyOf(free, n);
      }
      slot = slotsUsed++;
    }
    sTarget[slot] = target;
    sMessage[slot] = message;
    if (time < last) {
      rebase(time);
    }
    place(time, tie, slot);
    size++;
    if (peekValid && time < peekMin) {
      peekMin = time;
    }
  }

  /** Puts an entry into its bucket relative to {@code last} (its time is at least last). */
  private void place(long time, long tie, int slot) {
    int b = 64 - Long.numberOfLeadingZeros(time ^ last);
    if (b == 0) {
      zPush(tie, slot);
      return;
    }
    int n = bSize[b];
    long[] t = bTime[b];
    if (t == null || n == t.length) {
      int cap = t == null ? 16 : n * 2;
      bTime[b] = t = t == null ? new long[cap] : Arrays.copyOf(t, cap);
      bTie[b] = bTie[b] == null ? new long[cap] : Arrays.copyOf(bTie[b], cap);
      bSlot[b] = bSlot[b] == null ? new int[cap] : Arrays.copyOf(bSlot[b], cap);
    }
    t[n] = time;
    bTie[b][n] = tie;
    bSlot[b][n] = slot;
    bSize[b] = n + 1;
    nonEmpty |= 1L << (b - 1);
  }

  /** Lowers the radix base to {@code time}: every pending entry is placed again. */
  private void rebase(long time) {
    long[] times = new long[size];
    long[] ties = new long[size];
    int[] slots = new int[size];
    int k = 0;
    for (int i = 0; i < zSize; i++) {
      times[k] = last;
      ties[k] = zTie[i];
      slots[k++] = zSlot[i];
    }
    zSize = 0;
    for (int b = 1; b < BUCKETS; b++) {
      for (int i = 0; i < bSize[b]; i++) {
        times[k] = bTime[b][i];
        ties[k] = bTie[b][i];
        slots[k++] = bSlot[b][i];
      }
      bSize[b] = 0;
    }
    nonEmpty = 0;
    last = time;
    peekValid = false;
    for (int i = 0; i < k; i++) {
      place(times[i], ties[i], slots[i]);
    }
  }

  private void zPush(long tie, int slot) {
    if (zSize == zTie.length) {
      zTie = Arrays.copyOf(zTie, zSize * 2);
      zSlot = Arrays.copyOf(zSlot, zSize * 2);
    }
    long[] h = zTie;
    int[] s = zSlot;
    int i = zSize++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (h[parent] < tie) {
        break;
      }
      h[i] = h[parent];
      s[i] = s[parent];
      i = parent;
    }
    h[i] = tie;
    s[i] = slot;
  }

  /**
   * Removes the earliest event (the queue must not be empty) and returns its message; its time
   * and target are then {@link #polledTime()} and {@link #polledTarget()}. (The message is
   * returned, not kept in a field: a reference store per event costs a GC write barrier.)
   */
  public Message pollNext() {
    if (zSize == 0) {
      refill();
    }
    long[] h = zTie;
    int[] s = zSlot;
    int slot = s[0];
    polledTime = last;
    polledTie = h[0];
    polledTarget = sTarget[slot];
    Message polledMessage = sMessage[slot];
    sMessage[slot] = null;
    free[freeCount++] = slot;
    size--;
    int n = --zSize;
    if (n > 0) {
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
        if (lt < c) {
          break;
        }
        h[i] = c;
        s[i] = s[child];
        i = child;
      }
      h[i] = lt;
      s[i] = ls;
    }
    return polledMessage;
  }

  /** Bucket 0 is empty: the lowest bucket's earliest time becomes the base, its events move down. */
  private void refill() {
    int b = Long.numberOfTrailingZeros(nonEmpty) + 1;
    long m = peekTime();
    long[] t = bTime[b];
    long[] k = bTie[b];
    int[] s = bSlot[b];
    int n = bSize[b];
    bSize[b] = 0;
    nonEmpty &= ~(1L << (b - 1));
    last = m;
    peekValid = false;
    for (int i = 0; i < n; i++) {
      place(t[i], k[i], s[i]);
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
