package blksim.workload.fio.thread;

import blksim.kernel.aio.KioCtx;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.iouring.CompletionRing;
import blksim.kernel.iouring.IoRequest;
import blksim.kernel.iouring.IoRing;
import blksim.kernel.iouring.IoUringParams;
import blksim.kernel.iouring.IoWq;
import blksim.kernel.iouring.WaitCall;
import blksim.kernel.mm.PageCacheParams;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SyscallParams;
import blksim.kernel.syscall.SystemCall;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.stats.JobStats;
import java.util.ArrayList;
import java.util.function.IntFunction;

/**
 * A fio job thread with an asynchronous engine, {@code io_uring} or {@code libaio}: keeps up to
 * {@code iodepth} I/Os in flight (mirrors fio's {@code do_io()} with {@code td_io_queue()},
 * {@code td_io_commit()} and {@code wait_for_completions()}, and the engines' queue, commit and
 * getevents hooks).
 *
 * <p>fio's loop: prepare an I/O (user time) and commit it with one submit system call
 * ({@code iodepth_batch_submit}, default 1); when {@code iodepth} I/Os are in flight, reap at least
 * {@code iodepth_batch_complete_min} completions before submitting more. {@code slat} runs to the
 * return of the submit call; {@code clat} from there to the reap. fio's start_time is taken here
 * when the prepared I/O is handed to the engine, just before the submit call [A: the published
 * slat of inline brd reads, 7.6 µs, is close to the submit call's system time alone].
 *
 * <p>The calls are the kernel's: io_uring's {@code io_uring_enter()} ({@link IoRing}; completions
 * already in the CQ ring are reaped in user space without a call) and libaio's
 * {@code io_submit()} / {@code io_getevents()} ({@link KioCtx}; reaping is always a call).
 *
 * <p>{@code io_submit_mode=offload}: the thread prepares and paces the I/Os and hands each to one
 * of {@code iodepth} {@link OffloadWorker}s (each its own ring or aio context at depth 1), which
 * submits and reaps it; an I/O early for its rate sleeps without quiescing. Simplified as
 * {@link OffloadWorker} says.
 *
 * <p>{@code iodepth_batch_submit} I/Os are queued before one submit call commits them (fio also
 * commits what is queued before it waits for completions); {@code iodepth_batch_complete_max}
 * completions at most are reaped at once. With {@code iodepth_low} below {@code iodepth}, once
 * the queue is full fio reaps until no more than {@code iodepth_low} I/Os are in flight before it
 * queues again ({@code wait_for_completions()}); the default keeps the queue full.
 */
public final class AsyncFioThread extends FioJobThread {
  /** Which asynchronous engine. */
  public enum Engine {
    IO_URING,
    LIBAIO
  }

  private enum Phase {
    LOOP,
    QUEUED,
    SUBMIT,
    RETURNED,
    REAP,
    SYNC,
    /** zonemode=zbd: a zone reset ioctl (nothing in flight) before a write or for a trim. */
    RESET
  }

  private final Engine engine;
  private final IoUringParams uring;
  private final SyscallParams syscalls;
  private final int onlineCpus;
  private final int depth;
  private final int completeMin;
  private final int batchSubmit;
  /** {@code iodepth_low}: after the queue filled, reap down to this many before queuing. */
  private final int depthLow;
  /** The queue filled with {@code iodepth_low} below iodepth: draining to the low-water mark. */
  private boolean drainToLow;
  private final ArrayList<IoRequest> batch = new ArrayList<>();
  private IoRing ioRing;
  private KioCtx kioCtx;
  private CompletionRing ring;
  private SystemCall call;
  private WaitCall waitCall;
  private Phase phase = Phase.LOOP;
  private int inFlight;
  private IoRequest req;
  private IoRequest rateHeld;
  private int nextTag;
  private boolean resetInstead;
  /** Recorded latency of replayed I/Os in flight, by tag (looked up, never iterated). */
  private final java.util.HashMap<Integer, Long> recordedLat = new java.util.HashMap<>();
  /** {@code io_submit_mode=offload}: the job's submit workers, or null. */
  private final OffloadPool pool;
  /** {@code verify_async}: the job's verify threads, or null (never with offload). */
  private final VerifyPool verifyPool;
  /** With {@link #verifyPool}: each checked read in flight's check, by tag (never iterated). */
  private final java.util.HashMap<Integer, Long> checkNs = new java.util.HashMap<>();
  /** Writes queued, for end_fsync ({@code should_fsync()}). */
  private long writes;
  private boolean endFsyncDone;

