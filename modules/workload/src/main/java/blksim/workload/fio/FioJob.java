package blksim.workload.fio;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One fio job (one clone of a {@code numjobs} job) with its effective, typed options.
 *
 * <p>Mirrors fio's {@code struct thread_data} as {@code add_job()} in {@code init.c} leaves it: the
 * options of the {@code [global]} sections above it, overridden by its own, after the
 * {@code fixup_options()} defaults ({@code iodepth_batch_submit} 0 or above {@code iodepth} becomes
 * {@code iodepth}, {@code iodepth_batch_complete_max} at least {@code iodepth_batch_complete_min},
 * {@code thinktime_spin} at most {@code thinktime}). Times are nanoseconds, sizes bytes. Simplified:
 * fio's random-seed, file-layout and rate state are not here; the simulator derives them.
 * Immutable; array accessors return copies.
 */
public final class FioJob {
  private final String sectionName;
  private final int jobIndex;
  private final int groupId;
  private final String file;
  private final int line;
  private final Map<String, String> options;
  private final Map<String, String> globalOptions;
  private final FioJobSettings s;

  FioJob(String sectionName, int jobIndex, int groupId, String file, int line,
      Map<String, String> options, Map<String, String> globalOptions, FioJobSettings settings) {
    this.sectionName = sectionName;
    this.jobIndex = jobIndex;
    this.groupId = groupId;
    this.file = file;
    this.line = line;
    this.options = options;
    this.globalOptions = globalOptions;
    this.s = settings;
  }

  /** The parsed settings (for this package's tests). */
  FioJobSettings settings() {
    return s;
  }

  /** This job in reporting group {@code groupId} (used when job files are joined). */
  public FioJob withGroupId(int groupId) {
    return new FioJob(sectionName, jobIndex, groupId, file, line, options, globalOptions, s);
  }

  /**
   * This job with a stonewall: the first job of every job file after the first gets one, as fio's
   * {@code __parse_jobs_ini()} sets {@code o.stonewall} to separate job files.
   */
  public FioJob withStonewall() {
    if (s.stonewall) {
      return this;
    }
    FioJobSettings c = s.copy();
    c.stonewall = true;
    return new FioJob(sectionName, jobIndex, groupId, file, line, options, globalOptions, c);
  }

  /**
   * The options of its job file's {@code [global]} sections above it, as fio's JSON
   * {@code "global options"} shows them; a fresh copy.
   */
  public LinkedHashMap<String, String> globalOptions() {
    return new LinkedHashMap<>(globalOptions);
  }

  /** The display name: the {@code name=} option if given, else the section name (as in fio). */
  public String name() {
    return s.displayName != null ? s.displayName : sectionName;
  }

  /** The {@code [section]} name as written. */
  public String sectionName() {
    return sectionName;
  }

  /** The clone index within {@code numjobs}, 0 to numjobs-1 (fio's {@code subjob_number}). */
  public int jobIndex() {
    return jobIndex;
  }

  /** The reporting group ({@code groupid}); stonewall, new_group and a new job file start one. */
  public int groupId() {
    return groupId;
  }

  /** The job file holding the section header. */
  public String file() {
    return file;
  }

  /** The 1-based line of the section header. */
  public int line() {
    return line;
  }

  /**
   * The effective options, global then job, keys in fio's canonical spelling ({@code blocksize}
   * becomes {@code bs}), values as written after {@code ${VAR}}/keyword substitution (as fio's JSON
   * "job options" shows them); a bare flag maps to {@code ""}. Nothing is left out. A fresh copy.
   */
  public LinkedHashMap<String, String> options() {
    LinkedHashMap<String, String> all = new LinkedHashMap<>(globalOptions);
    all.putAll(options);
    return all;
  }

  /**
   * The options set in the job's own section only, in file order, canonical keys, as fio's JSON
   * {@code "job options"} shows them (fio's {@code td->opt_list}: the {@code [global]} options
   * are under {@code "global options"} only). A fresh copy.
   */
  public LinkedHashMap<String, String> jobOptions() {
    return new LinkedHashMap<>(options);
  }

  /** The first file of {@code filename=}, or {@code null} if not given. */
  public String filename() {
    return s.filenames.isEmpty() ? null : s.filenames.get(0);
  }

  /**
   * {@code directory=}: where this clone's files go, or null. Several directories joined by
   * {@code :} ({@code \:} a literal colon) are taken in turn by the clones of {@code numjobs}:
   * clone {@code k} gets entry {@code k mod n} (fio's {@code set_name_idx()}).
   */
  public String directory() {
    if (s.directory == null) {
      return s.workingDirectoryFiles ? WORKING_DIRECTORY : null;
    }
    List<String> dirs = FioJobSettings.filenames(s.directory);
    String d = dirs.get(jobIndex % dirs.size());
    // A relative directory is in the working directory, as fio's open() takes it.
    return d.startsWith("/") ? d : WORKING_DIRECTORY + d;
  }

  /**
   * The working directory of a job file's relative paths: blksim takes it as the root of the
   * simulated machine, where a job file run alone mounts its default filesystem.
   */
  public static final String WORKING_DIRECTORY = "/";

  /**
   * Whether the job names neither {@code filename=} nor {@code directory=}: as fio does
   * ({@code add_job()} in {@code init.c}), its files are named after it ({@link #fileName}) in
   * the working directory ({@link #WORKING_DIRECTORY}), which {@link #directory()} returns.
   */
  public boolean inWorkingDirectory() {
    return s.workingDirectoryFiles;
  }

