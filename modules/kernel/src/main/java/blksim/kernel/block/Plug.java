package blksim.kernel.block;

import java.util.ArrayList;
import java.util.List;

/**
 * A task's plug ({@code struct blk_plug}, kernel-model.md §5.4, §15.4.1): requests created while
 * it is held collect here instead of going to their queues, and contiguous bios merge into them.
 * The task owns it: the scheduler side keeps one per task ({@code current->plug}) and passes it
 * to {@link BlockQueue#issue(Bio, BioEndIo, Runnable, Plug)}.
 *
 * <p>Nesting ({@code blk_start_plug()}, {@code blk_finish_plug()} in {@code block/blk-core.c}):
 * {@link #start} does nothing but count if the plug is already held, and only the outermost
 * {@link #finish} flushes. Flushes:
 * <ul>
 *   <li>explicit, {@link #flush flush(false)} ({@code blk_finish_plug()},
 *       {@code blk_flush_plug(plug, false)}): the requests are inserted and the queues run in the
 *       caller's context;</li>
 *   <li>from schedule, {@link #flush flush(true)} ({@code sched_submit_work()} →
 *       {@code blk_flush_plug(plug, true)} when the task goes to sleep): inserted, and the queue
 *       runs deferred to kblockd ({@link Kblockd});</li>
 *   <li>when one more request is added to a full plug ({@link BlkMqRules#maxRequestCount}, or a
 *       last request of at least {@link BlkMqRules#plugFlushSizeBytes}): explicit, before the new
 *       request is added ({@code blk_add_rq_to_plug()}, 4.3's {@code blk_queue_bio()}).</li>
 * </ul>
 * Preemption and {@code cond_resched()} never flush (commit 6631e635c65d): nothing here is
 * called for them.
 *
 * <p>The hook the scheduler side adds, in {@code Task} (mirrors {@code sched_submit_work()}):
 * <pre>{@code
 *   // the task blocks (not on preemption, not in cond_resched):
 *   if (plug != null) plug.flush(true);
 * }</pre>
 * For 4.3's {@code io_schedule()}, which flushed synchronously, the caller uses
 * {@code plug.flush(false)} there instead.
 *
 * <p>Simplified: the plug's callbacks ({@code blk_check_plugged()}, used by md and dm) and its
 * cached requests are not modelled.
 */
public final class Plug {
  private final BlkMqRules rules;
  private final List<Request> requests = new ArrayList<>();
  private int depth;
  /** The CPU the owning task last submitted on through this plug. */
  private DriverCpu cpu;
  private boolean multipleQueues;
  private long flushes;
  private long flushesFromSchedule;
  private long flushesAtLimit;

  /** A plug not held yet, following {@code rules}. */
  public Plug(BlkMqRules rules) {
    this.rules = rules;
  }

  /**
   * {@code blk_start_plug()}: returns true if this call made the plug active (the outermost),
   * false if it was already held (a nested plug, which does nothing).
   */
  public boolean start() {
    return depth++ == 0;
  }

  /**
   * {@code blk_finish_plug()}: the outermost call flushes (explicitly) and releases the plug; an
   * inner one only ends its nesting level.
   */
  public void finish() {
    if (depth == 0) {
      throw new IllegalStateException("blk_finish_plug() without blk_start_plug()");
    }
    if (--depth == 0) {
      flush(false);
    }
  }

  /** Whether the plug is held ({@code current->plug != NULL}). */
  public boolean active() {
    return depth > 0;
  }

  /** Requests in the plug ({@code plug->rq_count}). */
  public int count() {
    return requests.size();
  }

  /** The requests in the plug, oldest first. */
  public List<Request> requests() {
    return List.copyOf(requests);
  }

  /**
   * {@code blk_flush_plug(plug, fromSchedule)}: hands every request to its queue, in order, then
   * runs each queue, at once ({@code fromSchedule} false) or through kblockd (true). Nothing
   * happens if the plug is empty. The flushing task's CPU is the one it last submitted on
   * through this plug; use {@link #flush(DriverCpu, boolean)} if it may have moved since.
   */
  public void flush(boolean fromSchedule) {
    flush(cpu, fromSchedule);
  }

  /** {@link #flush(boolean)} by a task now on {@code onCpu}. */
  public void flush(DriverCpu onCpu, boolean fromSchedule) {
    if (requests.isEmpty()) {
      return;
    }
    flushes++;
    if (fromSchedule) {
      flushesFromSchedule++;
    }
    List<Request> list = new ArrayList<>(requests);
    requests.clear();
    multipleQueues = false;
    // blk_mq_flush_plug_list(): per queue, insert its requests, then run it.
    List<RequestQueue> order = new ArrayList<>();
    for (Request r : list) {
      if (!order.contains(r.queue())) {
        order.add(r.queue());
      }
    }
    for (RequestQueue q : order) {
      List<Request> mine = new ArrayList<>();
      for (Request r : list) {
        if (r.queue() == q) {
          mine.add(r);
        }
      }
      q.insertFromPlug(onCpu, mine, fromSchedule);
    }
  }

  /** Flushes so far (non-empty ones), of them from schedule, and at the count or size limit. */
  public long flushes() {
    return flushes;
  }

  /** Flushes from schedule so far. */
  public long flushesFromSchedule() {
    return flushesFromSchedule;
  }

  /** Flushes because the plug was full. */
  public long flushesAtLimit() {
    return flushesAtLimit;
  }

  /**
   * {@code blk_attempt_plug_merge()}: merges {@code bio} into a request of {@code q} in the plug,
   * back or front; the newest request only, or all newest first (4.3).
   */
  boolean attemptMerge(RequestQueue q, Bio bio, BioEndIo endIo) {
    for (int i = requests.size() - 1; i >= 0; i--) {
      Request r = requests.get(i);
      if (r.queue() == q && q.tryBioMerge(r, bio, endIo)) {
        return true;
      }
      if (!rules.plugMergeWholeList()) {
        return false;
      }
    }
    return false;
  }

  /** The owning task submits on {@code c} now. */
  void onCpu(DriverCpu c) {
    cpu = c;
  }

  /** {@code blk_add_rq_to_plug()}: flushes first if the plug is full, then adds {@code rq}. */
  void add(Request rq) {
    if (!requests.isEmpty()) {
      Request last = requests.get(requests.size() - 1);
      int max = rules.maxRequestCount()
          * (multipleQueues && rules.doubleForMultipleQueues() ? 2 : 1);
      if (requests.size() >= max
          || (rules.plugFlushSizeBytes() > 0 && last.bytes() >= rules.plugFlushSizeBytes())) {
        flushesAtLimit++;
        flush(false);
      } else if (last.queue() != rq.queue()) {
        multipleQueues = true;
      }
    }
    if (requests.isEmpty()) {
      rq.queue().tracePlug(cpu);
    }
    requests.add(rq);
  }
}