  /**
   * @param uring io_uring costs (libaio uses {@code enterNs} for its system calls and
   *     {@code cqePostNs} for posting an event)
   * @param onlineCpus CPUs of the machine, for io-wq's bounded worker limit
   */
  public AsyncFioThread(FioJob job, int globalJobNumber, int pid, IntFunction<BlockQueue> queues,
      FioCostParams costs, SyscallParams syscalls, PageCacheParams pageCache, IoUringParams uring,
      Engine engine, int onlineCpus, JobStats stats, long runSeed) {
    this(job, globalJobNumber, pid, queues, costs, syscalls, pageCache, uring, engine, onlineCpus,
        stats, runSeed, null, null, null);
  }

  /**
   * A thread whose device has a page cache ({@code mapping} in {@code pc}), for buffered
   * ({@code direct=0}) libaio: each iocb's read or write goes through it inside
   * {@code io_submit()} ({@link KioCtx}).
   */
  public AsyncFioThread(FioJob job, int globalJobNumber, int pid, IntFunction<BlockQueue> queues,
      FioCostParams costs, SyscallParams syscalls, PageCacheParams pageCache, IoUringParams uring,
      Engine engine, int onlineCpus, JobStats stats, long runSeed,
      blksim.kernel.mm.PageCache pc, blksim.kernel.mm.AddressSpace mapping,
      blksim.kernel.mm.WritebackParams wbCosts) {
    super(job, globalJobNumber, pid, queues, costs, syscalls, pageCache, stats, runSeed, pc,
        mapping, wbCosts);
    this.engine = engine;
    this.uring = uring;
    this.syscalls = syscalls;
    this.onlineCpus = onlineCpus;
    this.depth = Math.max(1, job.iodepth());
    this.completeMin = Math.max(1, Math.min(job.iodepthBatchCompleteMin(), depth));
    this.batchSubmit = Math.max(1, Math.min(job.iodepthBatchSubmit(), depth));
    this.depthLow = Math.max(0, Math.min(job.iodepthLow(), depth));
    this.pool = job.offload() ? new OffloadPool(this, depth, offloadJob()) : null;
    this.verifyPool = job.verifyAsync() > 0 && job.verify().enabled() && pool == null
        ? new VerifyPool(this, job.verifyAsync()) : null;
  }

