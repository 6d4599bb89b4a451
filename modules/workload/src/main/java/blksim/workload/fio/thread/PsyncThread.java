package blksim.workload.fio.thread;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.TaskCpu;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.stats.JobStats;

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
 */
public final class PsyncThread extends FioJobThread {
  private enum Phase {
    PREP,
    SUBMIT,
    ISSUE,
    WAIT,
    RETURN
  }

  private Phase phase = Phase.PREP;
  private long issueNs;
  private Bio bio;
  private boolean completed;

  public PsyncThread(FioJob job, int globalJobNumber, int pid, BlockQueue queue,
      FioCostParams costs, JobStats stats, long runSeed) {
    super(job, globalJobNumber, pid, queue, costs, stats, runSeed);
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
        cpu.runFor(CpuMode.SYSTEM, costs.syscallNs() + queue.submitCostNs(bio));
        return;
      case ISSUE:
        issue(cpu);
        return;
      case WAIT:
        phase = Phase.RETURN;
        cpu.runFor(CpuMode.SYSTEM, costs.syscallReturnNs());
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
    completed = false;
    if (!queue.issue(bio, (b, err) -> onComplete(cpu), () -> cpu.cpu().wake(this))) {
      cpu.sleep();
      return;
    }
    if (completed) {
      phase = Phase.RETURN;
      cpu.runFor(CpuMode.SYSTEM, costs.syscallReturnNs());
    } else {
      phase = Phase.WAIT;
      cpu.sleep();
    }
  }

  private void onComplete(TaskCpu cpu) {
    completed = true;
    cpu.cpu().wake(this);
  }
}
