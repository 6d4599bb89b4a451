package blksim.workload.fio.thread;

import blksim.kernel.block.ReqOp;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.TaskCpu;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.stats.JobStats;

/**
 * A fio job with {@code ioengine=null} (fio's engines/null.c): no file, no system call, no device;
 * every I/O costs only fio's own user-space work, so the job measures fio's overhead, which is
 * what users run it for.
 *
 * <p>With {@code iodepth=1} fio's {@code null_init()} makes the engine synchronous
 * ({@code FIO_SYNCIO}): each I/O completes in its {@code queue} call, with a completion latency of
 * nothing but the time between two clock reads (0 here). With a larger depth the engine queues
 * I/Os ({@code FIO_Q_QUEUED}), its commit turns what was queued into events, and fio reaps them
 * once {@code iodepth} are in flight. Simplified: the model queues {@code iodepth} I/Os, each
 * after fio's per-I/O user time, then reaps them all at once, so an I/O's clat is the user time of
 * the I/Os queued after it; fio's exact interleaving of commits and reaps
 * ({@code iodepth_batch*}, the engine refusing to queue while it holds events) is not modelled.
 * The throughput, one I/O per {@code costs.fio.user-per-io}, does not depend on it.
 *
 * <p>Trims ({@code rw=trim}, {@code randtrim}) are io_us like the others (DDIR_TRIM in the
 * report); {@code trimwrite} and {@code randtrimwrite} follow each trim with a write of the same
 * offset and length, as fio's {@code get_next_offset()} does for the write after a trim; the
 * sizes are the trim direction's ({@code bs=,,N}). Simplified: a {@code write_iolog} names a
 * null job's trims as writes.
 *
 * <p>With {@code verify}, the engine being {@code FIO_FAKEIO}, every verify read passes without
 * a check (and without its checksum's CPU time); writes still pay for their checksum.
 *
 * <p>With {@code read_iolog} the job replays the log ({@link blksim.workload.replay.ReplayFeed},
 * fio's {@code read_iolog_get()}): each of its reads, writes and trims is an io_u of the logged
 * offset and length, whatever file the log names (a name only: the null engine opens nothing),
 * after the logged delay ({@code iolog_delay()}, which reaps what is queued while it waits; here
 * everything queued is reaped when a delay begins), each costing fio's per-I/O user time as
 * above; file actions cost nothing but their delay. The job ends with the log.
 */
public final class NullThread extends FioJobThread {
  private final int depth;
  private final long[] issueNs;
  private final long[] lens;
  /** The length of the I/O being prepared (a replayed trim may exceed an int). */
  private long prepLen;
  private final ReqOp[] ops;
  private int queued;
  private boolean preparing;
  /** {@code io_submit_mode=offload}: the job's submit workers, or null. */
  private final OffloadPool pool;
  private int inFlight;
  private int nextTag;
  /** trimwrite: the write of the trim just issued is due next. */
  private boolean pairDue;

  /**
   * @param capacityBytes the job's region: its {@code size} (the null engine has no file size)
   */
  public NullThread(FioJob job, int globalJobNumber, int pid, long capacityBytes,
      FioCostParams costs, JobStats stats, long runSeed) {
    super(job, globalJobNumber, pid, capacityBytes, costs, stats, runSeed);
    this.depth = Math.max(1, job.iodepth());
    this.issueNs = new long[depth];
    this.lens = new long[depth];
    this.ops = new ReqOp[depth];
    this.pool = job.offload() ? new OffloadPool(this, depth, offloadJob()) : null;
  }

  @Override
  protected void step(TaskCpu cpu) {
    if (starting(cpu) || continueThink(cpu)) {
      return;
    }
    if (pool != null) {
      offloadStep(cpu);
      return;
    }
    if (preparing && rateLimited(ioOp)) {
      long wait = rateWaitNs(ioOp, cpu.now());
      if (wait > 0 && !outOfTime(cpu.now())) {
        if (queued > 0) {
          reapAll(cpu.now()); // io_u_quiesce()
        }
        rateSleep(cpu, wait);
        return;
      }
      if (wait > 0) {
        preparing = false; // the runtime ended while it waited: never queued
      } else {
        rateIssued(ioOp, ioLen);
      }
    }
    if (preparing) {
      // The user time of the I/O just prepared has run: it is queued (and, at depth 1, done).
      preparing = false;
      issueNs[queued] = cpu.now();
      replayIssued(issueNs[queued]);
      lens[queued] = prepLen;
      ops[queued] = ioOp;
      queued++;
      if (queued == depth) {
        reapAll(cpu.now());
      }
    }
    if (thinking() || thinkDue()) {
      if (queued > 0) {
        reapAll(cpu.now());
      }
      if (think(cpu)) {
        return;
      }
    }
    if (pairDue && !outOfTime(cpu.now())) {
      // trimwrite: the write after its trim (fio's io budget counts the writes, so the last
      // trim's write is issued too).
      pairDue = false;
      ioOp = ReqOp.WRITE;
      prepLen = ioLen;
      preparing = true;
      cpu.runFor(CpuMode.USER, costs.userNsPerIo() + verifyNs());
      return;
    }
    pairDue = false;
    if (replaying()) {
      stepReplay(cpu);
      return;
    }
    if (!mayIssue(cpu.now())) {
      if (queued > 0) {
        reapAll(cpu.now());
      }
      // thread_main(): a write phase that ended by its size goes on with do_verify().
      if (!beginVerify(cpu.now()) || !mayIssue(cpu.now())) {
        finish(cpu);
        return;
      }
    }
    nextIo();
    prepLen = ioLen;
    if (job.rw().trims()) {
      // A trim is one more io_u the null engine completes (DDIR_TRIM); with trimwrite each
      // trim is followed by a write of the same offset and length.
      ioOp = ReqOp.DISCARD;
      pairDue = job.rw().writes();
    }
    preparing = true;
    // FIO_FAKEIO: a write still gets its verify checksum (populate_verify_io_u()), but
    // verify_io_u() returns before checking a read ("pretend we verified everything").
    cpu.runFor(CpuMode.USER, costs.userNsPerIo() + (ioOp == ReqOp.WRITE ? verifyNs() : 0));
  }