  /** What this job gives its submit workers: each sets up its own engine at depth 1. */
  private OffloadWorker.Job offloadJob() {
    return new OffloadWorker.Job() {
      @Override
      public OffloadWorker.Engine setUp(OffloadWorker w, TaskCpu cpu) {
        IoRing ur = engine == Engine.IO_URING
            ? IoRing.setup(w, cpu.cpu(), file, uring, syscalls, 1, onlineCpus)
                .iopoll(job.hipri()) : null;
        KioCtx k = ur == null ? KioCtx.setup(w, cpu.cpu(), file, uring, syscalls) : null;
        return new OffloadWorker.Engine() {
          @Override
          public SystemCall submit(IoRequest r, Object f) {
            return ur != null ? ur.submit(java.util.List.of(r))
                : k.ioSubmit(java.util.List.of(r));
          }

          @Override
          public WaitCall getevents(int min) {
            return ur != null ? ur.waitFor(min) : k.ioGetevents(min);
          }

          @Override
          public CompletionRing ring() {
            return ur != null ? ur.ring() : k.ring();
          }

          @Override
          public boolean reapsInUserSpace() {
            return ur != null;
          }
        };
      }

      @Override
      public long userNsPerIo() {
        return offloadWorkerUserNsPerIo();
      }

      @Override
      public void issued(IoRequest r, long now) {
        offloadIssued(r, now, inFlight);
      }

      @Override
      public void reaped(IoRequest done, TaskCpu cpu) {
        inFlight--;
        long now = cpu.now();
        if (!fatalIoError(done.result(), done.bio().op(), done.bio().sector() << 9,
            done.bio().sizeBytes())) {
          if (zbd() != null) {
            zbd().completed(zbdDdir(done.bio().op()), done.bio().sector() << 9,
                done.bio().sizeBytes());
          }
          if (measuring()) {
            stats.recordIo(ddir(done.bio().op()), done.bio().sizeBytes(),
                done.issueNs() - done.startNs(), now - done.issueNs(), now,
                done.bio().sector() << 9);
            stats.recordPrio(ddir(done.bio().op()), done.bio().ioprio(), now - done.issueNs());
            stats.recordCompleteBatch(1);
          }
          latencySample(now - done.startNs());
          Long rec = recordedLat.isEmpty() ? null : recordedLat.remove(done.tag());
          if (rec != null) {
            replay().stats().latency(rec, now - done.startNs());
          }
        }
        completed(1);
        pool.freed(cpu);
      }
    };
  }

  @Override
  protected long[] helperCpu() {
    return pool == null ? super.helperCpu() : pool.cpu();
  }

  @Override
  protected void step(TaskCpu cpu) {
    if (starting(cpu) || continueThink(cpu)) {
      return;
    }
    if (verifyPool != null) {
      verifyPool.start(this, cpu); // verify_async_init(), in thread_main() before the I/O
    }
    if (pool != null) {
      pool.start(this, cpu); // rate_submit_init(): the workers set up their own engines
    } else if (ring == null) {
      // fio's engine init: io_uring_setup(iodepth) or io_setup(iodepth).
      if (engine == Engine.IO_URING) {
        // fixedbufs: the buffers were pinned once at io_uring_register(); no per-I/O pinning.
        ioRing = IoRing.setup(this, cpu.cpu(), file, uring,
            job.fixedbufs() ? syscalls.withoutDioPages() : syscalls, depth, onlineCpus)
            .iopoll(job.hipri()); // hipri: IORING_SETUP_IOPOLL (fio's fio_ioring_queue_init())
        ring = ioRing.ring();
      } else {
        kioCtx = KioCtx.setup(this, cpu.cpu(), file, uring, syscalls);
        ring = kioCtx.ring();
      }
    }
    while (true) {
      switch (phase) {
        case LOOP:
          if (loop(cpu)) {
            return;
          }
          continue;
        case QUEUED:
          if (rateLimited(req.bio().op()) && rateWaitNs(req.bio().op(), cpu.now()) > 0) {
            // Early for the rate: quiesce, then sleep (in loop()).
            rateHeld = req;
            req = null;
            phase = Phase.LOOP;
            continue;
          }
          if (rateLimited(req.bio().op())) {
            rateIssued(req.bio().op(), req.bio().sizeBytes());
          }
          // fio's start_time: the prepared I/O is queued to the engine [A].
          req.startNs(cpu.now());
          if (pool != null) {
            // workqueue_enqueue(): a submit worker queues and commits it.
            inFlight++;
            pool.hand(req, null, cpu);
            req = null;
            phase = Phase.LOOP;
            continue;
          }
          batch.add(req);
          req = null;
          if (batch.size() >= batchSubmit) {
            startCommit(cpu);
            return;
          }
          phase = Phase.LOOP;
          continue;
        case SUBMIT:
          if (!call.step(cpu)) {
            return;
          }
          submitted(cpu);
          return;
        case RETURNED:
          returned();
          continue;
        case SYNC:
          if (!call.step(cpu)) {
            return;
          }
          call = null;
          syncReturned(cpu.now());
          phase = Phase.LOOP;
          continue;
        case RESET:
          if (!call.step(cpu)) {
            return;
          }
          call = null;
          if (resetInstead) {
            completed(1); // zbd_do_io_u_trim(): the trim completed as the zone reset
            phase = Phase.LOOP;
            continue;
          }
          queuePrepared(cpu);
          return;
        case REAP:
          if (!waitCall.step(cpu)) {
            return;
          }
          // The wait returned: fio reaps what it found, or, after a wakeup, looks again in its
          // loop (which reads io_uring's CQ ring in user space).
          phase = Phase.LOOP;
          if (!waitCall.wokeUp()) {
            reap(cpu);
          }
          continue;
        default:
          throw new IllegalStateException(job.name() + ": phase " + phase);
      }
    }
  }