  /** The path of file {@code fileNumber} in {@link #directory()} ({@link #fileName}). */
  public String directoryPath(int fileNumber) {
    String d = directory();
    return (d.endsWith("/") ? d : d + "/") + fileName(fileNumber);
  }

  /**
   * The path of the job's file in {@link #directory()}: fio's default name
   * {@code $jobname.$jobnum.$filenum} ({@code filename_format}), file 0.
   */
  public String directoryFile(int jobNumber) {
    return directory() + "/" + name() + "." + jobNumber + ".0";
  }

  /**
   * The name of file {@code fileNumber} of a job without {@code filename=}: fio's
   * {@code make_filename()}: {@code filename_format} with {@code $jobname} (the job's section
   * name: {@code add_job()} is handed the section's name, whatever {@code name=} says),
   * {@code $jobnum} (its clone number within {@code numjobs}, fio's {@code job_add_num}),
   * {@code $filenum} and {@code $clientuid} (the client's address in client/server mode: empty
   * in a local run) replaced, each keyword found case-insensitively as {@code strcasestr()}
   * finds it; without a format {@code $jobname.$jobnum.$filenum}. Relative to
   * {@link #directory()}.
   */
  public String fileName(int fileNumber) {
    if (s.filenameFormat == null) {
      return sectionName + "." + jobIndex + "." + fileNumber;
    }
    String out = s.filenameFormat;
    String[][] keys = {{"$jobname", sectionName}, {"$jobnum", Integer.toString(jobIndex)},
        {"$filenum", Integer.toString(fileNumber)}, {"$clientuid", ""}};
    for (String[] k : keys) {
      while (true) {
        int at = out.toLowerCase(java.util.Locale.ROOT).indexOf(k[0]);
        if (at < 0) {
          break;
        }
        out = out.substring(0, at) + k[1] + out.substring(at + k[0].length());
      }
    }
    return out;
  }

  /** {@code filesize}: the low end of each file's size range, 0 if not given. */
  public long fileSizeLow() {
    return s.fileSizeLow;
  }

  /** {@code filesize}: the high end of each file's size range (the low end if no range). */
  public long fileSizeHigh() {
    return s.fileSizeHigh;
  }

  /** {@code nrfiles} (default 1). */
  public int nrFiles() {
    return s.nrFiles;
  }

  /** {@code openfiles}: files open at once, at most {@link #nrFiles()} (default nrfiles). */
  public int openFiles() {
    return s.openFiles;
  }

  /** {@code file_service_type}: {@code random}, {@code roundrobin} (default) or {@code sequential}. */
  public String fileServiceType() {
    return s.fileServiceType;
  }

  /** The {@code :N} of {@code file_service_type}: I/Os to a file before choosing again. */
  public int fileServiceNr() {
    return s.fileServiceNr;
  }

  /** {@code fallocate}: none, native (default), posix, keep or truncate ("0"/"1" mapped). */
  public String fallocate() {
    return s.fallocate;
  }

  /** {@code create_on_open}: files are created by the job's open, not laid out before. */
  public boolean createOnOpen() {
    return s.createOnOpen;
  }

  /** {@code unlink}: the job's files are removed when it is done. */
  public boolean unlink() {
    return s.unlink;
  }

  /** {@code unlink_each_loop}: the job's files are removed after every loop. */
  public boolean unlinkEachLoop() {
    return s.unlinkEachLoop;
  }

  /** {@code fsync_on_close}: a written file is fsynced when it is closed. */
  public boolean fsyncOnClose() {
    return s.fsyncOnClose;
  }

  /** {@code overwrite}: files are laid out (written) before the job, so writes overwrite. */
  public boolean overwrite() {
    return s.overwrite;
  }

  /**
   * {@code fill_device}/{@code fill_fs}: write until the target is full. With no {@code size=}
   * the job's size is what its device or filesystem holds ({@code ScenarioLoader}), and ENOSPC
   * ends the job without an error, as fio's {@code td_io_queue()} clears it.
   */
  public boolean fillDevice() {
    return s.fillDevice;
  }

  /** {@code atomic=1}: the job's writes carry RWF_ATOMIC (fio's {@code oatomic}). */
  public boolean atomic() {
    return s.atomic;
  }

  /** {@code verify_async=N}: N fio verify threads checksum the verify reads (0: none). */
  public int verifyAsync() {
    return s.verifyAsync;
  }

  /** {@code filename_format} as given, or null. */
  public String filenameFormat() {
    return s.filenameFormat;
  }

  /** All files of {@code filename=} ({@code :}-separated, {@code \:} unescaped); may be empty. */
  public List<String> filenames() {
    return s.filenames;
  }

  /**
   * The path of the {@code i}th {@code filename=} entry as a regular file: an absolute name as
   * it is, a relative one inside {@code directory=} if set, else in the working directory, which
   * blksim takes as the root {@code /} (a job file run alone mounts its default filesystem
   * there).
   */
  public String regularFile(int i) {
    String f = s.filenames.get(i);
    if (f.startsWith("/")) {
      return f;
    }
    String d = directory();
    return (d != null ? (d.endsWith("/") ? d : d + "/") : "/") + f;
  }

  /** The I/O pattern ({@code rw}, default read). */
  public FioRw rw() {
    return s.rw;
  }

