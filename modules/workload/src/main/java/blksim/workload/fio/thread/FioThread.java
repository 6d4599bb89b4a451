package blksim.workload.fio.thread;

import blksim.engine.Seeds;
import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.sched.TaskReport;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.FioRw;
import blksim.workload.fio.stats.JobStats;
import java.util.SplittableRandom;

/**
 * One fio job thread with a synchronous engine ({@code psync}, {@code sync}, {@code pvsync}):
 * mirrors fio's {@code thread_main()} / {@code do_io()} loop with one I/O in flight.
 *
 * <p>Per I/O: fio's user-space work (user time), the system call up to {@code submit_bio()} and
 * the block layer's submission cost (system time), the driver issue; then the thread sleeps until
 * the completion wakes it (one voluntary context switch), finishes the system call (system time)
 * and records the latency. As in fio, {@code clat} runs from just before the system call to its
 * return, and {@code slat} is not measured for synchronous engines.
 *
 * <p>Simplified: offsets of random patterns are drawn uniformly with replacement (fio's random
 * map, which visits each block once per loop, is not modelled: {@code norandommap} behaviour);
 * {@code thinktime}, {@code rate} and mixed block sizes are not modelled.
 */
public final class FioThread extends Task {
  /** {@link TaskReport#kind()} of a fio job's report. */
  public static final String KIND = "fio-job";

  private enum Phase {
    START,
    PREP,
    SUBMIT,
    ISSUE,
    WAIT,
    RETURN,
    DONE
  }

  private final FioJob job;
  private final int jobNumber;
  private final BlockQueue queue;
  private final FioCostParams costs;
  private final JobStats stats;
  private final SplittableRandom random;
  private final long regionStart;
  private final long regionBytes;
  private final long ioBudgetBytes;

  private Phase phase = Phase.START;
  private long startNs = -1;
  private long rampEndNs;
  private long stopNs = Long.MAX_VALUE;
  private boolean measuring;
  private long issuedBytes;
  private long seqPos;
  private long issueNs;
  private Bio bio;
  private boolean completed;
  private long usr0;
  private long sys0;
  private long ctx0;

  /**
   * @param job the fio job
   * @param globalJobNumber the job's number among all jobs of the run (fio's thread number)
   * @param queue the device queue the job submits to, on its CPU
   * @param runSeed the run seed (used unless the job sets {@code randseed})
   */
  public FioThread(FioJob job, int globalJobNumber, int pid, BlockQueue queue,
      FioCostParams costs, JobStats stats, long runSeed) {
    super(job.name(), pid, 0);
    this.job = job;
    this.jobNumber = globalJobNumber;
    this.queue = queue;
    this.costs = costs;
    this.stats = stats;
    long seed = job.randseedSet() ? job.randseed() : runSeed;
    this.random = new SplittableRandom(
        Seeds.forComponent(seed, "fio/" + job.name() + "/" + globalJobNumber));
    long capacity = queue.capacityBytes();
    long offset = job.offsetBytes();
    long size = job.sizeBytes() > 0 ? job.sizeBytes()
        : job.sizePercent() > 0 ? (long) (capacity * job.sizePercent() / 100.0)
        : capacity - offset;
    this.regionStart = offset;
    this.regionBytes = Math.min(size, capacity - offset);
    long budget = job.ioSizeBytes() > 0 ? job.ioSizeBytes() : regionBytes;
    this.ioBudgetBytes = budget * Math.max(1, job.loops());
  }

  @Override
  public boolean keepsRunAlive() {
    return true;
  }

  @Override
  protected void step(TaskCpu cpu) {
    switch (phase) {
      case START:
        start(cpu);
        return;
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
        complete(cpu);
        prep(cpu);
        return;
      default:
        throw new IllegalStateException(job.name() + ": step in phase " + phase);
    }
  }

