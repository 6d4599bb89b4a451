package blksim.workload.fio.thread;

import blksim.kernel.block.ReqOp;
import blksim.kernel.mm.AnonMapping;
import blksim.kernel.mm.FaultCosts;
import blksim.kernel.mm.PageCacheParams;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.TaskCpu;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.stats.JobStats;

/**
 * A fio job with {@code ioengine=page_fault} (fio's engines/page_fault.c, a synchronous,
 * diskless engine): at init one private anonymous mapping of the job's {@code size}
 * ({@code mmap(MAP_PRIVATE | MAP_ANONYMOUS)}, {@link FaultCosts#mmapNs}); each I/O, after fio's
 * own user time, is a {@code memcpy()} of {@code bs} bytes from or into the mapping at the I/O's
 * offset: the page faults of its first touches ({@link AnonMapping}: a read maps the zero page, a
 * write allocates and zeroes a page), system time, then the copy
 * ({@link PageCacheParams#copyNs}), user time. Its completion latency is the two together; a sync
 * does nothing. At the end (fio's cleanup, after the job's clock stopped) the mapping is
 * {@code munmap()}ed ({@link FaultCosts#unmapPerPageNs} per mapped page). fio's {@code majf} is 0
 * and its {@code minf} the mapping's faults.
 *
 * <p>Simplified: the faults of one I/O are one burst before its copy; no memory limit (no reclaim
 * or swap of the anonymous pages, whatever {@code size} is); no THP (see {@link AnonMapping});
 * {@code rate} is honoured as by the null engine, between I/Os.
 */
public final class PageFaultThread extends FioJobThread {
  private static final int IDLE = 0;
  private static final int PREPARED = 1;
  private static final int COPY = 2;
  private static final int DONE = 3;
  private static final int EXITING = 4;
  private static final int EINVAL = 22;

  private final AnonMapping map;
  private final long sizeBytes;
  private final FaultCosts faults;
  private final PageCacheParams copy;
  private boolean mapped;
  private int stage = IDLE;
  private long issueNs;

  /**
   * @param faults the fault and mmap costs ({@code costs.mm.*})
   * @param copy the copy's cost per 4 KiB ({@code costs.page-cache.copy})
   */
  public PageFaultThread(FioJob job, int globalJobNumber, int pid, FaultCosts faults,
      PageCacheParams copy, FioCostParams costs, JobStats stats, long runSeed) {
    super(job, globalJobNumber, pid, job.sizeBytes(), costs, stats, runSeed);
    this.sizeBytes = job.sizeBytes();
    this.map = new AnonMapping(job.sizeBytes());
    this.faults = faults;
    this.copy = copy;
  }

  /** The job's mapping. */
  public AnonMapping mapping() {
    return map;
  }

  @Override
  protected long[] pageFaults() {
    return new long[] {0, map.faults()};
  }

  @Override
  protected void step(TaskCpu cpu) {
    if (stage == EXITING) {
      finish(cpu);
      return;
    }
    if (starting(cpu) || continueThink(cpu)) {
      return;
    }
    if (!mapped) {
      mapped = true; // fio_page_fault_init(): the mmap() of size bytes
      cpu.runFor(CpuMode.SYSTEM, faults.mmapNs());
      return;
    }
    long now = cpu.now();
    if (stage == PREPARED && rateLimited(ioOp)) {
      long wait = rateWaitNs(ioOp, now);
      if (wait > 0 && !outOfTime(now)) {
        rateSleep(cpu, wait);
        return;
      }
      if (wait > 0) {
        stage = IDLE; // the runtime ended while it waited: never queued
      } else {
        rateIssued(ioOp, ioLen);
      }
    }
    if (stage == PREPARED) {
      issueNs = now;
      if (ioOffset < 0 || ioOffset + ioLen > sizeBytes) {
        // fio_page_fault_queue(): io_u->error = EINVAL.
        if (stats.error() == 0) {
          stats.setError(EINVAL);
        }
        stage = IDLE;
        end(cpu);
        return;
      }
      stage = COPY;
      long sys = map.touch(ioOffset, ioLen, ioOp == ReqOp.WRITE, faults);
      if (sys > 0) {
        cpu.runFor(CpuMode.SYSTEM, sys);
        return;
      }
    }
    if (stage == COPY) {
      stage = DONE;
      cpu.runFor(CpuMode.USER, copy.copyNs(ioLen));
      return;
    }
    if (stage == DONE) {
      if (measuring()) {
        stats.recordIssue(1);
        stats.recordSubmitBatch(1);
        stats.recordCompleteBatch(1);
        stats.recordIo(ddir(ioOp), ioLen, -1, now - issueNs, now);
      }
      completed(1);
      stage = IDLE;
    }
    if (thinking() || thinkDue()) {
      if (think(cpu)) {
        return;
      }
    }
    if (!mayIssue(now)) {
      end(cpu);
      return;
    }
    nextIo();
    stage = PREPARED;
    cpu.runFor(CpuMode.USER, costs.userNsPerIo());
  }

  /** The clock stops; fio's cleanup unmaps the mapping; then the thread exits. */
  private void end(TaskCpu cpu) {
    stopStats(cpu);
    stage = EXITING;
    long pages = map.unmap();
    cpu.runFor(CpuMode.SYSTEM, faults.mmapNs() + pages * faults.unmapPerPageNs());
  }
}
