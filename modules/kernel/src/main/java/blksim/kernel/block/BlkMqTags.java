package blksim.kernel.block;

import java.util.ArrayDeque;

/**
 * A driver tag map shared by several users ({@code struct blk_mq_tags} of a tag set that more
 * than one hardware context uses): null_blk's {@code shared_tags} (one {@code blk_mq_tag_set}
 * for every null_blk device, so hardware queue {@code i} of each device draws from
 * {@code set->tags[i]}) and the host-wide tags of {@code BLK_MQ_F_TAG_HCTX_SHARED}
 * ({@code set->shared_tags}: every hardware queue of a device draws from one map; null_blk's
 * {@code shared_tag_bitmap}, SCSI's {@code host_tagset}). Kernel: block/blk-mq-tag.c,
 * block/blk-mq.h and block/blk-timeout.c of 6.x; 4.x has the same fair-share rule under the
 * name {@code BLK_MQ_F_TAG_SHARED}, so every {@code kernel.mode} uses it.
 *
 * <p>Fair sharing ({@code hctx_may_queue()}): only when the tag set is used by more than one
 * request queue ({@code BLK_MQ_F_TAG_QUEUE_SHARED}, set by {@code blk_mq_add_queue_tag_set()}
 * when the second queue joins; {@link #queueShared}) and the tag depth is above 1, a
 * {@link Sharer} that is active may hold at most
 * {@code max((depth + users - 1) / users, 4)} tags, where {@code users} is
 * {@code tags->active_queues}. A sharer is a hardware context, or with host-wide tags the whole
 * request queue ({@code QUEUE_FLAG_HCTX_ACTIVE}, {@code q->nr_active_requests_shared_tags}).
 * A sharer becomes active when it allocates ({@code blk_mq_tag_busy()}) and idle
 * ({@code blk_mq_tag_idle()}, which wakes every tag waiter) only from
 * {@code blk_mq_timeout_work()} once it has no request in flight: the queue's timeout timer is
 * armed at most {@code BLK_MAX_TIMEOUT} (5 s) ahead ({@code blk_rq_timeout()}), so a sharer
 * that stopped submitting keeps its share for up to about 5 s.
 *
 * <p>Tag wait: a submitter that finds no tag it may take (none free, or over its fair share)
 * sleeps on the map's sbitmap wait queue; each freed tag wakes the first sleeper
 * ({@code sbitmap_queue_clear()} → {@code sbitmap_queue_wake_up()}), which retries and sleeps
 * again, at the tail, if it still may not queue. A hardware context whose dispatch found no
 * driver tag (with a scheduler, {@code blk_mq_mark_tag_wait()}) is re-run through kblockd when
 * one is freed ({@code blk_mq_dispatch_wake()}).
 *
 * <p>Simplified: sbitmap's eight wait queues and its wake batch ({@code wake_batch}, up to 8
 * frees per wakeup) are one FIFO woken per free, as blksim's unshared tags always were; the
 * queue's timeout timer is one per sharer, re-armed 5 s ahead at each expiry that finds
 * requests in flight (the kernel re-arms it at the oldest request's deadline and pulls it in at
 * each new request); reserved tags are not modelled.
 *
 * <p>Partitions: the map is touched directly by every CPU of its sharers. With one hardware
 * queue per CPU, {@code shared_tags} shares {@code tags[i]} between the devices' queue {@code i}
 * only, all on CPU {@code i}, so any partitioning is exact; host-wide tags are touched by every
 * CPU and need one partition (the scenario loader says so).
 */
public final class BlkMqTags {
  /** {@code BLK_MAX_TIMEOUT}: the queue timeout timer fires at most this far ahead, ns. */
  public static final long BLK_MAX_TIMEOUT_NS = 5_000_000_000L;

  private final String name;
  private final int depth;
  private boolean queueShared;
  private int inUse;
  private int activeQueues;
  private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
  private final ArrayDeque<RequestQueue> dispatchWaiters = new ArrayDeque<>();
  private long waits;
  private long fairShareRefusals;