  private void start(TaskCpu cpu) {
    if (startNs < 0 && job.startDelayNs() > 0) {
      startNs = cpu.now() + job.startDelayNs();
      cpu.cpu().callAfter(job.startDelayNs(), () -> cpu.cpu().wake(this));
      cpu.sleep();
      return;
    }
    startNs = cpu.now();
    rampEndNs = startNs + job.rampTimeNs();
    if (job.runtimeNs() > 0) {
      stopNs = rampEndNs + job.runtimeNs();
    }
    if (job.rampTimeNs() == 0) {
      beginMeasuring(cpu.now());
    }
    phase = Phase.PREP;
    prep(cpu);
  }

  private void beginMeasuring(long now) {
    measuring = true;
    usr0 = utimeNs();
    sys0 = stimeNs();
    ctx0 = nvcsw() + nivcsw();
    stats.startMeasurement(now);
  }

  private void prep(TaskCpu cpu) {
    long now = cpu.now();
    if (!measuring && now >= rampEndNs) {
      beginMeasuring(now);
    }
    boolean outOfTime = now >= stopNs;
    boolean outOfData = !job.timeBased() && issuedBytes >= ioBudgetBytes;
    if (outOfTime || outOfData || regionBytes <= 0) {
      finish(cpu);
      return;
    }
    bio = nextBio();
    phase = Phase.SUBMIT;
    cpu.runFor(CpuMode.USER, costs.userNsPerIo());
  }

  private Bio nextBio() {
    FioRw rw = job.rw();
    boolean read;
    if (rw.reads() && rw.writes()) {
      read = random.nextInt(100) < job.rwmixread();
    } else {
      read = rw.reads();
    }
    ReqOp op = read ? ReqOp.READ : ReqOp.WRITE;
    long bs = job.bs()[read ? 0 : 1];
    long blocks = Math.max(1, regionBytes / bs);
    long offset;
    if (rw.isRandom()) {
      offset = regionStart + random.nextLong(blocks) * bs;
    } else {
      offset = regionStart + (seqPos % blocks) * bs;
      seqPos++;
    }
    issuedBytes += bs;
    return new Bio(op, offset >>> 9, (int) bs, Bio.REQ_SYNC);
  }

  private void issue(TaskCpu cpu) {
    completed = false;
    if (!queue.issue(bio, (b, err) -> onComplete(cpu), () -> cpu.cpu().wake(this))) {
      cpu.sleep();
      return;
    }
    phase = Phase.WAIT;
    if (completed) {
      phase = Phase.RETURN;
      cpu.runFor(CpuMode.SYSTEM, costs.syscallReturnNs());
    } else {
      cpu.sleep();
    }
  }

  private void onComplete(TaskCpu cpu) {
    completed = true;
    cpu.cpu().wake(this);
  }

  private void complete(TaskCpu cpu) {
    long now = cpu.now();
    if (measuring) {
      int ddir = bio.op() == ReqOp.READ ? 0 : 1;
      stats.recordIssue(1);
      stats.recordSubmitBatch(1);
      stats.recordCompleteBatch(1);
      stats.recordIo(ddir, bio.sizeBytes(), -1, now - issueNs, now);
    }
  }

  private void finish(TaskCpu cpu) {
    long now = cpu.now();
    if (!measuring) {
      beginMeasuring(now);
    }
    stats.finish(now);
    stats.setCpu(utimeNs() - usr0, stimeNs() - sys0, nvcsw() + nivcsw() - ctx0);
    phase = Phase.DONE;
    cpu.exit();
  }

  @Override
  public TaskReport report(long endNs) {
    return new TaskReport(reportName(jobNumber), KIND, stats.encode());
  }

  /** The task-report name of job number {@code n}: {@code fio/n}. */
  public static String reportName(int n) {
    return "fio/" + n;
  }

  /** The job number from a task-report name made by {@link #reportName}. */
  public static int jobNumber(String reportName) {
    return Integer.parseInt(reportName.substring(4));
  }

  /** The statistics this thread records into. */
  public JobStats stats() {
    return stats;
  }
}