  /**
   * The {@code :N} of {@code rw}, 0 if absent: for random patterns the number of I/Os per new
   * random offset ({@code ddir_seq_nr}), for sequential ones the bytes skipped after each I/O
   * ({@code ddir_seq_add}, may be negative).
   */
  public int rwSequencer() {
    return s.rwSequencer;
  }

  /** Percentage of reads in a mixed workload (default 50; the later of rwmixread/write wins). */
  public int rwmixread() {
    return s.rwmixread;
  }

  /** Block sizes in bytes for read, write, trim (default 4096 each). */
  public long[] bs() {
    return s.bs.clone();
  }

  /** {@code size} in bytes, 0 if not given or given as a percentage. */
  public long sizeBytes() {
    return s.sizeBytes;
  }

  /** {@code size} as a percentage of the file or device, 0 if not given as one. */
  public double sizePercent() {
    return s.sizePercent;
  }

  /** {@code offset} in bytes (default 0). */
  public long offsetBytes() {
    return s.offsetBytes;
  }

  /** {@code offset} as a percentage of the file or device, 0 if not given as one. */
  public long offsetPercent() {
    return s.offsetPercent;
  }

  /** {@code offset_increment} as a percentage of the file or device, 0 if not given as one. */
  public long offsetIncrementPercent() {
    return s.offsetIncrementPercent;
  }

  /** Whether {@code offset} or {@code offset_increment} was given as a percentage. */
  public boolean offsetInPercent() {
    return s.offsetPercent > 0 || s.offsetIncrementPercent > 0;
  }

  /**
   * fio's {@code get_start_offset()} for a file or device of {@code fileBytes}: offset plus
   * {@code offset_increment} per clone; when either is a percentage of {@code fileBytes}, the
   * sum is rounded up to the smallest block size ({@code td_min_bs()}; blksim refuses
   * {@code offset_align}, which would replace it).
   */
  public long startOffset(long fileBytes) {
    long increment = s.offsetIncrementPercent > 0
        ? s.offsetIncrementPercent * fileBytes / 100 : s.offsetIncrementBytes;
    long base = s.offsetPercent > 0 ? fileBytes * s.offsetPercent / 100 : s.offsetBytes;
    long offset = base + jobIndex() * increment;
    if (!offsetInPercent()) {
      return offset;
    }
    long align = Math.min(s.minBs[0], Math.min(s.minBs[1], s.minBs[2]));
    return align <= 0 ? offset : (offset + align - 1) / align * align;
  }

  /** {@code io_size} / {@code io_limit} in bytes, 0 when not set. */
  public long ioSizeBytes() {
    return s.ioSizeBytes;
  }

  /** The I/O engine (default psync, fio's default on Linux). */
  public FioEngine ioengine() {
    return s.ioengine;
  }

  /** {@code iodepth} (default 1). */
  public int iodepth() {
    return s.iodepth;
  }

  /**
   * {@code iodepth_low}: once the queue is full, fio reaps until no more than this many I/Os are
   * in flight before it queues again (backend.c {@code wait_for_completions()}); iodepth (keep
   * the queue full) when not set, 0 or above iodepth.
   */
  public int iodepthLow() {
    return s.iodepthLow;
  }

  /** {@code disable_lat} (or {@code gtod_reduce}): no total latency is recorded. */
  public boolean disableLat() {
    return s.disableLat;
  }

  /**
   * {@code disable_clat} (or {@code gtod_reduce}): no completion latency, percentiles or latency
   * buckets are recorded.
   */
  public boolean disableClat() {
    return s.disableClat;
  }

  /** {@code unified_rw_reporting}: 0 none, 1 mixed, 2 both ({@code JobStats.UNIFIED_*}). */
  public int unifiedRwReporting() {
    return s.unifiedRw;
  }

  /**
   * fio's {@code bw_avg_time} in ms: {@code bwavgtime}, or {@code log_avg_msec} with a
   * {@code write_bw_log} that does not set it (init.c), else 500.
   */
  public int bwAvgTimeMs() {
    return s.bwAvgMs;
  }

  /** fio's {@code iops_avg_time} in ms, as {@link #bwAvgTimeMs()} with write_iops_log. */
  public int iopsAvgTimeMs() {
    return s.iopsAvgMs;
  }

  /** {@code significant_figures}: num2str()'s digits in the normal output (default 4). */
  public int significantFigures() {
    return s.sigFigs;
  }

  /** {@code unit_base}: 8 (bytes, also for 0/auto) or 1 (bits) in the normal output. */
  public int unitBase() {
    return s.unitBase;
  }

  /** {@code disable_slat}: no submission latency is recorded (no slat line in the report). */
  public boolean disableSlat() {
    return s.disableSlat;
  }

  /** {@code disable_bw_measurement} ({@code disable_bw}). */
  public boolean disableBw() {
    return s.disableBw;
  }

  /** {@code iodepth_batch_submit} (default 1; 0 or above iodepth means iodepth). */
  public int iodepthBatchSubmit() {
    return s.iodepthBatchSubmit;
  }

  /** {@code iodepth_batch_complete_min} (default 1). */
  public int iodepthBatchCompleteMin() {
    return s.iodepthBatchCompleteMin;
  }

  /** {@code iodepth_batch_complete_max}; fio's default is iodepth_batch_complete_min. */
  public int iodepthBatchCompleteMax() {
    return s.iodepthBatchCompleteMax;
  }

  /** O_DIRECT: {@code direct=1} or {@code buffered=0}, the later wins (default false). */
  public boolean direct() {
    return s.direct;
  }

  /** {@code runtime} in ns, 0 = none. */
  public long runtimeNs() {
    return s.runtimeNs;
  }

