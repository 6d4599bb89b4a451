package blksim.workload.fio.thread;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import blksim.kernel.sched.Completion;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.TaskCpu;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.stats.JobStats;
import java.util.function.IntFunction;

/**
 * A fio job thread with a synchronous engine ({@code psync}, {@code sync}, {@code pvsync}): one
 * I/O in flight (mirrors fio's {@code do_io()} with {@code FIO_SYNCIO} engines).
 *
 * <p>Per I/O: fio's user-space work (user time), the system call up to {@code submit_bio()} and
 * the block layer's submission cost (system time), the driver issue; then the thread sleeps until
 * the completion wakes it (one voluntary context switch), finishes the system call (system time)
 * and records the latency. As in fio, {@code clat} runs from just before the system call to its
 * return, and {@code slat} is not measured for synchronous engines. A driver that completes
 * inline (brd, zram) never puts the thread to sleep.
 *
 * <p>Buffered reads ({@code direct=0}) take the page-cache miss path of kernel-model.md §5.6
 * ({@code filemap_read()}): a readahead bio (REQ_RAHEAD) for the page, a wait for it, and if it
 * failed (dm-zero kills readahead) a synchronous single-page read ({@code ->read_folio}) and a
 * second wait; then the copy to the user buffer. Simplified: every read misses (fio's random map
 * never reads a block twice per pass; cached pages are not kept) and readahead is limited to the
 * requested page (fio sets POSIX_FADV_RANDOM for random jobs; sequential readahead windows are not
 * modelled). Buffered writes need the writeback model and are refused at load time.
 */
public final class PsyncThread extends FioJobThread {
  private enum Phase {
    PREP,
    SUBMIT,
    ISSUE,
    WAIT,
    RETURN
  }

  private final PageCacheParams pageCache;
  private Phase phase = Phase.PREP;
  private long issueNs;
  private Bio bio;
  private Bio deviceBio;
  /** The bio's completion ({@code submit_bio_wait()} / the direct-I/O wait). */
  private final Completion done = new Completion();
  private int error;

  public PsyncThread(FioJob job, int globalJobNumber, int pid, IntFunction<BlockQueue> queues,
      FioCostParams costs, PageCacheParams pageCache, JobStats stats, long runSeed) {
    super(job, globalJobNumber, pid, queues, costs, stats, runSeed);
    this.pageCache = pageCache;
  }

  private boolean buffered() {
    return !job.direct() && bio.op() == ReqOp.READ;
  }

  @Override
  protected void step(TaskCpu cpu) {
    if (starting(cpu)) {
      return;
    }
    switch (phase) {
      case PREP:
        prep(cpu);
        return;
      case SUBMIT:
        phase = Phase.ISSUE;
        issueNs = cpu.now();
        if (buffered()) {
          // Page-cache miss: readahead of the one page, flagged REQ_RAHEAD.
          deviceBio = new Bio(bio.op(), bio.sector(), bio.sizeBytes(),
              bio.flags() | Bio.REQ_RAHEAD);
          cpu.runFor(CpuMode.SYSTEM, costs.syscallNs() + pageCache.missNs()
              + queue(cpu).submitCostNs(deviceBio));
        } else {
          deviceBio = bio;
          cpu.runFor(CpuMode.SYSTEM, costs.syscallNs() + queue(cpu).submitCostNs(bio));
        }
        return;
      case ISSUE:
        issue(cpu);
        return;
      case WAIT:
        waitForIo(cpu);
        return;
      case RETURN:
        if (measuring()) {
          long now = cpu.now();
          stats.recordIssue(1);
          stats.recordSubmitBatch(1);
          stats.recordCompleteBatch(1);
          stats.recordIo(ddir(bio), bio.sizeBytes(), -1, now - issueNs, now);
        }
        prep(cpu);
        return;
      default:
        throw new IllegalStateException(job.name() + ": step in phase " + phase);
    }
  }

  private void prep(TaskCpu cpu) {
    if (!mayIssue(cpu.now())) {
      finish(cpu);
      return;
    }
    bio = nextBio();
    phase = Phase.SUBMIT;
    cpu.runFor(CpuMode.USER, costs.userNsPerIo());
  }

  private void issue(TaskCpu cpu) {
    done.reinit();
    if (!queue(cpu).issue(deviceBio, (b, err) -> onComplete(cpu, err),
        () -> cpu.cpu().wake(this))) {
      cpu.sleep();
      return;
    }
    phase = Phase.WAIT;
    waitForIo(cpu);
  }

  /** {@code wait_for_completion()}: on at once if the bio completed inline, else sleep. */
  private void waitForIo(TaskCpu cpu) {
    if (done.tryWait(this)) {
      ioDone(cpu);
    } else {
      cpu.sleep();
    }
  }

  /** The device I/O finished: retry a failed readahead synchronously, or finish the call. */
  private void ioDone(TaskCpu cpu) {
    if (buffered() && (deviceBio.flags() & Bio.REQ_RAHEAD) != 0 && error != 0) {
      // The page is not up to date: ->read_folio() reads it without REQ_RAHEAD and waits again.
      deviceBio = new Bio(bio.op(), bio.sector(), bio.sizeBytes(), bio.flags());
      phase = Phase.ISSUE;
      cpu.runFor(CpuMode.SYSTEM, queue(cpu).submitCostNs(deviceBio));
      return;
    }
    phase = Phase.RETURN;
    long copy = buffered() ? pageCache.copyNsPer4k() * Math.max(1, bio.sizeBytes() / 4096) : 0;
    cpu.runFor(CpuMode.SYSTEM, costs.syscallReturnNs() + copy);
  }

  private void onComplete(TaskCpu cpu, int err) {
    error = err;
    done.complete(cpu.cpu());
  }
}