  /** fio's do_io() loop: submit while there is room, else reap. True when an action was taken. */
  private boolean loop(TaskCpu cpu) {
    if (drainToLow) {
      // wait_for_completions(): "while (full && (td->cur_depth > td->o.iodepth_low))" it reaps
      // again, before fio queues anything else.
      if (inFlight > depthLow && batch.isEmpty() && pool == null) {
        return waitFor(cpu, completeMin);
      }
      drainToLow = false;
    }
    if (rateHeld != null) {
      // rate_ddir(): io_u_quiesce(), then usec_sleep() until the held I/O is due.
      long wait = rateWaitNs(rateHeld.bio().op(), cpu.now());
      if (wait > 0 && !outOfTime(cpu.now())) {
        // rate_ddir() quiesces only with io_submit_mode=inline.
        if (pool == null && !batch.isEmpty()) {
          startCommit(cpu);
          return true;
        }
        if (pool == null && inFlight > 0) {
          return waitFor(cpu, inFlight);
        }
        rateSleep(cpu, wait);
        return true;
      }
      req = rateHeld;
      rateHeld = null;
      if (wait > 0) {
        req = null; // the runtime ended while it waited: it is never queued
      } else {
        phase = Phase.QUEUED;
        return false;
      }
    }
    if (thinking() || thinkDue()) {
      // thinktime: io_u_quiesce() commits what is queued and reaps everything in flight first.
      if (!batch.isEmpty()) {
        startCommit(cpu);
        return true;
      }
      if (inFlight > 0) {
        return waitFor(cpu, inFlight);
      }
      if (think(cpu)) {
        return true;
      }
    }
    long now = cpu.now();
    latencyCheck(now);
    if (latencyQuiescing()) {
      // io_u_quiesce() after a latency_target step: commit what is queued, reap everything.
      if (!batch.isEmpty()) {
        startCommit(cpu);
        return true;
      }
      if (inFlight > 0) {
        return waitFor(cpu, inFlight);
      }
      latencyQuiesced();
    }
    boolean more = mayIssue(now);
    int depth = latencyLimit(this.depth);
    if (more && verifyPool != null && verifyPool.held() > 0
        && inFlight + batch.size() + verifyPool.held() >= depth) {
      // __get_io_u(): every io_u is in flight, queued or with a verify thread: fio waits on
      // free_cond (the I/Os in flight complete meanwhile, reaped after the wait).
      if (verifyPool.tryWaitFree(this)) {
        return false;
      }
      cpu.sleep();
      return true;
    }
    if (more && inFlight + batch.size() < depth && replaying()) {
      // read_iolog: the next record's delay is polled away here (fio's iolog_delay() in
      // get_io_u()), reaping the I/Os in flight meanwhile (pollReap()).
      // A sync record is libaio's do_io_u_sync(): what is queued is committed,
      // then fsync(2)/fdatasync(2) runs synchronously while the I/Os in flight go on.
      // Simplified: io_uring's IORING_OP_FSYNC is modelled the same way.
      int r = replayStep(cpu, inFlight > 0 && pool == null);
      if (r == REPLAY_SLEPT) {
        return true;
      }
      if (r == REPLAY_POLL) {
        return pollReap(cpu);
      }
      more = r == REPLAY_READY;
      if (more && replay().kind() == blksim.workload.replay.ReplayFeed.Kind.SYNC) {
        if (!batch.isEmpty()) {
          startCommit(cpu); // libaio refuses a sync while I/Os are queued (FIO_Q_BUSY)
          return true;
        }
        boolean data = replay().datasync();
        replay().consume();
        syncStarted(cpu.now(), !data);
        call = data ? file.fdatasync() : file.fsync();
        phase = Phase.SYNC;
        if (call.step(cpu)) {
          call = null;
          syncReturned(cpu.now());
          phase = Phase.LOOP;
          return false;
        }
        return true;
      }
    }
    if (more && inFlight + batch.size() < depth && !replaying() && flowAhead()) {
      // flow_threshold_exceeded(): with flow_sleep, io_u_quiesce() (commit, reap everything)
      // then usleep(); without, fio loops at once (here a slice of spinning), reaping nothing.
      if (job.flowSleepNs() > 0 && !batch.isEmpty()) {
        startCommit(cpu);
        return true;
      }
      if (job.flowSleepNs() > 0 && inFlight > 0) {
        return waitFor(cpu, inFlight);
      }
      flowWait(cpu);
      return true;
    }
    if (more && inFlight + batch.size() < depth && zbd() != null && !replaying()) {
      // zbd_adjust_block(), with fio's io_u_quiesce() before a zone reset or a new choice.
      blksim.workload.fio.FioZbd.Action a = zbdNextIo(inFlight + batch.size());
      switch (a) {
        case QUIESCE:
          if (!batch.isEmpty()) {
            startCommit(cpu);
            return true;
          }
          return waitFor(cpu, inFlight);
        case EOF:
          more = false;
          break;
        case RESET_THEN_ACCEPT:
        case RESET_INSTEAD:
          resetInstead = a == blksim.workload.fio.FioZbd.Action.RESET_INSTEAD;
          call = file.zoneMgmt(blksim.kernel.block.ReqOp.ZONE_RESET,
              zbd().zoneStart(zbd().resetZone()));
          phase = Phase.RESET;
          if (call.step(cpu)) {
            throw new IllegalStateException(job.name() + ": a zone reset returned at once");
          }
          return true;
        default:
          queuePrepared(cpu);
          return true;
      }
    }
    if (more && inFlight + batch.size() < depth) {
      nextIo();
      req = prepRequest();
      if (ioRecordedLatNs >= 0) {
        recordedLat.put(req.tag(), ioRecordedLatNs);
      }
      if (ioOp == blksim.kernel.block.ReqOp.WRITE) {
        writes++;
      }
      // verify_async: a checked read's verify_io_u() is a verify thread's, once it completes.
      long check = verifyPool != null ? verifyReadNs() : 0;
      if (check > 0) {
        checkNs.put(req.tag(), check);
      }
      phase = Phase.QUEUED;
      cpu.runFor(CpuMode.USER, costs.userNsPerIo() / 2 + verifyNs() - check);
      return true;
    }
    if (!batch.isEmpty()) {
      // Full, or draining, with I/Os queued but not committed: fio commits before it waits.
      startCommit(cpu);
      return true;
    }
    if (inFlight == 0) {
      if (job.endFsync() && writes > 0 && !endFsyncDone && !verifying()) {
        // end_fsync: the end of do_io(), after it reaped everything, syncs the file
        // (fio_io_sync(): libaio's do_io_u_sync() is fsync(2); io_uring's IORING_OP_FSYNC is
        // modelled the same way), before thread_main() starts do_verify() (backend.c).
        endFsyncDone = true;
        logSync(cpu, false);
        syncStarted(cpu.now(), false);
        return startSync(cpu, file.fsync());
      }
      if (!replaying() && beginVerify(now)) {
        // thread_main(): clear_io_state() closes the device; do_verify() syncs only files still
        // open (none), and get_next_verify() reopens it, where td_io_open_file()'s
        // invalidate=1 is ioctl(BLKFLSBUF): written back without a cache flush, and dropped.
        return job.invalidate() && startSync(cpu, file.flushBuf());
      }
      if (verifyPool != null) {
        // verify_async_exit(): the verify threads give back every io_u they hold.
        if (verifyPool.held() > 0) {
          if (verifyPool.tryWaitFree(this)) {
            return false;
          }
          cpu.sleep();
          return true;
        }
        verifyPool.exit(cpu);
      }
      if (pool != null) {
        pool.exit(cpu);
      }
      finish(cpu);
      return true;
    }
    // The queue is full (or the job is draining): reap, with iodepth_low down to its mark.
    drainToLow = more && depthLow < depth;
    return waitFor(cpu, completeMin);
  }