  /** {@code time_based}: loop the workload until runtime expires. */
  public boolean timeBased() {
    return s.timeBased;
  }

  /** {@code ramp_time} in ns (added to the run time, excluded from statistics). */
  public long rampTimeNs() {
    return s.rampTimeNs;
  }

  /** {@code startdelay} in ns. */
  public long startDelayNs() {
    return s.startDelayNs;
  }

  /** {@code loops} (default 1). */
  public int loops() {
    return s.loops;
  }

  /** {@code numjobs} of the section this clone came from. */
  public int numjobs() {
    return s.numjobs;
  }

  /** {@code group_reporting}. */
  public boolean groupReporting() {
    return s.groupReporting;
  }

  /** {@code stonewall} / {@code wait_for_previous} as written (clones inherit it too). */
  public boolean stonewall() {
    return s.stonewall;
  }

  /** {@code new_group} as written. */
  public boolean newGroup() {
    return s.newGroup;
  }

  /** {@code serialize_overlap}. */
  public boolean serializeOverlap() {
    return s.serializeOverlap;
  }

  /** {@code norandommap}. */
  public boolean norandommap() {
    return s.norandommap;
  }

  /** {@code randrepeat} (default true). */
  public boolean randrepeat() {
    return s.randrepeat;
  }

  /**
   * {@code allrandrepeat}: in fio 3.42 an alias of {@code randrepeat} ({@code options.c}), so the
   * same value.
   */
  public boolean allrandrepeat() {
    return s.randrepeat;
  }

  /** {@code randseed} (fio's default 0x89 unless given). */
  public long randseed() {
    return s.randseed;
  }

  /** Whether {@code randseed} was given. */
  public boolean randseedSet() {
    return s.randseedSet;
  }

  /** {@code random_distribution} of the reads as written (e.g. {@code random}, {@code zipf:1.2}). */
  public String randomDistribution() {
    return s.randomDistribution[0].toString();
  }

  /** {@code random_distribution} of direction {@code ddir} (0 read, 1 write, 2 trim). */
  public RandomDistribution randomDistribution(int ddir) {
    return s.randomDistribution[ddir];
  }

  /** {@code random_sequence_stride} of a {@code sequence} distribution. */
  public boolean randomSequenceStride() {
    return s.randomSequenceStride;
  }

  /**
   * {@code random_generator}: {@code tausworthe} (default), {@code tausworthe64} (both drawn from
   * the job's SplittableRandom, with the random map) or {@code lfsr} (a
   * {@link FullPeriodSequence}, no map).
   */
  public String randomGenerator() {
    return s.randomGenerator;
  }

  /** {@code percentage_random} per direction (default 100 each). A copy. */
  public int[] percentageRandom() {
    return s.percentageRandom.clone();
  }

  /**
   * {@code percentage_random} of direction {@code ddir}: {@link #percentageRandom()}'s entry
   * without the copy (read for every I/O of a random job).
   */
  public int percentageRandom(int ddir) {
    return s.percentageRandom[ddir];
  }

  /** One entry of {@code bssplit}: a block size in bytes and its share of I/Os in percent. */
  public record BsSplit(long bs, int perc) {}

  /** The first priority option the job sets (prio, prioclass, priohint, cmdprio_*), or null. */
  public String prioOption() {
    for (String k : s.origins.keySet()) {
      if (k.startsWith("prio") || k.startsWith("cmdprio")) {
        return k;
      }
    }
    return null;
  }

  /** The job's I/O priorities (prio/prioclass, cmdprio_*), or null when it sets none. */
  public CmdPrio cmdPrio() {
    return CmdPrio.of(s);
  }

  /** {@code bssplit} of direction {@code ddir}, sorted by share; empty when not given. */
  public List<BsSplit> bssplit(int ddir) {
    return s.bssplit[ddir];
  }

  /** The smallest block size per direction ({@code bsrange}/{@code bssplit}, else bs). A copy. */
  public long[] minBs() {
    return s.minBs.clone();
  }

  /** The largest block size per direction ({@code bsrange}/{@code bssplit}, else bs). A copy. */
  public long[] maxBs() {
    return s.maxBs.clone();
  }

  /**
   * {@code blockalign}/{@code ba} per direction: random offsets are multiples of it; the minimum
   * block size unless given for a random job (fio's {@code fixup_options()}). A copy.
   */
  public long[] blockAlign() {
    return s.ba.clone();
  }

  /** {@code zonemode=strided}. */
  public boolean zonemodeStrided() {
    return s.zonemodeStrided;
  }

  /** {@code zonemode=zbd}: I/O follows the zones of a zoned block device ({@link FioZbd}). */
  public boolean zonemodeZbd() {
    return s.zonemodeZbd;
  }

  /** {@code max_open_zones} (0: the device's limit, or none). */
  public int maxOpenZones() {
    return s.maxOpenZones;
  }

  /** {@code job_max_open_zones} (0: none). */
  public int jobMaxOpenZones() {
    return s.jobMaxOpenZones;
  }

  /** {@code zone_reset_threshold}, a fraction. */
  public double zoneResetThreshold() {
    return s.zoneResetThreshold;
  }

  /** {@code zone_reset_frequency}, a fraction (0: no periodic resets). */
  public double zoneResetFrequency() {
    return s.zoneResetFrequency;
  }

  /** {@code read_beyond_wp}. */
  public boolean readBeyondWp() {
    return s.readBeyondWp;
  }

