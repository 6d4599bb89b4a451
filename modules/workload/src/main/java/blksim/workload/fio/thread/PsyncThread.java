package blksim.workload.fio.thread;

import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import blksim.kernel.mm.AddressSpace;
import blksim.kernel.mm.PageCache;
import blksim.kernel.mm.PageCacheParams;
import blksim.kernel.mm.WritebackParams;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SyscallParams;
import blksim.kernel.syscall.SystemCall;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.replay.ReplayFeed;
import java.util.function.IntFunction;

/**
 * A fio job thread with a synchronous engine ({@code psync}, {@code sync}, {@code pvsync}): one
 * I/O in flight (mirrors fio's {@code do_io()} with {@code FIO_SYNCIO} engines).
 *
 * <p>Per I/O: fio's user-space work (user time), then one {@code pread()} or {@code pwrite()} on
 * the job's file; the kernel's side ({@link blksim.kernel.fs.BlockDeviceFile}) submits the bio,
 * sleeps until the completion unless the driver completed it inline, and returns. As in fio,
 * {@code clat} runs from just before the system call to its return, and {@code slat} is not
 * measured for synchronous engines. Buffered writes go into the page cache (and may be throttled
 * there); {@code fsync=N}, {@code fdatasync=N} and {@code end_fsync} sync the file.
 *
 * <p>{@code verify} in fio's order (backend.c): the writes, do_io()'s end_fsync, then no sync
 * (the device is closed and reopened, which with {@code invalidate=1} is
 * {@code ioctl(BLKFLSBUF)}), then the verify reads; with {@code verify_async} a read's check
 * goes to the job's {@link VerifyPool} when the read returns, and the next I/O waits until the
 * one io_u is free again.
 */
public final class PsyncThread extends FioJobThread {
  private enum Phase {
    PREP,
    CALL,
    /** kernel.cache-cold: the copy's cold buffer lines, before the call proper. */
    COLD_COPY,
    IN_CALL,
    IN_SYNC,
    /** zonemode=zbd: a zone reset ioctl before the write, or instead of a trim. */
    IN_RESET
  }

  private Phase phase = Phase.PREP;
  private long issueNs;
  private ReqOp op;
  private int len;
  private SystemCall call;
  private long writes;
  private long recordedLatNs = -1;
  private boolean endFsyncDone;
  private boolean resetInstead;
  /** {@code verify_async}: the job's verify threads, or null. */
  private final VerifyPool verifyPool;
  /** The check of the read in the call that {@link #verifyPool} takes when it completes. */
  private long checkNs;

  public PsyncThread(FioJob job, int globalJobNumber, int pid, IntFunction<BlockQueue> queues,
      FioCostParams costs, SyscallParams syscalls, PageCacheParams pageCache, JobStats stats,
      long runSeed) {
    super(job, globalJobNumber, pid, queues, costs, syscalls, pageCache, stats, runSeed);
    this.verifyPool = verifyPool(job);
  }

  /** A thread whose device has a page cache: buffered writes, fsync and end_fsync act on it. */
  public PsyncThread(FioJob job, int globalJobNumber, int pid, IntFunction<BlockQueue> queues,
      FioCostParams costs, SyscallParams syscalls, PageCacheParams pageCache, JobStats stats,
      long runSeed, PageCache pc, AddressSpace mapping, WritebackParams wbCosts) {
    super(job, globalJobNumber, pid, queues, costs, syscalls, pageCache, stats, runSeed, pc,
        mapping, wbCosts);
    this.verifyPool = verifyPool(job);
  }

  private VerifyPool verifyPool(FioJob job) {
    return job.verifyAsync() > 0 && job.verify().enabled()
        ? new VerifyPool(this, job.verifyAsync()) : null;
  }