  /** A sleeper on the sbitmap wait queue. */
  record Waiter(RequestQueue queue, DriverCpu cpu, Runnable wake, long sinceNs) {}

  /**
   * One user of the map whose active state and requests fair sharing counts: a hardware context,
   * or with host-wide tags a request queue.
   */
  public static final class Sharer {
    private final BlkMqTags tags;
    private boolean active;
    private int nrActive;
    private boolean timerArmed;

    Sharer(BlkMqTags tags) {
      this.tags = tags;
    }

    /** The map it draws from. */
    public BlkMqTags tags() {
      return tags;
    }

    /** {@code BLK_MQ_S_TAG_ACTIVE} (or {@code QUEUE_FLAG_HCTX_ACTIVE}). */
    public boolean active() {
      return active;
    }

    /** Driver tags it holds ({@code __blk_mq_active_requests()}). */
    public int nrActive() {
      return nrActive;
    }
  }

  /**
   * A map of {@code depth} tags named {@code name} (for messages and statistics).
   */
  public BlkMqTags(String name, int depth) {
    if (depth < 1) {
      throw new IllegalArgumentException("tag depth must be >= 1, was " + depth);
    }
    this.name = name;
    this.depth = depth;
  }

  /** A new user of this map. */
  public Sharer newSharer() {
    return new Sharer(this);
  }

  /**
   * Marks the tag set as used by more than one request queue ({@code BLK_MQ_F_TAG_QUEUE_SHARED},
   * {@code blk_mq_update_tag_set_shared()}); before the run.
   */
  public BlkMqTags queueShared(boolean shared) {
    this.queueShared = shared;
    return this;
  }

  /** Whether fair sharing applies ({@code BLK_MQ_F_TAG_QUEUE_SHARED}). */
  public boolean queueShared() {
    return queueShared;
  }

  /** The name. */
  public String name() {
    return name;
  }

  /** {@code nr_tags}. */
  public int depth() {
    return depth;
  }

  /** Tags in use. */
  public int inUse() {
    return inUse;
  }

  /** {@code tags->active_queues}. */
  public int activeQueues() {
    return activeQueues;
  }

  /** Sleepers on the wait queue. */
  public int waiters() {
    return waiters.size();
  }

  /** Sleeps on the wait queue so far. */
  public long waits() {
    return waits;
  }

  /** Allocations refused although a tag was free (over the fair share). */
  public long fairShareRefusals() {
    return fairShareRefusals;
  }

  /**
   * The most tags an active sharer may hold: {@code max(ceil(depth / users), 4)}, or the depth
   * when fair sharing does not apply.
   */
  public int fairShare() {
    if (!queueShared || depth == 1 || activeQueues == 0) {
      return depth;
    }
    return Math.max((depth + activeQueues - 1) / activeQueues, 4);
  }

  /** {@code hctx_may_queue()}. */
  public boolean mayQueue(Sharer s) {
    if (!queueShared || depth == 1 || !s.active) {
      return true;
    }
    return s.nrActive < fairShare();
  }

  /**
   * {@code blk_mq_tag_busy()}: the sharer becomes active if the set is shared; arms its idle
   * check on {@code cpu} (the queue's timeout timer).
   */
  void busy(Sharer s, DriverCpu cpu) {
    if (!queueShared || s.active) {
      return;
    }
    s.active = true;
    activeQueues++;
    if (!s.timerArmed) {
      s.timerArmed = true;
      cpu.callAfter(BLK_MAX_TIMEOUT_NS, () -> timeout(s, cpu));
    }
  }

