package blksim.workload.fio;

import blksim.engine.InputException;
import blksim.kernel.topology.CpuList;
import blksim.workload.fio.FioValues.BadValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The typed options of one job while its sections are applied; owned by one parse call.
 *
 * <p>Mirrors fio's {@code struct thread_options}: a {@code [global]} section fills one instance,
 * each job starts from a {@link #copy()} of it (fio's {@code get_new_job()} copies the parent), then
 * {@link #apply} runs the job's own options in order and {@link #finish} does the part of
 * {@code fixup_options()} in {@code init.c} that blksim needs. Defaults are fio's ({@code .def}).
 */
final class FioJobSettings implements Cloneable {
  private static final Logger LOG = LoggerFactory.getLogger(FioJobSettings.class);
  /** The notes already given ({@link #note}): a run parses its job files more than once. */
  private static final java.util.Set<String> WARNED =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * Logs a note about a job file (SLF4J's {@code {}} format) on stderr unless the same text was
   * given before: a run parses its job files two or three times, and each note names its file
   * and line, so it is said once. Returns whether it was logged.
   */
  static boolean note(String format, Object... args) {
    String text = org.slf4j.helpers.MessageFormatter.arrayFormat(format, args).getMessage();
    if (!WARNED.add(text)) {
      return false;
    }
    LOG.warn(text);
    return true;
  }

  /** fio's default {@code percentile_list}. */
  static final double[] DEFAULT_PERCENTILES = {
      1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

  /** A bare ki/mi/gi/ti/pi suffix: fio reads it like k/m/g/t/p, its HOWTO says otherwise. */
  private static final Pattern BARE_IEC = Pattern.compile("(?i)[0-9][kmgtp]i(?!b)");
  private static final Set<String> SIZE_KEYS = Set.of("bs", "size", "offset", "io_size");

  String displayName;
  String description;
  List<String> filenames = List.of();
  String directory;
  FioRw rw = FioRw.READ;
  int rwSequencer;
  int rwmixread = 50;
  long[] bs = {4096, 4096, 4096};
  long sizeBytes;
  double sizePercent;
  long offsetBytes;
  /**
   * {@code offset} and {@code offset_increment} as a percentage of the file or device (fio's
   * {@code start_offset_percent}, {@code offset_increment_percent}; 0 when given in bytes).
   */
  long offsetPercent;
  long offsetIncrementPercent;
  long ioSizeBytes;
  FioEngine ioengine = FioEngine.PSYNC;
  /** The deepest {@code iodepth} blksim accepts. */
  static final int MAX_IODEPTH = 65_536;

  int iodepth = 1;
  int iodepthBatchSubmit = 1;
  /** {@code iodepth_low}: the low-water mark (0 or above iodepth: iodepth, fio's default). */
  int iodepthLow;
  /** {@code disable_slat}: no submission latency samples ({@code io_u_queued()}). */
  boolean disableSlat;
  /** {@code disable_lat}: no total latency samples ({@code account_io_completion()}). */
  boolean disableLat;
  /** {@code disable_clat}: no completion latency samples nor latency buckets. */
  boolean disableClat;
  /** {@code disable_bw_measurement}: no per-I/O bandwidth log samples. */
  boolean disableBw;
  int iodepthBatchCompleteMin = 1;
  int iodepthBatchCompleteMax;
  boolean direct;
  long runtimeNs;
  boolean timeBased;
  long rampTimeNs;
  long startDelayNs;
  /** The top of a {@code startdelay} range (0: none), drawn per job at the run's start. */
  long startDelayHighNs;
  int loops = 1;
  int numjobs = 1;
  boolean groupReporting;
  boolean stonewall;
  boolean newGroup;
  boolean norandommap;
  boolean serializeOverlap;
  boolean randrepeat = true;
  long randseed = 0x89;
  boolean randseedSet;
  RandomDistribution[] randomDistribution = {
      RandomDistribution.UNIFORM, RandomDistribution.UNIFORM, RandomDistribution.UNIFORM};
  String randomGenerator = "tausworthe";
  /** {@code random_sequence_stride}: a sequence advances by its length each cycle. */
  boolean randomSequenceStride;
  int[] percentageRandom = {100, 100, 100};
  /** {@code bsrange}/{@code bssplit} bounds per direction; 0: {@code bs} (fixup_options()). */
  long[] minBs = new long[3];
  long[] maxBs = new long[3];
  /** {@code blockalign}/{@code ba} per direction; 0: the minimum block size. */
  long[] ba = new long[3];
  @SuppressWarnings("unchecked")
  List<FioJob.BsSplit>[] bssplit = new List[] {List.of(), List.of(), List.of()};
  boolean zonemodeStrided;
  /** {@code zonemode=zbd}: writes at the write pointers of a zoned block device ({@link FioZbd}). */
  boolean zonemodeZbd;
  /** {@code max_open_zones}, {@code job_max_open_zones} (0: no limit of their own). */
  int maxOpenZones;
  int jobMaxOpenZones;
  /** {@code zone_reset_threshold}, {@code zone_reset_frequency} (fractions, 0: none). */
  double zoneResetThreshold;
  double zoneResetFrequency;
  boolean readBeyondWp;
  boolean ignoreZoneLimits;
  /**
   * Sizes given in zones ({@code size=8z}, fio's {@code size_nz} and friends): size, offset,
   * io_size, offset_increment, zoneskip; -1 when given in bytes or not at all. Converted with the
   * zone size ({@code zbd_recalc_options_with_zone_granularity()}).
   */
  long[] zoneUnits = {-1, -1, -1, -1, -1};
  long zoneRangeBytes;
  long zoneSizeBytes;
  long zoneSkipBytes;
  long offsetIncrementBytes;
  long numberIos;
  String waitFor;
  SteadyState.Criterion steadyState;
  long ssDurNs;
  long ssRampNs;
  long ssIntervalNs = 1_000_000_000L;
  /** {@code exit_what}: group (fio's default), stonewall or all. */
  String exitWhat = "group";
  double[] percentileList = DEFAULT_PERCENTILES.clone();
  long thinktimeNs;
  /** {@code rate} in bytes/s and {@code rate_iops} per direction (0: none). */
  long[] rateBytes = new long[3];
  /** {@code prioclass}, {@code prio}, {@code priohint} (td->ioprio); -1 class: not set. */
  int ioprioClass;
  int ioprioLevel;
  int ioprioHint;
  boolean ioprioSet;
  /** cmdprio options of the libaio/io_uring engines, per direction (read, write). */
  int[] cmdprioPercentage = new int[3];
  int[] cmdprioClass = new int[3];
  int[] cmdprioLevel = new int[3];
  int[] cmdprioHint = new int[3];
  /** {@code cmdprio_bssplit} per direction, or null. */
  List<CmdPrio.Entry>[] cmdprioBssplit;
  long[] rateIops = new long[3];
  boolean ratePoisson;
  /** {@code rate_ignore_thinktime}: a thinktime's time counts as rated I/O done. */
  boolean rateIgnoreThinktime;
  /** {@code rate_min} in bytes/s and {@code rate_iops_min} per direction (0: none). */
  long[] rateMinBytes = new long[3];
  long[] rateMinIops = new long[3];
  /** {@code rate_cycle} ({@code ratecycle}): the window of the minimum-rate check, ms. */
  int rateCycleMs = 1000;
  /** {@code flow}, {@code flow_id}, {@code flow_sleep} (µs), fio's flow control. */
  int flow;
  int flowId;
  long flowSleepNs;
  /** {@code verify} and its companions ({@link VerifyAlgorithm}). */
  VerifyAlgorithm verify = VerifyAlgorithm.NONE;
  boolean doVerify = true;
  boolean verifyOnly;
  /** {@code verify_state_load} ({@link VerifyState}). */
  boolean verifyStateLoad;
  /** The reads a {@code verify_state_load} job verifies before it stops; -1: no bound. */
  long verifyStateReads = -1;
  long verifyBacklog;
  int verifyBacklogBatch;
  /** {@code latency_target} (ns; 0: none), {@code latency_window} (ns), fio's latency profile. */
  long latencyTargetNs;
  long latencyWindowNs;
  double latencyPercentile = 100;
  boolean latencyRun;
  /** {@code verify_interval}; 0: the write block size ({@code fixup_options()}). */
  long verifyInterval;
  /** {@code buffer_compress_percentage}; -1 unset. */
  int bufferCompressPercentage = -1;
  /** {@code buffer_compress_chunk} (fio's default 512). */
  long bufferCompressChunk = 512;
  /** {@code refill_buffers}. */
  boolean refillBuffers;
  /** Whether {@code buffer_pattern} is set. */
  boolean bufferPattern;
  /** {@code ioscheduler}: the scheduler fio switches the job's device to; null unset. */
  String ioscheduler;
  /** {@code sync}: the job opens its files O_SYNC or O_DSYNC ({@code sync=1}, {@code dsync}). */
  boolean syncIo;
  /** {@code zero_buffers}; null when the job file does not set it ({@code fio_option_is_set}). */
  Boolean zeroBuffers;
  /** {@code scramble_buffers} (fio's default 1); null when the job file does not set it. */
  Boolean scrambleBuffers;
  /** {@code numa_cpu_nodes}: NUMA nodes whose CPUs the job runs on; {@code {-1}} all; null unset. */
  int[] numaCpuNodes;
  /** {@code disk_util}: fio's "Disk stats" for this job's devices (default 1). */
  boolean diskUtil = true;
  /** {@code io_submit_mode=offload}: fio's submit workers (rate-submit.c). */
  boolean offload;
  /** {@code fadvise_hint}: 0 none, 1 by the pattern (fio's default), random, sequential. */
  String fadviseHint = "1";
  /**
   * The first option of the job's sections that blksim refuses or fio does not know, raised
   * once the job's engine is known to be modelled ({@code FioJobFile.applySection}).
   */
  InputException pendingRefusal;
  /** {@code write_iolog}: the iolog to write, or null. */
  String writeIolog;
  /** write_lat_log / write_bw_log / write_iops_log prefixes ("" the job name; null: none). */
  String latLog;
  String bwLog;
  String iopsLog;
  int logAvgMsec;
  int logWindowValue;
  boolean logOffset;
  boolean logPrio;
  boolean logIssueTime;
  boolean perJobLogs = true;
  int thinktimeBlocks = 1;
  long thinktimeSpinNs;
  /** {@code thinktime_blocks_type=issue}: count issued I/Os, not completed ones (fio's default). */
  boolean thinktimeBlocksIssue;
  /** {@code thinktime_iotime} in ns (a bare number is seconds); 0 for none. */
  long thinktimeIotimeNs;
  boolean thread;
  int kbBase = 1024;
  /** unified_rw_reporting: 0 none (UNIFIED_SPLIT), 1 mixed, 2 both (JobStats.UNIFIED_*). */
  int unifiedRw;
  /** bwavgtime / iopsavgtime in ms (fio's bw_avg_time / iops_avg_time, default 500). */
  int bwAvgMs = 500;
  int iopsAvgMs = 500;
  /** significant_figures: digits of fio's num2str() in the normal output (1..10, default 4). */
  int sigFigs = 4;
  /** unit_base: 8 bytes or 1 bits (0, auto, is bytes for every engine blksim models). */
  int unitBase = 8;
  boolean gtodReduce;
  boolean clatPercentiles = true;
  boolean latPercentiles;
  boolean slatPercentiles;
  boolean exitall;
  boolean invalidate = true;
  boolean hipri;
  /** io_uring / libaio / pvsync2 {@code nowait}: RWF_NOWAIT on every I/O. */
  boolean nowait;
  /** io_uring / pvsync2 {@code uncached}: RWF_DONTCACHE on buffered I/O (0: off). */
  int uncached;
  boolean fixedbufs;
  boolean registerfiles;
  boolean sqthreadPoll;
  boolean nonvectored;
  /** cpuio's {@code cpuload} (percent, 0: not given), {@code cpuchunks} (us), {@code cpumode}. */
  int cpuload;
  int cpuchunksUs = 50_000;
  String cpumode = "noop";
  /** cpuio's {@code exit_on_io_done}. */
  boolean exitOnIoDone;
  /** filestat/dirstat's {@code stat_type}: stat, lstat or statx. */
  String statType = "stat";
  /** {@code cpus_allowed} / {@code cpumask}: the CPUs the job may run on, ascending; null: all. */
  int[] cpusAllowed;
  /** {@code cpus_allowed_policy=split}: each job gets one CPU of the set. */
  boolean cpusAllowedSplit;
  int nice;
  int fsyncBlocks;
  int fdatasyncBlocks;
  boolean endFsync;
  /** {@code filesize}: each file's size, or its range; 0: not given ({@code size / nrfiles}). */
  long fileSizeLow;
  boolean experimentalVerify;
  long fileSizeHigh;
  int nrFiles = 1;
  /** {@code openfiles}; 0: nrfiles (fixup_options()). */
  int openFiles;
  /** {@code file_service_type}: random, roundrobin (fio's default) or sequential. */
  String fileServiceType = "roundrobin";
  /** The {@code :N} of file_service_type: I/Os before switching files (default 1). */
  int fileServiceNr = 1;
  /** {@code fallocate}: none, native (fio's default on Linux), posix, keep or truncate. */
  String fallocate = "native";
  boolean createOnOpen;
  boolean unlink;
  boolean unlinkEachLoop;
  boolean fsyncOnClose;
  boolean overwrite;
  /**
   * {@code fill_device} (alias {@code fill_fs}): with no {@code size=}, fio's
   * {@code fixup_options()} sets size to -1 and {@code setup_files()} caps it at what the target
   * holds; writes end the job cleanly at ENOSPC ({@code backend.c}).
   */
  boolean fillDevice;
  /** {@code atomic}: writes carry RWF_ATOMIC (fio's {@code oatomic}; ScenarioLoader checks them). */
  boolean atomic;
  /** {@code verify_async}: fio's verify threads (0: the job's thread checksums). */
  int verifyAsync;
  /** {@code filename_format}; null: {@code $jobname.$jobnum.$filenum}. */
  String filenameFormat;
  /**
   * Neither {@code filename=} nor {@code directory=} (nor {@code read_iolog}) and an engine with
   * files: as fio's {@code add_job()}, the job's {@code nrfiles} files are named by
   * {@code make_filename()} in the working directory ({@link #finish}).
   */
  boolean workingDirectoryFiles;
  /** {@code read_iolog} and the replay options ({@link #finishReplay}). */
  List<String> readIolog;
  blksim.workload.trace.TraceFormat readIologFormat;
  boolean replayNoStall;
  int replayTimeScale = 100;
  String replayRedirect;
  List<String> replayDevices = List.of();
  List<String> replayKnownDevices = List.of();
  /** {@code merge_blktrace_file}, or null. */
  String mergeBlktraceFile;
  /** {@code merge_blktrace_scalars} and {@code merge_blktrace_iters} as given (fio floats). */
  List<Double> mergeScalars = List.of();
  List<Double> mergeIters = List.of();
  /** blksim's {@code replay_skip_malformed}. */
  boolean replaySkipMalformed;
  long replayAlign;
  long replayScale;
  int replaySkip;
  long replayStartNs;
  long replayEndNs = Long.MAX_VALUE;
  blksim.workload.replay.ReplayOptions replay;
  /** The machine's CPU count, for checking CPU numbers as fio does. */
  int ncpus = Integer.MAX_VALUE;
  /** {@link FioEnvironment#paths()}: maps the files an iolog adds as the job file's are. */
  java.util.function.UnaryOperator<String> tracePaths = java.util.function.UnaryOperator.identity();
  /** Where each option was last set, for errors that involve several options. */
  Map<String, FioJobFile.Origin> origins = new LinkedHashMap<>();

  /** An independent copy (fio copies the global section's options into each job). */
  FioJobSettings copy() {
    FioJobSettings c;
    try {
      c = (FioJobSettings) super.clone();
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
    c.bs = bs.clone();
    c.randomDistribution = randomDistribution.clone();
    c.percentageRandom = percentageRandom.clone();
    c.minBs = minBs.clone();
    c.maxBs = maxBs.clone();
    c.ba = ba.clone();
    c.rateBytes = rateBytes.clone();
    c.cmdprioPercentage = cmdprioPercentage.clone();
    c.cmdprioClass = cmdprioClass.clone();
    c.cmdprioLevel = cmdprioLevel.clone();
    c.cmdprioHint = cmdprioHint.clone();
    c.cmdprioBssplit = cmdprioBssplit == null ? null : cmdprioBssplit.clone();
    c.rateIops = rateIops.clone();
    c.rateMinBytes = rateMinBytes.clone();
    c.rateMinIops = rateMinIops.clone();
    c.bssplit = bssplit.clone();
    c.percentileList = percentileList.clone();
    c.zoneUnits = zoneUnits.clone();
    c.cpusAllowed = cpusAllowed == null ? null : cpusAllowed.clone();
    c.origins = new LinkedHashMap<>(origins);
    return c;
  }

  /**
   * Applies one option (canonical key) with its substituted value, {@code null} for a bare key.
   *
   * @throws BadValue when the value breaks the option's rule
   */
  void apply(String key, String value, FioJobFile.Origin at) {
    origins.put(key, at);
    if (value != null && SIZE_KEYS.contains(key) && BARE_IEC.matcher(value).find()) {
      note("{}:{}: {}={}: fio reads a bare ki/mi/gi suffix like k/m/g (powers of kb_base);"
          + " write kib/mib/gib for the inverted unit (fio issue #1618)",
          at.file(), at.line(), at.key(), value);
    }
    switch (key) {
      case "name" -> displayName = string(value);
      case "description" -> description = string(value);
      case "filename" -> filenames = filenames(string(value));
      case "directory" -> {
        // Several directories joined by ':' ('\:' a literal colon) go to the clones in turn.
        filenames(string(value));
        directory = value;
      }
      case "rw" -> rw(string(value));
      case "rw_sequencer" -> onlyValue(value, "sequential");
      case "rwmixread" -> rwmixread = integer(value, 0, 100);
      case "rwmixwrite" -> rwmixread = 100 - integer(value, 0, 100);
      case "bs" -> bs(bsCutAtSeparator(string(value), at));
      case "size" -> {
        if (!zoneUnits(0, value)) {
          size(string(value));
        }
      }
      case "offset" -> {
        // str_offset_cb(): a percentage clears the byte offset and the other way round.
        offsetPercent = 0;
        offsetBytes = zoneUnits(1, value) ? 0 : bytesOrPercent(value, true);
      }
      case "io_size" -> ioSizeBytes = zoneUnits(2, value) ? 0 : bytesNoPercent(value);
      case "ioengine" -> ioengine = engine(string(value));
      case "iodepth" -> {
        iodepth = integer(value, 1, Integer.MAX_VALUE);
        // fio's table sets no upper bound; blksim refuses a depth no kernel path accepts
        // (libaio's io_setup() is bounded by fs.aio-max-nr, 65536 by default) before any
        // memory is spent on it.
        if (iodepth > MAX_IODEPTH) {
          throw new BadValue("must be at most " + MAX_IODEPTH + " (blksim's limit, the default"
              + " fs.aio-max-nr), was " + value);
        }
      }
      case "iodepth_batch" -> iodepthBatchSubmit = integer(value, 0, Integer.MAX_VALUE);
      case "iodepth_low" -> iodepthLow = integer(value, 0, Integer.MAX_VALUE);
      case "disable_slat" -> disableSlat = bool(value);
      case "disable_lat" -> disableLat = bool(value);
      case "disable_clat" -> disableClat = bool(value);
      case "disable_bw_measurement" -> disableBw = bool(value);
      case "iodepth_batch_complete_min" ->
          iodepthBatchCompleteMin = integer(value, 0, Integer.MAX_VALUE);
      case "iodepth_batch_complete_max" ->
          iodepthBatchCompleteMax = integer(value, 0, Integer.MAX_VALUE);
      case "direct" -> direct = bool(value);
      case "buffered" -> direct = !bool(value);
      case "runtime" -> runtimeNs = FioValues.timeNs(string(value), true);
      case "time_based" -> timeBased = flag(value);
      case "ramp_time" -> rampTimeNs = FioValues.timeNs(string(value), true);
      case "startdelay" -> {
        long[] r = startDelay(string(value));
        startDelayNs = r[0];
        startDelayHighNs = r[1];
      }
      case "loops" -> loops = integer(value, 1, Integer.MAX_VALUE);
      case "numjobs" -> numjobs = integer(value, 1, Integer.MAX_VALUE);
      case "group_reporting" -> groupReporting = flag(value);
      case "stonewall" -> stonewall = flag(value);
      case "new_group" -> newGroup = flag(value);
      case "norandommap" -> norandommap = flag(value);
      case "serialize_overlap" -> serializeOverlap = bool(value);
      case "randrepeat" -> randrepeat = bool(value);
      case "randseed" -> {
        randseed = FioValues.bytes(string(value), kbBase);
        randseedSet = true;
      }
      case "random_distribution" -> {
        if (string(value).startsWith("sequence")) {
          // str_random_distribution_cb(): a sequence's commas separate its elements.
          RandomDistribution r = RandomDistribution.parseSequence(value);
          Arrays.fill(randomDistribution, r);
          break;
        }
        perDirection(string(value), v -> {
        RandomDistribution r = RandomDistribution.parse(v, kbBase);
        return d -> randomDistribution[d] = r;
      });
      }
      case "random_sequence_stride" -> randomSequenceStride = bool(value);
      case "random_generator" ->
          randomGenerator = onlyValue(value, "tausworthe", "lfsr", "tausworthe64");
      case "percentage_random" -> perDirection(string(value), v -> {
        int p = integer(v, 0, 100);
        return d -> percentageRandom[d] = p;
      });
      case "bsrange" -> perDirection(string(value), v -> {
        long[] r = bsRange(v);
        return d -> {
          minBs[d] = r[0];
          maxBs[d] = r[1];
        };
      });
      case "bssplit" -> perDirection(string(value), v -> {
        List<FioJob.BsSplit> sp = bssplit(v);
        long lo = Long.MAX_VALUE;
        long hi = 0;
        for (FioJob.BsSplit b : sp) {
          lo = Math.min(lo, b.bs());
          hi = Math.max(hi, b.bs());
        }
        long min = lo;
        long max = hi;
        return d -> {
          bssplit[d] = sp;
          minBs[d] = min;
          maxBs[d] = max;
        };
      });
      case "prio" -> {
        ioprioLevel = integer(value, 0, CmdPrio.IOPRIO_MAX_PRIO);
        ioprioSet = true;
      }
      case "prioclass" -> {
        ioprioClass = integer(value, 0, 3);
        ioprioSet = true;
      }
      case "priohint" -> {
        ioprioHint = integer(value, 0, CmdPrio.IOPRIO_MAX_PRIO_HINT);
        ioprioSet = true;
      }
      case "cmdprio_percentage" -> perDirection(string(value), v -> {
        int p = integer(v, 0, 100);
        return d -> cmdprioPercentage[d] = p;
      });
      case "cmdprio_class" -> perDirection(string(value), v -> {
        int c = integer(v, 1, 3);
        return d -> cmdprioClass[d] = c;
      });
      case "cmdprio" -> perDirection(string(value), v -> {
        int l = integer(v, 0, CmdPrio.IOPRIO_MAX_PRIO);
        return d -> cmdprioLevel[d] = l;
      });
      case "cmdprio_hint" -> perDirection(string(value), v -> {
        int h = integer(v, 0, CmdPrio.IOPRIO_MAX_PRIO_HINT);
        return d -> cmdprioHint[d] = h;
      });
      case "cmdprio_bssplit" -> {
        @SuppressWarnings("unchecked")
        List<CmdPrio.Entry>[] sp = new List[] {List.of(), List.of(), List.of()};
        perDirection(string(value), v -> {
          List<CmdPrio.Entry> e = CmdPrio.parseBssplit(v, this::blockSize, this::intIn);
          return d -> sp[d] = e;
        });
        cmdprioBssplit = sp;
      }
      case "ba" -> perDirection(string(value), v -> {
        long b = FioValues.bytes(v, kbBase);
        if (b <= 0 || b % 512 != 0) {
          throw new BadValue("blockalign must be a positive multiple of 512, was " + v
              + iecHint(v, b));
        }
        return d -> ba[d] = b;
      });
      case "zonemode" -> {
        String m = onlyValue(value, "none", "strided", "zbd");
        zonemodeStrided = m.equals("strided");
        zonemodeZbd = m.equals("zbd");
      }
      case "zonerange" -> zoneRangeBytes = bytesNoPercent(value);
      case "zonesize" -> zoneSizeBytes = bytesNoPercent(value);
      case "zoneskip" -> zoneSkipBytes = zoneUnits(4, value) ? 0 : bytesNoPercent(value);
      case "offset_increment" -> {
        offsetIncrementPercent = 0;
        offsetIncrementBytes = zoneUnits(3, value) ? 0 : bytesOrPercent(value, false);
      }
      case "max_open_zones" -> maxOpenZones = integer(value, 0, FioZbd.ZBD_MAX_WRITE_ZONES);
      case "job_max_open_zones" ->
          jobMaxOpenZones = integer(value, 0, FioZbd.ZBD_MAX_WRITE_ZONES);
      case "zone_reset_threshold" -> zoneResetThreshold = fraction(value);
      case "zone_reset_frequency" -> zoneResetFrequency = fraction(value);
      case "read_beyond_wp" -> readBeyondWp = bool(value);
      case "ignore_zone_limits" -> ignoreZoneLimits = bool(value);
      case "zonecapacity" -> bytesNoPercent(value);
      case "number_ios" -> numberIos = FioValues.bytes(string(value), kbBase);
      case "wait_for" -> waitFor = string(value);
      case "steadystate" -> steadyState = SteadyState.parse(string(value), kbBase);
      case "steadystate_duration" -> ssDurNs = FioValues.timeNs(string(value), true);
      case "steadystate_ramp_time" -> ssRampNs = FioValues.timeNs(string(value), true);
      case "steadystate_check_interval" -> {
        ssIntervalNs = FioValues.timeNs(string(value), true);
        if (ssIntervalNs < 1_000_000L) {
          throw new BadValue("steadystate_check_interval must be at least 1 ms, was " + value);
        }
      }
      case "exit_what" -> exitWhat = onlyValue(value, "group", "stonewall", "all");
      case "percentile_list" -> percentileList = FioValues.percentiles(string(value));
      case "rate" -> perDirection(string(value), v -> {
        long b = FioValues.bytes(v, kbBase);
        return d -> rateBytes[d] = b;
      });
      case "rate_iops" -> perDirection(string(value), v -> {
        long n = FioValues.bytes(v, kbBase);
        return d -> rateIops[d] = n;
      });
      case "numa_cpu_nodes" -> numaCpuNodes = nodeList(string(value));
      case "numa_mem_policy" -> memPolicy(string(value));
      case "clocksource" -> onlyValue(value, "gettimeofday", "clock_gettime", "cpu");
      case "disk_util" -> diskUtil = bool(value);
      case "io_submit_mode" -> offload = "offload".equals(onlyValue(value, "inline", "offload"));
      case "fadvise_hint" -> fadviseHint = onlyValue(value, "0", "1", "random", "sequential",
          "noreuse");
      case "write_iolog" -> writeIolog = string(value);
      case "write_lat_log" -> latLog = value == null ? "" : value;
      case "write_bw_log" -> bwLog = value == null ? "" : value;
      case "write_iops_log" -> iopsLog = value == null ? "" : value;
      case "write_hist_log" -> note("{}:{}: {}: accepted, but the histogram log is not"
          + " written yet (blksim writes the lat, bw and iops logs)", at.file(), at.line(),
          at.key());
      case "log_hist_msec" -> integer(value, 0, Integer.MAX_VALUE);
      case "log_hist_coarseness" -> integer(value, 0, 6);
      case "hipri_percentage" -> integer(value, 0, 100);
      case "log_avg_msec" -> logAvgMsec = integer(value, 0, Integer.MAX_VALUE);
      case "log_window_value" -> logWindowValue = switch (onlyValue(value, "avg", "max", "both",
          "0", "1")) {
        case "max", "1" -> 1;
        case "both" -> 2;
        default -> 0;
      };
      case "log_offset" -> logOffset = bool(value);
      case "log_prio" -> logPrio = bool(value);
      case "log_issue_time" -> logIssueTime = bool(value);
      case "per_job_logs" -> perJobLogs = bool(value);
      case "rate_ignore_thinktime" -> rateIgnoreThinktime = bool(value);
      case "rate_process" -> ratePoisson = onlyValue(value, "linear", "poisson").equals("poisson");
      case "thinktime" -> thinktimeNs = FioValues.timeNs(string(value), false);
      case "thinktime_blocks" -> thinktimeBlocks = integer(value, 1, Integer.MAX_VALUE);
      case "thinktime_spin" -> thinktimeSpinNs = FioValues.timeNs(string(value), false);
      case "thinktime_blocks_type" ->
          thinktimeBlocksIssue = onlyValue(value, "complete", "issue").equals("issue");
      case "thinktime_iotime" -> thinktimeIotimeNs = FioValues.timeNs(string(value), true);
      case "thread" -> thread = flag(value);
      case "kb_base" -> kbBase = Integer.parseInt(onlyValue(value, "1024", "1000"));
      // options.c: posval none/mixed/both and the former booleans 0/1 plus 2 as aliases.
      case "unified_rw_reporting" -> unifiedRw = switch (onlyValue(value, "none", "mixed", "both",
          "0", "1", "2")) {
        case "none", "0" -> 0;
        case "mixed", "1" -> 1;
        default -> 2;
      };
      // FIO_OPT_INT without bounds in fio; 0 makes fio sample at every helper-thread wake-up.
      case "bwavgtime" -> bwAvgMs = avgTime(value);
      case "iopsavgtime" -> iopsAvgMs = avgTime(value);
      case "significant_figures" -> sigFigs = integer(value, 1, 10); // minval 1, maxval 10
      // init.c fixup: unit_base=0 (auto) is bits only for FIO_BIT_BASED engines (none here).
      case "unit_base" -> unitBase = onlyValue(value, "0", "8", "1").equals("1") ? 1 : 8;
      case "mem" -> memType(string(value));
      case "ioscheduler" -> ioscheduler = string(value).trim();
      // options.c: none/0, sync/1 (O_SYNC), dsync (O_DSYNC); checked against the device at load.
      case "sync" -> syncIo = !onlyValue(value, "none", "0", "sync", "1", "dsync").equals("none")
          && !value.trim().equals("0");
      case "iomem_align" -> {
        long a = bytesNoPercent(value);
        if (a % 4096 != 0) {
          throw new BadValue("iomem_align other than a multiple of the 4 KiB page is not"
              + " modelled by blksim (a buffer off a page boundary spans one more page per I/O,"
              + " which O_DIRECT pins), was " + value);
        }
      }
      case "gtod_reduce" -> {
        gtodReduce = bool(value);
        if (gtodReduce) {
          // str_gtod_reduce_cb(): only gtod_reduce=1 changes anything, at parse time (a later
          // disable_lat=0 in the same job turns that one back on).
          disableLat = true;
          disableClat = true;
          disableSlat = true;
          disableBw = true;
          clatPercentiles = false;
          latPercentiles = false;
          slatPercentiles = false;
        }
      }
      case "clat_percentiles" -> clatPercentiles = bool(value);
      case "lat_percentiles" -> latPercentiles = bool(value);
      case "slat_percentiles" -> slatPercentiles = bool(value);
      case "exitall" -> exitall = flag(value);
      case "invalidate" -> invalidate = bool(value);
      case "hipri" -> hipri = flag(value);
      case "nowait" -> nowait = flag(value);
      case "uncached" -> uncached = integer(value, 0, Integer.MAX_VALUE);
      case "fixedbufs" -> fixedbufs = flag(value);
      case "registerfiles" -> registerfiles = flag(value);
      case "sqthread_poll" -> sqthreadPoll = flag(value);
      case "nonvectored" -> nonvectored = flag(value);
      case "cpuload" -> cpuload = integer(value, 0, Integer.MAX_VALUE);
      case "cpuchunks" -> cpuchunksUs = integer(value, 0, Integer.MAX_VALUE);
      case "cpumode" -> cpumode = onlyValue(value, "noop", "qsort");
      case "exit_on_io_done" -> exitOnIoDone = bool(value);
      case "stat_type" -> statType = onlyValue(value, "stat", "lstat", "statx");
      case "cpus_allowed" -> cpusAllowed = cpuList(string(value));
      case "cpumask" -> cpusAllowed = cpuMask(string(value));
      case "cpus_allowed_policy" ->
          cpusAllowedSplit = onlyValue(value, "shared", "split").equals("split");
      case "nice" -> nice = signedInteger(value, -20, 19);
      case "fsync" -> fsyncBlocks = integer(value, 0, Integer.MAX_VALUE);
      case "fdatasync" -> fdatasyncBlocks = integer(value, 0, Integer.MAX_VALUE);
      case "end_fsync" -> endFsync = bool(value);
      case "filesize" -> fileSize(string(value));
      case "nrfiles" -> nrFiles = integer(value, 1, Integer.MAX_VALUE);
      case "openfiles" -> openFiles = integer(value, 0, Integer.MAX_VALUE);
      case "file_service_type" -> fileServiceType(string(value));
      case "fallocate" -> {
        String f = onlyValue(value, "none", "native", "posix", "keep", "truncate", "0", "1");
        // options.c: "0" is an alias for none, "1" for posix (the former boolean values).
        fallocate = f.equals("0") ? "none" : f.equals("1") ? "posix" : f;
      }
      case "create_on_open" -> createOnOpen = bool(value);
      case "unlink" -> unlink = bool(value);
      case "unlink_each_loop" -> unlinkEachLoop = bool(value);
      case "fsync_on_close" -> fsyncOnClose = bool(value);
      case "overwrite" -> overwrite = bool(value);
      case "fill_device" -> fillDevice = bool(value);
      case "atomic" -> atomic = bool(value);
      case "filename_format" -> filenameFormat = string(value);
      case "read_iolog" -> readIolog = iologs(string(value));
      case "read_iolog_chunked" -> bool(value); // blksim always reads traces lazily
      case "read_iolog_format" -> readIologFormat = traceFormat(string(value));
      case "replay_no_stall" -> replayNoStall = bool(value);
      case "replay_time_scale" -> replayTimeScale = integer(value, 1, Integer.MAX_VALUE);
      case "replay_redirect" -> replayRedirect = string(value);
      case "replay_align" -> replayAlign = powerOfTwo(value);
      case "replay_scale" -> replayScale = integer(value, 0, Integer.MAX_VALUE);
      case "replay_skip" -> replaySkip = replaySkip(string(value));
      case "replay_start" -> replayStartNs = FioValues.timeNs(string(value), true);
      case "replay_end" -> replayEndNs = FioValues.timeNs(string(value), true);
      case "replay_device" -> replayDevices = deviceList(string(value));
      case "replay_known_devices" -> replayKnownDevices = deviceList(string(value));
      case "merge_blktrace_file" -> mergeBlktraceFile = string(value);
      case "replay_skip_malformed" -> replaySkipMalformed = bool(value);
      case "merge_blktrace_scalars" -> mergeScalars = floatList(string(value));
      case "merge_blktrace_iters" -> mergeIters = floatList(string(value));
      case "rate_min" -> perDirection(string(value), v -> {
        long b = FioValues.bytes(v, kbBase);
        return d -> rateMinBytes[d] = b;
      });
      case "rate_iops_min" -> perDirection(string(value), v -> {
        int n = integer(v, 0, Integer.MAX_VALUE);
        return d -> rateMinIops[d] = n;
      });
      case "rate_cycle" -> rateCycleMs = integer(value, 0, Integer.MAX_VALUE);
      case "flow" -> flow = signedInteger(value, 0, 1000); // FLOW_MAX_WEIGHT
      case "flow_id" -> flowId = integer(value, 0, Integer.MAX_VALUE);
      case "flow_sleep" -> flowSleepNs = 1000L * integer(value, 0, Integer.MAX_VALUE);
      case "verify" -> verify = VerifyAlgorithm.parse(string(value));
      case "do_verify" -> doVerify = bool(value);
      case "verify_only" -> verifyOnly = flag(value);
      case "experimental_verify" -> experimentalVerify = bool(value);
      case "buffer_pattern" -> bufferPattern = !string(value).isEmpty();
      case "verify_backlog" -> verifyBacklog = FioValues.bytes(string(value), kbBase);
      case "verify_backlog_batch" -> verifyBacklogBatch = integer(value, 0, Integer.MAX_VALUE);
      // Checked, without effect: buffer contents are not simulated, so where the header sits,
      // what pattern fills the buffer and whether a mismatch is fatal or dumped change nothing.
      case "verify_interval" -> verifyInterval = bytesNoPercent(value);
      case "verify_async" -> verifyAsync = integer(value, 0, 256);
      case "verify_async_cpus" -> cpuList(string(value));
      case "verify_offset" -> bytesNoPercent(value);
      case "verify_pattern", "verify_pattern_interval" -> string(value);
      case "verify_fatal", "verify_dump", "verify_write_sequence", "verify_header_seed",
          "verify_state_save" -> bool(value);
      case "verify_state_load" -> verifyStateLoad = bool(value);
      case "verifysort", "verifysort_nr", "flow_watermark" -> { } // FIO_OPT_SOFT_DEPRECATED
      // No I/O error is ever simulated, so there is none to continue on, ignore or dump.
      // Checked, without effect: buffer contents are not simulated and no device deduplicates;
      // zram's page mix is a device key (fio-options.tsv says why for each).
      case "dedupe_mode" -> onlyValue(value, "repeat", "working_set");
      case "dedupe_global" -> bool(value);
      case "dedupe_percentage", "dedupe_working_set_percentage" -> integer(value, 0, 100);
      // Modelled on zram only (ZramBufferMix): the written pages' kinds; elsewhere no effect.
      case "buffer_compress_percentage" -> bufferCompressPercentage = integer(value, 0, 100);
      case "buffer_compress_chunk" -> bufferCompressChunk = bytesNoPercent(value);
      case "refill_buffers" -> refillBuffers = bool(value);
      // What they change is zram's page mix (ZramBufferMix.zeroMix); elsewhere no effect.
      case "zero_buffers" -> zeroBuffers = bool(value);
      case "scramble_buffers" -> scrambleBuffers = bool(value);
      // The files a job names are taken as left by an earlier run: nothing is created.
      case "allow_file_create" -> bool(value);
      case "trim_verify_zero" -> bool(value); // only with trim_percentage/trim_backlog
      // Files are laid out in each job's own thread before its I/O phase (create_serialize=0);
      // fio's serial layout in the main thread changes only when layout I/O happens.
      case "create_serialize" -> bool(value);
      // fio's latency profile (io_u.c lat_target_*): a bare number is µs (FIO_OPT_STR_VAL_TIME).
      case "latency_target" -> latencyTargetNs = FioValues.timeNs(string(value), false);
      case "latency_window" -> latencyWindowNs = FioValues.timeNs(string(value), false);
      case "latency_percentile" -> latencyPercentile = percent(value);
      case "latency_run" -> latencyRun = bool(value);
      case "continue_on_error" -> onlyValue(value, "none", "read", "write", "io", "verify", "all",
          "0", "1");
      case "ignore_error" -> ignoreError(string(value));
      case "error_dump" -> bool(value);
      default -> throw new IllegalStateException("modelled fio option without a handler: " + key);
    }
  }

  /**
   * Cross-option checks and fio's {@code fixup_options()} defaults, once all sections are applied.
   *
   * @throws InputException naming the option at fault
   */
  void finish() {
    if (iodepthBatchSubmit == 0 || iodepthBatchSubmit > iodepth) {
      iodepthBatchSubmit = iodepth;
    }
    // fixup_options(): "The low water mark cannot be bigger than the iodepth".
    if (iodepthLow == 0 || iodepthLow > iodepth) {
      iodepthLow = iodepth;
    }
    // fixup_options(): no samples, no percentiles. fio opens the lat and clat logs whatever
    // these say and leaves the disabled ones empty, which blksim's logs do not model.
    if (disableLat) {
      latPercentiles = false;
      if (latLog != null) {
        throw error(gtodReduce ? "gtod_reduce" : "disable_lat", (gtodReduce ? "gtod_reduce"
            : "disable_lat") + " with write_lat_log is not modelled by blksim (fio writes an"
            + " empty lat log)");
      }
    }
    if (disableClat) {
      clatPercentiles = false;
      if (latLog != null) {
        throw error("disable_clat", "disable_clat with write_lat_log is not modelled by blksim"
            + " (fio writes an empty clat log)");
      }
    }
    if (gtodReduce && iopsLog != null && logAvgMsec == 0) {
      // account_io_completion(): per-I/O iops samples only without gtod_reduce.
      throw error("gtod_reduce", "gtod_reduce with a per-I/O write_iops_log (log_avg_msec=0)"
          + " is not modelled by blksim (fio writes an empty log)");
    }
    if (disableSlat) {
      slatPercentiles = false; // fixup_options(): no samples, no percentiles
      if (latLog != null) {
        // init.c: with disable_slat fio opens no slat log next to the lat and clat logs.
        throw error("disable_slat", "disable_slat with write_lat_log is not modelled by blksim"
            + " (fio writes the lat and clat logs but no slat log)");
      }
    }
    if (disableBw && bwLog != null && logAvgMsec == 0) {
      // account_io_completion(): a per-I/O bw log (log_avg_msec=0) gets no samples.
      throw error("disable_bw_measurement", "disable_bw with a per-I/O write_bw_log"
          + " (log_avg_msec=0) is not modelled by blksim (fio writes an empty log)");
    }
    // init.c setup_log()s: with write_bw_log (write_iops_log) fio's bw_avg_time (iops_avg_time)
    // becomes log_avg_msec unless bwavgtime (iopsavgtime) is set, and then the log averages over
    // min(log_avg_msec, bwavgtime), which blksim's logs (one window for all) do not model.
    if (bwLog != null && origins.containsKey("bwavgtime") && logAvgMsec > bwAvgMs) {
      throw error("bwavgtime", "bwavgtime below log_avg_msec with write_bw_log is not modelled by"
          + " blksim (fio then averages the bw log over bwavgtime, the other logs over"
          + " log_avg_msec)");
    }
    if (iopsLog != null && origins.containsKey("iopsavgtime") && logAvgMsec > iopsAvgMs) {
      throw error("iopsavgtime", "iopsavgtime below log_avg_msec with write_iops_log is not"
          + " modelled by blksim (fio then averages the iops log over iopsavgtime, the other logs"
          + " over log_avg_msec)");
    }
    if (bwLog != null && !origins.containsKey("bwavgtime") && logAvgMsec > 0) {
      bwAvgMs = logAvgMsec;
    }
    if (iopsLog != null && !origins.containsKey("iopsavgtime") && logAvgMsec > 0) {
      iopsAvgMs = logAvgMsec;
    }
    if (iodepthBatchCompleteMin > iodepthBatchCompleteMax) {
      iodepthBatchCompleteMax = iodepthBatchCompleteMin;
    }
    for (int d = 0; d < 3; d++) {
      // fixup_options(): "rate and rate_iops are mutually exclusive".
      if (rateBytes[d] > 0 && rateIops[d] > 0) {
        throw error(origins.containsKey("rate_iops") ? "rate_iops" : "rate",
            "rate and rate_iops are mutually exclusive (fio refuses both for one direction)");
      }
    }
    // fixup_options(): rate_min with rate_iops_min is refused like rate with rate_iops, and a
    // minimum above the rate limit of its direction.
    if (Arrays.stream(rateMinBytes).sum() > 0 && Arrays.stream(rateMinIops).sum() > 0) {
      throw error("rate_iops_min", "rate_iops_min and rate_min are mutually exclusive (fio:"
          + " rate and rate_iops are mutually exclusive)");
    }
    for (int d = 0; d < 3; d++) {
      if (rateBytes[d] > 0 && rateBytes[d] < rateMinBytes[d]
          || rateIops[d] > 0 && rateIops[d] < rateMinIops[d]) {
        throw error(rateMinBytes[d] > 0 ? "rate_min" : "rate_iops_min", "the minimum rate"
            + " exceeds the rate of its direction (fio: minimum rate exceeds rate, ddir " + d
            + ")");
      }
    }
    if (logIssueTime && (latLog == null || !logOffset)) {
      // add_job(): "log_issue_time option requires write_lat_log and log_offset options".
      throw error("log_issue_time", "log_issue_time needs write_lat_log and log_offset=1 (fio"
          + " refuses it otherwise)");
    }
    if (ioengine == FioEngine.VSYNC && iodepth > 1) {
      // The rule starts with the option the error points at, so that it is named once.
      boolean atDepth = origins.get("iodepth") != null;
      throw error(atDepth ? "iodepth" : "ioengine", (atDepth
          ? "iodepth=" + iodepth + " with ioengine=vsync" : "ioengine=vsync with iodepth="
          + iodepth) + " coalesces contiguous I/Os into one readv()/writev()"
          + " (fio_vsyncio_queue()), which blksim does not model; a depth of 1 (one iovec a call)"
          + " is modelled");
    }
    if (thinktimeSpinNs > thinktimeNs) {
      thinktimeSpinNs = thinktimeNs;
    }
    if (openFiles == 0 || openFiles > nrFiles) {
      openFiles = nrFiles;
    }
    for (int d = 0; d < 3; d++) {
      // fixup_options(): no bsrange/bssplit means bs; blockalign only for random I/O.
      if (minBs[d] == 0) {
        minBs[d] = bs[d];
      }
      if (maxBs[d] == 0) {
        maxBs[d] = bs[d];
      }
      if (ba[d] == 0 || !rw.isRandom()) {
        ba[d] = minBs[d];
      }
    }
    boolean cmdprioPerc = cmdprioPercentage[0] > 0 || cmdprioPercentage[1] > 0;
    if (cmdprioPerc && cmdprioBssplit != null) {
      // fio_cmdprio_init(): the two ways of choosing the I/Os are exclusive.
      throw error("cmdprio_bssplit", "cmdprio_bssplit and cmdprio_percentage are mutually"
          + " exclusive (fio refuses both)");
    }
    if (ioprioSet && ioengine != FioEngine.LIBAIO && ioengine != FioEngine.IO_URING) {
      throw error(origins.containsKey("prioclass") ? "prioclass" : "prio", "I/O priorities are"
          + " modelled for ioengine=libaio and io_uring only (the bios of blksim's other engines"
          + " carry no ioprio yet), was ioengine=" + ioengine.fioName());
    }
    if (ssDurNs > 0 && steadyState == null) {
      throw error("steadystate_duration", "steadystate_duration needs steadystate=CRITERION:LIMIT");
    }
    if (ssDurNs > 0 && ssDurNs < ssIntervalNs) {
      throw error("steadystate_duration", "steadystate_duration must be at least one"
          + " steadystate_check_interval (" + ssIntervalNs / 1_000_000 + " ms)");
    }
    if (zonemodeStrided) {
      if (zoneRangeBytes == 0 && zoneSizeBytes == 0) {
        throw error("zonemode", "zonemode=strided needs zonesize (and zonerange, default zonesize)");
      }
      // fio: zonerange defaults to zonesize, and zonesize to zonerange.
      if (zoneRangeBytes == 0) {
        zoneRangeBytes = zoneSizeBytes;
      }
      if (zoneSizeBytes == 0) {
        zoneSizeBytes = zoneRangeBytes;
      }
    }
    if (hasZoneUnits()) {
      if (zoneSizeBytes > 0) {
        // zbd: the device's zone size, which zonesize must equal (checked against the device).
        resolveZoneUnits(zoneSizeBytes);
      } else if (!zonemodeZbd) {
        throw error(firstZoneUnitKey(), "a value in zones (z) needs zonesize or zonemode=zbd"
            + " (the zone length to multiply by)");
      }
    }
    if (zoneResetFrequency > 0 && !zonemodeZbd) {
      throw error("zone_reset_frequency", "zone_reset_frequency applies to zonemode=zbd only");
    }
    if (timeBased && runtimeNs == 0) {
      // init.c fixup_options(): "fio: time_based requires a runtime/timeout setting", and the
      // job runs without time_based, to its size.
      FioJobFile.Origin at = origins.get("time_based");
      note("{}:{}: time_based without runtime: fio turns time_based off (\"fio:"
          + " time_based requires a runtime/timeout setting\") and the job runs to its size",
          at.file(), at.line());
      timeBased = false;
    }
    String never = verifyNeverStarts();
    if (never != null) {
      note(never);
    }
    String capped = syncDepthNote();
    if (capped != null) {
      note(capped);
    }
    if (uncached != 0 && !direct) {
      // engines/io_uring.c and sync.c: "if (!td->o.odirect && o->uncached) ... RWF_DONTCACHE";
      // with direct=1 fio sets nothing. RWF_DONTCACHE is Linux 6.14's (commit 1b2a339f0abf,
      // "fs: add RWF_DONTCACHE iocb and FOP_DONTCACHE file_operations flag").
      throw error("uncached", "uncached=" + uncached + " asks for RWF_DONTCACHE on buffered I/O"
          + " (Linux 6.14+: pages dropped once copied or written back); blksim's kernels"
          + " (kernel.mode up to V6_13) do not know the flag, so each such I/O would fail with"
          + " EOPNOTSUPP (err=95), and dropping the pages after the I/O is not modelled; with"
          + " direct=1 fio does not set it");
    }
    if (hipri && ioengine != FioEngine.IO_URING && ioengine != FioEngine.PVSYNC2) {
      throw error("hipri", "hipri is an option of ioengine=io_uring or pvsync2, ioengine is "
          + ioengine.fioName());
    }
    finishReplay();
    if (verify.enabled() && readIolog != null) {
      throw error("verify", "verify with read_iolog is not modelled by blksim (a replay issues"
          + " the trace's I/Os, not the job's pattern)");
    }
    if (verify == VerifyAlgorithm.PATTERN && !origins.containsKey("verify_pattern")) {
      throw error("verify", "verify=pattern needs verify_pattern= (fio's verify_io_u_pattern()"
          + " asserts that there is a pattern to compare)");
    }
    // ioengine=null is FIO_FAKEIO: verify_io_u() (verify.c) "pretend[s] we verified
    // everything", so a verify job on it runs (its reads check nothing; NullThread).
    // add_job() (init.c): "if (!o->filename && !td->files_index && !o->read_iolog_file)" it adds
    // nr_files files named by make_filename() ($jobname.$jobnum.$filenum by default), relative,
    // so in the working directory (or in directory= when given). A diskless engine has none.
    workingDirectoryFiles = filenames.isEmpty() && directory == null && readIolog == null
        && !ioengine.diskless();
    finishEngine();
    for (String k : List.of("fixedbufs", "registerfiles", "sqthread_poll", "nonvectored")) {
      if (origins.containsKey(k) && ioengine != FioEngine.IO_URING) {
        throw error(k, k + " is an option of ioengine=io_uring, ioengine is "
            + ioengine.fioName());
      }
    }
  }

  /**
   * The engine's own {@code init()}: cpuio's {@code fio_cpuio_init()} (engines/cpu.c) refuses a
   * job without {@code cpuload} ("cpu thread needs rate (cpuload=)"), caps it at 100, and sets
   * {@code thinktime = cpuchunks * (100 - cpuload) / cpuload} us after every I/O
   * ({@code thinktime_blocks=1}, no spin) and one file; the engine options of another engine are
   * refused as fio refuses them (they are not in its option table).
   */
  private void finishEngine() {
    if (ioengine == FioEngine.NULL && sizeBytes == 0 && sizePercent == 0 && fileSizeLow > 0) {
      // setup_files() (filesetup.c): a FIO_DISKLESSIO | FIO_FAKEIO file takes filesize as its
      // real_file_size, and without size= the job's size is the sum of its files' io_size.
      if (fileSizeLow != fileSizeHigh) {
        throw error("filesize", "filesize as a range with ioengine=null (fio draws each file's"
            + " size from it) is not modelled by blksim; give one size, or size=");
      }
      sizeBytes = fileSizeLow * nrFiles;
    }
    if (ioengine == FioEngine.CPUIO) {
      if (cpuload == 0) {
        throw error(origins.containsKey("cpuload") ? "cpuload" : "ioengine", "ioengine=cpuio"
            + " needs cpuload=1..100, the share of a CPU to burn (fio: cpu thread needs rate"
            + " (cpuload=))");
      }
      cpuload = Math.min(cpuload, 100);
      if (cpuchunksUs == 0 && cpumode.equals("noop")) {
        throw error(origins.containsKey("cpuchunks") ? "cpuchunks" : "ioengine",
            "cpuchunks=0 burns nothing per I/O: fio's cpuio job would spin in an endless loop"
                + " of empty I/Os; give it a length in microseconds (default 50000)");
      }
      thinktimeNs = (long) cpuchunksUs * (100 - cpuload) / cpuload * 1000L;
      thinktimeBlocks = 1;
      thinktimeSpinNs = 0;
      nrFiles = 1;
      openFiles = 1;
    } else {
      for (String k : List.of("cpuload", "cpuchunks", "cpumode", "exit_on_io_done")) {
        if (origins.containsKey(k)) {
          throw error(k, k + " is an option of ioengine=cpuio, ioengine is "
              + ioengine.fioName());
        }
      }
    }
    if (origins.containsKey("stat_type") && ioengine != FioEngine.FILESTAT
        && ioengine != FioEngine.DIRSTAT) {
      throw error("stat_type", "stat_type is an option of ioengine=filestat or dirstat,"
          + " ioengine is " + ioengine.fioName());
    }
  }

  private static List<String> iologs(String value) {
    List<String> files = new ArrayList<>();
    for (String f : value.split(":", -1)) {
      if (f.isBlank()) {
        throw new BadValue("an empty file name in the ':'-separated list '" + value + "'");
      }
      files.add(f);
    }
    return files;
  }

  private static blksim.workload.trace.TraceFormat traceFormat(String value) {
    blksim.workload.trace.TraceFormat f = blksim.workload.trace.TraceFormat.ofKey(value);
    if (f == null) {
      throw new BadValue("must be one of " + blksim.workload.trace.TraceFormat.keys() + ", was "
          + value);
    }
    return f;
  }

  private long powerOfTwo(String value) {
    long v = integer(value, 0, Integer.MAX_VALUE);
    if ((v & (v - 1)) != 0) {
      throw new BadValue("must be a power of two, was " + v);
    }
    return v;
  }

  private static int replaySkip(String value) {
    int m = blksim.workload.replay.ReplayOptions.skipMask(value);
    if (m < 0) {
      throw new BadValue("must be a comma-separated list of read, write, trim, sync, was "
          + value);
    }
    return m;
  }

  /**
   * {@code read_iolog}: resolves each file (relative names against the working directory as
   * fio does, else against the job file's directory), checks that it is a trace (its format
   * named by {@code read_iolog_format} or detected from its content), and makes the job's device
   * {@code replay_redirect} when given (fio sends every record there), else {@code filename=}.
   */
  private void finishReplay() {
    if (readIolog == null) {
      return;
    }
    FioJobFile.Origin at = origins.get("read_iolog");
    List<String> resolved = new ArrayList<>();
    for (String f : readIolog) {
      java.nio.file.Path p = java.nio.file.Path.of(f);
      if (!p.isAbsolute() && !java.nio.file.Files.exists(p) && at != null) {
        java.nio.file.Path dir = java.nio.file.Path.of(at.file()).toAbsolutePath().getParent();
        if (dir != null && java.nio.file.Files.exists(dir.resolve(f))) {
          p = dir.resolve(f);
        }
      }
      if (!java.nio.file.Files.isRegularFile(p)) {
        throw error("read_iolog", "trace file " + f + " does not exist (looked in the working"
            + " directory and next to the job file; fio fails the same way: open iolog: No such"
            + " file or directory)");
      }
      try {
        if (readIologFormat == null) {
          blksim.workload.trace.TraceFormat.detect(p);
        }
      } catch (InputException e) {
        throw error("read_iolog", e.getMessage());
      }
      resolved.add(p.toAbsolutePath().normalize().toString());
    }
    if (replayStartNs >= replayEndNs) {
      throw error(origins.containsKey("replay_end") ? "replay_end" : "replay_start",
          "replay_end must be after replay_start");
    }
    if (ioengine.diskless() && ioengine != FioEngine.NULL) {
      throw error("read_iolog", "a replay needs a device or ioengine=null; ioengine="
          + ioengine.fioName() + " has none");
    }
    if (ioengine == FioEngine.NULL) {
      // fio's null engine replays the log's I/Os on the files it names, which are only names.
      if (offload) {
        throw error("read_iolog", "a replay on ioengine=null with io_submit_mode=offload is not"
            + " modelled by blksim");
      }
    } else if (replayRedirect != null) {
      filenames = List.of(replayRedirect);
    } else if (filenames.isEmpty()) {
      filenames = iologAddedFiles(resolved);
    }
    blksim.workload.replay.ReplayOptions.Merge merge = null;
    if (mergeBlktraceFile != null) {
      merge = merge(resolved);
      resolved = List.of(java.nio.file.Path.of(mergeBlktraceFile).toAbsolutePath().normalize()
          .toString());
    }
    replay = new blksim.workload.replay.ReplayOptions(resolved, readIologFormat, replayNoStall,
        replayTimeScale, replayRedirect, replayAlign, replayScale, replaySkip, replayStartNs,
        replayEndNs, replayDevices, replayKnownDevices, merge, replaySkipMalformed);
  }

  /**
   * The files a fio iolog v2/v3 {@code add}s before its first I/O line, as the job's files when
   * it names neither {@code filename=} nor {@code replay_redirect=}: fio's
   * {@code init_iolog_read()} releases the job's files and {@code read_iolog()} adds every
   * {@code FILE add} it meets, so such a job needs no {@code filename=} (and {@code add_job()}
   * invents no name for it). Only the lines before the first I/O are read, so a long log costs
   * nothing here; blksim replays a job on one device, so a log (or logs of {@code numjobs}
   * clones) adding several files is refused. The file is mapped as a job file's paths are
   * ({@code run --map}, {@code fio.map}).
   */
  private List<String> iologAddedFiles(List<String> logs) {
    java.util.LinkedHashSet<String> added = new java.util.LinkedHashSet<>();
    for (String log : logs) {
      java.nio.file.Path p = java.nio.file.Path.of(log);
      try {
        blksim.workload.trace.TraceFormat f = readIologFormat != null ? readIologFormat
            : blksim.workload.trace.TraceFormat.detect(p);
        if (f != blksim.workload.trace.TraceFormat.FIO_IOLOG) {
          continue;
        }
        try (blksim.workload.trace.TraceReader r = blksim.workload.trace.TraceFormat.open(p, f)) {
          for (blksim.workload.trace.TraceRecord rec = r.next();
              rec != null && rec.op().isFileAction(); rec = r.next()) {
            if (rec.op() == blksim.workload.trace.TraceOp.ADD) {
              added.add(rec.fileName());
            }
          }
        }
      } catch (InputException e) {
        throw error("read_iolog", e.getMessage());
      }
    }
    if (added.isEmpty()) {
      throw error("read_iolog", "a replay job needs replay_redirect=DEV (or filename=DEV) naming"
          + " the simulated device its records go to (the trace adds no file with an iolog"
          + " 'FILE add' line before its first I/O)");
    }
    if (added.size() > 1) {
      throw error("read_iolog", "the iolog adds " + added.size() + " files (" + String.join(", ",
          added) + "); blksim replays a job's records on one device: give replay_redirect=DEV"
          + " (or filename=DEV)");
    }
    return List.of(tracePaths.apply(added.iterator().next()));
  }

  /**
   * {@code merge_blktrace_file}: every input must be a blktrace binary, and each list, when given,
   * has one entry per input, as {@code merge_blktrace_iologs()} checks; values are truncated to
   * whole numbers as fio's {@code init_merge_param_list()} does, and a 0 ends a list there.
   */
  private blksim.workload.replay.ReplayOptions.Merge merge(List<String> inputs) {
    if (readIologFormat != null
        && readIologFormat != blksim.workload.trace.TraceFormat.BLKTRACE) {
      throw error("merge_blktrace_file", "merges blktrace binaries; read_iolog_format="
          + readIologFormat.key() + " names another format");
    }
    for (String in : inputs) {
      if (blksim.workload.trace.TraceFormat.detect(java.nio.file.Path.of(in))
          != blksim.workload.trace.TraceFormat.BLKTRACE) {
        throw error("read_iolog", "merge_blktrace_file merges blktrace binaries; " + in
            + " is not one (fio: file is not a blktrace)");
      }
    }
    String out = java.nio.file.Path.of(mergeBlktraceFile).toAbsolutePath().normalize()
        .toString();
    if (inputs.contains(out)) {
      throw error("merge_blktrace_file", "the merged file " + mergeBlktraceFile
          + " is one of the read_iolog inputs");
    }
    return new blksim.workload.replay.ReplayOptions.Merge(mergeBlktraceFile, inputs,
        mergeParams("merge_blktrace_scalars", mergeScalars, inputs.size(), 100),
        mergeParams("merge_blktrace_iters", mergeIters, inputs.size(), 1));
  }

  private List<Integer> mergeParams(String key, List<Double> vals, int nrLogs, int dflt) {
    int len = 0;
    while (len < vals.size() && vals.get(len) != 0.0) {
      len++;
    }
    if (len != 0 && len != nrLogs) {
      throw error(key, key + " has " + len + " values for " + nrLogs + " read_iolog files (fio: "
          + key + "(" + len + ") != nr_logs(" + nrLogs + "))");
    }
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < nrLogs; i++) {
      int v = len == 0 ? dflt : (int) vals.get(i).doubleValue();
      if (v < 1) {
        throw error(key, key + " values must be at least 1 once truncated to whole numbers,"
            + " was " + vals.get(i));
      }
      out.add(v);
    }
    return out;
  }

  /** fio's FIO_OPT_FLOAT_LIST: values joined by ':' (at most FIO_IO_U_LIST_MAX_LEN, 20). */
  private static List<Double> floatList(String value) {
    List<Double> out = new ArrayList<>();
    for (String f : value.split(":", -1)) {
      try {
        double d = Double.parseDouble(f.trim());
        if (d < 0 || Double.isNaN(d) || Double.isInfinite(d)) {
          throw new NumberFormatException();
        }
        out.add(d);
      } catch (NumberFormatException e) {
        throw new BadValue("must be non-negative numbers joined by ':', was " + value);
      }
    }
    if (out.size() > 20) {
      throw new BadValue("has " + out.size() + " values; fio takes at most 20"
          + " (FIO_IO_U_LIST_MAX_LEN)");
    }
    return out;
  }

  /** A {@code :}-separated list of trace device names (blkparse's {@code 8,16} has a comma). */
  private static List<String> deviceList(String v) {
    List<String> out = new ArrayList<>();
    for (String d : v.split(":", -1)) {
      if (!d.isBlank()) {
        out.add(d.trim());
      }
    }
    if (out.isEmpty()) {
      throw new BadValue("needs at least one trace device name (a :-separated list)");
    }
    return out;
  }

  private String firstZoneUnitKey() {
    String[] keys = {"size", "offset", "io_size", "offset_increment", "zoneskip"};
    for (int i = 0; i < keys.length; i++) {
      if (zoneUnits[i] >= 0) {
        return keys[i];
      }
    }
    return "size";
  }

  /**
   * fio's notice when a writing job's verify phase can never start (init.c fixup_options():
   * "verification read phase will never start because write phase uses all of runtime"), with
   * the verify line, or null.
   */
  String verifyNeverStarts() {
    if (verify == VerifyAlgorithm.NONE || !rw.writes() || rw.reads() || !doVerify
        || runtimeNs == 0 || !timeBased || verifyBacklog > 0) {
      return null;
    }
    FioJobFile.Origin at = origins.get("verify");
    return (at == null ? "" : at.file() + ":" + at.line() + ": ") + "fio: verification read"
        + " phase will never start because write phase uses all of runtime (time_based; fio"
        + " says so too: add verify_backlog, or drop time_based)";
  }

  /**
   * fio's note for a synchronous engine with {@code iodepth} above 1 (backend.c
   * {@code thread_main()}: "note: both iodepth >= 1 and synchronous I/O engine are selected,
   * queue depth will be capped at 1"), with the iodepth line, or null.
   */
  String syncDepthNote() {
    if (!ioengine.isSync() || iodepth <= 1 || offload) {
      return null;
    }
    FioJobFile.Origin at = origins.get("iodepth");
    return (at == null ? "" : at.file() + ":" + at.line() + ": ") + "iodepth=" + iodepth
        + " with ioengine=" + ioengine.fioName() + ": fio says \"note: both iodepth >= 1 and"
        + " synchronous I/O engine are selected, queue depth will be capped at 1\"";
  }

  InputException error(String key, String rule) {
    FioJobFile.Origin at = origins.get(key);
    return new InputException(at.file(), at.line(), at.key(), rule);
  }

  private void rw(String value) {
    int colon = value.indexOf(':');
    FioRw r = FioRw.fromFioName(colon < 0 ? value : value.substring(0, colon));
    if (r == null) {
      throw new BadValue("must be one of read, write, trim, randread, randwrite, randtrim, rw,"
          + " readwrite, randrw, trimwrite, randtrimwrite (with an optional :N), was " + value);
    }
    rw = r;
    rwSequencer = 0;
    if (colon < 0) {
      return;
    }
    String n = value.substring(colon + 1);
    boolean negative = !r.isRandom() && n.startsWith("-");
    long v = FioValues.bytes(negative ? n.substring(1) : n, kbBase);
    if (r.isRandom() ? v < 1 || v > Integer.MAX_VALUE : v > Integer.MAX_VALUE) {
      throw new BadValue("the :N of " + r.fioName() + " must be in "
          + (r.isRandom() ? "[1, " : "[-2^31+1, ") + Integer.MAX_VALUE + "], was " + n);
    }
    rwSequencer = (int) (negative ? -v : v);
  }

  private static final Pattern BS_WITH_TAIL = Pattern.compile("([0-9]+[A-Za-z]*)[-:/][^,]*");

  /**
   * fio's bs takes no range: {@code str_to_decimal()} reads the leading number, and
   * {@code __get_mult_bytes()} cuts its suffix at the first separator ({@code - : /}), so
   * {@code bs=4k-512k} (SPDK's vhost jobs) is 4k. blksim does the same and says so.
   */
  private static String bsCutAtSeparator(String value, FioJobFile.Origin at) {
    List<String> parts = new ArrayList<>();
    boolean cut = false;
    for (String part : value.split(",", -1)) {
      java.util.regex.Matcher m = BS_WITH_TAIL.matcher(part);
      if (m.matches() && !part.startsWith("0x") && !part.startsWith("0X")) {
        part = m.group(1);
        cut = true;
      }
      parts.add(part);
    }
    if (!cut) {
      return value;
    }
    String read = String.join(",", parts);
    note("{}:{}: {}={}: fio reads it as {} (its number parser stops at the separator;"
        + " bs takes no range, bsrange= does)", at.file(), at.line(), at.key(), value, read);
    return read;
  }

  private void bs(String value) {
    // fio's handle_option(): "r,w,t"; a value not followed by a comma also fills the later
    // directions, an empty value keeps the previous one ("8k,32k," leaves trim alone).
    String[] parts = value.split(",", -1);
    boolean any = false;
    for (int d = 0; d < parts.length; d++) {
      if (parts[d].isEmpty()) {
        continue;
      }
      if (d > 2) {
        throw new BadValue("at most three values (read,write,trim), was " + value);
      }
      long v = FioValues.bytes(parts[d], kbBase);
      if (v <= 0 || v % 512 != 0) {
        throw new BadValue("bs must be a positive multiple of 512, was " + v
            + iecHint(parts[d], v));
      }
      bs[d] = v;
      if (d == parts.length - 1) {
        Arrays.fill(bs, d, 3, v);
      }
      any = true;
    }
    if (!any) {
      throw new BadValue("needs a value");
    }
  }

  /**
   * {@code filesize}: one size, or a range {@code lo-hi} / {@code lo:hi} / {@code lo,hi} (fio's
   * FIO_OPT_STR_VAL with a second value, {@code minval} 1).
   */
  private void fileSize(String value) {
    int sep = value.indexOf(',');
    if (sep < 0) {
      sep = value.indexOf(':');
    }
    if (sep < 0) {
      sep = value.indexOf('-', 1);
    }
    long lo = FioValues.bytes(sep < 0 ? value : value.substring(0, sep), kbBase);
    long hi = sep < 0 ? lo : FioValues.bytes(value.substring(sep + 1), kbBase);
    if (lo < 1 || hi < 1) {
      throw new BadValue("a file size must be at least 1 byte, was " + value);
    }
    if (hi < lo) {
      throw new BadValue("the range's high end is below its low end, was " + value);
    }
    fileSizeLow = lo;
    fileSizeHigh = hi;
  }

  /**
   * {@code file_service_type}: random, roundrobin or sequential with an optional {@code :N}
   * (str_fst_cb(): I/Os before a new file is chosen, default 1); the distributions (zipf,
   * pareto, normal, gauss) are not modelled.
   */
  private void fileServiceType(String value) {
    int colon = value.indexOf(':');
    String type = colon < 0 ? value : value.substring(0, colon);
    switch (type) {
      case "random", "roundrobin", "sequential" -> { }
      case "zipf", "pareto", "normal", "gauss" -> throw new BadValue("file_service_type=" + type
          + " is not modelled by blksim; random, roundrobin and sequential are");
      default -> throw new BadValue("must be one of random, roundrobin, sequential, zipf,"
          + " pareto, normal, gauss (with an optional :N), was " + value);
    }
    int nr = 1;
    if (colon >= 0) {
      nr = integer(value.substring(colon + 1), 1, Integer.MAX_VALUE);
    }
    fileServiceType = type;
    fileServiceNr = nr;
  }

  private void size(String value) {
    FioValues.Size s = FioValues.size(value, kbBase, true);
    if (s.percent() && (s.value() < 1 || s.value() > 100)) {
      throw new BadValue("a percentage must be in [1, 100], was " + value);
    }
    sizeBytes = s.percent() ? 0 : s.value();
    sizePercent = s.percent() ? s.value() : 0;
  }

  /**
   * A size in zones ({@code 8z}, fio's {@code FIO_OPT_STR_VAL_ZONE}): records it in
   * {@link #zoneUnits}[{@code i}] and returns true; false (and clears it) for any other value.
   */
  private boolean zoneUnits(int i, String value) {
    String v = value == null ? "" : value.trim().toLowerCase(java.util.Locale.ROOT);
    if (v.matches("\\d+z")) {
      zoneUnits[i] = Long.parseLong(v.substring(0, v.length() - 1));
      return true;
    }
    zoneUnits[i] = -1;
    return false;
  }

  /**
   * Converts the sizes given in zones with a zone size of {@code zoneBytes} (the device's with
   * zonemode=zbd, else zonesize).
   */
  void resolveZoneUnits(long zoneBytes) {
    if (zoneUnits[0] >= 0) {
      sizeBytes = zoneUnits[0] * zoneBytes;
      sizePercent = 0;
    }
    if (zoneUnits[1] >= 0) {
      offsetBytes = zoneUnits[1] * zoneBytes;
    }
    if (zoneUnits[2] >= 0) {
      ioSizeBytes = zoneUnits[2] * zoneBytes;
    }
    if (zoneUnits[3] >= 0) {
      offsetIncrementBytes = zoneUnits[3] * zoneBytes;
    }
    if (zoneUnits[4] >= 0) {
      zoneSkipBytes = zoneUnits[4] * zoneBytes;
    }
    java.util.Arrays.fill(zoneUnits, -1);
  }

  /** Whether a size was given in zones and not converted yet. */
  boolean hasZoneUnits() {
    for (long z : zoneUnits) {
      if (z >= 0) {
        return true;
      }
    }
    return false;
  }

  /** A fio float in [0, 1] (zone_reset_threshold, zone_reset_frequency). */
  /** A FIO_OPT_FLOAT_LIST of one value in [0, 100] ({@code latency_percentile}). */
  private static double percent(String value) {
    String v = string(value).trim();
    double d;
    try {
      d = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new BadValue("must be a number in [0, 100], was " + v);
    }
    if (!(d >= 0 && d <= 100)) {
      throw new BadValue("must be in [0, 100], was " + v);
    }
    return d;
  }

  private static double fraction(String value) {
    String v = string(value).trim();
    double d;
    try {
      d = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new BadValue("must be a number in [0, 1], was " + v);
    }
    if (!(d >= 0 && d <= 1)) {
      throw new BadValue("must be in [0, 1], was " + v);
    }
    return d;
  }

  /**
   * {@code offset} / {@code offset_increment}: bytes, or a whole percentage of the file or device
   * ({@code str_offset_cb()}, {@code str_offset_increment_cb()}: fio keeps the percentage and
   * converts it per file in {@code get_start_offset()}); records the percentage and returns 0.
   */
  private long bytesOrPercent(String value, boolean offset) {
    FioValues.Size s = FioValues.size(string(value), kbBase, true);
    if (!s.percent()) {
      return s.value();
    }
    if (s.value() > 100) {
      throw new BadValue("a percentage must be in [0, 100], was " + value);
    }
    if (offset) {
      offsetPercent = s.value();
    } else {
      offsetIncrementPercent = s.value();
    }
    return 0;
  }

  private long bytesNoPercent(String value) {
    FioValues.Size s = FioValues.size(string(value), kbBase, true);
    if (s.percent()) {
      throw new BadValue("a percentage is not modelled by blksim here, was " + value);
    }
    return s.value();
  }

  /**
   * {@code startdelay}: a time, or a range lo-hi (lo:hi) from which each job draws its delay
   * (init.c: {@code rand_between(&td->delay_state, start_delay_orig, start_delay_high)});
   * returns {lo, hi}, hi 0 without a range.
   */
  private static long[] startDelay(String value) {
    if (!value.startsWith("(") && value.matches("[^-:]+[-:].*")) {
      int sep = value.indexOf('-') > 0 ? value.indexOf('-') : value.indexOf(':');
      long a = FioValues.timeNs(value.substring(0, sep).trim(), true);
      long b = FioValues.timeNs(value.substring(sep + 1).trim(), true);
      return new long[] {Math.min(a, b), Math.max(a, b)};
    }
    return new long[] {FioValues.timeNs(value, true), 0};
  }

  private static FioEngine engine(String value) {
    FioEngine e = FioEngine.fromFioName(value);
    if (e != null) {
      return e;
    }
    StringBuilder names = new StringBuilder();
    for (FioEngine m : FioEngine.values()) {
      names.append(names.length() > 0 ? ", " : "").append(m.fioName());
    }
    String modelled = names.toString();
    // ioengines.c, load_ioengine(): a name that is no built-in engine is dlopen()ed, so a
    // shared object's name or path (ceph's libfio_ceph_objectstore.so) is an external engine.
    String name = value.startsWith("external:") || value.endsWith(".so") || value.contains("/")
        ? "external" : value;
    String reason = FioEngine.OTHER_FIO_ENGINES.get(name);
    throw new BadValue(reason != null
        ? "ioengine=" + value + " is not modelled by blksim (" + reason + ")"
        : "ioengine=" + value + " is unknown; modelled: " + modelled);
  }

  /**
   * {@code ignore_error}: up to three lists (read, write, verify) joined by {@code ,}, each of
   * error names ({@code ENOSPC}) or numbers joined by {@code :} (fio's
   * {@code ignore_error_type()}); checked only. Simplified: any {@code E} followed by capitals
   * and digits is taken as an error name, where fio's {@code str2error()} knows a fixed list.
   */
  private static void ignoreError(String value) {
    String[] types = value.split(",", -1);
    if (types.length > 3) {
      throw new BadValue("at most three lists (read,write,verify), was " + value);
    }
    for (String t : types) {
      for (String e : t.split(":", -1)) {
        if (e.isEmpty()) {
          break; // fio stops at an empty name
        }
        boolean ok = e.matches("E[A-Z0-9]+");
        if (!ok) {
          try {
            ok = (e.startsWith("0x") || e.startsWith("0X")
                ? Long.parseLong(e.substring(2), 16) : Long.parseLong(e)) != 0;
          } catch (NumberFormatException x) {
            ok = false;
          }
        }
        if (!ok) {
          throw new BadValue("unknown error " + e + ", please use number value (fio's"
              + " message); an error is a name such as ENOSPC or a nonzero number");
        }
      }
    }
  }

  /** One direction's parser: from a value, what to store for direction d. */
  private interface PerDirection {
    java.util.function.IntConsumer parse(String value);
  }

  /**
   * fio's per-direction values ({@code str_split_parse()} and the {@code off1..off3} options):
   * "r,w,t"; a value not followed by a comma also fills the later directions; an empty value
   * leaves its direction alone.
   */
  private static void perDirection(String value, PerDirection p) {
    String[] parts = value.split(",", -1);
    if (parts.length > 3) {
      throw new BadValue("at most three values (read,write,trim), was " + value);
    }
    boolean any = false;
    for (int d = 0; d < parts.length; d++) {
      if (parts[d].isEmpty()) {
        continue;
      }
      java.util.function.IntConsumer store = p.parse(parts[d]);
      int last = d == parts.length - 1 ? 2 : d;
      for (int k = d; k <= last; k++) {
        store.accept(k);
      }
      any = true;
    }
    if (!any) {
      throw new BadValue("needs a value");
    }
  }

  /** {@code bsrange}: {@code lo-hi} or {@code lo:hi}, reversed bounds swapped (FIO_OPT_RANGE). */
  private long[] bsRange(String v) {
    int sep = v.indexOf('-') > 0 ? v.indexOf('-') : v.indexOf(':');
    if (sep <= 0) {
      throw new BadValue("a block size range is lo-hi, was " + v);
    }
    long a = blockSize(v.substring(0, sep));
    long b = blockSize(v.substring(sep + 1));
    return new long[] {Math.min(a, b), Math.max(a, b)};
  }

  private long blockSize(String v) {
    long b = FioValues.bytes(v, kbBase);
    if (b <= 0 || b % 512 != 0) {
      throw new BadValue("a block size must be a positive multiple of 512, was " + v
          + iecHint(v, b));
    }
    return b;
  }

  private static final Pattern IEC_SUFFIX = Pattern.compile("(?i).*[0-9]\\s*[kmgtp]ib\\s*");

  /**
   * Why a size written with an IEC suffix is not what it seems: under fio's default
   * {@code kb_base=1024}, parse.c {@code __get_mult_bytes()} takes KiB, MiB, ... as powers of
   * 1000 ("opposite units"), so {@code 4KiB} is 4000 bytes; "" otherwise.
   */
  private String iecHint(String raw, long bytes) {
    if (kbBase != 1024 || !IEC_SUFFIX.matcher(raw).matches()) {
      return "";
    }
    return " (" + raw.trim() + " is " + bytes + " bytes: with its default kb_base=1024 fio reads"
        + " KiB, MiB, ... as powers of 1000; write k, m, ... for powers of 1024, or set"
        + " kb_base=1000)";
  }

  /**
   * {@code bssplit}: {@code size/percent} pairs joined by {@code :} ({@code bssplit_ddir()}): an
   * empty percent shares what the others leave equally, a total above 100 is an error; sorted by
   * percentage as fio sorts them ({@code bs_cmp()}).
   */
  private List<FioJob.BsSplit> bssplit(String v) {
    String[] pairs = v.split(":", -1);
    if (pairs.length > 64) {
      throw new BadValue("at most 64 block sizes (BSSPLIT_MAX), was " + pairs.length);
    }
    long[] sizes = new long[pairs.length];
    int[] perc = new int[pairs.length];
    int total = 0;
    int missing = 0;
    for (int i = 0; i < pairs.length; i++) {
      String pr = pairs[i];
      int slash = pr.indexOf('/');
      sizes[i] = blockSize(slash < 0 ? pr : pr.substring(0, slash));
      String p = slash < 0 ? "" : pr.substring(slash + 1);
      if (p.isEmpty()) {
        perc[i] = -1;
        missing++;
      } else {
        perc[i] = integer(p, 0, 100);
        total += perc[i];
      }
    }
    if (total > 100) {
      throw new BadValue("bssplit percentages add up to " + total + ", more than 100: " + v);
    }
    List<FioJob.BsSplit> out = new ArrayList<>();
    for (int i = 0; i < pairs.length; i++) {
      int p = perc[i] >= 0 ? perc[i] : missing == 1 && pairs.length == 1 ? 100
          : (100 - total) / missing;
      out.add(new FioJob.BsSplit(sizes[i], p));
    }
    out.sort(java.util.Comparator.comparingInt(FioJob.BsSplit::perc));
    return List.copyOf(out);
  }

  /** fio's {@code get_next_name()}: split on ':', {@code \:} is a literal colon, skip empties. */
  static List<String> filenames(String value) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\\' && i + 1 < value.length() && value.charAt(i + 1) == ':') {
        cur.append(':');
        i++;
      } else if (c == ':') {
        if (cur.length() > 0) {
          out.add(cur.toString());
        }
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    if (cur.length() > 0) {
      out.add(cur.toString());
    }
    if (out.isEmpty()) {
      throw new BadValue("needs at least one file name, was " + value);
    }
    return List.copyOf(out);
  }

  /** fio's node list: {@code all}, or numbers and {@code A-B} ranges joined by commas. */
  private static int[] nodeList(String value) {
    if (value.equals("all")) {
      return new int[] {-1};
    }
    java.util.TreeSet<Integer> nodes = new java.util.TreeSet<>();
    for (String part : value.split(",")) {
      String[] ab = part.trim().split("-", -1);
      try {
        int a = Integer.parseInt(ab[0].trim());
        int b = ab.length > 1 ? Integer.parseInt(ab[1].trim()) : a;
        if (ab.length > 2 || a < 0 || b < a || b > 4095) {
          throw new NumberFormatException();
        }
        for (int n = a; n <= b; n++) {
          nodes.add(n);
        }
      } catch (NumberFormatException e) {
        throw new BadValue("must be all or NUMA node numbers and ranges such as 0,2-3, was "
            + value);
      }
    }
    return nodes.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * {@code numa_mem_policy}: {@code default}, {@code local}, {@code prefer:N},
   * {@code bind:NODES} or {@code interleave:NODES}; checked, without effect (where the I/O
   * buffers live is not modelled).
   */
  private static void memPolicy(String value) {
    int colon = value.indexOf(':');
    String mode = colon < 0 ? value : value.substring(0, colon);
    switch (mode) {
      case "default", "local" -> {
        if (colon >= 0) {
          throw new BadValue(mode + " takes no node list, was " + value);
        }
      }
      case "prefer", "bind", "interleave" -> {
        if (colon < 0) {
          throw new BadValue(mode + " needs nodes (" + mode + ":0), was " + value);
        }
        int[] nodes = nodeList(value.substring(colon + 1));
        if (mode.equals("prefer") && nodes.length != 1) {
          throw new BadValue("prefer takes one node, was " + value);
        }
      }
      default -> throw new BadValue("must be default, local, prefer:N, bind:NODES or"
          + " interleave:NODES, was " + value);
    }
  }

  private static String string(String value) {
    if (value == null || value.isEmpty()) {
      throw new BadValue("needs a value");
    }
    return value;
  }

  /**
   * fio's {@code mem}/{@code iomem} (memory.c): the buffer's backing. malloc, shm, mmap and
   * mmapshared (with an optional {@code :file}) are ordinary 4 KiB pages, which is what blksim
   * costs (copies and O_DIRECT pins per page); huge pages and GPU memory are refused.
   */
  private static void memType(String value) {
    String v = value.trim();
    int colon = v.indexOf(':');
    String type = colon < 0 ? v : v.substring(0, colon);
    switch (type) {
      case "malloc", "shm", "mmap", "mmapshared" -> { }
      case "shmhuge", "mmaphuge" -> throw new BadValue("mem=" + type + " is not modelled by"
          + " blksim (huge-page buffers would change O_DIRECT's per-page pinning cost); use"
          + " malloc, shm, mmap or mmapshared");
      case "cudamalloc" -> throw new BadValue("mem=cudamalloc is not modelled by blksim (GPU"
          + " memory)");
      default -> throw new BadValue("must be one of malloc, shm, shmhuge, mmap, mmaphuge,"
          + " mmapshared, cudamalloc (mmap variants with :file), was " + value);
    }
  }

  private static String onlyValue(String value, String... allowed) {
    String v = string(value);
    for (String a : allowed) {
      if (a.equals(v)) {
        return v;
      }
    }
    throw new BadValue(allowed.length == 1
        ? v + " is not modelled by blksim; only " + allowed[0] + " is"
        : "must be one of " + String.join(", ", allowed) + ", was " + v);
  }

  /** fio's {@code set_cpus_allowed()}: a CPU list, each CPU below the machine's count. */
  private int[] cpuList(String value) {
    try {
      return CpuList.parse(value, ncpus);
    } catch (IllegalArgumentException e) {
      throw new BadValue(e.getMessage());
    }
  }

  /** {@code cpumask}: a bit mask of allowed CPUs, decimal or 0x hexadecimal. */
  private int[] cpuMask(String value) {
    long mask;
    try {
      mask = value.startsWith("0x") || value.startsWith("0X")
          ? Long.parseUnsignedLong(value.substring(2), 16) : Long.parseUnsignedLong(value);
    } catch (NumberFormatException e) {
      throw new BadValue("must be a bit mask of CPUs such as 0x5 or 5, was " + value);
    }
    if (mask == 0) {
      throw new BadValue("allows no CPU");
    }
    int highest = 63 - Long.numberOfLeadingZeros(mask);
    if (highest >= ncpus) {
      throw new BadValue("CPU " + highest + " too large (max=" + (ncpus - 1) + ")");
    }
    return java.util.stream.IntStream.range(0, 64).filter(c -> (mask >>> c & 1) != 0).toArray();
  }

  private static int signedInteger(String value, int min, int max) {
    String v = string(value).trim();
    int n;
    try {
      n = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new BadValue("must be a whole number in [" + min + ", " + max + "], was " + v);
    }
    if (n < min || n > max) {
      throw new BadValue("must be in [" + min + ", " + max + "], was " + v);
    }
    return n;
  }

  private int intIn(String value, int min, int max) {
    return integer(value, min, max);
  }

  private int integer(String value, int min, int max) {
    long v = FioValues.bytes(string(value), kbBase);
    if (v < min || v > max) {
      throw new BadValue("must be in [" + min + ", " + max + "], was " + value);
    }
    return (int) v;
  }

  /** bwavgtime/iopsavgtime: a window of at least 1 ms (0 is not modelled, negatives wrap in fio). */
  private int avgTime(String value) {
    if ("0".equals(string(value).trim())) {
      throw new BadValue("0 is not modelled by blksim (fio then takes a sample at every wake-up"
          + " of its helper thread); use a window of 1 ms or more");
    }
    return integer(value, 1, Integer.MAX_VALUE);
  }

  /** fio's FIO_OPT_BOOL: 0 or 1, a value is required. */
  private static boolean bool(String value) {
    if (value == null) {
      throw new BadValue("needs a value, 0 or 1 (fio rejects the bare key)");
    }
    return zeroOrOne(value);
  }

  /** fio's FIO_OPT_STR_SET: the bare key means 1. */
  private static boolean flag(String value) {
    return value == null || zeroOrOne(value);
  }

  private static boolean zeroOrOne(String value) {
    return switch (value) {
      case "0" -> false;
      case "1" -> true;
      default -> throw new BadValue("must be 0 or 1, was " + value);
    };
  }
}
