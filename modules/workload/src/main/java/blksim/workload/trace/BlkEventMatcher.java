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
 * <p>With Q arrivals the matcher follows requests as blkparse's event stream shows them: each Q
 * starts a request covering its sectors; a back merge ({@code M}) of a queued bio extends the
 * request that ends where the bio starts, a front merge ({@code F}) the one that starts where it
 * ends, and the bio's Q joins that request; a C covers the sectors of its request (matched by its
 * start sector, preferring the same end), and every Q that joined it gets its own latency, from
 * its Q to that C. Still approximated: a merge whose request is not found (it began before the
 * trace) leaves the bio without latency; requeues, splits ({@code X}) and remaps ({@code A}) are
 * not followed, so a split bio's Q gets the latency to the first C that starts at its sector
 * (its first part's, not the last part's), and a C of a later part finds no Q; request-to-request merges (elevator merges after insertion, not in the default text)
 * are not seen. With D arrivals a C is matched by (device, sector, length) alone, and with C
 * arrivals there is no latency at all.
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
    /** The request this Q's bio is in (Q arrivals with data), or {@code null}. */
    Req req;

    Pending(BlkEvent event, Key key) {
      this.event = event;
      this.key = key;
    }
  }

  /** A request as the trace shows it: sectors [start, end) of a device and the Qs in it. */
  private static final class Req {
    final String device;
    long start;
    long end;
    final java.util.ArrayList<Pending> members = new java.util.ArrayList<>(1);

    Req(String device, long start, long end) {
      this.device = device;
      this.start = start;
      this.end = end;
    }
  }

  private record Pos(String device, long sector) {}

  /** Requests in flight by (device, start sector) and by (device, end sector), oldest first. */
  private final Map<Pos, ArrayDeque<Req>> byStart = new HashMap<>();
  private final Map<Pos, ArrayDeque<Req>> byEnd = new HashMap<>();

  private static void index(Map<Pos, ArrayDeque<Req>> m, Pos k, Req r) {
    m.computeIfAbsent(k, x -> new ArrayDeque<>()).addLast(r);
  }

  private static void unindex(Map<Pos, ArrayDeque<Req>> m, Pos k, Req r) {
    ArrayDeque<Req> q = m.get(k);
    if (q != null && q.remove(r) && q.isEmpty()) {
      m.remove(k);
    }
  }

  private void addReq(Req r) {
    index(byStart, new Pos(r.device, r.start), r);
    index(byEnd, new Pos(r.device, r.end), r);
  }

  private void removeReq(Req r) {
    unindex(byStart, new Pos(r.device, r.start), r);
    unindex(byEnd, new Pos(r.device, r.end), r);
  }

  /** The oldest request of {@code m} at {@code k} other than {@code not}, or {@code null}. */
  private static Req oldest(Map<Pos, ArrayDeque<Req>> m, Pos k, Req not) {
    ArrayDeque<Req> q = m.get(k);
    if (q != null) {
      for (Req r : q) {
        if (r != not) {
          return r;
        }
      }
    }
    return null;
  }

  /** A merge event: the bio's Q joins the request it was merged into. */
  private void merge(BlkEvent e) {
    Pending p = take(Key.of(e));
    if (p == null) {
      return;
    }
    Req own = p.req;
    long sectors = e.lengthBytes() / BlkEvent.SECTOR_BYTES;
    Req to = e.sector() < 0 ? null : e.action() == 'M'
        ? oldest(byEnd, new Pos(e.device(), e.sector()), own)
        : oldest(byStart, new Pos(e.device(), e.sector() + sectors), own);
    if (own != null) {
      own.members.remove(p);
      if (own.members.isEmpty()) {
        removeReq(own);
      }
    }
    if (to == null) {
      p.req = null;
      p.done = true; // its request began before the trace: no completion to match
      return;
    }
    removeReq(to);
    if (e.action() == 'M') {
      to.end = Math.max(to.end, e.sector() + sectors);
    } else {
      to.start = Math.min(to.start, e.sector());
    }
    addReq(to);
    to.members.add(p);
    p.req = to;
  }

  /** A C of a request this matcher follows: every Q in it gets its latency; false if none. */
  private boolean complete(BlkEvent e) {
    if (e.sector() < 0 || e.lengthBytes() == 0) {
      return false;
    }
    Pos k = new Pos(e.device(), e.sector());
    ArrayDeque<Req> q = byStart.get(k);
    if (q == null) {
      return false;
    }
    long end = e.sector() + e.lengthBytes() / BlkEvent.SECTOR_BYTES;
    Req r = null;
    for (Req c : q) {
      if (c.end == end) {
        r = c;
        break;
      }
    }
    if (r == null) {
      r = q.peekFirst();
    }
    removeReq(r);
    for (Pending p : r.members) {
      ArrayDeque<Pending> w = waiting.get(p.key);
      if (w != null && w.remove(p) && w.isEmpty()) {
        waiting.remove(p.key);
      }
      p.latencyNs = Math.max(0, e.timeNs() - p.event.timeNs());
      p.done = true;
      p.req = null;
    }
    return true;
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
        if (arrival == BlkArrival.Q && e.sector() >= 0 && e.lengthBytes() > 0) {
          p.req = new Req(e.device(), e.sector(),
              e.sector() + e.lengthBytes() / BlkEvent.SECTOR_BYTES);
          p.req.members.add(p);
          addReq(p.req);
        }
        if (order.size() >= maxInFlight) {
          giveUp(order.peekFirst());
        }
      }
      order.addLast(p);
    } else if (a == 'C' && arrival != BlkArrival.C) {
      if (arrival == BlkArrival.Q && complete(e)) {
        return;
      }
      Pending p = take(Key.of(e));
      if (p != null) {
        p.latencyNs = Math.max(0, e.timeNs() - p.event.timeNs());
        p.done = true;
        dropFromReq(p);
      }
    } else if ((a == 'M' || a == 'F') && arrival == BlkArrival.Q) {
      merge(e);
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
    dropFromReq(p);
    unmatched++;
  }

  /** Takes a Q no longer waited for out of its request. */
  private void dropFromReq(Pending p) {
    Req r = p.req;
    if (r != null) {
      p.req = null;
      r.members.remove(p);
      if (r.members.isEmpty()) {
        removeReq(r);
      }
    }
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
    byStart.clear();
    byEnd.clear();
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