  /** {@code ignore_zone_limits}. */
  public boolean ignoreZoneLimits() {
    return s.ignoreZoneLimits;
  }

  /**
   * This job with its sizes given in zones ({@code size=8z}) converted with the device's zone
   * size, {@code zoneBytes} (zonemode=zbd without zonesize; fio's
   * {@code zbd_recalc_options_with_zone_granularity()}); itself if it has none.
   */
  public FioJob withDeviceZoneSize(long zoneBytes) {
    if (!s.hasZoneUnits()) {
      return this;
    }
    FioJobSettings c = s.copy();
    c.resolveZoneUnits(zoneBytes);
    return new FioJob(sectionName, jobIndex, groupId, file, line, options, globalOptions, c);
  }

  /**
   * This job with {@code size=bytes}: what fio's {@code get_file_sizes()} finds for a file that
   * exists when the job names no size (the file's own size). Used for a {@code filename=} file
   * taken as left by an earlier run ({@code ScenarioLoader}).
   */
  /**
   * {@code startdelay=lo-hi}: the top of the range, or 0 for a single value; the run draws each
   * job's delay ({@link #withStartDelay}).
   */
  public long startDelayHighNs() {
    return s.startDelayHighNs;
  }

  /** This job with the start delay drawn from its {@code startdelay} range. */
  public FioJob withStartDelay(long ns) {
    FioJobSettings c = s.copy();
    c.startDelayNs = ns;
    c.startDelayHighNs = 0;
    return new FioJob(sectionName, jobIndex, groupId, file, line, options, globalOptions, c);
  }

  public FioJob withExistingFileSize(long bytes) {
    FioJobSettings c = s.copy();
    c.sizeBytes = bytes;
    return new FioJob(sectionName, jobIndex, groupId, file, line, options, globalOptions, c);
  }

  /** {@code zonerange} in bytes (strided: the window I/O stays in). */
  public long zoneRangeBytes() {
    return s.zoneRangeBytes;
  }

  /** {@code zonesize} in bytes (strided: bytes done in a window before moving on). */
  public long zoneSizeBytes() {
    return s.zoneSizeBytes;
  }

  /** {@code zoneskip} in bytes (strided: the gap skipped after each window). */
  public long zoneSkipBytes() {
    return s.zoneSkipBytes;
  }

  /** {@code offset_increment} in bytes: clone k starts at offset + k·increment. */
  public long offsetIncrementBytes() {
    return s.offsetIncrementBytes;
  }

  /**
   * {@code verify_state_load}: the reads the job verifies before it stops, from the state file
   * an earlier write job saved ({@link VerifyState}); -1: no bound (no option, or no file).
   */
  public long verifyStateReads() {
    return s.verifyStateReads;
  }

  /** {@code number_ios}: the job stops after this many I/Os; 0: no such limit. */
  public long numberIos() {
    return s.numberIos;
  }

  /** {@code wait_for}: the name of the job this one starts after, or {@code null}. */
  public String waitFor() {
    return s.waitFor;
  }

  /** The steadystate options: criterion, ss_dur, ss_ramp and the check interval, in ns. */
  public record SteadyStateOptions(SteadyState.Criterion criterion, long durNs, long rampNs,
      long intervalNs) {}

  /** {@code steadystate} with its duration, or {@code null} without one. */
  public SteadyStateOptions steadyState() {
    return s.steadyState == null ? null
        : new SteadyStateOptions(s.steadyState, s.ssDurNs, s.ssRampNs, s.ssIntervalNs);
  }

  /** {@code exit_what}: group, stonewall or all (what an {@code exitall} job ends). */
  public String exitWhat() {
    return s.exitWhat;
  }

  /**
   * An input error about option {@code key} (canonical name): it names the file and line where
   * the option was set for this job (its own section, a {@code [global]} above it or an included
   * file), or the section header if it was never set. The message names the job first
   * ({@code job 'NAME': }), then the option once: {@code rule} names the option as its first
   * word ({@code size ...}, {@code ioengine=mmap ...}) or not at all, and never the job.
   */
  public blksim.engine.InputException error(String key, String rule) {
    rule = "job '" + name() + "': " + rule;
    FioJobFile.Origin at = s.origins.get(key);
    return at == null ? new blksim.engine.InputException(file, line, key, rule)
        : new blksim.engine.InputException(at.file(), at.line(), at.key(), rule);
  }

  /**
   * An input error caused by the first of {@code keys} (canonical names, the likeliest cause
   * first) that the job sets: it names that option's file and line, or the section header if
   * the job sets none of them (every one at its default).
   */
  public blksim.engine.InputException error(java.util.List<String> keys, String rule) {
    for (String k : keys) {
      if (s.origins.get(k) != null) {
        return error(k, rule);
      }
    }
    return error(keys.get(0), rule);
  }

  /** {@code percentile_list} (default 1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99). */
  public double[] percentileList() {
    return s.percentileList.clone();
  }

  /**
   * The rate limit of direction {@code ddir} in bytes per second, 0 for none: {@code rate}, or
   * {@code rate_iops} times the direction's smallest block size (fio's {@code setup_rate()}).
   */
  public long rateBytesPerSec(int ddir) {
    if (s.rateBytes[ddir] > 0) {
      return s.rateBytes[ddir];
    }
    return s.rateIops[ddir] * minBs()[ddir];
  }

