package blksim.kernel.block;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The request queue of a request-based device ({@code struct request_queue} with one hardware
 * context): ONE per device, shared by every CPU, as a SATA disk has one hardware queue
 * (kernel-model.md §5.3). Each CPU submits through its {@link #attach view}, a
 * {@link BlockQueue}.
 *
 * <p>Submission ({@code blk_mq_submit_bio()}): a bio first tries to merge into the submitting
 * task's {@link Plug} ({@code blk_attempt_plug_merge()}), then into a request waiting in the
 * scheduler ({@code blk_mq_sched_bio_merge()}); otherwise a request is allocated with a scheduler
 * tag ({@code nr_requests} of them). With none free the submitter sleeps until a request is freed
 * (the {@link BlockQueue#issue} protocol: false now, {@code onTagFree} later, first come first
 * served; {@code blk_mq_get_tag()} flushes the plug from schedule before it sleeps), and a
 * REQ_NOWAIT bio ends at once with -EAGAIN. The new request goes into the plug if one is held,
 * else into the scheduler, and the queue is run: at once, or through {@link Kblockd} when the
 * kernel's rules say so ({@link BlkMqRules#elevatorSubmitRunsAsync}).
 *
 * <p>Running the queue ({@code blk_mq_run_hw_queue()} → {@code blk_mq_sched_dispatch_requests()}):
 * while a driver tag is free ({@code queue_depth} of them), take the scheduler's next request and
 * hand it to the {@link MqDriver}. At the hardware completion the driver calls
 * {@link #hardwareDone}; the completion interrupt ({@code completionCostNs}) runs on the CPU that
 * submitted the request, where its bios end in order, its tags are freed, one tag waiter is
 * woken per freed request, and the queue is re-run if requests wait (through kblockd or at once,
 * {@link BlkMqRules#restartRunsAsync}). Without a scheduler, {@code nr_requests} equals the driver
 * tags, so a request holds its driver tag from allocation as in the kernel.
 *
 * <p>Bio splitting ({@code bio_split_to_limits()}, on by default, {@link #bioSplit(boolean)}): a
 * read or write larger than the limits is split before the merge attempts, as
 * {@code blk_mq_submit_bio()} does: at {@code max_sectors} aligned as {@code get_max_io_size()}
 * aligns it, at the zone end of a zoned device ({@code chunk_sectors}), and at
 * {@code max_segments} 4 KiB pages ({@link #splitBytes}). The pieces go in order, each through
 * the whole path (merges, wbt, a tag, the scheduler: mq-deadline's zone write lock applies per
 * piece); the front pieces are REQ_NOMERGE; the parent's end_io runs once, after the last piece,
 * with the first error ({@code bio_chain()}); a REQ_NOWAIT bio that needs a split ends at once
 * with -EAGAIN ({@code bio_split_rw_at()}, 5.15.y and 6.x). A piece that must wait for a tag
 * makes the submitter sleep as any bio does ({@code false}); the pieces already submitted stay
 * submitted and the retry, with the same {@code Bio} object, goes on from the waiting piece.
 * The submission cost's fixed part is paid once per piece ({@link BlockQueue#submitCostNs}).
 * Simplified: the physical block size is the logical one; segments are the 4 KiB pages of the
 * device range (no {@code max_segment_size}, segment-boundary or virt-boundary rules); REQ_POLLED
 * is kept on the pieces (the kernel clears it on a split bio); discard and write-zeroes limits
 * are not modelled; the parent bio's completion is not traced, each piece's request is (and an
 * X for each split).
 *
 * <p>One instance is one hardware context's queue ({@link HwCtx}): a device with one hardware
 * queue (a SATA {@code disk} or {@code ssd}) has one, a null_blk device has one per
 * {@code submit_queues}. Its scheduler state is per instance; the kernel's elevator is per
 * {@code request_queue}, shared by all hardware contexts (simplified; see {@link HwCtx}).
 *
 * <p>Partitions: the queue is called directly from every CPU mapped to it, which is safe only
 * because the scenario loader refuses partitionings that put those CPUs in different partitions
 * (as it does for LLC wake placement); a queue mapped to one CPU alone is touched only there.
 *
 * <p>Statistics: the whole disk's {@link DiskCounters} belong to the first CPU's view, the others
 * report empty counters, so the disk's busy time is measured once, as the kernel does (a device
 * with several hardware contexts sums theirs per CPU). Simplified: no BUSY/RESOURCE returns from the driver; no flush state machine
 * ({@code blk_insert_flush()}: a FLUSH is a request like the others); requests are accounted from
 * allocation to completion.
 */
public final class RequestQueue {
  private final RequestQueueParams params;
  private final Elevator elevator;
  private final MqDriver driver;
  private final Kblockd kblockd;
  private final DiskCounters counters;
  private final ArrayDeque<Waiter> tagWaiters = new ArrayDeque<>();
  private final Map<Integer, Runnable> runWork = new HashMap<>();
  private final boolean wakeLocalWaiterInline;
  /** The zone layout of a zoned device ({@code chunk_sectors}, conventional zones), or null. */
  private final ZoneGeometry zones;
  private int schedTagsInUse;
  private int driverTagsInUse;
  private boolean runPending;
  private boolean countersGiven;
  private long dispatched;
  private long kblockdRuns;
  private long directRuns;
  /** {@code q->blk_trace}: null unless the run is traced. */
  private blksim.kernel.blktrace.BlkTrace blkTrace;
  /** The CPU of the submission being traced (merges are traced from inside it). */
  private DriverCpu traceCpu;
  /** Writeback throttling ({@code q->rq_qos}, blk-wbt), or null when off. */
  private Wbt wbt;
  /** Whether the device has a volatile write cache ({@link #enableWriteCache}). */
  private boolean writeCache;
  /** The completion interrupt's delivery latency; a constant 0 (the default) adds nothing. */
  private blksim.engine.CostDistribution irqDelivery = blksim.engine.CostDistribution.constant(0);
  private String irqStreamName;
  private long irqRunSeed;
  /** One stream per target CPU id for {@link #irqDelivery}, made on first use. */
  private java.util.SplittableRandom[] irqStreams = new java.util.SplittableRandom[0];

  private record Waiter(DriverCpu cpu, Runnable wake, long sinceNs) {}

  /** The shared driver tag map ({@code hctx->tags} of a shared tag set), or null. */
  private BlkMqTags sharedTags;
  /** This context's (or with host-wide tags this device's) fair-sharing state, or null. */
  private BlkMqTags.Sharer sharer;
  /** The first CPU attached: where a re-run asked for by the shared tags goes. */
  private DriverCpu firstCpu;
  /** mq-deadline's {@code dd->lock} as a contended spinlock, or null (uncontended-equivalent). */
  private blksim.kernel.locking.SpinLock schedLock;
  private blksim.kernel.topology.Cpu[] lockCpus;
  private long schedLockHoldNs;

  /**
   * A queue with its scheduler, driver and kblockd binding; tag waiters are woken by a
   * zero-delay event on their CPU.
   */
  public RequestQueue(RequestQueueParams params, MqDriver driver, Kblockd kblockd) {
    this(params, driver, kblockd, false);
  }

  /**
   * A queue with its scheduler, driver and kblockd binding.
   *
   * @param wakeLocalWaiterInline whether a tag waiter on the CPU that frees the tag is woken
   *     inside the completion, as {@code sbitmap_queue_wake_up()} does from
   *     {@code blk_mq_put_tag()} (null_blk, as blksim always modelled it); otherwise, and always
   *     for a waiter on another CPU, by a zero-delay event on the waiter's CPU (the disk and
   *     SSD models were calibrated so; unifying the two would move their figures)
   */
  public RequestQueue(RequestQueueParams params, MqDriver driver, Kblockd kblockd,
      boolean wakeLocalWaiterInline) {
    this(params, driver, kblockd, wakeLocalWaiterInline, null);
  }

  /**
   * A queue of a zoned device ({@code zones} not null): no request crosses a zone
   * ({@code chunk_sectors}), and mq-deadline write-locks sequential zones.
   */
  public RequestQueue(RequestQueueParams params, MqDriver driver, Kblockd kblockd,
      boolean wakeLocalWaiterInline, ZoneGeometry zones) {
    this.zones = zones;
    this.wakeLocalWaiterInline = wakeLocalWaiterInline;
    this.params = params;
    this.driver = driver;
    this.kblockd = kblockd;
    this.counters = new DiskCounters(params.name());
    this.elevator = params.scheduler() == RequestQueueParams.Scheduler.NONE
        ? new NoneElevator(this) : new MqDeadline(this, params.deadline());
    this.noSplitBytes = noSplitBytes();
  }

  /** The parameters. */
  public RequestQueueParams params() {
    return params;
  }

  /** The scheduler's name ({@code /sys/block/DEV/queue/scheduler}). */
  public String schedulerName() {
    return elevator.name();
  }

  /**
   * Maps the queue to {@code cpu} (called once per CPU while the model is built): binds the run
   * work on it with kblockd and returns the CPU's view.
   */
  public BlockQueue attach(DriverCpu cpu) {
    int id = cpu.cpuId();
    if (runWork.containsKey(id)) {
      throw new IllegalStateException(params.name() + " is already attached to cpu " + id);
    }
    runWork.put(id, kblockd.bind(params.name(), cpu, () -> {
      runPending = false;
      kblockdRuns++;
      run(cpu);
    }));
    if (firstCpu == null) {
      firstCpu = cpu;
    }
    boolean owner = !countersGiven;
    countersGiven = true;
    return new View(cpu, owner ? counters : new DiskCounters(params.name()));
  }

  /**
   * Draws this context's driver tags from {@code s}'s shared map (a tag set shared between
   * devices or hardware queues, {@link BlkMqTags}); before the queue takes its first bio.
   * Without a scheduler the request's tag is the driver tag, taken at allocation
   * ({@code blk_mq_get_tag()}); with one, the driver tag is taken at dispatch
   * ({@code __blk_mq_alloc_driver_tag()}). Fair sharing applies in both.
   */
  public void shareTags(BlkMqTags.Sharer s) {
    sharedTags = s.tags();
    sharer = s;
  }

  /**
   * Models the scheduler's lock ({@code dd->lock}) as the contended spinlock {@code lock} held
   * {@code holdNs} per request inserted; {@code cpus} are the machine's CPUs by id. Only with a
   * scheduler, before the first bio.
   *
   * <p>Where: {@code dd_insert_requests()}, which {@code blk_mq_submit_bio()} reaches through
   * {@code blk_mq_insert_request()} only after {@code blk_mq_get_new_requests()} allocated the
   * request with its scheduler tag (block/blk-mq.c); a plug flush inserts its batch the same way
   * ({@code blk_mq_dispatch_plug_list()}, one acquisition for the batch, held {@code holdNs} per
   * request). So the submitter holds its scheduler tag while it spins, and tag waits and lock
   * spins can occur together. The spin is charged in {@link #submitBio}, after the tag is taken:
   * the lock is reserved from the issue time, and a contended submitter's CPU is busy for the
   * spin (taken as {@link DriverCpu#interrupt}: the running task is charged the time as system
   * time and delayed by it, as a spin with preemption off delays it) before the request is
   * inserted and the queue run. {@link BlockQueue#submitCostNs} stays the path's cost alone.
   *
   * <p>Simplified: the hold's CPU time is inside the calibrated submit cost, paid before the
   * issue, while the lock is occupied after it; the spin counts as interrupt time in the
   * machine's CPU use ({@code blksim.cpu_util}) and as the task's system time; the
   * acquisition in {@code dd_bio_merge()} (before the tag, one per bio tried for a merge), the
   * dispatch's ({@code dd_dispatch_request()}, from the submitter or kblockd running the
   * queue) and the completion's ({@code dd_finish_request()}) are not charged, so the real lock
   * saturates earlier.
   */
  public void modelSchedulerLock(blksim.kernel.locking.SpinLock lock,
      java.util.List<blksim.kernel.topology.Cpu> cpus, long holdNs) {
    if (params.scheduler() == RequestQueueParams.Scheduler.NONE) {
      throw new IllegalStateException(params.name() + " has no scheduler lock (none)");
    }
    schedLock = lock;
    lockCpus = new blksim.kernel.topology.Cpu[cpus.size()];
    for (blksim.kernel.topology.Cpu c : cpus) {
      lockCpus[c.id()] = c;
    }
    schedLockHoldNs = holdNs;
  }

  /** The scheduler's lock when modelled, else null. */
  public blksim.kernel.locking.SpinLock schedulerLock() {
    return schedLock;
  }

  private long submitCost(DriverCpu cpu) {
    long[] r = remoteSubmitNs;
    return r == null ? params.submitCostNs() : params.submitCostNs() + r[cpu.cpuId()];
  }

  /** Extra submission CPU time by CPU id for a queue homed on another node, or null (none). */
  private long[] remoteSubmitNs;

  /**
   * The driver's own CPU time per bio on the submitting CPU, or null (none): null_blk's
   * {@code memory_backed} copy, charged with the submission cost (issue 10 item 9).
   */
  private java.util.function.ToLongBiFunction<Bio, DriverCpu> bioCostNs;

  /** Sets {@link #bioCostNs}: called once per bio at its cost point. Before the run. */
  public void bioCostNs(java.util.function.ToLongBiFunction<Bio, DriverCpu> f) {
    this.bioCostNs = f;
  }

  /**
   * NUMA remote access (issue 15 item 4): CPU {@code c} pays {@code nsByCpu[c]} more per request
   * it submits, because this queue's requests and tags live on another node than {@code c}'s
   * ({@code blk_mq_alloc_rqs()} allocates them on the hardware context's node). Before the run.
   */
  public void remoteAccessNs(long[] nsByCpu) {
    this.remoteSubmitNs = nsByCpu.clone();
  }

  /**
   * {@code spin_lock(&dd->lock)} by {@code cpu} now for {@code requests} inserts, then
   * {@code then}: at once when the lock is free or not modelled, else after the spin, which
   * {@code cpu} spends busy (see {@link #modelSchedulerLock}).
   */
  private void underSchedLock(DriverCpu cpu, int requests, Runnable then) {
    if (schedLock == null) {
      then.run();
      return;
    }
    long spin = schedLock.acquire(lockCpus[cpu.cpuId()], cpu.now(),
        schedLockHoldNs * requests);
    if (spin <= 0) {
      then.run();
      return;
    }
    counters.lockSpin(spin);
    cpu.interrupt(spin, then);
  }

  /** The shared tag map, or null. */
  public BlkMqTags sharedTags() {
    return sharedTags;
  }

  /** This queue's fair-sharing state in the shared map, or null. */
  public BlkMqTags.Sharer sharer() {
    return sharer;
  }

  private boolean tagsAtAllocation() {
    return sharedTags != null && params.scheduler() == RequestQueueParams.Scheduler.NONE;
  }

  private boolean tagsAtDispatch() {
    return sharedTags != null && params.scheduler() != RequestQueueParams.Scheduler.NONE;
  }

  /** A tag wait of this queue ended after {@code ns}. */
  void tagWaitEnded(long ns) {
    counters.tagWait(ns);
  }

  /**
   * {@code blk_mq_run_hw_queue(hctx, true)} asked for by the shared tags from {@code cpu}: the
   * run work goes to that CPU if the queue is mapped to it (one hardware queue:
   * {@code WORK_CPU_UNBOUND}, the local CPU), else to the queue's first CPU.
   */
  void runAsyncFromTags(DriverCpu cpu) {
    if (firstCpu == null || elevator.queued() == 0) {
      return;
    }
    runAsync(runWork.containsKey(cpu.cpuId()) ? cpu : firstCpu);
  }

  /** The zone layout of a zoned device, or null ({@code bdev_is_zoned()}). */
  public ZoneGeometry zones() {
    return zones;
  }

  /**
   * Whether sectors {@code [from, to)} lie in one zone of a zoned device (always true
   * otherwise): merges must not build a request crossing {@code chunk_sectors}
   * ({@code blk_rq_get_max_sectors()}, {@code blk_chunk_sectors_left()}).
   */
  boolean withinChunk(long from, long to) {
    return zones == null || to <= from || zones.zoneNo(from) == zones.zoneNo(to - 1);
  }

  /**
   * Turns writeback throttling on ({@code wbt_init()}, or writing {@code wbt_lat_usec}): before
   * the queue takes its first bio.
   */
  public void enableWbt(Wbt w) {
    wbt = w;
  }

  /**
   * Declares the device's volatile write cache (QUEUE_FLAG_WC): empty flushes then reach the
   * driver ({@link BlockQueue#writeCache}). Before the first bio.
   */
  public void enableWriteCache() {
    writeCache = true;
  }

  /** Whether the device declared a volatile write cache. */
  public boolean writeCache() {
    return writeCache;
  }

  /** The queue's writeback throttling, or null when off. */
  public Wbt wbt() {
    return wbt;
  }

  /** Traces this queue's events into {@code t} ({@code blk_trace_setup()}). */
  public void setBlkTrace(blksim.kernel.blktrace.BlkTrace t) {
    blkTrace = t;
  }

  /** {@code q->blk_trace}, or null. */
  public blksim.kernel.blktrace.BlkTrace blkTrace() {
    return blkTrace;
  }

  /** P, when a plug gets its first request of this queue ({@code blk_add_rq_to_plug()}). */
  void tracePlug(DriverCpu cpu) {
    if (blkTrace != null) {
      blkTrace.plug(cpu);
    }
  }

  long maxBytes() {
    return params.maxBytes();
  }

  int maxSegments() {
    return params.maxSegments();
  }

  void accountMerge(ReqOp op) {
    counters.merges[op.statGroup()]++;
  }

  /**
   * Submits {@code bio} from {@code cpu}, with the submitting task's {@code plug} (null, or not
   * held: no plug). Returns false only when the bio must wait for a request (see the class
   * comment); the caller retries with the same {@code Bio} object (every caller does), which a
   * split bio needs: its pieces already submitted are remembered by the bio's identity, and the
   * retry goes on with the piece that waited (see the class comment).
   */
  public boolean submitBio(DriverCpu cpu, Plug plug, Bio bio, BioEndIo endIo,
      Runnable onTagFree) {
    if (plug != null && !plug.active()) {
      plug = null;
    }
    if (plug != null) {
      plug.onCpu(cpu);
    }
    if (bioSplit) {
      Split s = pendingSplits.isEmpty() ? null : pendingSplits.remove(bio);
      if (s != null) {
        if (blkTrace != null) {
          traceCpu = cpu;
        }
        return submitSplit(cpu, plug, s, onTagFree);
      }
      if (splitBytes(bio.sector(), bio.sizeBytes(), bio.op()) < bio.sizeBytes()) {
        if (blkTrace != null) {
          traceCpu = cpu;
          blkTrace.queue(cpu, bio);
        }
        if (bio.nowait()) {
          // bio_split_rw_at(): "We can't sanely support splitting for a REQ_NOWAIT bio":
          // -EAGAIN for the whole bio, before any piece is submitted (5.15.y and 6.x).
          splitNowait++;
          if (blkTrace != null) {
            blkTrace.bioComplete(cpu, bio, -Errno.EAGAIN);
          }
          endIo.endIo(bio, -Errno.EAGAIN);
          return true;
        }
        return submitSplit(cpu, plug, new Split(bio, endIo), onTagFree);
      }
    }
    if (blkTrace != null) {
      traceCpu = cpu;
      blkTrace.queue(cpu, bio);
    }
    return submitOne(cpu, plug, bio, endIo, onTagFree, true);
  }

  /**
   * {@code blk_mq_submit_bio()} from the merge attempts on, for a bio within the limits (a whole
   * bio, or a piece of a split one: {@code traced} false, its Q was the parent's).
   */
  private boolean submitOne(DriverCpu cpu, Plug plug, Bio bio, BioEndIo endIo,
      Runnable onTagFree, boolean traced) {
    boolean token = wbt != null && wbt.holdsToken(bio);
    if (Request.mergeableOp(bio.op()) && !bio.hasFlag(Bio.REQ_NOMERGE)) {
      if (plug != null && plug.attemptMerge(this, bio, endIo)) {
        if (token) {
          wbt.cleanup(bio, cpu);
        }
        return true;
      }
      if (elevator.bioMerge(bio, endIo)) {
        if (token) {
          wbt.cleanup(bio, cpu);
        }
        return true;
      }
    }
    // rq_qos_throttle(): wbt_wait() after the merge attempts, before a request is allocated.
    if (wbt != null && !token && !bio.nowait() && !wbt.throttle(bio, cpu, onTagFree)) {
      return false;
    }
    boolean local = schedTagsInUse < params.nrRequests();
    if (!local || (tagsAtAllocation() && !sharedTags.tryGet(sharer, cpu))) {
      if (bio.nowait()) {
        if (blkTrace != null) {
          blkTrace.bioComplete(cpu, bio, -Errno.EAGAIN);
        }
        endIo.endIo(bio, -Errno.EAGAIN);
        return true;
      }
      if (plug != null) {
        plug.flush(cpu, true);
      }
      if (local) {
        sharedTags.sleep(this, cpu, onTagFree);
      } else {
        tagWaiters.add(new Waiter(cpu, onTagFree, cpu.now()));
      }
      if (blkTrace != null && traced) {
        blkTrace.retry(cpu, bio);
      }
      return false;
    }
    schedTagsInUse++;
    long now = cpu.now();
    Request rq = new Request(this, bio, endIo, cpu, now);
    if (wbt != null) {
      rq.wbtFlags = wbt.track(bio);
    }
    if (blkTrace != null) {
      blkTrace.getrq(cpu, bio);
    }
    counters.start(now);
    if (plug != null) {
      plug.add(rq);
      return true;
    }
    if (schedLock == null) {
      insertAndRun(cpu, rq);
    } else {
      // The request holds its scheduler tag from here while its submitter spins on dd->lock.
      underSchedLock(cpu, 1, () -> insertAndRun(cpu, rq));
    }
    return true;
  }

  /** Whether bios larger than the limits are split (default on; no scenario key yet). */
  private boolean bioSplit = true;
  /**
   * Split bios whose submitter sleeps for a tag mid-split, by the parent bio's identity (looked
   * up only, never iterated).
   */
  private final java.util.IdentityHashMap<Bio, Split> pendingSplits =
      new java.util.IdentityHashMap<>();

  /**
   * Turns bio splitting at the queue limits on or off; before the first bio. Off, a bio of any
   * size is one request (blksim before 2026-12-03). No validated calibration figure needed it off,
   * so no scenario key sets it (a {@code kernel.bio-split} key would call this).
   */
  public void bioSplit(boolean on) {
    this.bioSplit = on;
  }

  /** Whether bios are split at the limits. */
  public boolean bioSplit() {
    return bioSplit;
  }

  private long splits;
  private long splitNowait;
  /**
   * A bio of at most this many bytes is never split (the fast path of nearly every bio): within
   * {@code max_sectors} rounded down to the block size and within {@code max_segments - 1}
   * pages, wherever it starts; 0 on a zoned device, where any bio may cross a zone end.
   */
  private long noSplitBytes;

  private long noSplitBytes() {
    if (zones != null) {
      return 0;
    }
    // get_max_io_size() of a bio starting anywhere is at least max_sectors rounded down to the
    // block size less one block's misalignment.
    int lbs = params.logicalBlockSize();
    long max = params.maxBytes() - params.maxBytes() % lbs - (lbs - 512);
    return Math.min(max, (long) (params.maxSegments() - 1) * Bio.PAGE_SIZE);
  }

  /** Pieces split off so far ({@code trace_block_split()} events). */
  public long splits() {
    return splits;
  }

  /** REQ_NOWAIT bios ended with -EAGAIN because they needed a split. */
  public long splitNowaitFailures() {
    return splitNowait;
  }

  /** Split bios whose submitter sleeps for a tag with pieces still to submit. */
  public int pendingSplits() {
    return pendingSplits.size();
  }

  /**
   * The bytes of the front piece {@code bio_split_rw_at()} would split off a bio of
   * {@code bytes} at {@code sector}, or {@code bytes} when it fits the limits: the least of
   * {@code get_max_io_size()} (max_sectors, capped at the zone's end,
   * {@code blk_boundary_sectors_left()}, and aligned to the block size) and the bytes of
   * {@code max_segments} 4 KiB-page segments, rounded down to the logical block size
   * ({@code bio_split_alignment()}). Simplified: the physical block size is the logical one
   * (the model has no separate {@code physical_block_size}); segments are the 4 KiB pages of the
   * device range, as {@link Request} counts them; no {@code max_segment_size},
   * {@code seg_boundary_mask} or virt-boundary rules; discard and write-zeroes bios (other
   * limits in the kernel) and empty flushes are never split.
   */
  long splitBytes(long sector, long bytes, ReqOp op) {
    if (bytes <= noSplitBytes || !Request.mergeableOp(op)) {
      return bytes;
    }
    int lbs = params.logicalBlockSize();
    long lbsSectors = lbs >>> 9;
    long maxSectors = params.maxBytes() >>> 9;
    if (zones != null) {
      long chunk = zones.zoneSectors();
      maxSectors = Math.min(maxSectors, chunk - (sector % chunk));
    }
    // get_max_io_size(): start = sector & (pbs - 1); end = (start + max) & ~(pbs - 1).
    long start = sector & (lbsSectors - 1);
    long end = (start + maxSectors) & ~(lbsSectors - 1);
    long maxIo = end > start ? end - start : maxSectors & ~(lbsSectors - 1);
    long maxIoBytes = maxIo << 9;
    long firstSeg = Bio.PAGE_SIZE - ((sector << 9) % Bio.PAGE_SIZE);
    long segBytes = firstSeg + (long) (params.maxSegments() - 1) * Bio.PAGE_SIZE;
    if (bytes <= maxIoBytes && bytes <= segBytes) {
      return bytes;
    }
    long cut = Math.min(maxIoBytes, segBytes);
    cut -= cut % lbs;
    return Math.max(cut, lbs);
  }

  /** How many requests {@code bio} becomes at this queue's limits (1 unless it is split). */
  public int pieces(Bio bio) {
    if (!bioSplit || bio == null || bio.nowait()) {
      return 1;
    }
    long sector = bio.sector();
    long left = bio.sizeBytes();
    int n = 0;
    while (true) {
      n++;
      long cut = splitBytes(sector, left, bio.op());
      if (cut >= left) {
        return n;
      }
      sector += cut >>> 9;
      left -= cut;
    }
  }

  /**
   * A bio split at the limits ({@code bio_split_to_limits()}, {@code bio_submit_split()}): the
   * pieces are chained to it ({@code bio_chain()}), so the parent's end_io runs once, when every
   * piece was submitted and completed, with the first error of a piece
   * ({@code __bio_chain_endio()}). The kernel splits off the front piece, submits it, and hands
   * the rest back to {@code submit_bio_noacct()}, which splits it again after the piece's
   * {@code blk_mq_submit_bio()} returned: the pieces go in order, each with its own request
   * (tag, wbt, scheduler, merges); every piece but the last carries REQ_NOMERGE.
   */
  private final class Split implements BioEndIo {
    final Bio parent;
    final BioEndIo parentEndIo;
    /** Where the part not yet split off starts, and its length. */
    long sector;
    long left;
    /** The piece split off and not yet taken (its submitter sleeps for a tag), or null. */
    Bio piece;
    boolean pieceLast;
    int outstanding;
    int firstError;
    boolean allIssued;

    Split(Bio parent, BioEndIo parentEndIo) {
      this.parent = parent;
      this.parentEndIo = parentEndIo;
      this.sector = parent.sector();
      this.left = parent.sizeBytes();
    }

    @Override
    public void endIo(Bio b, int error) {
      if (error != 0 && firstError == 0) {
        firstError = error;
      }
      outstanding--;
      finishIfDone();
    }

    void finishIfDone() {
      if (allIssued && outstanding == 0) {
        allIssued = false; // once
        parentEndIo.endIo(parent, firstError);
      }
    }
  }

  /**
   * Submits the pieces of {@code s} not yet taken, in order; false when one must wait for a tag
   * (that piece, already split off and traced, is kept with the rest in {@link #pendingSplits}
   * and submitted first when the caller retries with the parent bio).
   */
  private boolean submitSplit(DriverCpu cpu, Plug plug, Split s, Runnable onTagFree) {
    Bio parent = s.parent;
    while (true) {
      if (s.piece == null) {
        long cut = splitBytes(s.sector, s.left, parent.op());
        if (cut >= s.left) {
          s.piece = new Bio(parent.op(), s.sector, (int) s.left, parent.flags(), parent.ioprio());
          s.pieceLast = true;
        } else {
          s.piece = new Bio(parent.op(), s.sector, (int) cut, parent.flags() | Bio.REQ_NOMERGE,
              parent.ioprio());
          splits++;
          if (blkTrace != null) {
            blkTrace.split(cpu, s.piece, s.sector + (cut >>> 9));
          }
        }
        s.sector += s.piece.sizeBytes() >>> 9;
        s.left -= s.piece.sizeBytes();
      }
      s.outstanding++;
      if (!submitOne(cpu, plug, s.piece, s, onTagFree, false)) {
        s.outstanding--;
        pendingSplits.put(parent, s);
        return false;
      }
      s.piece = null;
      if (s.pieceLast) {
        s.allIssued = true;
        s.finishIfDone();
        return true;
      }
    }
  }

  /** {@code blk_mq_insert_request()} of a new request, then the queue run. */
  private void insertAndRun(DriverCpu cpu, Request rq) {
    boolean async = params.scheduler() != RequestQueueParams.Scheduler.NONE
        && params.rules().elevatorSubmitRunsAsync();
    if (elevator.insert(rq, cpu.now())) {
      freeMerged(rq);
    } else if (blkTrace != null) {
      traceInsert(cpu, rq);
    }
    if (async) {
      runAsync(cpu);
    } else {
      run(cpu);
    }
  }

  /** A plug flush hands {@code rqs} (this queue's, in order) over from a task on {@code cpu}. */
  void insertFromPlug(DriverCpu cpu, List<Request> rqs, boolean fromSchedule) {
    if (blkTrace != null) {
      blkTrace.unplug(cpu, rqs.size(), !fromSchedule);
    }
    if (schedLock == null) {
      insert(cpu, rqs, fromSchedule);
    } else {
      List<Request> batch = List.copyOf(rqs);
      underSchedLock(cpu, batch.size(), () -> insert(cpu, batch, fromSchedule));
    }
  }

  private void insert(DriverCpu cpu, List<Request> rqs, boolean async) {
    long now = cpu.now();
    for (Request r : rqs) {
      if (elevator.insert(r, now)) {
        freeMerged(r);
      } else if (blkTrace != null) {
        traceInsert(cpu, r);
      }
    }
    if (async) {
      runAsync(cpu);
    } else {
      run(cpu);
    }
  }

  /**
   * {@code bio_attempt_back_merge()} / {@code bio_attempt_front_merge()} of {@code bio} into
   * {@code rq} if contiguous and within the limits; counts the merge.
   */
  boolean tryBioMerge(Request rq, Bio bio, BioEndIo endIo) {
    if (!rq.mergeOk(bio, params.maxBytes(), params.maxSegments())) {
      return false;
    }
    if (rq.backContiguous(bio)) {
      rq.backMerge(bio, endIo);
      if (blkTrace != null) {
        blkTrace.merge(traceCpu, bio, true);
      }
    } else if (rq.frontContiguous(bio)) {
      rq.frontMerge(bio, endIo);
      if (blkTrace != null) {
        blkTrace.merge(traceCpu, bio, false);
      }
    } else {
      return false;
    }
    accountMerge(bio.op());
    return true;
  }

  /**
   * I: a request goes into the I/O scheduler ({@code dd_insert_request()} traces it). Without
   * one ({@code none}) blk-mq issues it directly and no I is traced.
   */
  private void traceInsert(DriverCpu cpu, Request rq) {
    if (params.scheduler() != RequestQueueParams.Scheduler.NONE) {
      blkTrace.insert(cpu, rq);
    }
  }

  /** A request whose bios moved into another one is freed: its tag, its accounting. */
  void freeMerged(Request r) {
    if (wbt != null) {
      wbt.requestFreed(r, r.submitCpu());
    }
    counters.mergedAway();
    schedTagsInUse--;
    if (tagsAtAllocation()) {
      sharedTags.put(sharer, r.submitCpu(), false);
    }
    wakeTagWaiter(null);
  }

  /** {@code blk_mq_run_hw_queue(hctx, true)}: the run through kblockd on {@code cpu}. */
  public void runAsync(DriverCpu cpu) {
    if (runPending) {
      return;
    }
    Runnable work = runWork.get(cpu.cpuId());
    if (work == null) {
      throw new IllegalStateException(params.name() + " is not attached to cpu " + cpu.cpuId());
    }
    runPending = true;
    work.run();
  }

  /** {@code blk_mq_run_hw_queue(hctx, false)}: dispatches now, in {@code cpu}'s context. */
  public void run(DriverCpu cpu) {
    directRuns++;
    long now = cpu.now();
    boolean dispatchTags = tagsAtDispatch();
    while (driverTagsInUse < params.queueDepth()) {
      if (dispatchTags && elevator.queued() > 0 && !sharedTags.canGet(sharer, cpu)) {
        // blk_mq_mark_tag_wait(): re-run when a driver tag of the shared map is freed.
        sharedTags.waitDispatch(this);
        return;
      }
      Request r = elevator.dispatch(now);
      if (r == null) {
        return;
      }
      if (dispatchTags) {
        sharedTags.take(sharer);
      }
      driverTagsInUse++;
      dispatched++;
      r.dispatched(now);
      if (wbt != null) {
        wbt.issue(r, now);
      }
      if (blkTrace != null) {
        blkTrace.issue(cpu, r);
      }
      driver.queueRq(r, cpu);
    }
  }

  /**
   * The hardware finished {@code rq} (called by the driver in an event at that time): the
   * completion interrupt runs on the request's submitting CPU.
   */
  public void hardwareDone(Request rq) {
    hardwareDone(rq, 0);
  }

  /**
   * {@link #hardwareDone(Request)} with a status: the request's bios end with {@code error}
   * (0 or a negated errno, as {@code blk_status_to_errno()} gives it).
   */
  public void hardwareDone(Request rq, int error) {
    DriverCpu cpu = rq.submitCpu();
    long delivery = irqDeliveryNs(cpu);
    if (delivery == 0) {
      cpu.interrupt(params.completionCostNs(), () -> endRequest(cpu, rq, error));
    } else {
      cpu.callAfter(delivery, () -> cpu.interrupt(params.completionCostNs(),
          () -> endRequest(cpu, rq, error)));
    }
  }

  /**
   * The completion interrupt's delivery latency ({@code costs.irq.delivery}, issue 10 item 9):
   * from the device's MSI write to the handler starting on the target CPU (the interrupt
   * message through the IOMMU/IO-APIC path to the local APIC, and the CPU's entry; an idle
   * CPU's exit latency is {@code costs.sched.idle-exit}, charged as before). Drawn from a stream
   * per target CPU, {@code Seeds.forComponent(runSeed, streamName + "/cpuC")}; a constant draws
   * nothing, and a constant 0 (the default) leaves the completion exactly as before.
   */
  public void irqDelivery(blksim.engine.CostDistribution d, String streamName, long runSeed) {
    this.irqDelivery = java.util.Objects.requireNonNull(d, "irqDelivery");
    this.irqStreamName = streamName;
    this.irqRunSeed = runSeed;
    this.irqStreams = new java.util.SplittableRandom[0];
  }

  private long irqDeliveryNs(DriverCpu cpu) {
    if (irqDelivery.isConstant()) {
      return irqDelivery.sampleNs(null);
    }
    int id = cpu.cpuId();
    if (id >= irqStreams.length) {
      irqStreams = java.util.Arrays.copyOf(irqStreams, Math.max(id + 1, irqStreams.length * 2));
    }
    java.util.SplittableRandom r = irqStreams[id];
    if (r == null) {
      r = new java.util.SplittableRandom(blksim.engine.Seeds.forComponent(irqRunSeed,
          irqStreamName + "/cpu" + id));
      irqStreams[id] = r;
    }
    return irqDelivery.sampleNs(r);
  }

  /**
   * {@code blk_mq_end_request()} called by the driver itself in the current context, without a
   * completion interrupt of its own (null_blk with {@code irqmode=0} completes inside
   * {@code ->queue_rq}, with {@code irqmode=2} from its hrtimer), in the context of {@code cpu},
   * the CPU the caller runs on.
   */
  public void endRequestInline(Request rq, DriverCpu cpu) {
    endRequest(cpu, rq, 0);
  }

  /** {@code blk_mq_end_request()}: bios end, tags freed, waiters woken, the queue re-run. */
  private void endRequest(DriverCpu cpu, Request rq, int error) {
    if (blkTrace != null) {
      blkTrace.complete(cpu, rq, error);
    }
    counters.done(rq.op(), rq.bytes(), rq.allocNs(), cpu.now());
    elevator.finishRequest(rq);
    if (wbt != null) {
      wbt.requestDone(rq, cpu);
    }
    if (wakeLocalWaiterInline) {
      // Tags are freed before the bios end, so that an end_io that submits again finds them.
      driverTagsInUse--;
      schedTagsInUse--;
      if (sharedTags != null) {
        sharedTags.free(sharer);
      }
      rq.endBios(error);
      if (sharedTags != null) {
        sharedTags.wakeAfterFree(cpu, true);
      }
      wakeTagWaiter(cpu);
    } else {
      rq.endBios(error);
      driverTagsInUse--;
      schedTagsInUse--;
      if (sharedTags != null) {
        sharedTags.put(sharer, cpu, false);
      }
      wakeTagWaiter(null);
    }
    if (elevator.queued() > 0) {
      if (params.rules().restartRunsAsync()) {
        runAsync(cpu);
      } else {
        run(cpu);
      }
    }
  }

  private void wakeTagWaiter(DriverCpu freeing) {
    Waiter w = tagWaiters.poll();
    if (w == null) {
      return;
    }
    counters.tagWait((freeing != null ? freeing : w.cpu()).now() - w.sinceNs());
    if (wakeLocalWaiterInline && w.cpu() == freeing) {
      w.wake().run();
    } else {
      w.cpu().callAfter(0, w.wake());
    }
  }

  /** Requests allocated and not freed (scheduler tags in use). */
  public int requestsInUse() {
    return schedTagsInUse;
  }

  /** Requests at the driver (driver tags in use). */
  public int driverTagsInUse() {
    return driverTagsInUse;
  }

  /** Requests waiting in the scheduler. */
  public int queuedInScheduler() {
    return elevator.queued();
  }

  /** Submitters sleeping for a request. */
  public int tagWaiters() {
    return tagWaiters.size();
  }

  /** Requests handed to the driver so far. */
  public long dispatched() {
    return dispatched;
  }

  /** Queue runs done by kblockd so far. */
  public long kblockdRuns() {
    return kblockdRuns;
  }

  /** Whether a kblockd run is queued and has not started. */
  public boolean runPending() {
    return runPending;
  }

  /** The disk's statistics (all CPUs). */
  public DiskCounters counters() {
    return counters;
  }

  /** One CPU's view: the {@link BlockQueue} its tasks submit to. */
  private final class View implements BlockQueue {
    private final DriverCpu cpu;
    private final DiskCounters shown;

    View(DriverCpu cpu, DiskCounters shown) {
      this.cpu = cpu;
      this.shown = shown;
    }

    @Override
    public String diskName() {
      return params.name();
    }

    @Override
    public long capacityBytes() {
      return params.capacityBytes();
    }

    @Override
    public int logicalBlockSize() {
      return params.logicalBlockSize();
    }

    @Override
    public long submitCostNs(Bio bio) {
      // The fixed per-request part once per piece of a split bio; the driver's per-bio part
      // (a copy of the data) once for the whole.
      long fixed = bioSplit ? submitCost(cpu) * pieces(bio) : submitCost(cpu);
      return bioCostNs == null ? fixed : fixed + bioCostNs.applyAsLong(bio, cpu);
    }

    @Override
    public boolean issue(Bio bio, BioEndIo endIo, Runnable onTagFree) {
      return submitBio(cpu, null, bio, endIo, onTagFree);
    }

    @Override
    public boolean issue(Bio bio, BioEndIo endIo, Runnable onTagFree, Plug plug) {
      return submitBio(cpu, plug, bio, endIo, onTagFree);
    }

    @Override
    public DiskCounters counters() {
      return shown;
    }

    @Override
    public long maxRequestBytes() {
      return params.maxBytes();
    }

    @Override
    public Wbt wbt() {
      return wbt;
    }

    @Override
    public boolean writeCache() {
      return writeCache;
    }

    @Override
    public String driveSummary() {
      return driver.summary();
    }

    @Override
    public ZoneGeometry zones() {
      return zones;
    }

    @Override
    public blksim.kernel.blktrace.BlkTrace blkTrace() {
      return blkTrace;
    }

    @Override
    public DriverCpu cpu() {
      return cpu;
    }

    @Override
    public boolean polled() {
      return driver.polled();
    }

    @Override
    public int poll(DriverCpu on) {
      return driver.poll(RequestQueue.this, on);
    }

    @Override
    public void pollWaker(Runnable waker) {
      driver.pollWaker(RequestQueue.this, waker);
    }
  }
}
