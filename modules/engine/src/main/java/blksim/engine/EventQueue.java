package blksim.engine;

import java.util.Arrays;

/**
 * A partition's pending events, a 4-ary min-heap in the total event order of {@link Event}:
 * (time, sender, sender's sequence).
 *
 * <p>Array-based, so the hot path allocates nothing and follows no pointer: the heap holds each
 * event's sort key inline, its time in one {@code long[]} and (sender, sequence) packed into
 * another ({@code sender << 40 | seq}, which orders exactly as the pair while the sender is below
 * 2^23 and the sequence below 2^40; both are checked), next to the number of the slot holding the
 * event's target and message. The four children of a node share a cache line or two, and a
 * comparison reads two longs instead of two {@link Event} objects scattered over the heap, so a
 * queue of tens of thousands of events (a many-core machine) costs few cache misses per event.
 * Slots are recycled through a free list. {@link #add(long, int, int, long, Message)} and
 * {@link #pollNext()} are the allocation-free interface the partition uses; {@link #add(Event)}
 * and {@link #poll()} are kept for callers that hold {@link Event} records.
 *
 * <p>Owned by one partition and used by one thread at a time; not thread-safe.
 */
public final class EventQueue {
  private static final int SEQ_BITS = 40;
  private static final long SEQ_LIMIT = 1L << SEQ_BITS;
  private static final int SENDER_LIMIT = 1 << (63 - SEQ_BITS);

  // The heap, in parallel arrays: key and slot of each node.
  private long[] hTime = new long[1024];
  private long[] hTie = new long[1024];
  private int[] hSlot = new int[1024];
  private int size;

  // The slots: payload of each pending event, and the free list.
  private int[] sTarget = new int[1024];
  private Message[] sMessage = new Message[1024];
  private int[] free = new int[1024];
  private int freeCount;
  private int slotsUsed;

  private long polledTime;
  private long polledTie;
  private int polledTarget;
  private Message polledMessage;

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
    return size == 0 ? Long.MAX_VALUE : hTime[0];
  }

  /** Adds an event. */
  public void add(Event e) {
    add(e.time(), e.target(), e.sender(), e.seq(), e.message());
  }

  /** Adds the event (time, target, sender, seq, message), without allocating. */
  public void add(long time, int target, int sender, long seq, Message message) {
    if (sender < 0 || sender >= SENDER_LIMIT || seq < 0 || seq >= SEQ_LIMIT) {
      throw new SimulationException("event order key out of range: sender " + sender
          + " (limit " + SENDER_LIMIT + "), sequence " + seq + " (limit " + SEQ_LIMIT + ")");
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
    if (size == hTime.length) {
      int n = size * 2;
      hTime = Arrays.copyOf(hTime, n);
      hTie = Arrays.copyOf(hTie, n);
      hSlot = Arrays.copyOf(hSlot, n);
    }
    long[] ht = hTime;
    long[] hk = hTie;
    int[] hs = hSlot;
    int i = size++;
    while (i > 0) {
      int parent = (i - 1) >>> 2;
      long pt = ht[parent];
      if (pt < time || (pt == time && hk[parent] < tie)) {
        break;
      }
      ht[i] = pt;
      hk[i] = hk[parent];
      hs[i] = hs[parent];
      i = parent;
    }
    ht[i] = time;
    hk[i] = tie;
    hs[i] = slot;
  }

  /**
   * Removes the earliest event (the queue must not be empty); its time, target and message are
   * then {@link #polledTime()}, {@link #polledTarget()} and {@link #polledMessage()}.
   */
  public void pollNext() {
    long[] ht = hTime;
    long[] hk = hTie;
    int[] hs = hSlot;
    int slot = hs[0];
    polledTime = ht[0];
    polledTie = hk[0];
    polledTarget = sTarget[slot];
    polledMessage = sMessage[slot];
    sMessage[slot] = null;
    free[freeCount++] = slot;
    int n = --size;
    if (n == 0) {
      return;
    }
    long lt = ht[n];
    long lk = hk[n];
    int ls = hs[n];
    int i = 0;
    while (true) {
      int first = 4 * i + 1;
      if (first >= n) {
        break;
      }
      int best = first;
      long bt = ht[first];
      long bk = hk[first];
      int end = Math.min(first + 4, n);
      for (int c = first + 1; c < end; c++) {
        long ct = ht[c];
        if (ct < bt || (ct == bt && hk[c] < bk)) {
          best = c;
          bt = ct;
          bk = hk[c];
        }
      }
      if (lt < bt || (lt == bt && lk < bk)) {
        break;
      }
      ht[i] = bt;
      hk[i] = bk;
      hs[i] = hs[best];
      i = best;
    }
    ht[i] = lt;
    hk[i] = lk;
    hs[i] = ls;
  }

  /** Time of the event last removed by {@link #pollNext()}. */
  public long polledTime() {
    return polledTime;
  }

  /** Target of the event last removed by {@link #pollNext()}. */
  public int polledTarget() {
    return polledTarget;
  }

  /** Message of the event last removed by {@link #pollNext()}. */
  public Message polledMessage() {
    return polledMessage;
  }

  /** Removes and returns the earliest event as an {@link Event}; the queue must not be empty. */
  public Event poll() {
    pollNext();
    return new Event(polledTime, polledTarget, (int) (polledTie >>> SEQ_BITS),
        polledTie & (SEQ_LIMIT - 1), polledMessage);
  }
}
