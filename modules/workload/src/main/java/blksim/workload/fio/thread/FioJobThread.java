package blksim.workload.fio.thread;

import blksim.engine.Seeds;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import blksim.kernel.fs.BlockDeviceFile;
import blksim.kernel.mm.AddressSpace;
import blksim.kernel.mm.PageCache;
import blksim.kernel.mm.PageCacheParams;
import blksim.kernel.mm.WritebackParams;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.sched.TaskReport;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.syscall.SyscallParams;
import blksim.kernel.timer.HrtimerSleep;
import blksim.kernel.timer.TimerParams;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.IoPattern;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.replay.ReplayFeed;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * What every simulated fio job thread shares, whatever its engine: the access pattern, the
 * run-time and size limits, ramp time, and the statistics (mirrors the engine-independent parts
 * of fio's {@code thread_main()} and {@code do_io()}). A fio thread is user space only: it opens
 * its device ({@link BlockDeviceFile}) and makes system calls on it; the kernel does the rest.
 *
 * <p>The access pattern (directions, offsets, sizes, random map) is {@link IoPattern}'s; the start
 * of a sequenced job ({@code stonewall}, {@code wait_for}, {@code exitall}) is
 * {@link JobSequencer}'s.
 *
 * <p>{@code rate} and {@code rate_iops} are fio's {@code rate_ddir()} and {@code usec_for_io()}
 * (io_u.c, backend.c): after each issue the next I/O of that direction is due when the bytes
 * issued since the start of the measurement would have taken at the rate ({@code linear}), or a
 * exponentially distributed gap later ({@code rate_process=poisson}); an I/O that is early waits,
 * after the engine has quiesced ({@code io_submit_mode=inline}), in a {@code nanosleep()} made late
 * by the timer slack, which the next I/Os then catch up. Simplified: the direction of the next
 * I/O is drawn before its rate is checked, so fio's switch to the other direction of an
 * {@code rw=randrw} job when only one is ahead is not modelled; {@code rate_min},
 * {@code rate_cycle} and {@code rate_ignore_thinktime} are not modelled.
 *
 * <p>{@code thinktime} is fio's {@code handle_thinktime()} (backend.c): once
 * {@code thinktime_blocks} more I/Os have completed (fio's default
 * {@code thinktime_blocks_type=complete}), the job waits for every I/O in flight
 * ({@code io_u_quiesce()}, the engine's part), spins {@code thinktime_spin} in user space, then
 * sleeps the rest of {@code thinktime} with {@code nanosleep()} (fio's {@code usec_sleep()}), cut
 * to the runtime left. The sleep is an hrtimer with the task's timer slack, woken at its hard
 * expiry, request plus slack (see {@link HrtimerSleep}); fio's loop around a nanosleep that
 * returns early is not needed, as the model's never does. {@code thinktime_iotime} and
 * {@code rate_ignore_thinktime} are not modelled.
 *
 * <p>{@code read_iolog}: the job issues its trace's records instead of its pattern
 * ({@link ReplayFeed}, timed by {@link #replayStep}); it ends at the end of the trace (or its
 * runtime), whatever its size.
 */
public abstract class FioJobThread extends Task {
  /** {@link TaskReport#kind()} of a fio job's report. */
  public static final String KIND = "fio-job";

  protected final FioJob job;
  /** The job's file: its block device, opened when the thread is created. */
  protected final BlockDeviceFile file;
  protected final FioCostParams costs;
  protected final JobStats stats;
  private final int jobNumber;
  private final long regionBytes;
  private final long ioBudgetBytes;
  private final IoPattern pattern;
  private JobSequencer sequencer;
  private boolean gateSleeping;
  private boolean delayArmed;
  private long issuedIos;
  private final blksim.workload.fio.SteadyState steady;

  private long startNs = -1;
  private long rampEndNs;
  private long stopNs = Long.MAX_VALUE;
  private boolean measuring;
  private boolean started;
  private long issuedBytes;
  /** The next I/O, from {@link #nextIo}: its direction, offset and length (fio's io_u). */
  protected ReqOp ioOp;
  protected long ioOffset;
  protected int ioLen;
  private long usr0;
  private long sys0;
  private long ctx0;
  private HrtimerSleep sleeper;
  private long timerSlackNs;
  private long completedIos;
  private long lastThinkIos;
  private boolean thinkSpun;
  /** {@code read_iolog}: the trace this job replays instead of its pattern, or null. */
  private final ReplayFeed replay;
  /** {@code write_iolog}: the log of the I/Os this job queues, or null. */
  private final blksim.workload.replay.IologWriter iolog;
  private long lastIssueNs;
  private long timeOffsetNs;
  private boolean replaySleeping;
  private long replaySleepStartNs;
  private long replayOrigDelayNs;
  /** The recorded latency of the I/O {@link #nextIo} prepared, or -1. */
  protected long ioRecordedLatNs = -1;
  private final long[] rateBps = new long[2];
  private final long[] rateIssueBytes = new long[2];
  private final long[] rateNextNs = new long[2];
  private long rateEpochNs;
  private final SplittableRandom poisson;

  /**
   * @param job the fio job
   * @param globalJobNumber the job's number among all jobs of the run (fio's thread number)
   * @param pid its thread id
   * @param queues the device's queue on each CPU, by CPU id: the kernel submits to the queue of
   *     the CPU the job runs on, as {@code blk_mq_map_queue()} maps the submitting CPU
   * @param syscalls the kernel's system-call costs
   * @param pageCache the page cache's costs (buffered reads)
   * @param runSeed the run seed (used unless the job sets {@code randseed})
   */
  protected FioJobThread(FioJob job, int globalJobNumber, int pid, IntFunction<BlockQueue> queues,
      FioCostParams costs, SyscallParams syscalls, PageCacheParams pageCache, JobStats stats,
      long runSeed) {
    this(job, globalJobNumber, pid, queues, costs, syscalls, pageCache, stats, runSeed, null, null,
        null);
  }

  /**
   * A thread whose device has a page cache ({@code mapping} in {@code pc}): buffered writes go
   * there.
   */
  protected FioJobThread(FioJob job, int globalJobNumber, int pid, IntFunction<BlockQueue> queues,
      FioCostParams costs, SyscallParams syscalls, PageCacheParams pageCache, JobStats stats,
      long runSeed, PageCache pc, AddressSpace mapping, WritebackParams wbCosts) {
    // fio opens the job's file before its first I/O (open costs no CPU time in the model).
    this(job, globalJobNumber, pid, t -> BlockDeviceFile.open(t, queues, job.direct(), syscalls,
        pageCache, pc, mapping, wbCosts), 0, costs, stats, runSeed);
  }

  /**
   * A thread whose I/O goes to a file of a filesystem rather than to a block device: it has no
   * {@link #file}; its region is the file's {@code capacityBytes} ({@code filesize}/{@code size}).
   */
  protected FioJobThread(FioJob job, int globalJobNumber, int pid, long capacityBytes,
      FioCostParams costs, JobStats stats, long runSeed) {
    this(job, globalJobNumber, pid, null, capacityBytes, costs, stats, runSeed);
  }

  private FioJobThread(FioJob job, int globalJobNumber, int pid,
      java.util.function.Function<Task, BlockDeviceFile> opener, long capacityBytes,
      FioCostParams costs, JobStats stats, long runSeed) {
    super(job.name(), pid, job.nice());
    this.job = job;
    this.jobNumber = globalJobNumber;
    this.file = opener == null ? null : opener.apply(this);
    if (file != null && job.fadviseAdvice() >= 0) {
      // td_io_open_file(): fio's fadvise_hint, for block devices too (only a buffered reader
      // with a page cache notices it: its readahead).
      file.adviseReadahead(job.fadviseAdvice());
    }
    this.costs = costs;
    this.stats = stats;
    long seed = job.randseedSet() ? job.randseed() : runSeed;
    SplittableRandom random = new SplittableRandom(
        Seeds.forComponent(seed, "fio/" + job.name() + "/" + globalJobNumber));
    long capacity = file != null ? file.sizeBytes() : capacityBytes;
    // get_start_offset(): clone k of numjobs starts offset_increment·k further.
    long offset = job.offsetBytes() + job.jobIndex() * job.offsetIncrementBytes();
    long size = job.sizeBytes() > 0 ? job.sizeBytes()
        : job.sizePercent() > 0 ? (long) (capacity * job.sizePercent() / 100.0)
        : capacity - job.offsetBytes();
    this.regionBytes = Math.min(size, capacity - offset);
    long budget = job.ioSizeBytes() > 0 ? job.ioSizeBytes() : regionBytes;
    this.ioBudgetBytes = budget * Math.max(1, job.loops());
    for (int d = 0; d < 2; d++) {
      rateBps[d] = job.rateBytesPerSec(d);
    }
    this.poisson = job.ratePoisson() ? new SplittableRandom(
        Seeds.forComponent(seed, "fio-rate/" + job.name() + "/" + globalJobNumber)) : null;
    this.steady = blksim.workload.fio.SteadyState.of(job);
    this.pattern = regionBytes > 0
        ? new IoPattern(job, offset, regionBytes, capacity, random) : null;
    this.replay = job.replay() == null ? null : new ReplayFeed(job.replay(), job.jobIndex(),
        job.filename(), capacity, true);
    // init_iolog(): a job that reads an iolog does not write one (read_iolog wins).
    this.iolog = job.writeIolog() == null || job.replay() != null ? null
        : new blksim.workload.replay.IologWriter(
        java.nio.file.Path.of(job.writeIolog()),
        job.filename() != null ? job.filename() : job.name());
  }

  /**
   * Puts the job under the run's sequencer ({@code stonewall}, {@code wait_for},
   * {@code exitall}); before the run starts.
   */
  public void setSequencer(JobSequencer s) {
    this.sequencer = s;
    s.register(jobNumber, this);
  }

  /** Whether the thread sleeps until the sequencer lets it start. */
  boolean waitingToStart() {
    return gateSleeping;
  }

  @Override
  public boolean keepsRunAlive() {
    return true;
  }

  /**
   * Handles {@code startdelay} and ramp set-up on the first step. Returns true when the thread
   * went to sleep for its start delay (the caller returns at once).
   */
  protected final boolean starting(TaskCpu cpu) {
    if (started) {
      return false;
    }
    if (settingUp) {
      return setUpThenBegin(cpu);
    }
    if (sequencer != null) {
      return gate(cpu);
    }
    if (startNs < 0 && job.startDelayNs() > 0) {
      startNs = cpu.now() + job.startDelayNs();
      cpu.cpu().callAfter(job.startDelayNs(), () -> cpu.cpu().wake(this));
      cpu.sleep();
      return true;
    }
    settingUp = true;
    return setUpThenBegin(cpu);
  }

  /**
   * Work before the job's clock starts, after its start delay and sequencing (fio's
   * {@code setup_files()} in {@code thread_main()}): true while it takes actions (the thread
   * returns from its step and is called again), false once it is done. None by default.
   */
  protected boolean setUp(TaskCpu cpu) {
    return false;
  }

  private boolean settingUp;

  private boolean setUpThenBegin(TaskCpu cpu) {
    if (setUp(cpu)) {
      return true;
    }
    settingUp = false;
    begin(cpu);
    return false;
  }

  /**
   * The start of a sequenced job: its start delay (from the start of the run, as fio counts it
   * from {@code genesis}), then the sequencer's leave. Returns true when the thread sleeps or
   * ended.
   */
  private boolean gate(TaskCpu cpu) {
    gateSleeping = false;
    long now = cpu.now();
    if (sequencer.terminated(jobNumber)) {
      finish(cpu);
      return true;
    }
    if (now < job.startDelayNs()) {
      if (!delayArmed) {
        delayArmed = true;
        cpu.cpu().callAfter(job.startDelayNs() - now, () -> cpu.cpu().wake(this));
      }
      cpu.sleep();
      return true;
    }
    if (!sequencer.tryStart(jobNumber, now, cpu.cpu())) {
      gateSleeping = true;
      cpu.sleep();
      return true;
    }
    settingUp = true;
    return setUpThenBegin(cpu);
  }

  private void begin(TaskCpu cpu) {
    started = true;
    startNs = cpu.now();
    lastIssueNs = startNs;
    rampEndNs = startNs + job.rampTimeNs();
    if (iolog != null) {
      iolog.open(startNs);
    }
    if (job.runtimeNs() > 0) {
      stopNs = rampEndNs + job.runtimeNs();
    }
    if (job.rampTimeNs() == 0) {
      beginMeasuring(cpu.now());
    }
  }

  private boolean finished;

  private void beginMeasuring(long now) {
    // reset_all_stats() at the end of the ramp restarts the rate's clock and counts.
    rateEpochNs = now;
    java.util.Arrays.fill(rateIssueBytes, 0);
    java.util.Arrays.fill(rateNextNs, 0);
    measuring = true;
    usr0 = utimeNs();
    sys0 = stimeNs();
    ctx0 = nvcsw() + nivcsw();
    stats.startMeasurement(now);
  }

  /** Whether the job may start another I/O now (runtime and size limits). */
  protected final boolean mayIssue(long now) {
    if (!measuring && now >= rampEndNs) {
      beginMeasuring(now);
    }
    boolean outOfTime = now >= stopNs;
    boolean outOfData = replay != null ? !replay.peek()
        : !job.timeBased() && issuedBytes >= ioBudgetBytes;
    // number_ios ends the job early, never extends it.
    boolean outOfIos = job.numberIos() > 0 && issuedIos >= job.numberIos();
    boolean told = sequencer != null && sequencer.terminated(jobNumber);
    if (steady != null && steady.check(now - startNs,
        stats.totalIos(0) + stats.totalIos(1), stats.ioBytes(0) + stats.ioBytes(1))) {
      told = true;
    }
    return !(outOfTime || outOfData || outOfIos || told || (replay == null && regionBytes <= 0));
  }

  /** {@link #replayStep}: the current entry is an I/O or a sync, ready to issue. */
  protected static final int REPLAY_READY = 0;
  /** {@link #replayStep}: the thread sleeps (the caller returns from its step). */
  protected static final int REPLAY_SLEPT = 1;
  /** {@link #replayStep}: the trace is over. */
  protected static final int REPLAY_END = 2;

  /** Whether this job replays a trace ({@code read_iolog}). */
  protected final boolean replaying() {
    return replay != null;
  }

  /** The trace being replayed, or null. */
  protected final ReplayFeed replay() {
    return replay;
  }

  /**
   * Brings the replay to its next I/O or sync, as fio's {@code read_iolog_get()}: file actions
   * and v2 waits are handled here, and each entry's delay is slept with fio's
   * {@code iolog_delay()}: the delay counts from the previous issue ({@code td->last_issue}), so
   * time spent in the previous I/O is not slept again, and an oversleep beyond the delay
   * ({@code td->time_offset}) is taken off the next one. A v2 wait sleeps until its value in ms
   * after the job's start (fio's code compares it with {@code mtime_since_genesis()}; the HOWTO's
   * "µs relative to the previous wait" is not what fio does). Sleeps are nanosleep()s with the
   * task's timer slack, cut to the runtime left. Simplified: fio sleeps in chunks of at most
   * 500 ms; here one sleep.
   */
  protected final int replayStep(TaskCpu cpu) {
    while (true) {
      long now = cpu.now();
      if (replaySleeping) {
        replaySleeping = false;
        long slept = now - replaySleepStartNs;
        if (replayOrigDelayNs >= 0) {
          timeOffsetNs = slept > replayOrigDelayNs ? slept - replayOrigDelayNs : 0;
        }
      }
      if (!replay.peek() || now >= stopNs) {
        return REPLAY_END;
      }
      if (replay.kind() == ReplayFeed.Kind.WAIT) {
        long target = startNs + replay.waitMs() * 1_000_000L;
        long elapsedMs = (now - startNs) / 1_000_000L;
        if (replay.waitMs() > elapsedMs && !replay.delayDone()) {
          replay.markDelayDone();
          if (replaySleep(cpu, (replay.waitMs() - elapsedMs) * 1_000_000L, -1)) {
            return REPLAY_SLEPT;
          }
        }
        replay.consume();
        continue;
      }
      if (!replay.delayDone()) {
        replay.markDelayDone();
        if (iologDelay(cpu, replay.delayNs())) {
          return REPLAY_SLEPT;
        }
      }
      if (replay.kind() == ReplayFeed.Kind.ACTION) {
        lastIssueNs = cpu.now();
        replay.consume();
        continue;
      }
      return REPLAY_READY;
    }
  }

  /** fio's {@code iolog_delay()}; true when the thread went to sleep. */
  private boolean iologDelay(TaskCpu cpu, long delayNs) {
    long since = (cpu.now() - lastIssueNs) / 1000 * 1000;
    if (delayNs < timeOffsetNs) {
      timeOffsetNs = 0;
      return false;
    }
    long d = delayNs - timeOffsetNs;
    if (d < since) {
      return false;
    }
    d -= since;
    return d > 0 && replaySleep(cpu, d, delayNs);
  }

  private boolean replaySleep(TaskCpu cpu, long ns, long origDelayNs) {
    long left = ns;
    if (stopNs != Long.MAX_VALUE) {
      left = Math.min(left, Math.max(0, stopNs - cpu.now()));
    }
    if (left <= 0) {
      return false;
    }
    if (sleeper == null) {
      throw new IllegalStateException(job.name() + ": replay without the machine's timers");
    }
    replaySleeping = true;
    replaySleepStartNs = cpu.now();
    replayOrigDelayNs = origDelayNs;
    sleeper.hrtimerSleepNs(cpu, left + timerSlackNs);
    return true;
  }

  /**
   * The timers this thread's {@code nanosleep()} uses ({@code thinktime}); set by the machine
   * before the run. A job with a thinktime needs them.
   */
  public void setTimers(TimerParams timers, long slackNs) {
    this.sleeper = new HrtimerSleep(timers);
    this.timerSlackNs = slackNs;
  }

  /** The engine reports {@code n} completed I/Os (fio's {@code io_blocks}, for thinktime). */
  protected final void completed(int n) {
    completedIos += n;
  }

  /**
   * Whether a thinktime is due: {@code thinktime_blocks} more I/Os completed since the last one.
   * The engine then quiesces (waits for its I/Os in flight) and calls {@link #think}.
   */
  protected final boolean thinkDue() {
    return job.thinktimeNs() > 0 && completedIos >= lastThinkIos + job.thinktimeBlocks();
  }

  /**
   * Starts the first step of a due thinktime, with nothing in flight: the spin, then the sleep.
   * Returns true when it took an action (the caller returns from its step and calls again, with
   * {@link #continueThink} first); false when the thinktime is over.
   */
  protected final boolean think(TaskCpu cpu) {
    if (!thinkSpun) {
      thinkSpun = true;
      if (job.thinktimeSpinNs() > 0) {
        cpu.runFor(CpuMode.USER, job.thinktimeSpinNs());
        return true;
      }
    }
    thinkSpun = false;
    lastThinkIos = completedIos;
    long left = job.thinktimeNs() - job.thinktimeSpinNs();
    if (stopNs != Long.MAX_VALUE) {
      left = Math.min(left, Math.max(0, stopNs - cpu.now()));
    }
    if (left <= 0) {
      return false;
    }
    if (sleeper == null) {
      throw new IllegalStateException(job.name() + ": thinktime without the machine's timers");
    }
    sleeper.hrtimerSleepNs(cpu, left + timerSlackNs);
    return true;
  }

  /** Whether the job has a rate limit in direction {@code op}. */
  protected final boolean rateLimited(ReqOp op) {
    return rateBps[ddir(op)] > 0;
  }

  /**
   * How long an I/O of direction {@code op} must wait for the job's rate ({@code rate_ddir()}),
   * 0 if it may go now.
   */
  protected final long rateWaitNs(ReqOp op, long now) {
    int d = ddir(op);
    if (rateBps[d] == 0) {
      return 0;
    }
    return Math.max(0, rateEpochNs + rateNextNs[d] - now);
  }

  /** {@code usec_for_io()}: an I/O of {@code len} bytes of direction {@code op} was issued. */
  protected final void rateIssued(ReqOp op, long len) {
    int d = ddir(op);
    long bps = rateBps[d];
    if (bps == 0) {
      return;
    }
    rateIssueBytes[d] += len;
    if (poisson != null) {
      // iops = bps / bs; the gap is 1/iops scaled by -ln(U), U uniform in (0, 1].
      double iops = (double) bps / job.bs()[d];
      double u = 1.0 - poisson.nextDouble();
      rateNextNs[d] += (long) (1e9 / iops * -Math.log(u));
    } else {
      long b = rateIssueBytes[d];
      rateNextNs[d] = b / bps * 1_000_000_000L + (long) ((double) (b % bps) * 1e9 / bps);
    }
  }

  /**
   * Sleeps {@code waitNs} for the rate with {@code nanosleep()} (cut to the runtime left), after
   * the caller quiesced. Always takes an action.
   */
  protected final void rateSleep(TaskCpu cpu, long waitNs) {
    long ns = waitNs + timerSlackNs;
    if (stopNs != Long.MAX_VALUE) {
      ns = Math.min(ns, Math.max(0, stopNs - cpu.now()));
    }
    if (sleeper == null) {
      throw new IllegalStateException(job.name() + ": rate without the machine's timers");
    }
    sleeper.hrtimerSleepNs(cpu, ns);
  }

  /** Whether the job's runtime is over. */
  protected final boolean outOfTime(long now) {
    return now >= stopNs;
  }

  /** First in a step: true if a thinktime sleep is still running (the task blocked again). */
  protected final boolean continueThink(TaskCpu cpu) {
    return sleeper != null && sleeper.continueSleep(cpu);
  }

  /** Whether a thinktime has begun (spin charged) but not yet slept. */
  protected final boolean thinking() {
    return thinkSpun;
  }

  /** Whether statistics are being recorded (ramp time is over). */
  protected final boolean measuring() {
    return measuring;
  }

  /** The next I/O of the job's pattern, into {@link #ioOp}, {@link #ioOffset}, {@link #ioLen}. */
  protected final void nextIo() {
    if (replay != null) {
      ioOp = replay.op();
      ioOffset = replay.offset();
      ioLen = replay.length();
      ioRecordedLatNs = replay.recordedLatencyNs();
      replay.consume();
      issuedBytes += ioLen;
      issuedIos++;
      lastIssueNs = cpu().now();
      if (iolog != null) {
        iolog.io(lastIssueNs, ioOp, ioOffset, ioLen);
      }
      return;
    }
    nextIo(pattern);
    if (iolog != null) {
      iolog.io(cpu().now(), ioOp, ioOffset, ioLen);
    }
  }

  /**
   * The next I/O of {@code p} rather than of the job's own pattern (one of the job's files,
   * {@link FioFileSet}), counted against the job's limits as {@link #nextIo()} is.
   */
  protected final void nextIo(IoPattern p) {
    IoPattern pattern = p;
    pattern.next();
    long len = pattern.length();
    issuedBytes += len;
    issuedIos++;
    ioOp = pattern.read() ? ReqOp.READ : ReqOp.WRITE;
    ioOffset = pattern.offset();
    ioLen = (int) len;
  }

  /**
   * A sync the job queues itself ({@code fsync=N}, {@code fdatasync=N}, {@code end_fsync}): fio
   * logs its DDIR_SYNC/DDIR_DATASYNC io_u in {@code write_iolog} as it does any I/O.
   */
  protected final void logSync(TaskCpu cpu, boolean data) {
    if (iolog != null) {
      iolog.sync(cpu.now(), data);
    }
  }

  /** fio's ddir of an operation: 0 read, 1 write. */
  protected static int ddir(ReqOp op) {
    return op == ReqOp.READ ? 0 : 1;
  }

  /** Ends the job: closes its statistics and exits. */
  protected final void finish(TaskCpu cpu) {
    if (!finished) {
      closeStats(cpu.now());
    }
    if (iolog != null) {
      iolog.close(cpu.now());
    }
    if (sequencer != null) {
      sequencer.exited(jobNumber, cpu.now(), cpu.cpu());
    }
    cpu.exit();
  }

  /**
   * Ends the job's statistics now, before work that fio does after its clock stopped (closing
   * and unlinking files in {@code close_and_free_files()}); {@link #finish} then only exits.
   */
  protected final void stopStats(TaskCpu cpu) {
    if (!finished) {
      closeStats(cpu.now());
    }
  }

  private void closeStats(long now) {
    if (!measuring) {
      beginMeasuring(now);
    }
    stats.finish(now);
    if (steady != null) {
      stats.setSteadyState(steady.result());
    }
    stats.setCpu(utimeNs() - usr0, stimeNs() - sys0, nvcsw() + nivcsw() - ctx0);
    if (replay != null) {
      replay.close();
      stats.setReplay(replay.stats());
    }
    finished = true;
  }

  /**
   * The job's statistics. A job still running when the run stopped ({@code max-time}) reports
   * what it did up to the end, as fio does when it is interrupted.
   */
  @Override
  public TaskReport report(long endNs) {
    if (!finished) {
      closeStats(endNs);
    }
    if (iolog != null) {
      iolog.close(endNs); // a job still running at max-time: its log is written out too
    }
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
