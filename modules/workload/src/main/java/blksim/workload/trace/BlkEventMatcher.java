package blksim.workload.trace;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Turns a time-ordered stream of blktrace events into records: the chosen arrival event
 * ({@link BlkArrival}) becomes a record, and with Q or D arrivals the request's C event supplies
 * the recorded latency (C time minus arrival time).
 *
 * <p>A C is matched to the oldest waiting arrival with the same (device, sector, length), as
 * blkparse matches completions to their requests in {@code blkparse.c}'s per-device rb-trees of
 * queued and issued requests; requests without data (flushes) match on (device, length 0) alone,
 * because a flush Q prints no sector. Records come out in arrival order, so an arrival waits until
 * its C is seen. Memory is bounded: at most {@code maxInFlight} arrivals wait; beyond that the
 * oldest is emitted with {@link TraceRecord#NO_LATENCY}. At the end of the trace every waiting
 * arrival is emitted, the unmatched ones without latency.
 *
 * <p>Simplified: a Q that is later merged (M, F) into another request is emitted without
 * latency, since its completion is reported under the request it joined; requeues and
 * split/remapped bios are not followed. With C arrivals there is no latency at all.
 */
final class BlkEventMatcher {
  private final BlkArrival arrival;
  private final int maxInFlight;
  /** Arrivals in arrival order, the head being the next record out. */
  private final ArrayDeque<Pending> order = new ArrayDeque<>();
  /** Waiting arrivals by key, each deque oldest first; used only for look-ups, never iterated. */
  private final Map<Key, ArrayDeque<Pending>> waiting = new HashMap<>();
  private long unmatched;

  BlkEventMatcher(BlkArrival arrival, int maxInFlight) {
    this.arrival = Objects.requireNonNull(arrival, "arrival");
    this.maxInFlight = maxInFlight;
  }

  private record Key(String device, long sector, long lengthBytes) {
    static Key of(BlkEvent e) {
      return e.lengthBytes() == 0
          ? new Key(e.device(), -1, 0) : new Key(e.device(), e.sector(), e.lengthBytes());
    }
  }

  private static final class Pending {
    final BlkEvent event;
    final Key key;
    long latencyNs = TraceRecord.NO_LATENCY;
    boolean done;

    Pending(BlkEvent event, Key key) {
      this.event = event;
      this.key = key;
    }
  }

  /** Takes the next event in time order. */
  void accept(BlkEvent e) {
    char a = e.action();
    if (a == arrival.name().charAt(0)) {
      if (e.op() == null) {
        return;
      }
      Pending p = new Pending(e, Key.of(e));
      if (arrival == BlkArrival.C) {
        p.done = true;
      } else {
        waiting.computeIfAbsent(p.key, k -> new ArrayDeque<>()).addLast(p);
        if (order.size() >= maxInFlight) {
          giveUp(order.peekFirst());
        }
      }
      order.addLast(p);
    } else if (a == 'C' && arrival != BlkArrival.C) {
      Pending p = take(Key.of(e));
      if (p != null) {
        p.latencyNs = Math.max(0, e.timeNs() - p.event.timeNs());
        p.done = true;
      }
    } else if (a == 'M' && arrival == BlkArrival.Q) {
      Pending p = take(Key.of(e));
      if (p != null) {
        p.done = true;
      }
    }
  }

  /** Removes and returns the oldest waiting arrival with {@code key}, or {@code null}. */
  private Pending take(Key key) {
    ArrayDeque<Pending> q = waiting.get(key);
    if (q == null) {
      return null;
    }
    Pending p = q.pollFirst();
    if (q.isEmpty()) {
      waiting.remove(key);
    }
    return p;
  }

  /** Stops waiting for {@code p}'s completion (it is the oldest of its key, so first in line). */
  private void giveUp(Pending p) {
    if (p.done) {
      return;
    }
    ArrayDeque<Pending> q = waiting.get(p.key);
    if (q != null && q.peekFirst() == p) {
      take(p.key);
    } else if (q != null) {
      q.remove(p);
      if (q.isEmpty()) {
        waiting.remove(p.key);
      }
    }
    p.done = true;
    unmatched++;
  }

  /** The next record that is ready, or {@code null}. */
  TraceRecord poll() {
    Pending p = order.peekFirst();
    if (p == null || !p.done) {
      return null;
    }
    order.pollFirst();
    BlkEvent e = p.event;
    return TraceRecord.block(e.timeNs(), e.device(), e.op(), Math.max(0, e.sector()) * 512,
        e.lengthBytes(), p.latencyNs, e.line());
  }

  /** At the end of the trace: every waiting arrival becomes ready. */
  void finish() {
    for (Pending p : order) {
      if (!p.done) {
        p.done = true;
        unmatched++;
      }
    }
    waiting.clear();
  }

  /** How many arrivals were emitted without finding their completion. */
  long unmatched() {
    return unmatched;
  }

  /** How many arrivals are held (for tests of the bound). */
  int held() {
    return order.size();
  }
}