  /**
   * Whether direction {@code ddir} is paced by I/Os rather than bytes: {@code rate_iops} without
   * {@code rate}, with a {@code bssplit} (fio's {@code usec_for_io()} then adds 10^6 / iops us per
   * I/O whatever its size).
   */
  public boolean ratePacedByIos(int ddir) {
    return s.rateBytes[ddir] == 0 && s.rateIops[ddir] > 0 && !s.bssplit[ddir].isEmpty();
  }

  /** {@code flow}: the job's weight in its flow (0: no flow control). */
  public int flow() {
    return s.flow;
  }

  /** {@code flow_id}: the flow the job belongs to (fio's default 0). */
  public int flowId() {
    return s.flowId;
  }

  /** {@code flow_sleep}: how long a job ahead of its flow share sleeps, ns (0: it spins). */
  public long flowSleepNs() {
    return s.flowSleepNs;
  }

  /** {@code verify}: the checksum fio writes and checks ({@link VerifyAlgorithm#NONE}: none). */
  public VerifyAlgorithm verify() {
    return s.verify;
  }

  /** {@code buffer_compress_percentage} (0-100), -1 when the job does not set it. */
  public int bufferCompressPercentage() {
    return s.bufferCompressPercentage;
  }

  /** {@code buffer_compress_chunk}: bytes per random-then-zero segment (fio's default 512). */
  public long bufferCompressChunk() {
    return s.bufferCompressChunk;
  }

  /** Whether the job sets {@code buffer_pattern}. */
  public boolean bufferPattern() {
    return s.bufferPattern;
  }

  /**
   * Whether the job's write buffers hold zeros (fio's {@code zero_buffers}, or
   * {@code buffer_compress_percentage=100}, which {@code fixup_options()} turns into it), and no
   * {@code buffer_pattern} (whose callback clears {@code zero_buffers}).
   */
  public boolean zeroBuffers() {
    return !s.bufferPattern && (Boolean.TRUE.equals(s.zeroBuffers)
        || s.bufferCompressPercentage == 100);
  }

  /**
   * Whether fio scrambles the zeros of each write ({@code small_content_scramble()}: the offset
   * and the time written into every 512-byte block). As fio's {@code init_flags()} and
   * {@code get_io_u()} have it: {@code scramble_buffers} is on by default, but off when the job
   * file sets {@code zero_buffers} and not {@code scramble_buffers}; never with
   * {@code refill_buffers} (refilled instead), a {@code buffer_compress_percentage}
   * (TD_F_COMPRESS) or {@code verify}.
   */
  public boolean scrambledZeros() {
    boolean scramble = s.scrambleBuffers == null
        ? s.zeroBuffers == null // default on, unless zero_buffers was set by the job file
        : s.scrambleBuffers;
    return zeroBuffers() && scramble && !s.refillBuffers && s.bufferCompressPercentage < 0
        && s.verify == VerifyAlgorithm.NONE;
  }

  /**
   * {@code ioscheduler}: the scheduler fio's {@code switch_ioscheduler()} writes to the queue
   * of the device holding the job's first file before its I/O starts; null when unset.
   */
  public String ioscheduler() {
    return s.ioscheduler;
  }

  /** {@code sync=1|sync|dsync}: the job's files are opened O_SYNC or O_DSYNC. */
  public boolean syncIo() {
    return s.syncIo;
  }

  /** {@code refill_buffers}: fio refills the write buffer before every write. */
  public boolean refillBuffers() {
    return s.refillBuffers;
  }

  /** The largest write block size ({@code bs} for writes, fio's {@code max_bs[DDIR_WRITE]}). */
  public long maxWriteBs() {
    return s.maxBs[1];
  }

  /**
   * {@code verify_interval}: bytes per verify header, as fio's {@code fixup_options()}
   * ({@code init.c}) settles it: at most the smallest write (or, for a job that reads, read)
   * block, a factor of the smallest and largest write blocks, else their gcd; unset, the write
   * block size.
   */
  public long verifyInterval() {
    long minW = s.minBs[1];
    long maxW = s.maxBs[1];
    long vi = s.verifyInterval;
    if (maxW != minW && vi == 0) {
      vi = minW;
    }
    if (vi > minW) {
      vi = minW;
    } else if (s.rw.reads() && vi > s.minBs[0]) {
      vi = s.minBs[0];
    }
    if (vi == 0 || minW % vi != 0 || maxW % vi != 0) {
      vi = java.math.BigInteger.valueOf(minW).gcd(java.math.BigInteger.valueOf(maxW)).longValue();
    }
    return vi;
  }

  /** {@code do_verify}: whether the written blocks are read back (fio's default 1). */
  public boolean doVerify() {
    return s.doVerify;
  }

  /** {@code verify_only}: the write pattern is only read back, not written. */
  public boolean verifyOnly() {
    return s.verifyOnly;
  }

  /** {@code verify_backlog}: verify after every N writes (0: at the end). */
  public long verifyBacklog() {
    // experimental_verify logs nothing (log_io_piece() is skipped), so check_get_verify() finds
    // no io_hist entry to verify before the job's own verify phase.
    return s.experimentalVerify ? 0 : s.verifyBacklog;
  }

  /**
   * {@code experimental_verify}: fio logs no written block; its verify phase resets the job's
   * random state and re-generates the write sequence (backend.c {@code do_verify()}), so the
   * blocks are read back in the order written, each write once, overlaps included.
   */
  public boolean experimentalVerify() {
    return s.experimentalVerify;
  }

  /** {@code verify_backlog_batch}: blocks verified each time (0: verify_backlog). */
  public int verifyBacklogBatch() {
    return s.verifyBacklogBatch;
  }

