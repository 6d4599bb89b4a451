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
 * its Q to that C.
 *
 * <p>Splits ({@code X}, {@code trace_block_split()}: the bio's start sector and the sector where
 * its second part starts) are followed with Q arrivals: the newest request starting at the split
 * sector and reaching past the new sector is cut there, each Q in it going with the part(s) its
 * own sectors overlap, so a split Q is in several requests at once. The kernel traces the parts
 * without a new Q (the remainder is resubmitted with {@code BIO_TRACE_COMPLETION} set) and each
 * part completes on its own at its start sector; a Q is done when the last of its parts has
 * completed, and its latency runs to that C (what a caller waiting for the whole bio sees). A part
 * split again is cut again; a part merged into another request ({@code M}/{@code F} of exactly
 * its sectors, when no waiting Q has that key) moves its Qs into that request; a C longer than
 * the part found at its sector also completes the following parts of the same split. An
 * {@code X} whose request is not found (its Q came before the trace) is counted
 * ({@link #splitsNotFound()}) and otherwise ignored.
 *
 * <p>Still approximated: a merge whose request is not found (it began before the trace) leaves
 * the bio without latency; requeues and remaps ({@code A}) are not followed; kernels before 4.12
 * traced a second Q for a split's remainder, which is taken here as a new bio; request-to-request
 * merges (elevator merges after insertion, not in the default text) are not seen. With D arrivals a C is matched by (device, sector, length) alone, and with C
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
  private long splitsFollowed;
  private long splitsNotFound;

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
    /** The request this Q's bio is in (Q arrivals with data, not split), or {@code null}. */
    Req req;
    /** After a split: every request holding a part of this Q's bio ({@link #req} is null). */
    java.util.ArrayList<Req> parts;

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
    /** Whether an {@code X} made it (a part of a split bio, or the front part cut down). */
    boolean split;
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

  /** Records that {@code p}'s bio (or a part of it) is in {@code r}; r's members are not touched. */
  private static void addPart(Pending p, Req r) {
    if (p.parts != null) {
      if (!p.parts.contains(r)) {
        p.parts.add(r);
      }
    } else if (p.req == null) {
      p.req = r;
    } else if (p.req != r) {
      p.parts = new java.util.ArrayList<>(2);
      p.parts.add(p.req);
      p.parts.add(r);
      p.req = null;
    }
  }

  /** Records that {@code r} no longer holds a part of {@code p}; true if no part is left. */
  private static boolean removePart(Pending p, Req r) {
    if (p.parts != null) {
      p.parts.remove(r);
      return p.parts.isEmpty();
    }
    if (p.req == r) {
      p.req = null;
    }
    return p.req == null;
  }

  /** Takes {@code p} out of every request it is in, dropping requests left empty. */
  private void leaveAll(Pending p) {
    if (p.parts != null) {
      for (Req r : p.parts) {
        leave(p, r);
      }
      p.parts = null;
    } else if (p.req != null) {
      leave(p, p.req);
      p.req = null;
    }
  }

  private void leave(Pending p, Req r) {
    r.members.remove(p);
    if (r.members.isEmpty()) {
      removeReq(r);
    }
  }

  /** Grows {@code to} by the merged sectors of {@code e} and re-indexes it. */
  private void grow(Req to, BlkEvent e, long sectors) {
    removeReq(to);
    if (e.action() == 'M') {
      to.end = Math.max(to.end, e.sector() + sectors);
    } else {
      to.start = Math.min(to.start, e.sector());
    }
    addReq(to);
  }

  /** A merge event: the bio's Q (or a split bio's part) joins the request it was merged into. */
  private void merge(BlkEvent e) {
    Pending p = take(Key.of(e));
    if (p == null) {
      mergePart(e);
      return;
    }
    Req own = p.req;
    long sectors = e.lengthBytes() / BlkEvent.SECTOR_BYTES;
    Req to = e.sector() < 0 ? null : e.action() == 'M'
        ? oldest(byEnd, new Pos(e.device(), e.sector()), own)
        : oldest(byStart, new Pos(e.device(), e.sector() + sectors), own);
    leaveAll(p);
    if (to == null) {
      p.done = true; // its request began before the trace: no completion to match
      return;
    }
    grow(to, e, sectors);
    to.members.add(p);
    p.req = to;
  }

  /** A merge of exactly a split part's sectors: the part's Qs join the request it went into. */
  private void mergePart(BlkEvent e) {
    if (e.sector() < 0 || e.lengthBytes() == 0) {
      return;
    }
    long sectors = e.lengthBytes() / BlkEvent.SECTOR_BYTES;
    ArrayDeque<Req> q = byStart.get(new Pos(e.device(), e.sector()));
    Req part = null;
    if (q != null) {
      for (Req r : q) {
        if (r.split && r.end == e.sector() + sectors) {
          part = r;
          break;
        }
      }
    }
    if (part == null) {
      return;
    }
    Req to = e.action() == 'M'
        ? oldest(byEnd, new Pos(e.device(), e.sector()), part)
        : oldest(byStart, new Pos(e.device(), e.sector() + sectors), part);
    removeReq(part);
    if (to != null) {
      grow(to, e, sectors);
    }
    for (Pending p : part.members) {
      removePart(p, part);
      if (to != null) {
        if (!to.members.contains(p)) {
          to.members.add(p);
          addPart(p, to);
        }
      } else if (!p.done) {
        // its request began before the trace: this part's C is not known, so neither is the Q's
        unwait(p);
        leaveAll(p);
        p.latencyNs = TraceRecord.NO_LATENCY;
        p.done = true;
      }
    }
  }

  /**
   * A split ({@code X}): the request holding the bio is cut at the sector where the second part
   * starts, and each Q in it goes with the part(s) its own sectors overlap.
   */
  private void split(BlkEvent e) {
    long cut = e.sector() + e.lengthBytes() / BlkEvent.SECTOR_BYTES;
    ArrayDeque<Req> q = byStart.get(new Pos(e.device(), e.sector()));
    Req r = null;
    if (q != null) {
      for (java.util.Iterator<Req> it = q.descendingIterator(); it.hasNext(); ) {
        Req c = it.next();
        if (c.end > cut) {
          r = c;
          break;
        }
      }
    }
    if (r == null) {
      splitsNotFound++;
      return;
    }
    splitsFollowed++;
    Req rest = new Req(r.device, cut, r.end);
    rest.split = true;
    removeReq(r);
    r.end = cut;
    r.split = true;
    for (java.util.Iterator<Pending> it = r.members.iterator(); it.hasNext(); ) {
      Pending p = it.next();
      long start = p.event.sector();
      long end = start + p.event.lengthBytes() / BlkEvent.SECTOR_BYTES;
      if (end > cut) {
        rest.members.add(p);
        addPart(p, rest);
        if (start >= cut) {
          it.remove();
          removePart(p, r);
        }
      }
    }
    if (!r.members.isEmpty()) {
      addReq(r);
    }
    if (!rest.members.isEmpty()) {
      addReq(rest);
    }
  }

  /** Removes {@code p} from the waiting arrivals of its key. */
  private void unwait(Pending p) {
    ArrayDeque<Pending> w = waiting.get(p.key);
    if (w != null && w.remove(p) && w.isEmpty()) {
      waiting.remove(p.key);
    }
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
    while (r != null) {
      completeReq(r, e.timeNs());
      // A C longer than a split part (a trace that completed the bio whole) also completes the
      // following parts of the same split, those sharing a Q with the part just completed.
      Req next = r.split && r.end < end ? nextPart(r) : null;
      r = next;
    }
    return true;
  }

  /** The split part starting where {@code r} ends and sharing a Q with it, or {@code null}. */
  private Req nextPart(Req r) {
    ArrayDeque<Req> q = byStart.get(new Pos(r.device, r.end));
    if (q != null) {
      for (Req c : q) {
        if (c.split) {
          for (Pending p : c.members) {
            if (r.members.contains(p)) {
              return c;
            }
          }
        }
      }
    }
    return null;
  }

  /** {@code r} completed at {@code timeNs}: each Q in it whose last part this was is done. */
  private void completeReq(Req r, long timeNs) {
    removeReq(r);
    for (Pending p : r.members) {
      long l = Math.max(0, timeNs - p.event.timeNs());
      if (p.latencyNs == TraceRecord.NO_LATENCY || l > p.latencyNs) {
        p.latencyNs = l; // the last part's C, for a split bio
      }
      if (removePart(p, r)) {
        unwait(p);
        p.done = true;
        p.parts = null;
      }
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
        leaveAll(p);
      }
    } else if ((a == 'M' || a == 'F') && arrival == BlkArrival.Q) {
      merge(e);
    } else if (a == 'X' && arrival == BlkArrival.Q) {
      split(e);
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
    leaveAll(p);
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
    byStart.clear();
    byEnd.clear();
  }

  /** How many arrivals were emitted without finding their completion. */
  long unmatched() {
    return unmatched;
  }

  /** How many splits ({@code X}) cut a followed request. */
  long splitsFollowed() {
    return splitsFollowed;
  }

  /** How many splits found no request at their sector (their Q came before the trace). */
  long splitsNotFound() {
    return splitsNotFound;
  }

  /** The end-of-trace notice about splits, or {@code null} when the trace had none followed. */
  String splitNotice(String file) {
    if (splitsFollowed == 0 && splitsNotFound == 0) {
      return null;
    }
    return file + ": " + splitsFollowed + " split (X) event" + (splitsFollowed == 1 ? "" : "s")
        + " followed (a split Q's recorded latency runs to the C of its last part)"
        + (splitsNotFound == 0 ? "" : "; " + splitsNotFound + " found no queued bio at their"
        + " sector (queued before the trace) and were ignored");
  }

  /** How many arrivals are held (for tests of the bound). */
  int held() {
    return order.size();
  }
}