  /** {@code blk_mq_timeout_work()}: idle the sharer if nothing is in flight, else re-arm. */
  private void timeout(Sharer s, DriverCpu cpu) {
    if (s.nrActive > 0) {
      cpu.callAfter(BLK_MAX_TIMEOUT_NS, () -> timeout(s, cpu));
      return;
    }
    s.timerArmed = false;
    if (s.active) {
      // __blk_mq_tag_idle(): fewer users, a larger share for the others: wake every sleeper.
      s.active = false;
      activeQueues--;
      wakeAll(cpu);
    }
  }

  /**
   * Takes a tag for {@code s} ({@code blk_mq_tag_busy()} then {@code __blk_mq_get_tag()}), or
   * returns false if none may be taken.
   */
  boolean tryGet(Sharer s, DriverCpu cpu) {
    busy(s, cpu);
    if (inUse == depth) {
      return false;
    }
    if (!mayQueue(s)) {
      fairShareRefusals++;
      return false;
    }
    inUse++;
    s.nrActive++;
    return true;
  }

  /**
   * {@code __blk_mq_alloc_driver_tag()} before the bit is taken: {@code blk_mq_tag_busy()}, then
   * whether a tag may be taken now (without taking it).
   */
  boolean canGet(Sharer s, DriverCpu cpu) {
    busy(s, cpu);
    if (inUse == depth) {
      return false;
    }
    if (!mayQueue(s)) {
      fairShareRefusals++;
      return false;
    }
    return true;
  }

  /** Takes a tag {@link #canGet} allowed. */
  void take(Sharer s) {
    inUse++;
    s.nrActive++;
  }

  /** Sleeps {@code wake} on the wait queue ({@code bt_wait_ptr()}, {@code io_schedule()}). */
  void sleep(RequestQueue q, DriverCpu cpu, Runnable wake) {
    waits++;
    waiters.add(new Waiter(q, cpu, wake, cpu.now()));
  }

  /** A hardware context found no driver tag to dispatch with: re-run it when one is freed. */
  void waitDispatch(RequestQueue q) {
    if (!dispatchWaiters.contains(q)) {
      dispatchWaiters.add(q);
    }
  }

  /**
   * {@code blk_mq_put_tag()} on {@code cpu}: the tag is free again, the first sleeper is woken
   * (inline if it sleeps on {@code cpu} and {@code inlineLocal}), a context waiting to dispatch
   * is re-run.
   */
  void put(Sharer s, DriverCpu cpu, boolean inlineLocal) {
    free(s);
    wakeAfterFree(cpu, inlineLocal);
  }

  /** The tag {@code s} held is free again (the bit cleared). */
  void free(Sharer s) {
    inUse--;
    s.nrActive--;
  }

  /**
   * The wakeups of a {@link #free} on {@code cpu}: a context waiting to dispatch is re-run, the
   * first sleeper woken (inline if it sleeps on {@code cpu} and {@code inlineLocal}).
   */
  void wakeAfterFree(DriverCpu cpu, boolean inlineLocal) {
    RequestQueue d = dispatchWaiters.poll();
    if (d != null) {
      d.runAsyncFromTags(cpu);
    }
    Waiter w = waiters.poll();
    if (w != null) {
      wake(w, cpu, inlineLocal);
    }
  }

  private void wake(Waiter w, DriverCpu freeing, boolean inlineLocal) {
    w.queue().tagWaitEnded(freeing.now() - w.sinceNs());
    if (inlineLocal && w.cpu() == freeing) {
      w.wake().run();
    } else {
      w.cpu().callAfter(0, w.wake());
    }
  }

  /** {@code blk_mq_tag_wakeup_all()}. */
  private void wakeAll(DriverCpu cpu) {
    while (!dispatchWaiters.isEmpty()) {
      dispatchWaiters.poll().runAsyncFromTags(cpu);
    }
    ArrayDeque<Waiter> all = new ArrayDeque<>(waiters);
    waiters.clear();
    for (Waiter w : all) {
      wake(w, cpu, false);
    }
  }

  @Override
  public String toString() {
    return name + "[" + inUse + "/" + depth + ", active_queues " + activeQueues + "]";
  }
}