  /** {@code read_iolog}: the log's next I/O after its delay, or the end of the job. */
  private void stepReplay(TaskCpu cpu) {
    int r = mayIssue(cpu.now()) ? replayStep(cpu) : REPLAY_END;
    if (r != REPLAY_READY && queued > 0) {
      reapAll(cpu.now()); // iolog_delay(): io_u_queued_complete() while it waits
    }
    if (r == REPLAY_SLEPT) {
      return;
    }
    if (r == REPLAY_END) {
      finish(cpu);
      return;
    }
    nextIo();
    prepLen = replay().lengthLong();
    preparing = true;
    cpu.runFor(CpuMode.USER, costs.userNsPerIo());
  }

  /**
   * {@code io_submit_mode=offload}: the job thread prepares each I/O (half of fio's per-I/O
   * work, as for the other engines) and hands it to one of {@code iodepth} workers, each with a
   * null engine at depth 1 ({@code FIO_SYNCIO}: the I/O completes inside its queue call), which
   * does the other half; when every io_u is out the job waits for a worker to free one.
   * Simplified: {@code rate} and {@code thinktime} are refused with offload for this engine.
   */
  private void offloadStep(TaskCpu cpu) {
    pool.start(this, cpu);
    while (true) {
      if (preparing) {
        preparing = false;
        blksim.kernel.iouring.IoRequest r = blksim.kernel.iouring.IoRequest.prep(ioOp, ioOffset,
            ioLen, nextTag++);
        r.startNs(cpu.now());
        inFlight++;
        pool.hand(r, null, cpu);
      }
      if (!mayIssue(cpu.now())) {
        // The end: every io_u back from the workers (and the verify phase, if any), then exit.
        if (inFlight > 0) {
          if (!pool.tryWaitFree(this)) {
            cpu.sleep();
            return;
          }
          continue;
        }
        if (beginVerify(cpu.now()) && mayIssue(cpu.now())) {
          continue;
        }
        pool.exit(cpu);
        finish(cpu);
        return;
      }
      if (inFlight >= depth) {
        if (!pool.tryWaitFree(this)) {
          cpu.sleep();
          return;
        }
        continue;
      }
      nextIo();
      preparing = true;
      cpu.runFor(CpuMode.USER, costs.userNsPerIo() / 2
          + (ioOp == ReqOp.WRITE ? verifyNs() : 0));
      return;
    }
  }

  /** What this job gives its submit workers: a null engine each, at depth 1. */
  private OffloadWorker.Job offloadJob() {
    return new OffloadWorker.Job() {
      @Override
      public OffloadWorker.Engine setUp(OffloadWorker w, TaskCpu cpu) {
        blksim.kernel.iouring.CompletionRing ring =
            new blksim.kernel.iouring.CompletionRing(w, cpu.cpu());
        return new OffloadWorker.Engine() {
          // A worker has one request in its submit call at a time: the call is re-armed.
          private blksim.kernel.iouring.IoRequest queued;
          private final blksim.kernel.syscall.SystemCall queue =
              new blksim.kernel.syscall.SystemCall() {
                @Override
                public boolean step(TaskCpu c) {
                  int n = queued.bio().sizeBytes();
                  ring.post(queued, n);
                  return returned(n);
                }
              };

          @Override
          public blksim.kernel.syscall.SystemCall submit(blksim.kernel.iouring.IoRequest r,
              Object file) {
            // fio_null_queue(): no system call, completed at once (FIO_Q_COMPLETED).
            queued = r;
            return queue;
          }

          @Override
          public blksim.kernel.iouring.WaitCall getevents(int min) {
            throw new IllegalStateException("the null engine completes in its queue call");
          }

          @Override
          public blksim.kernel.iouring.CompletionRing ring() {
            return ring;
          }

          @Override
          public boolean reapsInUserSpace() {
            return true;
          }
        };
      }

      @Override
      public long userNsPerIo() {
        return offloadWorkerUserNsPerIo();
      }

      @Override
      public void issued(blksim.kernel.iouring.IoRequest r, long now) {
        offloadIssued(r, now, inFlight);
      }

      @Override
      public void reaped(blksim.kernel.iouring.IoRequest done, TaskCpu cpu) {
        inFlight--;
        long now = cpu.now();
        if (measuring()) {
          // FIO_SYNCIO at the worker's depth 1: no clat of its own (as NullThread at depth 1).
          stats.recordIo(ddir(done.bio().op()), done.bio().sizeBytes(),
              done.issueNs() - done.startNs(), now - done.issueNs(), now,
              done.bio().sector() << 9);
          stats.recordCompleteBatch(1);
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

  private void reapAll(long now) {
    if (measuring()) {
      for (int i = 0; i < queued; i++) {
        stats.recordIssue(i + 1);
        stats.recordSubmitBatch(1);
      }
      for (int i = 0; i < queued; i++) {
        stats.recordIo(ddir(ops[i]), lens[i], depth == 1 ? -1 : 0, now - issueNs[i], now);
      }
      stats.recordCompleteBatch(queued);
    }
    completed(queued);
    queued = 0;
  }
}
