package blksim.workload.fio.thread;

import blksim.kernel.iouring.IoRequest;
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
import blksim.workload.fio.VerifyAlgorithm;
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
 * by the timer slack, which the next I/Os then catch up. Each direction has its own schedule: in a
 * mixed job a direction ahead of its rate hands the I/O to the other when that one is due (or
 * has no rate), and with both ahead the one due first goes ({@link #rateDdir}, before the
 * offset and size are drawn). {@code rate_ignore_thinktime}: see {@link #rateIgnoreThink}; {@code rate_iops} with a
 * {@code bssplit} paces by I/Os, not bytes ({@link FioJob#ratePacedByIos}). {@code rate_min}/{@code rate_iops_min}
 * with {@code rate_cycle}: {@link #checkMinRate}.
 *
 * <p>{@code thinktime} is fio's {@code handle_thinktime()} (backend.c): once
 * {@code thinktime_blocks} more I/Os have completed (fio's default
 * {@code thinktime_blocks_type=complete}), the job waits for every I/O in flight
 * ({@code io_u_quiesce()}, the engine's part), spins {@code thinktime_spin} in user space, then
 * waits the rest of {@code thinktime} with fio's {@code usec_sleep()} ({@link #startUsecSleep}:
 * a {@code nanosleep()} of the time less fio's {@code ns_granularity}, an hrtimer with the task's
 * timer slack woken at its hard expiry, request plus slack, see {@link HrtimerSleep}; then a spin
 * or another sleep for what is left; a spin alone below the granularity), each cut to the
 * runtime left. Rate waits use {@code usec_sleep()} too. {@code thinktime_blocks_type=issue}
 * counts issued I/Os instead of completed ones, and {@code thinktime_iotime} stalls once that
 * much time has passed since the last stall (or since the start).
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
  /** fio's zonemode=zbd state of this job on its zoned device, or null. */
  private final blksim.workload.fio.FioZbd zbd;
  /** Whether {@link #ioOp} etc. hold the pattern's I/O, not yet adjusted by {@link #zbd}. */
  private boolean zbdPending;
  private long zbdRawOffset;
  private int zbdRawLen;
  /** zonemode=zbd found no I/O to make: the job ends ({@code io_u_eof}). */
  private boolean zbdEof;
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
  /** The job's I/O priorities, or null ({@code prio}/{@code prioclass}/{@code cmdprio_*}). */
  protected final blksim.workload.fio.CmdPrio cmdPrio;
  /** fio's {@code td->prio_state}: the cmdprio draws, a stream of their own. */
  private final SplittableRandom prioRandom;
  private long usr0;
  private long sys0;
  private long ctx0;
  private HrtimerSleep sleeper;
  private long timerSlackNs;
  private long completedIos;
  private long lastThinkIos;
  private boolean thinkSpun;
  /** fio's {@code td->last_thinktime}: the job's start, then the end of each stall. */
  private long lastThinkNs;
  /** A stall's sleep is running; its end sets {@link #lastThinkNs}. */
  private boolean thinkSleeping;
  /** When the current stall's spin and its sleep began (for {@code rate_ignore_thinktime}). */
  private long thinkStartNs;
  /**
   * The direction of the I/O after which the current stall began (fio's {@code ddir} in
   * {@code do_io()}), -1 if none or a trim.
   */
  private int thinkDdir = -1;
  private long thinkSleepStartNs;
  /** What the current stall spun: {@code thinktime_spin}, cut to the runtime left. */
  private long thinkSpunNs;
  /** fio's {@code ns_granularity}, in ns (whole microseconds); see {@link #granularity}. */
  private long granularityNs;
  /** {@link #startUsecSleep}: none, sleeping or spinning; what is left; the sleep's start. */
  private int usecState = USEC_NONE;
  private static final int USEC_NONE = 0;
  private static final int USEC_SLEEPING = 1;
  private static final int USEC_SPINNING = 2;
  private long usecLeftNs;
  private long usecSleepStartNs;
  /** {@code read_iolog}: the trace this job replays instead of its pattern, or null. */
  private final ReplayFeed replay;
  /** {@code write_iolog}: the log of the I/Os this job queues, or null. */
  private blksim.workload.replay.IologWriter iolog;
  private long lastIssueNs;
  private long timeOffsetNs;
  private long replayOrigDelayNs;
  /** {@link #iologDelay}'s poll loop: running; its start ({@code ts}); the delay it polls. */
  private boolean replayPolling;
  private long replayPollStartNs;
  private long replayPollNs;
  /** The recorded latency of the I/O {@link #nextIo} prepared, or -1. */
  protected long ioRecordedLatNs = -1;
  private final long[] rateBps = new long[2];
  private final long[] rateIssueBytes = new long[2];
  private final long[] rateNextNs = new long[2];
  /**
   * fio's {@code td->last_usec}, for {@code rate_process=poisson} and for a direction paced by
   * I/Os ({@link FioJob#ratePacedByIos}): the sum of the gaps (plus the thinktimes
   * {@code rate_ignore_thinktime} adds), which {@link #rateNextNs} takes at each issue.
   */
  private final long[] lastUsecNs = new long[2];
  /** Per direction: {@code min_bs}, and whether the rate counts I/Os ({@link FioJob#ratePacedByIos}). */
  private final long[] rateMinBs = new long[2];
  private final boolean[] ratePacedByIos = new boolean[2];
  private long rateEpochNs;
  private final SplittableRandom poisson;
  /** fio's {@code should_check_rate()}: some direction has a rate; then {@link #rateDdir}. */
  private final boolean rateOn;
  private final java.util.function.IntUnaryOperator rateDdir = this::rateDdir;
  /** The written blocks to read back ({@code verify}, {@code do_verify}), or null. */
  private final VerifyLog verifyLog;
  /** In fio's {@code do_verify()}: the job reads back what it wrote. */
  private boolean verifying;
  /** The I/O {@link #nextIo} prepared is a verify read (fio's {@code IO_U_F_VER_LIST}). */
  private boolean ioVerifies;
  /** {@code verify_backlog}: writes logged since the last batch, and verify reads still due. */
  private long backlogWrites;
  private long backlogDue;
  private boolean steadyStopped;

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
    // get_start_offset(): clone k of numjobs starts offset_increment·k further (percentages
    // of the device rounded up to the smallest bs).
    long offset = job.startOffset(capacity);
    long size = job.sizeBytes() > 0 ? job.sizeBytes()
        : job.sizePercent() > 0 ? (long) (capacity * job.sizePercent() / 100.0)
        : capacity - (job.offsetPercent() > 0 ? capacity * job.offsetPercent() / 100
            : job.offsetBytes());
    long region = Math.min(size, capacity - offset);
    blksim.kernel.block.ZoneGeometry zones = job.zonemodeZbd() && file != null
        ? file.queues().apply(0).zones() : null;
    if (job.zonemodeZbd() && file != null && zones == null) {
      throw new IllegalStateException(job.name() + ": zonemode=zbd on a device that is not zoned"
          + " (the loader refuses it)");
    }
    if (zones != null) {
      // zbd_zone_align_file_sizes(), then zbd_setup_files().
      long[] r = blksim.workload.fio.FioZbd.alignRange(job, zones, offset, region);
      offset = r == null ? offset : r[0];
      region = r == null ? 0 : r[1];
      this.zbd = blksim.workload.fio.FioZbd.open(job, zones, offset, Math.max(0, region));
    } else {
      this.zbd = null;
    }
    this.regionBytes = region;
    long budget = job.ioSizeBytes() > 0 ? job.ioSizeBytes() : regionBytes;
    this.ioBudgetBytes = budget * Math.max(1, job.loops());
    long[] minBs = job.minBs();
    for (int d = 0; d < 2; d++) {
      rateBps[d] = job.rateBytesPerSec(d);
      rateMinBs[d] = minBs[d];
      ratePacedByIos[d] = job.ratePacedByIos(d);
    }
    this.rateOn = rateBps[0] > 0 || rateBps[1] > 0;
    this.cmdPrio = job.cmdPrio();
    for (int d = 0; d < 2 && cmdPrio != null; d++) {
      if (cmdPrio.perPrioStats(d)) {
        stats.initPrios(d, cmdPrio.prios(d));
      }
    }
    this.prioRandom = cmdPrio == null ? null : new SplittableRandom(
        Seeds.forComponent(seed, "fio-prio/" + job.name() + "/" + globalJobNumber));
    this.poisson = job.ratePoisson() ? new SplittableRandom(
        Seeds.forComponent(seed, "fio-rate/" + job.name() + "/" + globalJobNumber)) : null;
    this.steady = blksim.workload.fio.SteadyState.of(job);
    // backend.c: writes are logged "if (td_write(td) && (td->o.do_verify || ...) && verify)".
    this.verifyLog = job.verify().enabled() && job.rw().writes() && job.doVerify()
        ? new VerifyLog(job.offsetOverlapRisk() && !job.experimentalVerify()) : null;
    this.pattern = regionBytes > 0
        ? new IoPattern(job, offset, regionBytes, capacity, random) : null;
    this.replay = job.replay() == null ? null
        : job.ioengine() == blksim.workload.fio.FioEngine.NULL
        ? ReplayFeed.onNullEngine(job.replay(), job.jobIndex())
        : new ReplayFeed(job.replay(), job.jobIndex(), job.filename(), capacity, true);
    // init_iolog(): a job that reads an iolog does not write one (read_iolog wins).
    this.iolog = job.writeIolog() == null || job.replay() != null ? null
        : new blksim.workload.replay.IologWriter(
        java.nio.file.Path.of(job.writeIolog()),
        job.filename() != null ? job.filename() : job.name());
  }

  /** kernel.cache-cold: the CPUs' footprints by CPU id, touched by buffer copies; or null. */
  private blksim.kernel.block.CacheFootprint[] bufferFootprints;
  private int bufferSpace;
  private blksim.engine.CostDistribution bufferColdPage;
  private SplittableRandom bufferRandom;
  private long bufferSlot;

  /**
   * Cache-cold first touches of the job's I/O buffers (issue 10 item 9, {@code kernel.cache-cold}):
   * fio allocates {@code iodepth} buffers of the largest block size, one per io_u, in one area
   * ({@code init_io_u_buffers()}); a buffered I/O's copy ({@code copy_page_to_iter()} /
   * {@code copy_page_from_iter()}) touches its buffer's pages in the running CPU's footprint
   * ({@code byCpu[cpu id]}, address space {@code space}, which no device uses) and pays
   * {@code page} per cold one, from {@code r} (this job's stream; null when {@code page} is a
   * constant). Direct I/O does not: the device's DMA reaches the buffer, not the CPU.
   *
   * <p>Simplified: only the engines that call {@link #bufferColdNs} charge it (psync and the
   * other synchronous engines); the page-cache pages the copy reads or writes are not tracked
   * (only brd's, zram's and memory-backed null_blk's device pages are); fio's own writes to the
   * buffer (scramble_buffers, refill_buffers) do not touch it; io_us are taken in turn, where
   * fio reuses the last one freed first (a synchronous engine uses one, so it passes depth 1).
   * Before the run.
   */
  public final void coldBuffers(blksim.kernel.block.CacheFootprint[] byCpu, int space,
      blksim.engine.CostDistribution page, SplittableRandom r) {
    if (!page.isConstant() && r == null) {
      throw new IllegalArgumentException("a cold-page distribution needs a stream");
    }
    this.bufferFootprints = byCpu.clone();
    this.bufferSpace = space;
    this.bufferColdPage = page;
    this.bufferRandom = r;
  }

  /**
   * The cold-line cost of copying {@code len} bytes of the next io_u's buffer ({@code depth}
   * io_us in turn) on {@code cpu}, touching them; 0 when not modelled or direct.
   */
  protected final long bufferColdNs(TaskCpu cpu, int depth, int len) {
    if (bufferFootprints == null || job.direct() || len <= 0) {
      return 0;
    }
    long[] max = job.maxBs();
    long maxBs = 0;
    for (long b : max) {
      maxBs = Math.max(maxBs, b);
    }
    long slotPages = Math.max(1, (maxBs + 4095) >>> 12);
    long slot = depth <= 1 ? 0 : bufferSlot++ % depth;
    long cold = bufferFootprints[cpu.cpu().cpu().id()].touch(bufferSpace, slot * slotPages,
        (len + 4095L) >>> 12);
    if (cold == 0) {
      return 0;
    }
    if (bufferColdPage.isConstant()) {
      return cold * bufferColdPage.sampleNs(null);
    }
    long ns = 0;
    for (long i = 0; i < cold; i++) {
      ns += bufferColdPage.sampleNs(bufferRandom);
    }
    return ns;
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
    lastThinkNs = startNs;
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
    measureStartNs = now; // reset_all_stats(): td->start, and the rate checks start over
    java.util.Arrays.fill(lastRateCheckBytes, 0);
    java.util.Arrays.fill(lastRateCheckIos, 0);
    java.util.Arrays.fill(rateIssueBytes, 0);
    java.util.Arrays.fill(rateNextNs, 0);
    java.util.Arrays.fill(lastUsecNs, 0);
    measuring = true;
    long[] h = helperCpu();
    usr0 = utimeNs() + h[0];
    sys0 = stimeNs() + h[1];
    ctx0 = nvcsw() + nivcsw() + h[2];
    stats.startMeasurement(now);
    latTargetReset(now); // reset_all_stats() -> lat_target_reset()
  }

  // fio's latency profile (io_u.c lat_target_*()), with latency_target set.
  private boolean latencyStarted;
  private int latencyQd;
  private int latencyQdHigh;
  private int latencyQdLow;
  private int latencyStableCount;
  private long latencyTs;
  private long latencyIos;
  private long latencyFailed;
  private boolean latencyEndRun;
  private boolean latencyQuiesce;
  private boolean latencyDone;
  private static final int ETIMEDOUT = 110;

  /** {@code lat_target_init()}: probing starts at depth 1 (without a target: iodepth). */
  private void latTargetInit(long now) {
    latencyStarted = true;
    latencyEndRun = false;
    if (job.latencyTargetNs() > 0) {
      latencyTs = now;
      latencyQd = 1;
      latencyQdHigh = Math.max(1, job.iodepth());
      latencyQdLow = 1;
      latencyIos = completedIos;
    } else {
      latencyQd = Math.max(1, job.iodepth());
    }
    stats.setLatencyDepth(latencyQd);
  }

  private void latTargetReset(long now) {
    if (!latencyEndRun) {
      latTargetInit(now);
    }
  }

  /**
   * The in-flight limit of an engine with {@code depth} I/Os: fio's {@code queue_full()}, which
   * with {@code latency_target} is full at {@code td->latency_qd}.
   */
  protected final int latencyLimit(int depth) {
    if (!latencyStarted) {
      latTargetInit(cpu().now());
    }
    return job.latencyTargetNs() > 0 ? Math.min(depth, latencyQd) : depth;
  }

  /**
   * Whether the engine must reap everything in flight before it issues again: fio's
   * {@code io_u_quiesce()} after a step down ({@code __lat_target_failed()}) or before the final
   * window ({@code lat_target_success()}). The engine calls {@link #latencyQuiesced()} once
   * nothing is in flight.
   */
  protected final boolean latencyQuiescing() {
    return latencyQuiesce;
  }

  /** The engine has nothing in flight any more: the quiesce is over. */
  protected final void latencyQuiesced() {
    latencyQuiesce = false;
  }

  /**
   * One completed I/O's latency (fio's {@code tnsec}, from its start time, in
   * {@code account_io_completion()}): above the target it counts as a failure, and with
   * {@code latency_percentile=100} it steps the depth down at once ({@code lat_target_failed()});
   * at depth 1 the job fails with ETIMEDOUT ({@code lat_fatal()}: "max latency exceeded").
   */
  protected final void latencySample(long latNs) {
    if (job.latencyTargetNs() <= 0 || latNs <= job.latencyTargetNs() || latencyDone) {
      return;
    }
    if (job.latencyPercentile() == 100.0) {
      if (latTargetFailed(cpu().now())) {
        stats.setError(ETIMEDOUT);
        latencyDone = true;
      }
    } else {
      latencyFailed++;
    }
  }

  /** {@code __lat_target_failed()}: true at depth 1 (give up), else bisect down and quiesce. */
  private boolean latTargetFailed(long now) {
    if (latencyQd == 1) {
      return true;
    }
    latencyQdHigh = latencyQd;
    if (latencyQd == latencyQdLow) {
      latencyQdLow--;
    }
    latencyQd = (latencyQd + latencyQdLow) / 2;
    latencyStableCount = 0;
    stats.setLatencyDepth(latencyQd);
    latencyQuiesce = true;
    latNewCycle(now);
    return false;
  }

  private void latNewCycle(long now) {
    latencyTs = now;
    latencyIos = completedIos;
    latencyFailed = 0;
  }

  /**
   * {@code lat_target_check()}, after each turn of the I/O loop out of the ramp: once a
   * {@code latency_window} has passed, the window's share of I/Os that met the target decides
   * whether the depth steps up or down.
   */
  protected final void latencyCheck(long now) {
    if (job.latencyTargetNs() <= 0 || !measuring || latencyDone
        || now - latencyTs < job.latencyWindowNs()) {
      return;
    }
    long ios = completedIos - latencyIos;
    double success = (double) (ios - latencyFailed) / (double) ios * 100.0; // 0/0: NaN, fails
    if (success >= job.latencyPercentile()) {
      latTargetSuccess(now);
    } else {
      latTargetFailed(now);
    }
  }

  /** {@code lat_target_success()}: double up until a failure, then bisect upwards. */
  private void latTargetSuccess(long now) {
    int qd = latencyQd;
    int iodepth = Math.max(1, job.iodepth());
    latencyQdLow = latencyQd;
    if (latencyQd + 1 == latencyQdHigh) {
      // fio's heuristic: three successes in a row at a stable depth raise the upper bound.
      if (++latencyStableCount >= 3) {
        latencyQdHigh++;
        latencyStableCount = 0;
      }
    }
    if (latencyQdHigh != iodepth) {
      latencyQd = (latencyQd + latencyQdHigh) / 2;
    } else {
      latencyQd *= 2;
    }
    if (latencyQd > iodepth) {
      latencyQd = iodepth;
    }
    stats.setLatencyDepth(latencyQd);
    if (!job.latencyRun() && latencyQd == qd) {
      if (latencyEndRun) {
        latencyDone = true; // td->done = 1
      } else {
        // "Quiesce and final run": the statistics start over for one window at this depth.
        latencyQuiesce = true;
        latencyEndRun = true;
        beginMeasuring(now);
      }
    }
    latNewCycle(now);
  }

  /** Whether the job may start another I/O now (runtime and size limits). */
  protected final boolean mayIssue(long now) {
    if (!measuring && now >= rampEndNs) {
      beginMeasuring(now);
    }
    boolean outOfTime = now >= stopNs;
    boolean outOfData = replay != null ? !replay.peek()
        : verifying ? verifyLog.isEmpty()
        : !job.timeBased() && issuedBytes >= ioBudgetBytes;
    // number_ios ends the job early, never extends it.
    boolean outOfIos = !verifying && job.numberIos() > 0 && issuedIos >= job.numberIos()
        // verify_state_should_stop(): a loaded verify state ends a reading job's checks.
        || job.verifyStateReads() >= 0 && issuedIos >= job.verifyStateReads();
    boolean told = sequencer != null && sequencer.terminated(jobNumber);
    if (measuring && !minRateFailed && checkMinRate(now)) {
      minRateFailed = true;
      stats.setError(EIO); // td_verror(td, EIO, "check_min_rate")
    }
    told |= minRateFailed || latencyDone;
    if (steady != null && steady.check(now - startNs,
        stats.totalIos(0) + stats.totalIos(1), stats.ioBytes(0) + stats.ioBytes(1),
        stats.clat(0).mean() * stats.clat(0).samples() + stats.clat(1).mean()
            * stats.clat(1).samples(), stats.clat(0).samples() + stats.clat(1).samples())) {
      told = true;
      steadyStopped = true; // fio_mark_td_terminate(): no verify phase follows
    }
    if (!verifying && replay == null && pattern != null && !outOfData && !eofEnded
        && pattern.passEnded()) {
      // do_io() ends at the end of the file (fill_io_u() fails); keep_running() decides.
      if (anotherLoop()) {
        pattern.rewind();
      } else {
        eofEnded = true;
      }
    }
    outOfData |= eofEnded;
    if (!verifying && replay == null && pattern != null && pattern.exhausted()) {
      outOfData = true; // a sequence distribution ran past the region
      if (pattern.sequenceOutOfRange() && stats.error() == 0) {
        stats.setError(EINVAL); // td_verror(td, EINVAL, "sequence block out of bounds")
      }
    }
    return !(outOfTime || outOfData || outOfIos || told || zbdEof || ioErrored || filled
        || (replay == null && regionBytes <= 0));
  }

  /** Whether a sequential pass ended at the end of the file with no loop left. */
  private boolean eofEnded;
  private int loopsDone;

  /**
   * fio's {@code keep_running()} after a {@code do_io()} that ended because every file was done
   * (a sequential pass reached the end of its file): another loop while {@code loops} remain,
   * then while {@code io_size} wants at least one more maximum-size block. Counts the loop.
   */
  protected final boolean anotherLoop() {
    if (job.timeBased()) {
      return true;
    }
    if (++loopsDone < Math.max(1, job.loops())) {
      return true;
    }
    long maxBs = Math.max(job.maxBs()[0], job.maxBs()[1]);
    return job.ioSizeBytes() > 0 && ioBudgetBytes - issuedBytes >= maxBs;
  }

  private static final int EIO = 5;
  private static final int EINVAL = 22;
  /** fio's settle period before the first minimum-rate check ({@code __check_min_rate()}). */
  private static final long MIN_RATE_SETTLE_NS = 2_000_000_000L;
  private boolean minRateFailed;
  private long measureStartNs;
  private final long[] lastRateCheckBytes = new long[2];
  private final long[] lastRateCheckIos = new long[2];
  private final long[] lastRateCheckNs = new long[2];

  /**
   * fio's {@code check_min_rate()} ({@code backend.c}) for {@code rate_min} and
   * {@code rate_iops_min}: for each direction that has done I/O, nothing in the first 2 s after
   * the measurement started ({@code td->start}, reset at the end of the ramp); then the first
   * check only records the bytes and I/Os done; each later one, at least {@code rate_cycle} ms
   * after the previous, compares the rate over that window with the minimum (bytes, else IOPS).
   * Under it the job stops with EIO, as fio's {@code do_io()} breaks out with
   * {@code td_verror(td, EIO, "check_min_rate")}. fio checks after reaping completions; here
   * before each issue, which for a synchronous engine is the same moment.
   */
  private boolean checkMinRate(long now) {
    boolean fail = false;
    for (int d = 0; d < 2; d++) {
      long minBytes = job.rateMinBytesPerSec(d);
      long minIops = job.rateMinIops(d);
      long bytes = stats.ioBytes(d);
      if (minBytes == 0 && minIops == 0 || bytes == 0) {
        continue;
      }
      if (now - measureStartNs < MIN_RATE_SETTLE_NS) {
        continue;
      }
      long ios = stats.totalIos(d);
      if (lastRateCheckBytes[d] != 0 || lastRateCheckIos[d] != 0) {
        long spentMs = (now - lastRateCheckNs[d]) / 1_000_000L;
        if (spentMs < job.rateCycleMs() || spentMs == 0) {
          continue;
        }
        if (minBytes > 0 ? (bytes - lastRateCheckBytes[d]) * 1000 / spentMs < minBytes
            : (ios - lastRateCheckIos[d]) * 1000 / spentMs < minIops) {
          fail = true;
          continue;
        }
      }
      lastRateCheckBytes[d] = bytes;
      lastRateCheckIos[d] = ios;
      lastRateCheckNs[d] = now;
    }
    return fail;
  }

  /** Whether the job stopped because it fell under its {@code rate_min}/{@code rate_iops_min}. */
  protected final boolean minRateFailed() {
    return minRateFailed;
  }

  /**
   * How long a job ahead of its flow share without {@code flow_sleep} spins before it checks
   * again. fio's {@code do_io()} just goes round its loop ({@code continue}), burning the CPU
   * all the while; the model burns it in slices of this length, which sets only how soon the
   * job notices that it may go on, not how much CPU it burns (all of it).
   */
  static final long FLOW_SPIN_SLICE_NS = 1_000;

  /**
   * fio's {@code flow_threshold_exceeded()} before the next I/O: whether this job is ahead of
   * its share of its flow ({@code flow}, {@code flow_id}); when it is not, its I/O is counted.
   */
  protected final boolean flowAhead() {
    return job.flow() != 0 && sequencer != null && sequencer.flowExceeded(jobNumber);
  }

  /**
   * The wait of a job ahead of its flow share, with nothing in flight: {@code usleep(flow_sleep)}
   * (an hrtimer sleep with the timer slack, cut to the runtime left), or without
   * {@code flow_sleep} a slice of spinning in user space. Always takes an action.
   */
  protected final void flowWait(TaskCpu cpu) {
    if (job.flowSleepNs() > 0 && !outOfTime(cpu.now())) {
      usleep(cpu, job.flowSleepNs());
    } else {
      cpu.runFor(CpuMode.USER, FLOW_SPIN_SLICE_NS);
    }
  }

  /** {@link #replayStep}: the current entry is an I/O or a sync, ready to issue. */
  protected static final int REPLAY_READY = 0;
  /** {@link #replayStep}: the thread sleeps (the caller returns from its step). */
  protected static final int REPLAY_SLEPT = 1;
  /** {@link #replayStep}: the trace is over. */
  protected static final int REPLAY_END = 2;
  /**
   * {@link #replayStep}: the record's delay is being polled away with I/Os in flight: the
   * engine reaps (fio's {@code io_u_queued_complete(td, 0)}), then calls again.
   */
  protected static final int REPLAY_POLL = 3;

  /**
   * An I/O's issue time, which a replay's next delay counts from ({@code td->last_issue}, "only
   * used for iolog"): stamped where fio stamps {@code io_u->issue_time}, in {@code td_io_queue()}
   * before a sync engine's call, after the submit call for io_uring and libaio
   * ({@code fio_ioring_queued()}, {@code fio_libaio_queued()}), after the queue hook otherwise.
   */
  protected final void replayIssued(long now) {
    if (replay != null) {
      lastIssueNs = now;
    }
  }

  /** Whether this job replays a trace ({@code read_iolog}). */
  protected final boolean replaying() {
    return replay != null;
  }

  /** The trace being replayed, or null. */
  protected final ReplayFeed replay() {
    return replay;
  }

  /** {@link #replayStep} for an engine with nothing in flight between records (sync, null). */
  protected final int replayStep(TaskCpu cpu) {
    return replayStep(cpu, false);
  }

  /**
   * Brings the replay to its next I/O or sync, as fio's {@code read_iolog_get()}: file actions
   * and v2 waits are handled here, and each entry's delay is waited with fio's
   * {@code iolog_delay()} (iolog.c of the pinned fio, as since fio-3.36): the delay counts from
   * the previous issue ({@code td->last_issue}), less the previous delay's overrun
   * ({@code td->time_offset}), and is polled away, not slept: {@code io_u_queued_complete(td,
   * 0)} in a loop until more whole microseconds than the delay have passed
   * ({@link #iologDelay}). With nothing in flight that loop is user time only (fio's
   * {@code td_io_getevents()} calls no engine at {@code cur_depth} 0), a spin here; with I/Os in
   * flight ({@code inFlight}) the engine reaps ({@link #REPLAY_POLL}) and calls again. A v2 wait
   * sleeps until its value in ms after the job's start (fio's code compares it with
   * {@code mtime_since_genesis()}; the HOWTO's "µs relative to the previous wait" is not what fio
   * does), with fio's {@code usec_sleep()}. All are cut to the runtime left. Simplified: a spin
   * is CPU time (a preempted spin ends later than fio's wall-clock check would end it).
   */
  protected final int replayStep(TaskCpu cpu, boolean inFlight) {
    while (true) {
      long now = cpu.now();
      if (replayPolling) {
        int r = replayPoll(cpu, inFlight);
        if (r >= 0) {
          return r;
        }
        now = cpu.now();
      }
      if (!replay.peek() || now >= stopNs) {
        return REPLAY_END;
      }
      if (replay.kind() == ReplayFeed.Kind.WAIT) {
        long elapsedMs = (now - startNs) / 1_000_000L;
        if (replay.waitMs() > elapsedMs && !replay.delayDone()) {
          replay.markDelayDone();
          if (replayWait(cpu, (replay.waitMs() - elapsedMs) * 1_000_000L)) {
            return REPLAY_SLEPT;
          }
        }
        replay.consume();
        continue;
      }
      if (!replay.delayDone()) {
        replay.markDelayDone();
        if (iologDelay(cpu, replay.delayNs())) {
          int r = replayPoll(cpu, inFlight);
          if (r >= 0) {
            return r;
          }
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

  /**
   * fio's {@code iolog_delay()} up to its loop: true when there is a delay to poll (the loop
   * started, {@link #replayPoll} runs it), false when the delay has already passed. The
   * microseconds are fio's: the time since the last issue and the loop's elapsed time are whole
   * microseconds ({@code utime_since_now()}).
   */
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
    if (d <= 0) {
      timeOffsetNs = 0; // the loop does not run: utime_since_now(&ts) is 0, within the delay
      return false;
    }
    replayPolling = true;
    replayPollStartNs = cpu.now();
    replayPollNs = d;
    replayOrigDelayNs = delayNs;
    return true;
  }

  /**
   * One turn of {@code iolog_delay()}'s loop: {@code io_u_queued_complete(td, 0)}, then
   * {@code if (utime_since_now(&ts) > delay) break}. Returns {@link #REPLAY_POLL} (the engine
   * reaps its I/Os in flight and calls again), {@link #REPLAY_SLEPT} (nothing in flight: the rest
   * of the loop is spun in user time) or -1 when the loop is over ({@code td->time_offset} is
   * then what it ran beyond the record's own delay).
   */
  private int replayPoll(TaskCpu cpu, boolean inFlight) {
    long now = cpu.now();
    long elapsed = (now - replayPollStartNs) / 1000 * 1000;
    if (elapsed > replayPollNs || outOfTime(now)) {
      replayPolling = false;
      timeOffsetNs = elapsed > replayOrigDelayNs ? elapsed - replayOrigDelayNs : 0;
      return -1;
    }
    if (inFlight) {
      return REPLAY_POLL;
    }
    // The first whole microsecond past the delay ends the loop.
    long spin = runtimeLeftCap(now, replayPollEndNs() - now);
    cpu.runFor(CpuMode.USER, Math.max(1, spin));
    return REPLAY_SLEPT;
  }

  /** When the running {@link #replayPoll} loop ends: the first whole microsecond past its delay. */
  protected final long replayPollEndNs() {
    return replayPollStartNs + replayPollNs + 1000;
  }

  /**
   * A v2 wait of {@code ns}: fio's {@code usec_sleep()} ({@link #startUsecSleep}; the step after
   * it ends is {@link #continueThink}'s), cut to the runtime left. True when it took an action.
   */
  private boolean replayWait(TaskCpu cpu, long ns) {
    long left = runtimeLeftCap(cpu.now(), ns);
    if (left <= 0) {
      return false;
    }
    requireTimers("replay");
    return startUsecSleep(cpu, left);
  }

  /**
   * The timers this thread's {@code nanosleep()} uses ({@code thinktime}); set by the machine
   * before the run. A job with a thinktime needs them.
   */
  public void setTimers(TimerParams timers, long slackNs) {
    this.sleeper = new HrtimerSleep(timers);
    this.timerSlackNs = slackNs;
    this.granularityNs = granularity(timers, slackNs, 0);
  }

  /**
   * fio's {@code ns_granularity} (time.c {@code fio_time_init()}): the longest of ten
   * {@code nanosleep()}s of 1 us, in whole microseconds. Simplified: computed, not slept: the
   * 1 us, the timer slack, the hrtimer's expiry latency (its mean) and interrupt, and 1 us for the
   * wake-up and the switch back, cut to whole microseconds.
   */
  private static long granularity(TimerParams timers, long slackNs, double expiryMeanNs) {
    long ns = 1_000 + slackNs + (long) expiryMeanNs + timers.hrtimerLatencyNs() + 1_000;
    return ns / 1_000 * 1_000;
  }

  /**
   * {@link #setTimers(TimerParams, long)} whose hrtimer sleeps wake {@code expiry} late (issue 10
   * item 9), drawn from a stream of this thread's own seeded with {@code expirySeed}.
   */
  public void setTimers(TimerParams timers, long slackNs, blksim.engine.CostDistribution expiry,
      long expirySeed) {
    setTimers(timers, slackNs);
    sleeper.expiry(expiry, new SplittableRandom(expirySeed));
    this.granularityNs = granularity(timers, slackNs, expiry.meanNs());
  }

  /**
   * Starts fio's {@code usec_sleep(td, usec)} (time.c) for {@code ns} (cut to whole
   * microseconds, fio's unit): below {@code ns_granularity} it spins in user space
   * ({@code usec_spin()}); otherwise it sleeps {@code usec - ns_granularity} with
   * {@code nanosleep()} (the slack then makes up most of the difference) and, if that came back
   * short, spins or sleeps again for the rest ({@link #continueUsecSleep}). True when an action
   * was taken (false: nothing to wait).
   */
  private boolean startUsecSleep(TaskCpu cpu, long ns) {
    usecLeftNs = ns / 1_000 * 1_000;
    return usecStep(cpu);
  }

  private boolean usecStep(TaskCpu cpu) {
    long left = usecLeftNs;
    if (left < granularityNs) {
      if (left <= 0) {
        usecState = USEC_NONE;
        return false;
      }
      cpu.runFor(CpuMode.USER, left);
      usecState = USEC_SPINNING;
      return true;
    }
    usecSleepStartNs = cpu.now();
    usecState = USEC_SLEEPING;
    sleeper.hrtimerSleepNs(cpu, left - granularityNs + timerSlackNs);
    return true;
  }

  /**
   * First in a step during a {@link #startUsecSleep}: true while it still sleeps or took another
   * action; false when it is over. Each sleep's length is measured in whole microseconds
   * ({@code utime_since_now()}) and taken off what is left, as fio's loop does.
   */
  private boolean continueUsecSleep(TaskCpu cpu) {
    if (usecState == USEC_SPINNING) {
      usecState = USEC_NONE;
      return false;
    }
    if (sleeper.continueSleep(cpu)) {
      return true;
    }
    long ts = (cpu.now() - usecSleepStartNs) / 1_000 * 1_000;
    if (ts >= usecLeftNs) {
      usecState = USEC_NONE;
      return false;
    }
    usecLeftNs -= ts;
    return usecStep(cpu);
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
    if (thinktimeNs() <= 0) {
      return false;
    }
    if (job.thinktimeIotimeNs() > 0) {
      // thinktime_iotime: a stall once that much time has passed since the last one; with
      // thinktime_blocks set too, whichever comes first.
      if (cpu().now() - lastThinkNs >= job.thinktimeIotimeNs()) {
        return true;
      } else if (!job.thinktimeBlocksSet()) {
        return false;
      }
    }
    return thinkBlocks() >= lastThinkIos + job.thinktimeBlocks();
  }

  /** fio's {@code td->thinktime_blocks_counter}: completed I/Os, or issued ones. */
  private long thinkBlocks() {
    return job.thinktimeBlocksIssue() ? issuedIos : completedIos;
  }

  /**
   * Starts the first step of a due thinktime, with nothing in flight: the spin, then the sleep.
   * Returns true when it took an action (the caller returns from its step and calls again, with
   * {@link #continueThink} first); false when the thinktime is over.
   */
  protected final boolean think(TaskCpu cpu) {
    if (!thinkSpun) {
      thinkSpun = true;
      thinkStartNs = cpu.now();
      thinkDdir = ioOp == null || ioOp == ReqOp.DISCARD ? -1 : ddir(ioOp);
      // handle_thinktime(): the spin is cut to the runtime left, as the sleep is.
      long spin = runtimeLeftCap(cpu.now(), job.thinktimeSpinNs());
      thinkSpunNs = spin;
      if (spin > 0) {
        cpu.runFor(CpuMode.USER, spin);
        return true;
      }
    }
    thinkSpun = false;
    lastThinkIos = thinkBlocks();
    // The sleep is the thinktime less what was spun (fio's "total").
    long left = runtimeLeftCap(cpu.now(), thinktimeNs() - thinkSpunNs);
    thinkSleepStartNs = cpu.now();
    if (left > 0) {
      requireTimers("thinktime");
    }
    if (!startUsecSleep(cpu, left)) {
      stallOver(cpu.now());
      return false;
    }
    thinkSleeping = true;
    return true;
  }

  /** The end of a stall: handle_thinktime()'s last_thinktime, and rate_ignore_thinktime. */
  private void stallOver(long now) {
    lastThinkNs = now;
    rateIgnoreThink(now);
  }

  /** {@code ns}, cut to the job's runtime left at {@code now} (fio's {@code runtime_left}). */
  private long runtimeLeftCap(long now, long ns) {
    return stopNs == Long.MAX_VALUE ? ns : Math.min(ns, Math.max(0, stopNs - now));
  }

  /**
   * The end of a stall with {@code rate_ignore_thinktime}: fio's {@code handle_thinktime()} adds
   * the rate's bytes for the time the stall took ({@code total}: the spin and the sleep as
   * {@code usec_spin()} and {@code usec_sleep()} measured them, whole microseconds each), less one
   * block when that time covers one I/O, to {@code rate_io_issue_bytes} of the last I/O's
   * direction (with {@code rate_process=poisson}, the time to {@code last_usec}), so the rate does
   * not catch up on the stall. As in fio, the next I/O's due time moves only when that I/O is
   * issued ({@link #rateIssued}).
   */
  private void rateIgnoreThink(long endNs) {
    int d = thinkDdir;
    if (!job.rateIgnoreThinktime() || d < 0 || rateBps[d] == 0) {
      return;
    }
    long totalUs = (thinkSleepStartNs - thinkStartNs) / 1000 + (endNs - thinkSleepStartNs) / 1000;
    if (totalUs == 0) {
      return;
    }
    long bps = rateBps[d];
    long missed = bps * totalUs / 1_000_000L;
    long bs = rateMinBs[d];
    long usPerOp = bs * 1_000_000L / bps;
    long over = usPerOp <= totalUs ? bs : 0;
    rateIssueBytes[d] += missed - over;
    lastUsecNs[d] += totalUs * 1000;
  }

  /**
   * The job's {@code thinktime}; an engine that sets its own (cpuio's qsort mode, from the time
   * of its last round) overrides it.
   */
  protected long thinktimeNs() {
    return job.thinktimeNs();
  }

  /** The run's job sequencer, or null when the run needs none. */
  protected final JobSequencer sequencer() {
    return sequencer;
  }

  /**
   * fio's {@code rate_ddir()} (io_u.c) for a mixed job: the direction {@code ddir} (0 read,
   * 1 write) rwmix drew goes if its next I/O is due ({@code rate_next_io_time[ddir] <= now});
   * if it is ahead of its rate and the other direction has a share of the mix
   * ({@code rwmix[odir]}), the other goes if it is due, and with both ahead the one due first
   * goes (the caller then sleeps until it is due, {@link #rateWaitNs}). A direction without a
   * rate keeps {@code rate_next_io_time} at 0 ({@code usec_for_io()} returns 0): it is always
   * due. Simplified: fio writes the result back to {@code td->rwmix_ddir}, which only matters to
   * its rwmix cycle ({@code rwmix_issues}), not modelled (see {@link IoPattern}).
   */
  private int rateDdir(int ddir) {
    long now = cpu().now() - rateEpochNs;
    if (rateNextNs[ddir] <= now) {
      return ddir;
    }
    int odir = ddir ^ 1;
    int otherMix = odir == 0 ? job.rwmixread() : 100 - job.rwmixread();
    if (otherMix == 0) {
      return ddir;
    }
    if (rateNextNs[odir] <= now) {
      return odir;
    }
    return rateNextNs[ddir] <= rateNextNs[odir] ? ddir : odir;
  }

  /** Whether the job has a rate limit in direction {@code op}. */
  protected final boolean rateLimited(ReqOp op) {
    int d = ddir(op);
    return d < rateBps.length && rateBps[d] > 0; // (a trim's rate is not modelled)
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
      // usec_for_io(): iops = bps / min_bs, the gap (10^6 / iops) us, a whole number, scaled by
      // -logf(U) in float and cut to whole us; U uniform in (0, 1].
      long iops = bps / rateMinBs[d];
      double u = 1.0 - poisson.nextDouble();
      if (iops > 0) {
        float gapUs = (float) (1_000_000L / iops) * -(float) Math.log(u);
        lastUsecNs[d] += (long) gapUs * 1000;
      }
      rateNextNs[d] = lastUsecNs[d];
    } else if (ratePacedByIos[d]) {
      // usec_for_io(): rate_iops with bssplit counts I/Os, in whole microseconds each.
      long iops = bps / rateMinBs[d];
      if (iops > 0) {
        lastUsecNs[d] += 1_000_000L / iops * 1000;
      }
      rateNextNs[d] = lastUsecNs[d];
    } else {
      long b = rateIssueBytes[d];
      rateNextNs[d] = b / bps * 1_000_000_000L + (long) ((double) (b % bps) * 1e9 / bps);
    }
  }

  /**
   * Waits {@code waitNs} for the rate (cut to the runtime left) with fio's {@code usec_sleep()}
   * ({@link #startUsecSleep}), after the caller quiesced. Always takes an action: a wait below
   * a microsecond, which fio's {@code usec_spin(0)} would not wait at all, spins it.
   */
  protected final void rateSleep(TaskCpu cpu, long waitNs) {
    long ns = runtimeLeftCap(cpu.now(), waitNs);
    requireTimers("rate");
    if (!startUsecSleep(cpu, ns)) {
      cpu.runFor(CpuMode.USER, Math.max(1, ns));
    }
  }

  /**
   * libc's {@code usleep()} as fio's flow.c calls it: one {@code nanosleep()} of {@code ns} with
   * the timer slack, cut to the runtime left (no {@code usec_sleep()} compensation).
   */
  private void usleep(TaskCpu cpu, long ns) {
    long t = runtimeLeftCap(cpu.now(), ns + timerSlackNs);
    requireTimers("flow_sleep");
    sleeper.hrtimerSleepNs(cpu, t);
  }

  /** The sleeps of {@code what} need the machine's timers ({@link #setTimers}). */
  private void requireTimers(String what) {
    if (sleeper == null) {
      throw new IllegalStateException(job.name() + ": " + what + " without the machine's timers");
    }
  }

  /** Whether the job's runtime is over. */
  protected final boolean outOfTime(long now) {
    return now >= stopNs;
  }

  /**
   * First in a step: true if a wait is still running (a thinktime, a rate wait or a v2 replay
   * wait: the task blocked again or spins the rest).
   */
  protected final boolean continueThink(TaskCpu cpu) {
    boolean asleep = usecState != USEC_NONE ? continueUsecSleep(cpu)
        : sleeper != null && sleeper.continueSleep(cpu);
    if (!asleep && thinkSleeping) {
      thinkSleeping = false;
      stallOver(cpu.now()); // handle_thinktime(): last_thinktime = now, after the sleep
    }
    return asleep;
  }

  /** Whether a thinktime has begun (spin charged) but not yet slept. */
  protected final boolean thinking() {
    return thinkSpun;
  }

  /** Whether statistics are being recorded (ramp time is over). */
  /**
   * An offload submit worker's share of fio's per-I/O user time: the worker does the engine's
   * half, the job thread keeps the generating half (rate-submit.c splits the io_u's life so).
   */
  protected final long offloadWorkerUserNsPerIo() {
    return costs.userNsPerIo() - costs.userNsPerIo() / 2;
  }

  /** An offload worker submitted {@code r}: one I/O per submit call, at the job's depth. */
  protected final void offloadIssued(IoRequest r, long now, int inFlight) {
    r.issueNs(now);
    replayIssued(now);
    if (measuring()) {
      stats.recordIssue(inFlight);
      stats.recordSubmitBatch(1);
    }
  }

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
      issuedBytes += replay.lengthLong();
      issuedIos++;
      if (iolog != null) {
        iolog.io(cpu().now(), ioOp, ioOffset, ioLen);
      }
      return;
    }
    ioVerifies = false;
    if (verifyReadDue()) {
      nextVerifyIo();
      logIo();
      return;
    }
    backlogDue = 0;
    nextIo(pattern);
    verifyPatternIo(0);
    logIo();
  }

  /**
   * The verify parts of a new I/O of the pattern: {@code verify_only} turns a write into the
   * read of its block; otherwise a write is logged ({@code log_io_piece()}) with the index of
   * its file, and every {@code verify_backlog} writes a batch of verify reads becomes due.
   */
  private void verifyPatternIo(int fileIndex) {
    if (job.verifyOnly() && ioOp == ReqOp.WRITE && job.verify().enabled()) {
      // verify_only: do_dry_run() walks the write pattern without writing; each block is then
      // read back. Simplified: read in the pattern's order, not sorted when offsets may overlap.
      ioOp = ReqOp.READ;
      ioVerifies = true;
      return;
    }
    if (verifyLog != null && ioOp == ReqOp.WRITE) {
      verifyLog.logged(fileIndex, ioOffset, ioLen);
      // check_get_verify(): after every verify_backlog logged writes, verify_backlog_batch
      // (default verify_backlog) of the oldest are read back before the next new I/O.
      if (job.verifyBacklog() > 0 && ++backlogWrites % job.verifyBacklog() == 0) {
        backlogDue = job.verifyBacklogBatch() > 0 ? job.verifyBacklogBatch()
            : job.verifyBacklog();
      }
    }
  }

  /**
   * Whether the next I/O is a verify read of a logged block: in {@code do_verify()}, or while
   * a {@code verify_backlog} batch is due ({@code check_get_verify()}).
   */
  protected final boolean verifyReadDue() {
    return verifyLog != null && (verifying || backlogDue > 0) && !verifyLog.isEmpty();
  }

  /** The index of the file of the verify read due ({@link #verifyReadDue()}). */
  protected final int verifyReadFile() {
    return verifyLog.nextFile();
  }

  /**
   * {@code get_next_verify()}: the next logged block, into {@link #ioOp} (a read),
   * {@link #ioOffset} and {@link #ioLen}, instead of a new I/O; it does not count against the
   * job's size (fio adds size to its budget for verify_backlog). Simplified: fio skips a block
   * whose write is still in flight ({@code IP_F_IN_FLIGHT}); here a block is read back even if
   * its write has not completed (only {@code verify_backlog} with an asynchronous engine can
   * meet one).
   */
  protected final void nextVerifyIo() {
    long[] piece = verifyLog.next();
    backlogDue = Math.max(0, backlogDue - 1);
    ioOp = ReqOp.READ;
    ioOffset = piece[0];
    ioLen = (int) piece[1];
    ioVerifies = true;
  }

  /**
   * The next I/O of file {@code fileIndex}'s own pattern {@code p} ({@link FioFileSet}),
   * counted against the job's limits as {@link #nextIo()} is, with its verify parts
   * ({@code verify_only}, the write logged with its file). The caller takes a due verify read
   * ({@link #verifyReadDue()}) first.
   */
  protected final void nextIo(IoPattern p, int fileIndex) {
    ioVerifies = false;
    backlogDue = 0;
    nextIo(p);
    verifyPatternIo(fileIndex);
  }

  /** Whether the job is in its {@code do_verify()} phase. */
  protected final boolean verifying() {
    return verifying;
  }

  /**
   * The part of {@link #verifyNs()} that checks a read ({@code verify_io_u()}, the io_u's
   * {@code end_io} for a verify read, or any read of a job that only reads), which
   * {@code verify_async} moves to the job's verify threads; 0 for a write.
   */
  protected final long verifyReadNs() {
    return ioOp == ReqOp.READ ? verifyNs() : 0;
  }

  /** The priority of the I/O {@link #nextIo} prepared ({@code fio_cmdprio_set_ioprio()}), 0 if none. */
  protected final int ioPrio() {
    return cmdPrio == null ? 0 : cmdPrio.pick(ioOp == ReqOp.READ ? 0 : 1, ioLen, prioRandom);
  }

  /**
   * write_iolog of a job on regular files: its log names the files {@code names} (fio's
   * {@code f->file_name}), each opened and closed on its own; called by the constructor of a
   * file job.
   */
  protected final void iologOnFiles(java.util.List<String> names) {
    if (iolog != null) {
      iolog = new blksim.workload.replay.IologWriter(java.nio.file.Path.of(job.writeIolog()),
          names);
    }
  }

  /** write_iolog of a file job: the I/O {@link #nextIo} prepared, on file {@code file}. */
  protected final void logFileIo(int file) {
    if (iolog != null) {
      iolog.use(file);
      logIo();
    }
  }

  /** write_iolog of a file job: file {@code file} was opened (true) or closed. */
  protected final void logFile(int file, boolean opened) {
    if (iolog != null) {
      if (opened) {
        iolog.opened(cpu().now(), file);
      } else {
        iolog.closed(cpu().now(), file);
      }
    }
  }

  /** write_iolog: fio logs each io_u as it is queued ({@code log_io_u()}). */
  private void logIo() {
    if (iolog != null) {
      iolog.io(cpu().now(), ioOp, ioOffset, ioLen);
    }
  }

  /**
   * The user time fio spends on the checksum of the I/O {@link #nextIo} prepared (plus, for a
   * write with {@code refill_buffers}, the refill, {@link #REFILL_PS_PER_BYTE}): a write's
   * checksum when the job verifies ({@code populate_verify_io_u()}), a read's check when it is
   * a verify read or the job only reads ({@code verify_io_u()}, charged before the read is
   * issued rather than when it completes: the same CPU time one I/O earlier). 0 otherwise.
   */
  protected final long verifyNs() {
    long refill = job.refillBuffers() && ioOp == ReqOp.WRITE
        ? ioLen * REFILL_PS_PER_BYTE / 1000 : 0;
    VerifyAlgorithm v = job.verify();
    if (!v.enabled()) {
      return refill;
    }
    boolean checked = ioOp == ReqOp.WRITE ? !job.verifyOnly()
        : ioVerifies || !job.rw().writes();
    return refill + (checked ? v.costNs(ioLen, job.verifyInterval(), ioOp == ReqOp.WRITE) : 0);
  }

  /**
   * {@code refill_buffers}: fio refills a write's buffer before it is issued
   * ({@code io_u_fill_buffer()} → {@code fill_io_buffer()}), charged with the checksum above in
   * the same user time. 125 ps per byte [D]: {@code __fill_random_buf()} ({@code lib/rand.c})
   * stores one 64-bit word per {@code __hash_u64()} step (a multiply), taken as 1 ns per 8 bytes
   * [A: about 3 cycles at 3 GHz], 512 ns per 4 KiB; the zeros of a
   * {@code buffer_compress_percentage} fill are charged alike (a simplification: memset is
   * faster).
   */
  static final long REFILL_PS_PER_BYTE = 125;

  /**
   * fio's {@code thread_main()} after {@code do_io()}: when the write phase ended by its size
   * (not by runtime or a stop) and written blocks wait, {@code do_verify()} begins. Returns
   * true when it did: the engine has done do_io()'s end_fsync before, and now closes its files
   * ({@code clear_io_state()}; {@code do_verify()}'s {@code fio_io_sync()} then finds none
   * open) and goes on issuing, the verify reads. A block device's reopen with
   * {@code invalidate=1} is {@code ioctl(BLKFLSBUF)} ({@code BlockDeviceFile.flushBuf()}).
   * Simplified: on regular files the page cache is not invalidated (fio's
   * {@code file_invalidate_cache()} at the reopen), so a buffered job's verify reads may hit
   * pages its writes left; on files the job's loops all run before one verify phase (fio
   * verifies after each loop's {@code do_io()}).
   */
  protected final boolean beginVerify(long now) {
    if (verifyLog == null || verifying || verifyLog.isEmpty() || now >= stopNs || minRateFailed
        || steadyStopped || filled || ioErrored
        || sequencer != null && sequencer.terminated(jobNumber)) {
      // (fill_device's ENOSPC marks the job terminated, an I/O error sets td->error: either
      // way thread_main() breaks out before do_verify().)
      return false;
    }
    verifying = true;
    stats.verifyStarted(now, job.rw().reads());
    return true;
  }

  /**
   * The next I/O of {@code p} rather than of the job's own pattern (one of the job's files,
   * {@link FioFileSet}), counted against the job's limits as {@link #nextIo()} is.
   */
  protected final void nextIo(IoPattern p) {
    IoPattern pattern = p;
    pattern.next(rateOn ? rateDdir : null);
    long len = pattern.length();
    issuedBytes += len;
    issuedIos++;
    ioOp = pattern.read() ? ReqOp.READ : ReqOp.WRITE;
    ioOffset = pattern.offset();
    ioLen = (int) len;
  }

  /**
   * Whether a completion result {@code ret} is an I/O error that ends the job as fio's default
   * {@code continue_on_error=none} does ({@code td_verror()} from the io_u's completion; fio
   * prints "err=5" and the job stops): -EIO (a zoned write off the write pointer) and
   * -ETOOMANYREFS (no open zone resource). Other negative results keep their earlier treatment
   * (the nowait experiment's -EAGAIN), so no published figure moves.
   */
  protected final boolean fatalIoError(long ret) {
    boolean nowaitError = job.nowait() && (ret == -blksim.kernel.block.Errno.EAGAIN
        || ret == -blksim.kernel.block.Errno.EOPNOTSUPP); // RWF_NOWAIT's refusal (nowait=1)
    if (ret != -blksim.kernel.block.Errno.EIO && ret != -blksim.kernel.block.Errno.ETOOMANYREFS
        && !nowaitError) {
      return false;
    }
    if (stats.error() == 0) {
      stats.setError((int) -ret);
    }
    ioErrored = true;
    return true;
  }

  /** fio-3.36's {@code td_verror()} text for an io_u's error: io_u.c line 1896 of that release. */
  static final String IO_U_ERROR_WHERE = "file:io_u.c:1896, func=io_u error";

  /**
   * {@link #fatalIoError(long)} for an I/O whose request is known: a fatal error also records
   * what fio's {@code __io_u_log_error()} prints (the stderr line naming the file, direction,
   * offset and length; the header's {@code td_verror()} text) and counts the failed io_u as
   * issued ({@code total_io_u}, which fio's {@code td_io_queue()} adds when it queues it), so a
   * job that fails at its first I/O still prints its block. The file name is the job's
   * {@code filename} (its first when it lists several) or fio's default "jobname.0.0"
   * (simplified: the file of a multi-file job is not tracked).
   */
  protected final boolean fatalIoError(long ret, ReqOp op, long offset, long len) {
    boolean first = stats.error() == 0;
    if (!fatalIoError(ret)) {
      return false;
    }
    int ddir = op == ReqOp.WRITE ? 1 : op == ReqOp.DISCARD ? 2 : 0;
    if (measuring()) {
      stats.recordFailedIo(ddir);
    }
    if (first) {
      String file = job.filename() != null ? job.filename().split(":")[0] : job.name() + ".0.0";
      String name = ddir == 1 ? "write" : ddir == 2 ? "trim" : "read";
      stats.setError(0);
      stats.setIoError((int) -ret, IO_U_ERROR_WHERE, file, name, offset, len);
    }
    return true;
  }

  private boolean ioErrored;

  /**
   * Whether a reaped write's {@code ret} is fill_device's expected ENOSPC (28): fio clears the
   * error and ends the job ({@code td_io_queue()}/{@code thread_main()} in backend.c: no more
   * I/O is issued, what is in flight drains, err= stays 0). False for anything else.
   */
  protected final boolean deviceFilled(long ret) {
    if (ret != -28 || !job.fillDevice()) {
      return false;
    }
    filled = true;
    return true;
  }

  private boolean filled;

  /** The job's zonemode=zbd state, or null without zonemode=zbd. */
  protected final blksim.workload.fio.FioZbd zbd() {
    return zbd;
  }

  /**
   * With zonemode=zbd, the next I/O adjusted to the zones ({@code zbd_adjust_block()},
   * {@link blksim.workload.fio.FioZbd#adjust}): takes the pattern's next I/O unless one is held
   * from a QUIESCE, and leaves the adjusted offset and length in {@link #ioOffset} and
   * {@link #ioLen}. On QUIESCE the I/O is held for the next call; on EOF the job stops issuing.
   *
   * @param inFlight the job's I/Os in flight (queued or submitted)
   */
  protected final blksim.workload.fio.FioZbd.Action zbdNextIo(int inFlight) {
    if (!zbdPending) {
      nextIo();
      zbdPending = true;
      zbdRawOffset = ioOffset;
      zbdRawLen = ioLen;
    }
    int dd = zbdDdir(ioOp);
    blksim.workload.fio.FioZbd.Action a = zbd.adjust(dd, zbdRawOffset, zbdRawLen, inFlight);
    if (a == blksim.workload.fio.FioZbd.Action.QUIESCE) {
      return a;
    }
    zbdPending = false;
    if (a == blksim.workload.fio.FioZbd.Action.EOF) {
      zbdEof = true;
      return a;
    }
    ioOffset = zbd.offset();
    ioLen = (int) zbd.length();
    issuedBytes += ioLen - zbdRawLen;
    if (a != blksim.workload.fio.FioZbd.Action.RESET_INSTEAD) {
      zbd.queued(dd, ioOffset, ioLen);
    }
    return a;
  }

  /** zbd's direction of an I/O of this job: a trim job's I/Os are trims (2). */
  protected final int zbdDdir(ReqOp op) {
    if (op == ReqOp.READ) {
      return 0;
    }
    return job.rw().trims() && !job.rw().writes() ? 2 : 1;
  }

  /** Start of the sync fio times now ({@link #syncStarted}), or -1. */
  private long syncStartNs = -1;
  private boolean syncCounted;

  /**
   * A sync fio times starts now: its io_u's issue, whose completion {@code io_completed()} adds
   * to {@code sync_stat} ({@code add_sync_clat_sample()}). {@code counted}: it also goes into
   * {@code total_io_u[DDIR_SYNC]}, as {@code td_io_queue()} counts an fsync=N or iolog sync but
   * not end_fsync's (runstate TD_FSYNCING); fdatasync's DDIR_DATASYNC is past that array's end
   * in fio (it shows up as short writes), so it is not counted either.
   */
  protected final void syncStarted(long nowNs, boolean counted) {
    syncStartNs = nowNs;
    syncCounted = counted;
  }

  /** The sync started by {@link #syncStarted} returned now; nothing if none was timed. */
  protected final void syncReturned(long nowNs) {
    if (syncStartNs >= 0) {
      stats.recordSync(nowNs - syncStartNs, syncCounted);
      syncStartNs = -1;
    }
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
    return op == ReqOp.READ ? 0 : op == ReqOp.DISCARD ? 2 : 1;
  }

  /**
   * The job's page faults as {major, minor} for fio's {@code majf}/{@code minf}, or null when
   * the job's engine takes none the model counts (every engine but mmap and page_fault).
   */
  protected long[] pageFaults() {
    return null;
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
    long[] h = helperCpu();
    stats.setCpu(utimeNs() + h[0] - usr0, stimeNs() + h[1] - sys0,
        nvcsw() + nivcsw() + h[2] - ctx0);
    long[] faults = pageFaults();
    if (faults != null) {
      stats.setFaults(faults[0], faults[1]);
    }
    if (zbd != null) {
      stats.setZoneResets(zbd.resets());
      stats.setCountZoneResets(job.rw().writes() || job.rw().trims());
    }
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

  /**
   * The user time, system time and context switches so far of the job's helper threads (the
   * submit workers of {@code io_submit_mode=offload}), which fio sums into the job's
   * ({@code sum_thread_stats()} from {@code io_workqueue_exit_worker_fn()}); none by default.
   */
  protected long[] helperCpu() {
    return new long[3];
  }

  /** The statistics this thread records into. */
  public JobStats stats() {
    return stats;
  }
}