  /**
   * fio's {@code fio_offset_overlap_risk()}: {@code norandommap}, a sequential {@code :N} skip,
   * a random {@code :N} above 1, or an {@code io_size} beyond {@code size}; then fio sorts the
   * blocks to verify by offset and keeps the newest of overlapping ones.
   */
  public boolean offsetOverlapRisk() {
    return s.norandommap || (!s.rw.isRandom() && s.rwSequencer != 0)
        || (s.rw.isRandom() && s.rwSequencer > 1)
        || (s.sizeBytes > 0 && s.ioSizeBytes > s.sizeBytes);
  }

  /** {@code rate_min}: the minimum bytes/s of direction {@code ddir}, 0 for none. */
  public long rateMinBytesPerSec(int ddir) {
    return s.rateMinBytes[ddir];
  }

  /** {@code rate_iops_min}: the minimum IOPS of direction {@code ddir}, 0 for none. */
  public long rateMinIops(int ddir) {
    return s.rateMinIops[ddir];
  }

  /** {@code rate_cycle}: the window of the minimum-rate check, ms (fio's default 1000). */
  public int rateCycleMs() {
    return s.rateCycleMs;
  }

  /** cpuio's {@code cpuload}: the percent of a CPU the job burns (1 to 100). */
  public int cpuload() {
    return s.cpuload;
  }

  /** cpuio's {@code cpuchunks}: microseconds burnt per I/O with {@code cpumode=noop}. */
  public int cpuchunksUs() {
    return s.cpuchunksUs;
  }

  /** cpuio's {@code cpumode}: {@code noop} (a spin) or {@code qsort}. */
  public String cpumode() {
    return s.cpumode;
  }

  /** cpuio's {@code exit_on_io_done}: the job ends once every I/O job of the run has. */
  public boolean exitOnIoDone() {
    return s.exitOnIoDone;
  }

  /** filestat/dirstat's {@code stat_type}: {@code stat}, {@code lstat} or {@code statx}. */
  public String statType() {
    return s.statType;
  }

  /**
   * {@code fadvise_hint}: {@code 0} (no advice), {@code 1} (fio's default: RANDOM for a random
   * job, SEQUENTIAL otherwise), {@code random}, {@code sequential} or {@code noreuse}.
   */
  public String fadviseHint() {
    return s.fadviseHint;
  }

  /**
   * The {@code posix_fadvise()} advice fio gives a file it opens ({@code td_io_open_file()}):
   * {@code Readahead.POSIX_FADV_*}, or -1 for none ({@code fadvise_hint=0}). The default, 1,
   * advises RANDOM for a random job and SEQUENTIAL otherwise.
   */
  public int fadviseAdvice() {
    return switch (s.fadviseHint) {
      case "0" -> -1;
      case "random" -> blksim.kernel.mm.Readahead.POSIX_FADV_RANDOM;
      case "sequential" -> blksim.kernel.mm.Readahead.POSIX_FADV_SEQUENTIAL;
      case "noreuse" -> blksim.kernel.mm.Readahead.POSIX_FADV_NOREUSE;
      default -> s.rw.isRandom() ? blksim.kernel.mm.Readahead.POSIX_FADV_RANDOM
          : blksim.kernel.mm.Readahead.POSIX_FADV_SEQUENTIAL;
    };
  }

  /**
   * {@code numa_cpu_nodes}: the NUMA nodes whose CPUs the job runs on ({@code {-1}}: all), or
   * null when not set. fio applies it after {@code cpus_allowed}, so it wins.
   */
  public int[] numaCpuNodes() {
    return s.numaCpuNodes == null ? null : s.numaCpuNodes.clone();
  }

  /** {@code disk_util}: whether fio reports the disk statistics of this job's devices. */
  /**
   * {@code io_submit_mode=offload}: the job thread only prepares I/Os and paces them; a pool of
   * {@code iodepth} submit workers, each with its own engine at depth 1, submits them
   * (fio's rate-submit.c).
   */
  public boolean offload() {
    return s.offload;
  }

  public boolean diskUtil() {
    return s.diskUtil;
  }

  /** {@code write_iolog}: the v3 iolog this job writes, or null. */
  public String writeIolog() {
    return s.writeIolog;
  }

  /** The job's per-I/O log options, or null when it writes no fio log. */
  public blksim.workload.fio.stats.FioLogOptions logOptions() {
    var o = new blksim.workload.fio.stats.FioLogOptions(s.latLog, s.bwLog, s.iopsLog,
        s.logAvgMsec, s.logWindowValue, s.logOffset, s.logPrio, s.logIssueTime, s.perJobLogs);
    return o.any() ? o : null;
  }

  /** {@code rate_process=poisson}: exponential gaps between I/Os at the rate's mean. */
  public boolean ratePoisson() {
    return s.ratePoisson;
  }

  /**
   * {@code rate_ignore_thinktime}: after a thinktime, the job does not catch up the I/O its
   * rate would have issued meanwhile (fio's {@code handle_thinktime()} counts it as issued).
   */
  public boolean rateIgnoreThinktime() {
    return s.rateIgnoreThinktime;
  }

  /**
   * {@code latency_target} in ns (a bare number is µs; 0: none): fio probes the deepest queue
   * depth up to {@code iodepth} whose I/Os meet it ({@code lat_target_*()} in {@code io_u.c}).
   */
  public long latencyTargetNs() {
    return s.latencyTargetNs;
  }