  @Override
  protected void step(TaskCpu cpu) {
    if (starting(cpu) || continueThink(cpu)) {
      return;
    }
    if (verifyPool != null) {
      verifyPool.start(this, cpu); // verify_async_init(), in thread_main() before the I/O
    }
    switch (phase) {
      case PREP:
        prep(cpu);
        return;
      case CALL:
        if (rateLimited(op)) {
          long wait = rateWaitNs(op, cpu.now());
          if (wait > 0) {
            if (outOfTime(cpu.now())) {
              finish(cpu); // the runtime ended while the I/O waited for its rate
              return;
            }
            rateSleep(cpu, wait);
            return;
          }
          rateIssued(op, len);
        }
        issueNs = cpu.now();
        replayIssued(issueNs);
        long coldNs = bufferColdNs(cpu, 1, len);
        if (coldNs > 0) {
          phase = Phase.COLD_COPY;
          cpu.runFor(CpuMode.SYSTEM, coldNs);
          return;
        }
        // fall through
      case COLD_COPY:
        call = op == ReqOp.READ ? file.pread(ioOffset, len) : file.pwrite(ioOffset, len);
        phase = Phase.IN_CALL;
        if (!call.step(cpu)) {
          return;
        }
        returned(cpu);
        return;
      case IN_CALL:
        if (!call.step(cpu)) {
          return;
        }
        returned(cpu);
        return;
      case IN_SYNC:
        if (!call.step(cpu)) {
          return;
        }
        call = null;
        syncReturned(cpu.now());
        prep(cpu);
        return;
      case IN_RESET:
        if (!call.step(cpu)) {
          return;
        }
        call = null;
        if (resetInstead) {
          // zbd_do_io_u_trim(): the trim completed as the zone reset.
          completed(1);
          prep(cpu);
          return;
        }
        issuePrepared(cpu);
        return;
      default:
        throw new IllegalStateException(job.name() + ": step in phase " + phase);
    }
  }

  private void prep(TaskCpu cpu) {
    while (verifyPool != null && verifyPool.held() > 0) {
      // __get_io_u(): a sync engine has one io_u (iodepth is capped at 1); while a verify
      // thread holds it, fio waits on free_cond (for an I/O, a sync, or verify_async_exit()).
      if (!verifyPool.tryWaitFree(this)) {
        phase = Phase.PREP;
        cpu.sleep();
        return;
      }
    }
    if (thinking() || thinkDue()) {
      // thinktime: nothing is in flight with one I/O at a time.
      phase = Phase.PREP;
      if (think(cpu)) {
        return;
      }
    }
    int r = !replaying() || !mayIssue(cpu.now()) ? REPLAY_END : replayStep(cpu);
    if (r == REPLAY_SLEPT) {
      phase = Phase.PREP; // the record's delay: prep again when the sleep ends
      return;
    }
    if (replaying() && r == REPLAY_READY && replay().kind() == ReplayFeed.Kind.SYNC) {
      // An iolog sync/datasync or a blktrace flush: fsync(2)/fdatasync(2) of the device.
      boolean data = replay().datasync();
      replay().consume();
      syncStarted(cpu.now(), !data);
      startSync(cpu, data ? file.fdatasync() : file.fsync());
      return;
    }
    if (replaying() ? r == REPLAY_END : !mayIssue(cpu.now())) {
      if (job.endFsync() && writes > 0 && !endFsyncDone && !verifying()) {
        // end_fsync: the end of do_io() syncs the file once the writes are done, inside the
        // job's runtime and before thread_main() starts do_verify() (backend.c).
        endFsyncDone = true;
        logSync(cpu, false);
        syncStarted(cpu.now(), false);
        startSync(cpu, file.fsync());
        return;
      }
      if (!replaying() && beginVerify(cpu.now())) {
        // thread_main(): clear_io_state() closes the device; do_verify() syncs only files still
        // open (none), and get_next_verify() reopens it, where td_io_open_file()'s
        // invalidate=1 is ioctl(BLKFLSBUF): the page cache written back (no cache flush) and
        // dropped, so the verify reads reach the device. With invalidate=0 nothing is called.
        if (job.invalidate()) {
          startSync(cpu, file.flushBuf());
        } else {
          prep(cpu);
        }
        return;
      }
      if (verifyPool != null) {
        verifyPool.exit(cpu); // verify_async_exit(): every io_u was given back above
      }
      finish(cpu);
      return;
    }
    if (!replaying() && flowAhead()) {
      phase = Phase.PREP; // one I/O at a time: nothing to quiesce
      flowWait(cpu);
      return;
    }
    if (zbd() != null && !replaying()) {
      // zbd_adjust_block(): nothing is in flight with one I/O at a time.
      blksim.workload.fio.FioZbd.Action a = zbdNextIo(0);
      if (a == blksim.workload.fio.FioZbd.Action.EOF) {
        prep(cpu); // mayIssue() is now false: the job ends
        return;
      }
      if (a == blksim.workload.fio.FioZbd.Action.RESET_THEN_ACCEPT
          || a == blksim.workload.fio.FioZbd.Action.RESET_INSTEAD) {
        resetInstead = a == blksim.workload.fio.FioZbd.Action.RESET_INSTEAD;
        call = file.zoneMgmt(ReqOp.ZONE_RESET, zbd().zoneStart(zbd().resetZone()));
        phase = Phase.IN_RESET;
        if (call.step(cpu)) {
          throw new IllegalStateException(job.name() + ": a zone reset returned at once");
        }
        return;
      }
    } else {
      nextIo();
    }
    issuePrepared(cpu);
  }