  /** A synchronous call with nothing in flight; true (an action was taken) unless it returned. */
  private boolean startSync(TaskCpu cpu, SystemCall sync) {
    call = sync;
    phase = Phase.SYNC;
    if (call.step(cpu)) {
      call = null;
      syncReturned(cpu.now());
      phase = Phase.LOOP;
      return false;
    }
    return true;
  }

  /**
   * fio's io_u as the engine fills its SQE or iocb; with {@code nowait=1} (RWF_NOWAIT in
   * {@code sqe->rw_flags} / {@code aio_rw_flags}) its bio carries REQ_NOWAIT, so a device that
   * would block fails it (-EAGAIN, or -EOPNOTSUPP without nowait support) instead of io_uring
   * punting it to io-wq or libaio sleeping for a tag; the error ends the job
   * ({@link #fatalIoError}).
   */
  private IoRequest prepRequest() {
    IoRequest r = IoRequest.prep(ioOp, ioOffset, ioLen, ioPrio(), nextTag++);
    return job.nowait() ? new IoRequest(r.bio().withFlags(r.bio().flags()
        | blksim.kernel.block.Bio.REQ_NOWAIT), r.tag()) : r;
  }

  /** The I/O prepared in {@link #ioOp}, {@link #ioOffset}, {@link #ioLen} is queued. */
  private void queuePrepared(TaskCpu cpu) {
    if (ioOp == blksim.kernel.block.ReqOp.WRITE) {
      writes++;
    }
    req = prepRequest();
    phase = Phase.QUEUED;
    cpu.runFor(CpuMode.USER, costs.userNsPerIo() / 2);
  }

