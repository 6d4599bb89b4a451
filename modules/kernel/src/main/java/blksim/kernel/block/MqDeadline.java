package blksim.kernel.block;

import java.util.BitSet;
import java.util.Comparator;
import java.util.TreeSet;

/**
 * The mq-deadline I/O scheduler (block/mq-deadline.c; the legacy {@code deadline} of 4.3 has the
 * same rules). Per direction (reads; writes and the rest), requests sit in a tree sorted by sector
 * ({@code sort_list}) and in a FIFO by deadline ({@code fifo_list}, {@code fifo_time} = insertion
 * + {@code read_expire} or {@code write_expire}).
 *
 * <p>Dispatch ({@code __dd_dispatch_request()}): while the current batch has fewer than
 * {@code fifo_batch} requests and a request lies at or after the end of the last one dispatched in
 * that direction ({@code deadline_next_request()} from {@code latest_pos}), take it. Otherwise
 * start a batch: reads first, unless writes wait and reads have already been preferred
 * {@code writes_starved} times ({@code dd->starved}); in the chosen direction take the FIFO's
 * head if its deadline has passed or no request lies ahead of the last position, else the next in
 * sector order.
 *
 * <p>Merges ({@code dd_bio_merge()} → {@code blk_mq_sched_try_merge()} → {@code elv_merge()}): a
 * bio back-merges into a request ending where it starts (the request hash), else front-merges
 * into one starting where it ends ({@code dd_request_merge()}, with {@code front_merges}); a
 * back merge then tries to absorb the next request in sector order ({@code attempt_back_merge()}),
 * a front merge to be absorbed by the previous one ({@code attempt_front_merge()}); a merged
 * request keeps the earlier deadline ({@code dd_merged_requests()}). An inserted request first
 * tries to back-merge into a queued one ({@code blk_mq_sched_try_insert_merge()}).
 *
 * <p>Zone write locking (a zoned device, kernels up to 6.9; zone write plugging replaced it in
 * 6.10): a write to a sequential zone is dispatched only if no other write to that zone is in
 * flight ({@code blk_req_can_dispatch_to_zone()}); dispatching it locks the zone
 * ({@code blk_req_zone_write_lock()}) and its completion unlocks it ({@code dd_finish_request()}),
 * after which the queue is run again. {@code deadline_next_request()} skips a locked write and the
 * sequential stream behind it ({@code deadline_skip_seq_writes()}, a rotational device);
 * {@code deadline_fifo_request()} takes the oldest write whose zone is free, or the first queued
 * write of that zone if one lies before it, and passes over a write that continues another queued
 * one. With only locked writes queued, dispatch returns nothing. Conventional zones, reads and
 * zone management commands are not locked.
 *
 * <p>I/O priority classes (Linux 5.14+, {@code struct dd_per_prio}): each class (RT, BE, IDLE;
 * {@code IOPRIO_CLASS_NONE} maps to BE, {@code ioprio_class_to_prio[]}) has its own sort trees,
 * FIFOs and {@code latest_pos}; {@code last_dir}, {@code batching} and {@code starved} are shared.
 * {@code dd_dispatch_request()} first lets a BE or IDLE request inserted more than
 * {@code prio_aging_expire} ago go ({@code dd_dispatch_prio_aged_requests()}, only when two classes
 * or more have requests, {@code started_after()}), then dispatches from the highest class, and
 * does not look at a lower class while a higher one has requests queued or in flight
 * ({@code dd_queued()} = inserted − completed). With every request in one class the dispatch is
 * exactly the single-level algorithm.
 *
 * <p>Simplified: no {@code dd->dispatch} list of requeued requests, zoned writes are not re-ordered
 * by position in the FIFO at insertion; zone locks are per class as the trees are.
 */
final class MqDeadline implements Elevator {
  private static final Comparator<Request> BY_SECTOR =
      Comparator.comparingLong(Request::sector).thenComparingLong(r -> r.insertSeq);
  private static final Comparator<Request> BY_DEADLINE =
      Comparator.<Request>comparingLong(r -> r.fifoTimeNs).thenComparingLong(r -> r.insertSeq);

  /** {@code DD_RT_PRIO}, {@code DD_BE_PRIO}, {@code DD_IDLE_PRIO}. */
  static final int DD_RT_PRIO = 0;
  static final int DD_BE_PRIO = 1;
  static final int DD_IDLE_PRIO = 2;

  /** {@code struct dd_per_prio}. */
  private static final class PerPrio {
    @SuppressWarnings("unchecked")
    final TreeSet<Request>[] sorted = new TreeSet[] {
        new TreeSet<>(BY_SECTOR), new TreeSet<>(BY_SECTOR)};
    @SuppressWarnings("unchecked")
    final TreeSet<Request>[] fifo = new TreeSet[] {
        new TreeSet<>(BY_DEADLINE), new TreeSet<>(BY_DEADLINE)};
    final long[] latestPos = new long[2];
    /** {@code dd_queued()}: inserted and not yet completed (queued or in flight). */
    int queued;
    /** Requests of this class dispatched ({@code stats.dispatched}). */
    long dispatched;
  }

