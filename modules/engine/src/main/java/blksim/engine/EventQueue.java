package blksim.engine;

import java.util.Arrays;

/**
 * A partition's pending events, a binary min-heap in the total event order of {@link Event}.
 *
 * <p>Owned by one partition and used by one thread at a time; not thread-safe.
 */
public final class EventQueue {
  private Event[] heap = new Event[1024];
  private int size;

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
    return size == 0 ? Long.MAX_VALUE : heap[0].time();
  }

  /** Adds an event. */
  public void add(Event e) {
    if (size == heap.length) {
      heap = Arrays.copyOf(heap, size * 2);
    }
    int i = size++;
    Event[] h = heap;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      Event p = h[parent];
      if (!e.before(p)) {
        break;
      }
      h[i] = p;
      i = parent;
    }
    h[i] = e;
  }

  /** Removes and returns the earliest event; the queue must not be empty. */
  public Event poll() {
    Event[] h = heap;
    Event top = h[0];
    int n = --size;
    Event last = h[n];
    h[n] = null;
    if (n > 0) {
      int i = 0;
      int half = n >>> 1;
      while (i < half) {
        int child = 2 * i + 1;
        Event c = h[child];
        int right = child + 1;
        if (right < n && h[right].before(c)) {
          child = right;
          c = h[right];
        }
        if (!c.before(last)) {
          break;
        }
        h[i] = c;
        i = child;
      }
      h[i] = last;
    }
    return top;
  }
}