  /**
   * Reaps at least {@code min} completions (fewer if fewer are in flight), from the CQ ring
   * without a call when they are there (io_uring), else with a waiting system call. True when an
   * action was taken.
   */
  private boolean waitFor(TaskCpu cpu, int min) {
    if (pool != null) {
      // Offload: wait for a worker to free an io_u (__get_io_u() on free_cond); the caller
      // looks again when one was freed.
      if (pool.tryWaitFree(this)) {
        return false;
      }
      cpu.sleep();
      return true;
    }
    // wait_for_completions(): min_evts = min(iodepth_batch_complete_min, cur_depth), at least 1;
    // asking the kernel for more events than are in flight would never return.
    int want = Math.max(1, Math.min(min, inFlight));
    if (engine == Engine.IO_URING && ring.ready() >= want) {
      reap(cpu);
      return false;
    }
    return enterWait(cpu, engine == Engine.IO_URING ? ioRing.waitFor(want)
        : kioCtx.ioGetevents(want));
  }

  /** Starts {@code w}, a reaping call, in phase REAP; true (it always takes an action). */
  private boolean enterWait(TaskCpu cpu, WaitCall w) {
    waitCall = w;
    phase = Phase.REAP;
    if (!waitCall.step(cpu)) {
      return true;
    }
    throw new IllegalStateException(job.name() + ": a wait call returned without its entry");
  }