  private final RequestQueue queue;
  private final MqDeadlineParams params;
  private final PerPrio[] perPrio = {new PerPrio(), new PerPrio(), new PerPrio()};
  /** Write-locked zones ({@code disk->seq_zones_wlock}), on a zoned device. */
  private final BitSet zoneWlock = new BitSet();
  private int lastDir;
  private int batching;
  private int starved;
  private long seq;

  MqDeadline(RequestQueue queue, MqDeadlineParams params) {
    this.queue = queue;
    this.params = params;
  }

  @Override
  public String name() {
    return "mq-deadline";
  }

  private static int dir(ReqOp op) {
    return op == ReqOp.READ ? 0 : 1;
  }

  /** {@code ioprio_class_to_prio[IOPRIO_PRIO_CLASS(ioprio)]}: NONE and BE are BE. */
  static int prio(int ioprio) {
    switch (Bio.ioprioClass(ioprio)) {
      case Bio.IOPRIO_CLASS_RT:
        return DD_RT_PRIO;
      case Bio.IOPRIO_CLASS_IDLE:
        return DD_IDLE_PRIO;
      default:
        return DD_BE_PRIO;
    }
  }

  /** Requests of class {@code prio} dispatched so far. */
  long dispatched(int prio) {
    return perPrio[prio].dispatched;
  }

  /** The request at {@code sector} or after it in direction {@code d}, or null. */
  private static Request atOrAfter(PerPrio pp, int d, long sector) {
    Request probe = probe(sector, Long.MIN_VALUE);
    return pp.sorted[d].ceiling(probe);
  }

  private static Request probe(long sector, long seq) {
    Request p = new Request(null, new Bio(ReqOp.READ, sector, 0, 0), null, null, 0);
    p.insertSeq = seq;
    return p;
  }

  /** {@code blk_req_needs_zone_write_lock()}: a write to a sequential zone of a zoned device. */
  private boolean needsZoneLock(Request rq) {
    ZoneGeometry z = queue.zones();
    return z != null && rq.op() == ReqOp.WRITE && z.sequential(rq.sector());
  }

  /** {@code blk_req_can_dispatch_to_zone()}. */
  private boolean canDispatchToZone(Request rq) {
    return !needsZoneLock(rq) || !zoneWlock.get(zoneIndex(rq));
  }

  private int zoneIndex(Request rq) {
    return Math.toIntExact(queue.zones().zoneNo(rq.sector()));
  }

  /** {@code deadline_next_request()}: the next in sector order from the last position. */
  private Request nextRequest(PerPrio pp, int d) {
    Request rq = atOrAfter(pp, d, pp.latestPos[d]);
    if (d == 0 || queue.zones() == null) {
      return rq;
    }
    while (rq != null && !canDispatchToZone(rq)) {
      rq = skipSeqWrites(pp, d, rq);
    }
    return rq;
  }

  /** {@code deadline_skip_seq_writes()}: the first request after the stream {@code rq} heads. */
  private Request skipSeqWrites(PerPrio pp, int d, Request rq) {
    long pos = rq.sector();
    do {
      pos += rq.bytes() >>> 9;
      rq = pp.sorted[d].higher(rq);
    } while (rq != null && rq.sector() == pos);
    return rq;
  }

  /** {@code deadline_fifo_request()}: by arrival order; for zoned writes, see the class. */
  private Request fifoRequest(PerPrio pp, int d) {
    if (pp.fifo[d].isEmpty()) {
      return null;
    }
    if (d == 0 || queue.zones() == null) {
      return pp.fifo[d].first();
    }
    ZoneGeometry z = queue.zones();
    for (Request rq : pp.fifo[d]) {
      Request cand = rq;
      if (needsZoneLock(rq)) {
        // deadline_from_pos() searches from the start of the zone: an earlier write of it first.
        Request first = atOrAfter(pp, d, z.zoneNo(rq.sector()) * z.zoneSectors());
        if (first != null && first.sector() < rq.sector()) {
          cand = first;
        }
      }
      if (canDispatchToZone(cand) && !continuesQueued(pp, d, cand)) {
        return cand;
      }
    }
    return null;
  }

  /** {@code deadline_is_seq_write()}: a queued request ends where {@code rq} starts. */
  private boolean continuesQueued(PerPrio pp, int d, Request rq) {
    Request prev = pp.sorted[d].lower(rq);
    return prev != null && prev.endSector() == rq.sector();
  }

  @Override
  public void finishRequest(Request rq) {
    if (needsZoneLock(rq)) {
      zoneWlock.clear(zoneIndex(rq));
    }
    // dd_finish_request(): only requests this elevator inserted count as completed.
    if (rq.ddPrio >= 0) {
      perPrio[rq.ddPrio].queued--;
      rq.ddPrio = -1;
    }
  }