  /** The prepared I/O goes to the call, after fio's user-space work for it. */
  private void issuePrepared(TaskCpu cpu) {
    op = ioOp;
    len = ioLen;
    recordedLatNs = ioRecordedLatNs;
    phase = Phase.CALL;
    // verify_async: a checked read's verify_io_u() is a verify thread's, once it completes.
    checkNs = verifyPool != null ? verifyReadNs() : 0;
    cpu.runFor(CpuMode.USER, costs.userNsPerIo() + verifyNs() - checkNs);
  }

  /** The call returned: fio records the latency and prepares the next I/O. */
  private void returned(TaskCpu cpu) {
    long ret = call.ret();
    call = null;
    long check = checkNs;
    checkNs = 0;
    if (fatalIoError(ret, op, ioOffset, len)) {
      if (measuring()) {
        // td_io_queue(): a sync engine's io_u that completed with an error is still marked in
        // the submit, complete and depth maps, as it is in total_io_u.
        stats.recordIssue(1);
        stats.recordSubmitBatch(1);
        stats.recordCompleteBatch(1);
      }
      completed(1);
      prep(cpu); // the job stops issuing and ends
      return;
    }
    if (zbd() != null) {
      zbd().completed(zbdDdir(op), ioOffset, len);
    }
    completed(1);
    if (check > 0) {
      verifyPool.hand(check, cpu); // verify_io_u_async(): the io_u goes to the verify threads
    }
    latencySample(cpu.now() - issueNs); // depth 1: the probe settles there (lat_target_*())
    if (measuring()) {
      long now = cpu.now();
      stats.recordIssue(1);
      stats.recordSubmitBatch(1);
      stats.recordCompleteBatch(1);
      stats.recordIo(ddir(op), len, -1, now - issueNs, now, ioOffset);
    }
    if (recordedLatNs >= 0) {
      replay().stats().latency(recordedLatNs, cpu.now() - issueNs);
    }
    latencyCheck(cpu.now());
    latencyQuiesced(); // one I/O at a time: nothing is in flight to quiesce
    if (op == ReqOp.WRITE) {
      writes++;
      // fsync=N / fdatasync=N: a sync after every N writes (fio's should_fsync()).
      if (job.fsyncBlocks() > 0 && writes % job.fsyncBlocks() == 0) {
        logSync(cpu, false);
        syncStarted(cpu.now(), true);
        startSync(cpu, file.fsync());
        return;
      }
      if (job.fdatasyncBlocks() > 0 && writes % job.fdatasyncBlocks() == 0) {
        logSync(cpu, true);
        syncStarted(cpu.now(), false);
        startSync(cpu, file.fdatasync());
        return;
      }
    }
    prep(cpu);
  }

  /**
   * Starts an fsync or fdatasync (or BLKFLSBUF); one that {@link #syncStarted} timed goes into
   * fio's sync statistics when it returns.
   */
  private void startSync(TaskCpu cpu, SystemCall sync) {
    call = sync;
    phase = Phase.IN_SYNC;
    if (call.step(cpu)) {
      call = null;
      syncReturned(cpu.now());
      prep(cpu);
    }
  }
}
