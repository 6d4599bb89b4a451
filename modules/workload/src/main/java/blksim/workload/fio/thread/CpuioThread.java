package blksim.workload.fio.thread;

import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.TaskCpu;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.stats.JobStats;

/**
 * A fio job with {@code ioengine=cpuio} (fio's engines/cpu.c): no file, no system call, no
 * device ({@code FIO_SYNCIO | FIO_DISKLESSIO | FIO_NOIO}). Each "I/O" burns CPU in user space
 * and the job then sleeps, so that it uses {@code cpuload} percent of a CPU:
 *
 * <ul>
 *   <li>{@code cpumode=noop} (the default): {@code fio_cpuio_queue()} spins
 *       {@code cpuchunks} microseconds ({@code usec_spin()}, default 50,000); the thinktime
 *       {@code fio_cpuio_init()} sets is {@code cpuchunks * (100 - cpuload) / cpuload}
 *       microseconds after every I/O ({@code thinktime_blocks=1}, no spin), a sleep;
 *   <li>{@code cpumode=qsort}: each I/O is one {@code do_qsort()} round, which costs
 *       {@code costs.fio.cpuio-qsort-round} of user time here; fio then takes the round's
 *       measured time as its {@code cpucycle} and sets the thinktime from it, which the model
 *       does with the round's time from its start to its end (longer than the cost when the job
 *       was preempted);
 *   <li>{@code exit_on_io_done=1}: before each I/O the job ends if no job of the run that does
 *       I/O is running or pending ({@code fio_running_or_pending_io_threads()}; a run of cpuio
 *       jobs alone never ends this way, as in fio).
 * </ul>
 *
 * <p>fio's report of such a job: each I/O is a completion of 0 bytes (the io_u of a
 * {@code FIO_NOIO} engine is never filled), so the job block has no read or write line, but its
 * latency distribution (the I/O's clat, the chunk) and its {@code cpu : usr=} line, which is
 * what cpuio is run for, and {@code issued rwts: total=N,0,0,0}.
 *
 * <p>Simplified: fio's {@code usec_spin()} spins until the wall clock has moved by the chunk, so
 * a preempted spin burns less CPU than the chunk; here a chunk is always {@code cpuchunks} of
 * CPU time (under contention it takes longer); fio's own per-I/O user work is not added.
 */
public final class CpuioThread extends FioJobThread {
  private final long noopChunkNs;
  private final long qsortRoundNs;
  private final boolean qsort;
  private boolean burning;
  private long chunkStartNs;
  /** cpumode=qsort: fio's {@code o->thinktime} from the last round's time. */
  private long qsortThinkNs;

  /**
   * @param costs fio's costs (the qsort round's, for {@code cpumode=qsort})
   */
  public CpuioThread(FioJob job, int globalJobNumber, int pid, FioCostParams costs,
      JobStats stats, long runSeed) {
    // No file and no size: the region is one block, and no I/O of the pattern is ever taken
    // from it, so only the runtime (or exit_on_io_done) ends the job, as in fio.
    super(job, globalJobNumber, pid, Math.max(1, job.bs()[0]), costs, stats, runSeed);
    this.noopChunkNs = job.cpuchunksUs() * 1_000L;
    this.qsortRoundNs = costs.cpuioQsortRoundNs();
    this.qsort = job.cpumode().equals("qsort");
    // fio_cpuio_init() sets the thinktime from cpuchunks, whatever the mode.
    this.qsortThinkNs = job.thinktimeNs();
  }

  /**
   * The line fio's {@code noop_init()} / {@code qsort_init()} logs when the job's thread starts,
   * e.g. {@code burn (noop): ioengine=cpuio, cpuload=50, cpucycle=50000}.
   */
  public static String initLine(FioJob job) {
    return job.name() + " (" + job.cpumode() + "): ioengine=cpuio, cpuload=" + job.cpuload()
        + ", cpucycle=" + job.cpuchunksUs();
  }

  @Override
  protected long thinktimeNs() {
    return qsort ? qsortThinkNs : job.thinktimeNs();
  }

  @Override
  protected void step(TaskCpu cpu) {
    if (starting(cpu) || continueThink(cpu)) {
      return;
    }
    long now = cpu.now();
    if (burning) {
      burning = false;
      if (measuring()) {
        stats.recordIssue(1);
        stats.recordSubmitBatch(1);
        stats.recordCompleteBatch(1);
        stats.recordIo(0, 0, -1, now - chunkStartNs, now);
      }
      completed(1);
      if (qsort) {
        // do_qsort(): cpucycle = utime_since(start, now); thinktime = cpucycle * (100 - load)
        // / load, in microseconds.
        long cycleUs = (now - chunkStartNs) / 1_000L;
        qsortThinkNs = cycleUs * (100 - job.cpuload()) / job.cpuload() * 1_000L;
      }
    }
    if (thinking() || thinkDue()) {
      if (think(cpu)) {
        return;
      }
    }
    if (!mayIssue(now) || job.exitOnIoDone() && sequencer() != null
        && sequencer().runningOrPendingIoJobs() == 0) {
      finish(cpu);
      return;
    }
    burning = true;
    chunkStartNs = now;
    cpu.runFor(CpuMode.USER, qsort ? qsortRoundNs : noopChunkNs);
  }
}