  /**
   * {@code io_u_queued_complete(td, 0)} in {@code iolog_delay()}'s loop with I/Os in flight:
   * io_uring's getevents (the pinned fio's {@code fio_ioring_getevents()}) reaps what the CQ ring
   * holds in user space, else loops in {@code io_uring_enter()} until a CQE comes, whatever the
   * delay; libaio's {@code io_getevents()} with a zero timeout is called until an event comes or
   * the delay has passed. Both spin ({@link blksim.kernel.iouring.WaitCall#armPoll}). Always
   * takes an action or reaps.
   */
  private boolean pollReap(TaskCpu cpu) {
    if (engine == Engine.IO_URING && ring.ready() >= 1) {
      reap(cpu);
      return false;
    }
    return enterWait(cpu, engine == Engine.IO_URING ? ioRing.pollForOne()
        : kioCtx.ioGeteventsPoll(replayPollEndNs()));
  }

  /** One submit system call for the queued batch ({@code td_io_commit()}). */
  private void startCommit(TaskCpu cpu) {
    call = engine == Engine.IO_URING ? ioRing.submit(batch) : kioCtx.ioSubmit(batch);
    phase = Phase.SUBMIT;
    if (call.step(cpu)) {
      submitted(cpu);
    }
  }

  /**
   * The submit call returns to user space, a preemption point: fio takes the issue time of the
   * committed batch there ({@code fio_ioring_queued()} / {@code fio_libaio_queued()} right after
   * {@code io_uring_enter()} / {@code io_submit()}: slat ends, clat starts), then its engine
   * finishes the commit (the second half of fio's per-I/O user time, so it falls in clat).
   * Simplified: the stamp is the call's return, before a preemption there, which fio's would
   * follow.
   */
  private void submitted(TaskCpu cpu) {
    long now = cpu.now();
    replayIssued(now);
    for (IoRequest r : batch) {
      r.issueNs(now);
    }
    phase = Phase.RETURNED;
    cpu.runFor(CpuMode.USER, costs.userNsPerIo() - costs.userNsPerIo() / 2);
  }

  /** The commit's second user half has run: the batch is in flight. */
  private void returned() {
    for (IoRequest r : batch) {
      inFlight++;
      if (measuring()) {
        stats.recordIssue(inFlight);
      }
    }
    if (measuring()) {
      stats.recordSubmitBatch(batch.size());
    }
    batch.clear();
    req = null;
    phase = Phase.LOOP;
  }

  private void reap(TaskCpu cpu) {
    long now = cpu.now();
    int n = 0;
    IoRequest done;
    // fio reaps up to iodepth_batch_complete_max (at least the minimum asked for).
    int max = Math.max(completeMin, job.iodepthBatchCompleteMax());
    while (n < max && (done = ring.reap()) != null) {
      inFlight--;
      n++;
      Long check = checkNs.isEmpty() ? null : checkNs.remove(done.tag());
      if (fatalIoError(done.result(), done.bio().op(), done.bio().sector() << 9,
          done.bio().sizeBytes())) {
        continue; // fio stops the job: not accounted, the rest drains
      }
      if (check != null) {
        verifyPool.hand(check, cpu); // verify_io_u_async(): the io_u goes to a verify thread
      }
      if (zbd() != null) {
        zbd().completed(zbdDdir(done.bio().op()), done.bio().sector() << 9,
            done.bio().sizeBytes());
      }
      if (measuring()) {
        long slat = done.issueNs() - done.startNs();
        stats.recordIo(ddir(done.bio().op()), done.bio().sizeBytes(), slat,
            now - done.issueNs(), now, done.bio().sector() << 9);
        stats.recordPrio(ddir(done.bio().op()), done.bio().ioprio(), now - done.issueNs());
      }
      latencySample(now - done.startNs());
      Long rec = recordedLat.isEmpty() ? null : recordedLat.remove(done.tag());
      if (rec != null) {
        replay().stats().latency(rec, now - done.startNs());
      }
    }
    completed(n);
    if (n > 0 && measuring()) {
      stats.recordCompleteBatch(n);
    }
  }

  /** The io-wq of this thread's ring (io_uring only; null before the first step). */
  public IoWq ioWq() {
    return ioRing == null ? null : ioRing.ioWq();
  }
}