  @Override
  public boolean bioMerge(Bio bio, BioEndIo endIo) {
    int d = dir(bio.op());
    PerPrio pp = perPrio[prio(bio.ioprio())];
    // Back merge: a request ending at bio.sector (elv_rqhash_find()).
    for (Request r : pp.sorted[d]) {
      if (r.endSector() == bio.sector() && r.mergeOk(bio, queue.maxBytes(), queue.maxSegments())) {
        r.backMerge(bio, endIo);
        queue.accountMerge(bio.op());
        Request next = pp.sorted[d].higher(r);
        if (next != null && r.requestMergeOk(next, queue.maxBytes(), queue.maxSegments())) {
          absorb(pp, d, r, next);
        }
        return true;
      }
    }
    if (!params.frontMerges()) {
      return false;
    }
    Request r = atOrAfter(pp, d, bio.sector() + bio.sectors());
    if (r != null && r.sector() == bio.sector() + bio.sectors()
        && r.mergeOk(bio, queue.maxBytes(), queue.maxSegments())) {
      pp.sorted[d].remove(r);
      r.frontMerge(bio, endIo);
      pp.sorted[d].add(r);
      queue.accountMerge(bio.op());
      Request prev = pp.sorted[d].lower(r);
      if (prev != null && prev.requestMergeOk(r, queue.maxBytes(), queue.maxSegments())) {
        absorb(pp, d, prev, r);
      }
      return true;
    }
    return false;
  }

  /** {@code attempt_merge()}: {@code into} takes {@code next}'s bios; {@code next} is freed. */
  private void absorb(PerPrio pp, int d, Request into, Request next) {
    pp.sorted[d].remove(next);
    pp.fifo[d].remove(next);
    pp.fifo[d].remove(into);
    into.absorb(next);
    pp.fifo[d].add(into);
    queue.accountMerge(into.op());
    if (next.ddPrio >= 0) {
      perPrio[next.ddPrio].queued--;
      next.ddPrio = -1;
    }
    queue.freeMerged(next);
  }

  @Override
  public boolean insert(Request rq, long now) {
    int d = dir(rq.op());
    int prio = prio(rq.ioprio());
    PerPrio pp = perPrio[prio];
    for (Request r : pp.sorted[d]) {
      if (r.requestMergeOk(rq, queue.maxBytes(), queue.maxSegments())) {
        pp.fifo[d].remove(r);
        r.absorb(rq);
        pp.fifo[d].add(r);
        queue.accountMerge(rq.op());
        return true;
      }
    }
    rq.insertSeq = seq++;
    rq.fifoTimeNs = now + expire(d);
    rq.ddPrio = prio;
    pp.queued++;
    pp.sorted[d].add(rq);
    pp.fifo[d].add(rq);
    return false;
  }

  private long expire(int d) {
    return d == 0 ? params.readExpireNs() : params.writeExpireNs();
  }

  @Override
  public Request dispatch(long now) {
    // dd_dispatch_prio_aged_requests()
    int classes = 0;
    for (PerPrio pp : perPrio) {
      classes += pp.queued > 0 ? 1 : 0;
    }
    if (classes >= 2) {
      for (int prio = DD_BE_PRIO; prio <= DD_IDLE_PRIO; prio++) {
        Request rq = dispatch(perPrio[prio], now, now - params.prioAgingExpireNs());
        if (rq != null) {
          return rq;
        }
      }
    }
    // Highest class first; a lower class waits while a higher one has requests.
    for (PerPrio pp : perPrio) {
      Request rq = dispatch(pp, now, Long.MAX_VALUE);
      if (rq != null || pp.queued > 0) {
        return rq;
      }
    }
    return null;
  }

  /** {@code __dd_dispatch_request()}: none if the chosen request started after {@code latestStart}. */
  private Request dispatch(PerPrio pp, long now, long latestStart) {
    Request rq = nextRequest(pp, lastDir);
    int d;
    if (rq != null && batching < params.fifoBatch()) {
      d = lastDir;
    } else {
      boolean reads = !pp.fifo[0].isEmpty();
      boolean writes = !pp.fifo[1].isEmpty();
      if (reads) {
        // A write that could be dispatched (deadline_fifo_request()) may starve reads.
        if (writes && fifoRequest(pp, 1) != null && starved++ >= params.writesStarved()) {
          d = 1;
          starved = 0;
        } else {
          d = 0;
        }
      } else if (writes) {
        d = 1;
        starved = 0;
      } else {
        return null;
      }
      Request next = nextRequest(pp, d);
      boolean expired = pp.fifo[d].first().fifoTimeNs <= now;
      rq = next == null || expired ? fifoRequest(pp, d) : next;
      if (rq == null) {
        // Only writes to locked zones are queued.
        return null;
      }
      batching = 0;
      lastDir = d;
    }
    // started_after(): rq's start time is fifo_time - fifo_expire[dir].
    if (latestStart != Long.MAX_VALUE && rq.fifoTimeNs - expire(d) > latestStart) {
      return null;
    }
    batching++;
    pp.sorted[d].remove(rq);
    pp.fifo[d].remove(rq);
    pp.latestPos[d] = rq.endSector();
    pp.dispatched++;
    if (needsZoneLock(rq)) {
      zoneWlock.set(zoneIndex(rq));
    }
    return rq;
  }

  @Override
  public int queued() {
    int n = 0;
    for (PerPrio pp : perPrio) {
      n += pp.sorted[0].size() + pp.sorted[1].size();
    }
    return n;
  }
}