  /** {@code latency_window} in ns: how long each probed depth runs before it is judged. */
  public long latencyWindowNs() {
    return s.latencyWindowNs;
  }

  /** {@code latency_percentile}: the share of I/Os (%) that must meet the target (100). */
  public double latencyPercentile() {
    return s.latencyPercentile;
  }

  /** {@code latency_run}: keep adjusting the depth for the whole run (0: stop once found). */
  public boolean latencyRun() {
    return s.latencyRun;
  }

  /** {@code thinktime} in ns (a bare number is µs). */
  public long thinktimeNs() {
    return s.thinktimeNs;
  }

  /** {@code thinktime_blocks} (default 1). */
  public int thinktimeBlocks() {
    return s.thinktimeBlocks;
  }

  /** {@code thinktime_spin} in ns (a bare number is µs). */
  public long thinktimeSpinNs() {
    return s.thinktimeSpinNs;
  }

  /**
   * {@code thinktime_blocks_type=issue}: {@code thinktime_blocks} counts issued I/Os (fio's
   * {@code td->io_issues}); false for the default {@code complete} ({@code td->io_blocks}).
   */
  public boolean thinktimeBlocksIssue() {
    return s.thinktimeBlocksIssue;
  }

  /** {@code thinktime_iotime} in ns (a bare number is seconds); 0 for none. */
  public long thinktimeIotimeNs() {
    return s.thinktimeIotimeNs;
  }

  /**
   * Whether the job sets {@code thinktime_blocks} itself (fio's {@code fio_option_is_set()}):
   * with {@code thinktime_iotime} and no {@code thinktime_blocks}, only the time triggers.
   */
  public boolean thinktimeBlocksSet() {
    return s.origins.get("thinktime_blocks") != null;
  }

  /**
   * {@code cpus_allowed} or {@code cpumask}: the CPUs the job may run on, ascending, or
   * {@code null} when it may run anywhere. A copy.
   */
  public int[] cpusAllowed() {
    return s.cpusAllowed == null ? null : s.cpusAllowed.clone();
  }

  /** {@code cpus_allowed_policy=split}: each job is bound to one CPU of the set. */
  public boolean cpusAllowedSplit() {
    return s.cpusAllowedSplit;
  }

  /** {@code fsync=N}: an fsync after every N writes (0: never). */
  public int fsyncBlocks() {
    return s.fsyncBlocks;
  }

  /** {@code fdatasync=N}: an fdatasync after every N writes (0: never). */
  public int fdatasyncBlocks() {
    return s.fdatasyncBlocks;
  }

  /** {@code end_fsync}: fsync the file when the job's writes are done. */
  public boolean endFsync() {
    return s.endFsync;
  }

  /**
   * {@code read_iolog} with fio's replay options and blksim's extensions, or {@code null} when
   * the job does not replay a trace.
   */
  public blksim.workload.replay.ReplayOptions replay() {
    return s.replay;
  }

  /** {@code nice}: the job's nice value. */
  public int nice() {
    return s.nice;
  }

  /** {@code thread}: threads instead of processes. */
  public boolean thread() {
    return s.thread;
  }

  /** {@code description}, or {@code null}. */
  public String description() {
    return s.description;
  }

  /** {@code kb_base} in effect for this job's own options (1024 or 1000). */
  public int kbBase() {
    return s.kbBase;
  }

  /** {@code gtod_reduce}. */
  public boolean gtodReduce() {
    return s.gtodReduce;
  }

  /** {@code clat_percentiles} (default true). */
  public boolean clatPercentiles() {
    return s.clatPercentiles;
  }

  /** {@code lat_percentiles}. */
  public boolean latPercentiles() {
    return s.latPercentiles;
  }

  /** {@code slat_percentiles}. */
  public boolean slatPercentiles() {
    return s.slatPercentiles;
  }

  /** {@code exitall}. */
  public boolean exitall() {
    return s.exitall;
  }

  /**
   * {@code invalidate} (default true): on a block device, the verify phase's reopen drops its
   * page cache ({@code ioctl(BLKFLSBUF)}); a simulated run starts with an empty cache.
   */
  public boolean invalidate() {
    return s.invalidate;
  }

  /** io_uring / pvsync2 {@code hipri} (polled completions). */
  public boolean hipri() {
    return s.hipri;
  }

  /**
   * io_uring / libaio / pvsync2 {@code nowait}: RWF_NOWAIT on every I/O (a device that would
   * block fails the I/O with -EAGAIN, or -EOPNOTSUPP without nowait support, and fio ends the
   * job with that error).
   */
  public boolean nowait() {
    return s.nowait;
  }

  /** io_uring / pvsync2 {@code uncached} (RWF_DONTCACHE; accepted only with direct=1). */
  public int uncached() {
    return s.uncached;
  }

  /** io_uring {@code fixedbufs}. */
  public boolean fixedbufs() {
    return s.fixedbufs;
  }

  /** io_uring {@code registerfiles}. */
  public boolean registerfiles() {
    return s.registerfiles;
  }

  /** io_uring {@code sqthread_poll}. */
  public boolean sqthreadPoll() {
    return s.sqthreadPoll;
  }

  /** io_uring {@code nonvectored}. */
  public boolean nonvectored() {
    return s.nonvectored;
  }

  @Override
  public String toString() {
    return "FioJob[" + name() + " #" + jobIndex + " g=" + groupId + " " + file + ":" + line + " "
        + options + "]";
  }
}
