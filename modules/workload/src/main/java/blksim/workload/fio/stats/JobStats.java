package blksim.workload.fio.stats;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.HdrHistogram.Histogram;

/**
 * Statistics of one simulated fio job thread (or, after {@link #merge(List)}, of one
 * {@code group_reporting} group); mirrors fio's {@code struct thread_stat} and the recording
 * functions of stat.c/io_u.c: {@code add_slat_sample()}, {@code add_clat_sample()},
 * {@code add_lat_sample()}, {@code io_u_mark_latency()}, {@code io_u_mark_depth()},
 * {@code io_u_mark_submit()}, {@code io_u_mark_complete()}, {@code add_bw_samples()} /
 * {@code add_iops_samples()} and {@code sum_thread_stats()}.
 *
 * <p>All times are virtual nanoseconds. Simplifications against fio:
 * <ul>
 *   <li>Latency histograms have the buckets of HdrHistograms with 3 significant digits
 *       (values in ns; kept sparse, {@link LatencyCounts}) instead of fio's
 *       64-buckets-per-power-of-two table; a percentile is the
 *       middle of the HdrHistogram bucket fio's rule selects, clamped to the exact min/max.
 *       Min, max, mean and standard deviation are exact (kept separately, see
 *       {@code RunningStat}).</li>
 *   <li>bw/iops samples are taken for every complete window after
 *       {@link #startMeasurement(long)}, of fio's {@code bw_avg_time}/{@code iops_avg_time}
 *       (500 ms by default, {@link #setSampleWindows(long, long)});
 *       the trailing partial window is dropped and windows without I/O in a direction give no
 *       sample for it, as in fio's {@code __add_samples()}. The samples are computed by
 *       {@link #finish(long)}.</li>
 *   <li>No short or dropped I/Os, no page faults, no sync/fsync statistics, no per-priority
 *       statistics.</li>
 *   <li>CPU percentages are {@code sum(usr) / sum(runtime)} computed in nanoseconds (fio uses
 *       milliseconds).</li>
 * </ul>
 *
 * <p>Calls made before {@link #startMeasurement(long)} are discarded by it (fio resets its
 * statistics at the end of {@code ramp_time}); I/Os recorded after {@link #finish(long)} are
 * ignored (fio's {@code should_account()}). Owned by the job that records into it; not
 * thread-safe.
 */
public final class JobStats {

    /** Index of the read direction (fio {@code DDIR_READ}). */
    public static final int DDIR_READ = 0;
    /** Index of the write direction (fio {@code DDIR_WRITE}). */
    public static final int DDIR_WRITE = 1;
    /** Index of the trim direction (fio {@code DDIR_TRIM}). */
    public static final int DDIR_TRIM = 2;
    /** Number of data directions (fio {@code DDIR_RWDIR_CNT}). */
    public static final int DDIR_COUNT = 3;
    /** Width of one bw/iops sampling window: fio's default {@code bw_avg_time} of 500 ms. */
    public static final long SAMPLE_WINDOW_NS = 500_000_000L;

    /** fio's {@code unified_rw_reporting=none} ({@code UNIFIED_SPLIT}): per direction. */
    public static final int UNIFIED_SPLIT = 0;
    /** fio's {@code unified_rw_reporting=mixed} ({@code UNIFIED_MIXED}): one "mixed" direction. */
    public static final int UNIFIED_MIXED = 1;
    /** fio's {@code unified_rw_reporting=both} ({@code UNIFIED_BOTH}): per direction, then mixed. */
    public static final int UNIFIED_BOTH = 2;

    /** Which latency a histogram or percentile refers to (fio's {@code enum fio_lat}). */
    public enum Latency {
        /** Submission latency: creation of the I/O to its submission. */
        SLAT,
        /** Completion latency: submission to completion. */
        CLAT,
        /** Total latency: creation to completion. */
        LAT
    }

    private static final int MAGIC = 0x424B4A53; // "BKJS"
    private static final int FORMAT_VERSION = 1;
    private static final int HISTOGRAM_DIGITS = 3;

    private final JobInfo info;
    private int members = 1;
    private long startNs;
    private long endNs;
    private boolean finished;
    /**
     * Where {@code do_verify()} began ({@link #verifyStarted}), or -1: not recorded in
     * {@link #encode()}, since it only shapes {@link #finish} in the job's own partition.
     */
    private long verifyStartNs = -1;
    /** Whether the job's own pattern reads ({@code td_read()}), given with the verify start. */
    private boolean verifyJobReads;
    /** The bytes read before {@code do_verify()} began. */
    private long verifyReadBytesBefore;
    private long runtimeNs;
    private long cpuRunTimeNs;
    private long jobRuntimeMs;
    private final long[] runtimeMs = new long[DDIR_COUNT];
    private final long[] ioBytes = new long[DDIR_COUNT];
    private final long[] totalIos = new long[DDIR_COUNT];
    private final RunningStat[] slat = new RunningStat[DDIR_COUNT];
    private final RunningStat[] clat = new RunningStat[DDIR_COUNT];
    private final RunningStat[] lat = new RunningStat[DDIR_COUNT];
    private final RunningStat[] bw = new RunningStat[DDIR_COUNT];
    private final RunningStat[] iops = new RunningStat[DDIR_COUNT];
    /**
     * Latency histograms by kind and direction, sparse ({@link LatencyCounts}) and each created
     * at its first sample (null: empty). A job uses few of the nine (no slat for a sync engine,
     * one direction for a randread), and an empty HdrHistogram of 3 digits is already 16 KiB:
     * eager dense ones were most of a many-job run's allocation and of its statistics' encoding
     * (issue 15 item 1).
     */
    private final LatencyCounts[][] hist = new LatencyCounts[Latency.values().length][DDIR_COUNT];
    private final long[] ioDepth = new long[7];
    /** fio's {@code sync_stat}: each fsync/fdatasync the job made, issue to completion. */
    private RunningStat syncLat = new RunningStat();
    private LatencyCounts syncHist;
    /** fio's {@code total_io_u[DDIR_SYNC]}: the fsync=N/fdatasync=N syncs (not end_fsync's). */
    private long syncIos;
    private final long[] submit = new long[7];
    private final long[] complete = new long[7];
    private long totalSubmit;
    private long totalComplete;
    private final long[] latN = new long[10];
    private final long[] latU = new long[10];
    private final long[] latM = new long[12];
    private long usrNs;
    private long sysNs;
    private long ctx;
    private long majf;
    private long minf;
    private int error;
    /** fio's {@code td->verror} without its {@code ", error=..."} tail, or null (see {@link #setIoError}). */
    private String errorWhere;
    /** The failed io_u's file and "ddir offset=, buflen=" for fio's stderr line, or null. */
    private String errorFile;
    private String errorIo;
    /** Zone resets made with zonemode=zbd ({@code ts->nr_zone_resets}). */
    private long zoneResets;
    /** fio's {@code ts->count_zone_resets}: a zonemode=zbd job that writes or trims. */
    private boolean countZoneResets;
    private int latencyDepth;
    /** fio's latency profile as the job set it ({@code latency_target} ns, window µs, %). */
    private long latencyTargetNs;
    private long latencyWindowUs;
    private double latencyPercentile = 100.0;
    private int windowCount;
    private int iopsWindowCount;
    /** fio's {@code bw_avg_time} and {@code iops_avg_time} in ns (bwavgtime, iopsavgtime). */
    private long bwWindowNs = SAMPLE_WINDOW_NS;
    private long iopsWindowNs = SAMPLE_WINDOW_NS;
    /** fio's report options as the thread_stat carries them: unified_rw_rep, sig_figs, unit_base. */
    private int unifiedRw = UNIFIED_SPLIT;
    private int sigFigs = 4;
    private int unitBase = 8;
    /**
     * The latencies whose percentiles the report prints, a bit per {@link Latency} ordinal:
     * fio's {@code slat_percentiles}, {@code clat_percentiles} (on by default) and
     * {@code lat_percentiles}.
     */
    private int percentileReports = 1 << Latency.CLAT.ordinal();
    /**
     * A per-I/O bw (iops) log ({@code log_avg_msec=0}): fio's {@code calc_log_samples()} then
     * takes no window samples and {@code account_io_completion()} adds one per I/O instead.
     */
    private boolean perIoBw;
    private boolean perIoIops;
    private SteadyStateResult steadyState;
    /** What a {@code read_iolog} job replayed, or null. */
    private blksim.workload.replay.ReplayStats replay;
    private long[][] windowBytes = new long[DDIR_COUNT][0];
    private long[][] windowIos = new long[DDIR_COUNT][0];
    private IoSamples samples;
    /**
     * fio's per-priority completion latencies ({@code ts->clat_prio[ddir]}), kept only for a job
     * with cmdprio in use: entries in fio's order (the job's own priority first).
     */
    @SuppressWarnings("unchecked")
    private final java.util.ArrayList<PrioStat>[] prioStats = new java.util.ArrayList[] {
        new java.util.ArrayList<>(), new java.util.ArrayList<>(), new java.util.ArrayList<>()};

    /** One priority's completion latencies ({@code struct clat_prio_stat}). */
    public static final class PrioStat {
        private final int ioprio;
        private RunningStat clat = new RunningStat();
        /** Created at the first sample (null: empty). */
        private LatencyCounts hist;

        PrioStat(int ioprio) {
            this.ioprio = ioprio;
        }

        /** The priority ({@code ioprio_value(class, level, hint)}). */
        public int ioprio() {
            return ioprio;
        }

        /** Its completion latencies, ns. */
        public StatSummary clat() {
            return clat.summary();
        }

        /** Its samples. */
        public long samples() {
            return hist == null ? 0 : hist.totalCount();
        }

        /** Completion latency at each of {@code list} (fio's bucket middles, clamped to min/max). */
        public long[] percentiles(double[] list) {
            long[] out = new long[list.length];
            if (hist == null || hist.totalCount() == 0) {
                return out;
            }
            StatSummary c = clat();
            Histogram h = hist.histogram();
            for (int i = 0; i < list.length; i++) {
                long v = h.medianEquivalentValue(h.getValueAtPercentile(list[i]));
                out[i] = Math.max(c.min(), Math.min(c.max(), v));
            }
            return out;
        }
    }

    /** Declares fio's per-priority statistics of {@code ddir}, in fio's order (cmdprio in use). */
    public void initPrios(int ddir, List<Integer> ioprios) {
        checkDdir(ddir);
        if (prioStats[ddir].isEmpty()) {
            for (int p : ioprios) {
                prioStats[ddir].add(new PrioStat(p));
            }
        }
    }

    /** One completion of priority {@code ioprio}; ignored unless {@link #initPrios} declared them. */
    public void recordPrio(int ddir, int ioprio, long clatNs) {
        checkDdir(ddir);
        if (finished || prioStats[ddir].isEmpty() || clatDisabled) {
            return;
        }
        PrioStat p = prioStat(ddir, ioprio);
        p.clat.add(clatNs);
        if (p.hist == null) {
            p.hist = new LatencyCounts();
        }
        p.hist.record(clatNs);
    }

    private PrioStat prioStat(int ddir, int ioprio) {
        for (PrioStat p : prioStats[ddir]) {
            if (p.ioprio == ioprio) {
                return p;
            }
        }
        PrioStat p = new PrioStat(ioprio); // grow_clat_prio_stat()
        prioStats[ddir].add(p);
        return p;
    }

    /** fio's per-priority statistics of {@code ddir} (empty without cmdprio). */
    public List<PrioStat> prios(int ddir) {
        checkDdir(ddir);
        return List.copyOf(prioStats[ddir]);
    }

    /** {@code disable_slat}: the submission latency is not recorded ({@link #disableSlat()}). */
    private boolean slatDisabled;

    /**
     * fio's {@code disable_slat}: {@code io_u_queued()} records no slat sample, so the report has
     * no slat line (JSON: zero {@code slat_ns}); lat (submission to completion) is still whole.
     */
    public void disableSlat() {
        slatDisabled = true;
    }

    /** {@code disable_lat} and {@code disable_clat} ({@link #disableLat()}, {@link #disableClat()}). */
    private boolean latDisabled;
    private boolean clatDisabled;

    /**
     * fio's {@code disable_lat}: {@code account_io_completion()} adds no total latency sample
     * (no lat line; JSON: zero {@code lat_ns}).
     */
    public void disableLat() {
        latDisabled = true;
    }

    /**
     * fio's {@code disable_clat}: {@code account_io_completion()} adds no completion latency
     * sample and marks no latency bucket (no clat line, no percentiles, no "lat (usec)" lines,
     * no per-priority clat); an engine's own {@link #recordClat} samples still count, as fio's
     * file-operation engines call {@code add_clat_sample()} themselves.
     */
    public void disableClat() {
        clatDisabled = true;
    }

    /** Creates empty statistics for the job described by {@code info}. */
    public JobStats(JobInfo info) {
        this.info = Objects.requireNonNull(info, "info must not be null");
        this.latencyDepth = info.iodepth();
        reset();
    }

    /** Keeps every measured I/O from now on, for fio's per-I/O logs ({@link IoSamples}). */
    public void keepSamples() {
        if (samples == null) {
            samples = new IoSamples();
        }
    }

    /** The measured I/Os, null unless {@link #keepSamples()} was called. */
    public IoSamples samples() {
        return samples;
    }

    private void reset() {
        if (samples != null) {
            samples.clear();
        }
        Arrays.fill(runtimeMs, 0);
        Arrays.fill(ioBytes, 0);
        Arrays.fill(totalIos, 0);
        for (int d = 0; d < DDIR_COUNT; d++) {
            slat[d] = new RunningStat();
            clat[d] = new RunningStat();
            lat[d] = new RunningStat();
            bw[d] = new RunningStat();
            iops[d] = new RunningStat();
            for (Latency k : Latency.values()) {
                hist[k.ordinal()][d] = null;
            }
            windowBytes[d] = new long[0];
            windowIos[d] = new long[0];
            for (PrioStat p : prioStats[d]) {
                p.clat = new RunningStat();
                p.hist = null;
            }
        }
        Arrays.fill(ioDepth, 0);
        syncLat = new RunningStat();
        syncHist = null;
        syncIos = 0;
        Arrays.fill(submit, 0);
        Arrays.fill(complete, 0);
        totalSubmit = 0;
        totalComplete = 0;
        Arrays.fill(latN, 0);
        Arrays.fill(latU, 0);
        Arrays.fill(latM, 0);
        windowCount = 0;
        iopsWindowCount = 0;
        runtimeNs = 0;
        cpuRunTimeNs = 0;
        jobRuntimeMs = 0;
        finished = false;
    }

    // ------------------------------------------------------------------ recording

    /**
     * Records one completed I/O; mirrors fio's {@code account_io_completion()}.
     *
     * @param ddir 0 read, 1 write, 2 trim
     * @param bytes bytes transferred
     * @param slatNs submission latency, or a negative value when not measured (always ignored
     *     for sync engines)
     * @param clatNs completion latency
     * @param completionTimeNs virtual time of the completion, used for bw/iops windows
     */
    public void recordIo(int ddir, long bytes, long slatNs, long clatNs, long completionTimeNs) {
        recordIo(ddir, bytes, slatNs, clatNs, completionTimeNs, -1);
    }

    /**
     * {@link #recordIo(int, long, long, long, long)} with the I/O's byte offset, which fio's logs
     * print with {@code log_offset=1}.
     */
    public void recordIo(int ddir, long bytes, long slatNs, long clatNs, long completionTimeNs,
            long offset) {
        checkDdir(ddir);
        if (bytes < 0) {
            throw new IllegalArgumentException("job " + info.jobname() + ": bytes must be >= 0, was " + bytes);
        }
        if (clatNs < 0) {
            throw new IllegalArgumentException("job " + info.jobname() + ": clatNs must be >= 0, was " + clatNs);
        }
        if (finished) {
            return;
        }
        ioBytes[ddir] += bytes;
        totalIos[ddir]++;
        if (samples != null) {
            samples.add(completionTimeNs, ddir, bytes, info.syncEngine() ? -1 : slatNs, clatNs,
                offset);
        }
        boolean slatMeasured = slatNs >= 0 && !info.syncEngine() && !slatDisabled;
        if (slatMeasured) {
            slat[ddir].add(slatNs);
            hist(Latency.SLAT, ddir).record(slatNs);
        }
        long latNs = Math.max(slatNs, 0) + clatNs;
        if (!clatDisabled) {
            clat[ddir].add(clatNs);
            hist(Latency.CLAT, ddir).record(clatNs);
            markLatency(clatNs);
        }
        if (!latDisabled) {
            lat[ddir].add(latNs);
            hist(Latency.LAT, ddir).record(latNs);
        }

        addToWindows(ddir, bytes, completionTimeNs, true);
        if (perIoBw) {
            // add_bw_sample(): bytes * 1000000 / the I/O's issue-to-completion ns
            bw[ddir].add(clatNs == 0 ? 0 : bytes * 1_000_000L / clatNs);
        }
        if (perIoIops) {
            iops[ddir].add(1); // add_iops_sample()
        }
    }

    /**
     * The I/O's bytes into its bw window and its count into its iops window (each of its own
     * width); {@code strict}: a completion too far after the start is an error, else clamped.
     */
    private void addToWindows(int ddir, long bytes, long completionTimeNs, boolean strict) {
        long since = Math.max(0, completionTimeNs - startNs);
        long b = since / bwWindowNs;
        long i = iopsWindowNs == bwWindowNs ? b : since / iopsWindowNs;
        if (Math.max(b, i) >= Integer.MAX_VALUE - 1) {
            if (strict) {
                throw new IllegalStateException("job " + info.jobname() + ": completion at " + completionTimeNs
                    + " ns is too far after the measurement start " + startNs + " ns");
            }
            b = Math.min(b, Integer.MAX_VALUE - 2);
            i = Math.min(i, Integer.MAX_VALUE - 2);
        }
        int bi = (int) b;
        int ii = (int) i;
        ensureWindows(Math.max(bi, ii) + 1);
        windowBytes[ddir][bi] += bytes;
        windowIos[ddir][ii]++;
        windowCount = Math.max(windowCount, bi + 1);
        iopsWindowCount = Math.max(iopsWindowCount, ii + 1);
    }

    /**
     * Records one completed I/O of an engine with fio's {@code FIO_NOSTATS} flag (the file and
     * directory operation engines): its bytes and count go into the job's totals and bandwidth
     * windows ({@code io_completed()}), but {@code account_io_completion()} returns before any
     * latency sample.
     */
    public void recordIoWithoutLatency(int ddir, long bytes, long completionTimeNs) {
        checkDdir(ddir);
        if (finished) {
            return;
        }
        ioBytes[ddir] += bytes;
        totalIos[ddir]++;
        addToWindows(ddir, bytes, completionTimeNs, false);
    }

    /**
     * Records a completion-latency sample alone, as fio's {@code add_clat_sample()} called by an
     * engine (engines/fileoperations.c times each file operation this way): the clat statistics
     * and histogram, no I/O, no total latency, no latency bucket.
     */
    public void recordClat(int ddir, long clatNs) {
        checkDdir(ddir);
        if (clatNs < 0) {
            throw new IllegalArgumentException("job " + info.jobname() + ": clatNs must be >= 0, was " + clatNs);
        }
        if (finished) {
            return;
        }
        clat[ddir].add(clatNs);
        hist(Latency.CLAT, ddir).record(clatNs);
    }

    /** The histogram of {@code kind} and {@code ddir} to record into, created at its first use. */
    private LatencyCounts hist(Latency kind, int ddir) {
        LatencyCounts h = hist[kind.ordinal()][ddir];
        if (h == null) {
            h = new LatencyCounts();
            hist[kind.ordinal()][ddir] = h;
        }
        return h;
    }

    /** Mirrors fio's {@code io_u_mark_latency()}: nsec, usec and msec buckets of the clat. */
    private void markLatency(long nsec) {
        if (nsec < 1000) {
            latN[bucket10(nsec)]++;
        } else if (nsec < 1_000_000) {
            latU[bucket10(nsec / 1000)]++;
        } else {
            long msec = nsec / 1_000_000;
            int idx;
            if (msec >= 2000) {
                idx = 11;
            } else if (msec >= 1000) {
                idx = 10;
            } else {
                idx = bucket10(msec);
            }
            latM[idx]++;
        }
    }

    /** Buckets 0-1, 2-3, 4-9, 10-19, 20-49, 50-99, 100-249, 250-499, 500-749, 750-999. */
    private static int bucket10(long v) {
        if (v >= 750) {
            return 9;
        } else if (v >= 500) {
            return 8;
        } else if (v >= 250) {
            return 7;
        } else if (v >= 100) {
            return 6;
        } else if (v >= 50) {
            return 5;
        } else if (v >= 20) {
            return 4;
        } else if (v >= 10) {
            return 3;
        } else if (v >= 4) {
            return 2;
        } else if (v >= 2) {
            return 1;
        }
        return 0;
    }

    private void ensureWindows(int n) {
        if (windowBytes[0].length >= n) {
            return;
        }
        int cap = Math.max(n, Math.max(16, windowBytes[0].length * 2));
        for (int d = 0; d < DDIR_COUNT; d++) {
            windowBytes[d] = Arrays.copyOf(windowBytes[d], cap);
            windowIos[d] = Arrays.copyOf(windowIos[d], cap);
        }
    }

    /**
     * Records one submission of an I/O; {@code depthAfterSubmit} is the number of this job's
     * I/Os in flight including it. Mirrors fio's {@code io_u_mark_depth()}: buckets 1, 2-3, 4-7,
     * 8-15, 16-31, 32-63, &gt;=64.
     */
    public void recordIssue(int depthAfterSubmit) {
        int idx;
        if (depthAfterSubmit >= 64) {
            idx = 6;
        } else if (depthAfterSubmit >= 32) {
            idx = 5;
        } else if (depthAfterSubmit >= 16) {
            idx = 4;
        } else if (depthAfterSubmit >= 8) {
            idx = 3;
        } else if (depthAfterSubmit >= 4) {
            idx = 2;
        } else if (depthAfterSubmit >= 2) {
            idx = 1;
        } else {
            idx = 0;
        }
        ioDepth[idx]++;
    }

    /**
     * Records one fsync or fdatasync the job made, {@code latNs} from its issue to its return:
     * fio's {@code add_sync_clat_sample()} in {@code io_completed()}; {@code counted} adds it to
     * {@code total_io_u[DDIR_SYNC]}, which {@code td_io_queue()} does for every sync but
     * end_fsync's (made in runstate TD_FSYNCING).
     */
    public void recordSync(long latNs, boolean counted) {
        if (latNs < 0) {
            throw new IllegalArgumentException("job " + info.jobname() + ": sync latency must be >= 0, was " + latNs);
        }
        if (finished) {
            return;
        }
        syncLat.add(latNs);
        if (syncHist == null) {
            syncHist = new LatencyCounts();
        }
        syncHist.record(latNs);
        if (counted) {
            syncIos++;
        }
    }

    /** The syncs counted in {@code total_io_u[DDIR_SYNC]} (fio's fourth "issued rwts"). */
    public long syncIos() {
        return syncIos;
    }

    /** fio's {@code sync_stat}: latency of every sync, in ns (no samples: none made). */
    public StatSummary syncLatency() {
        return syncLat.summary();
    }

    /** Sync latency at each of {@link #percentileList()}, in ns (fio's {@code io_u_sync_plat}). */
    public long[] syncPercentiles() {
        double[] list = percentileList();
        long[] out = new long[list.length];
        if (syncHist == null || syncHist.totalCount() == 0) {
            return out;
        }
        Histogram h = syncHist.histogram();
        StatSummary st = syncLatency();
        for (int i = 0; i < list.length; i++) {
            long v = h.medianEquivalentValue(h.getValueAtPercentile(list[i]));
            out[i] = Math.max(st.min(), Math.min(st.max(), v));
        }
        return out;
    }

    /** Records one submit call that queued {@code n} I/Os; mirrors fio's {@code io_u_mark_submit()}. */
    public void recordSubmitBatch(int n) {
        submit[batchBucket(n)]++;
        totalSubmit++;
    }

    /** Records one reap call that completed {@code n} I/Os; mirrors fio's {@code io_u_mark_complete()}. */
    public void recordCompleteBatch(int n) {
        complete[batchBucket(n)]++;
        totalComplete++;
    }

    /** Mirrors fio's {@code __io_u_mark_map()}: buckets 0, 1-4, 5-8, 9-16, 17-32, 33-64, &gt;64. */
    private static int batchBucket(int n) {
        if (n > 64) {
            return 6;
        } else if (n >= 33) {
            return 5;
        } else if (n >= 17) {
            return 4;
        } else if (n >= 9) {
            return 3;
        } else if (n >= 5) {
            return 2;
        } else if (n >= 1) {
            return 1;
        }
        return 0;
    }

    /**
     * Starts the measured period at {@code nowNs} (end of {@code ramp_time}): discards everything
     * recorded so far and anchors the bw/iops windows here. Mirrors fio's
     * {@code reset_io_stats()} at the end of the ramp.
     */
    public void startMeasurement(long nowNs) {
        reset();
        startNs = nowNs;
        endNs = nowNs;
    }

    /**
     * fio's {@code do_verify()} begins at {@code nowNs} (after {@code do_io()} drained): from
     * here the time counts to the reads' runtime only, as {@code update_runtime()} counts it.
     * {@code jobReads} is {@code td_read()}: whether the job's own pattern reads.
     */
    public void verifyStarted(long nowNs, boolean jobReads) {
        if (verifyStartNs < 0) {
            verifyStartNs = nowNs;
            verifyJobReads = jobReads;
            verifyReadBytesBefore = ioBytes[DDIR_READ];
        }
    }

    /**
     * Ends the measured period: runtime becomes {@code nowNs - start}, and the bw/iops samples of
     * the complete bw and iops windows are computed (fio's {@code __add_samples()}: KiB/s as
     * {@code bytes * 1000 / 500 / 1024}, IOPS as {@code ios * 1000 / 500}).
     */
    public void finish(long nowNs) {
        if (finished) {
            throw new IllegalStateException("job " + info.jobname() + ": finish called twice (at " + nowNs + " ns)");
        }
        if (nowNs < startNs) {
            throw new IllegalArgumentException("job " + info.jobname() + ": finish time " + nowNs
                + " ns is before the measurement start " + startNs + " ns");
        }
        finished = true;
        endNs = nowNs;
        runtimeNs = nowNs - startNs;
        cpuRunTimeNs = runtimeNs;
        long ms = nsToRuntimeMs(runtimeNs);
        jobRuntimeMs = ms;
        long bwSpentMs = bwWindowNs / 1_000_000L;
        long iopsSpentMs = iopsWindowNs / 1_000_000L;
        long bwWindows = runtimeNs / bwWindowNs;
        long iopsWindows = runtimeNs / iopsWindowNs;
        for (int d = 0; d < DDIR_COUNT; d++) {
            runtimeMs[d] = ioBytes[d] > 0 ? ms : 0;
            if (verifyStartNs >= 0) {
                // backend.c thread_main(): update_runtime() after do_io() gives each direction
                // the job did I/O in that phase's time (td_read() && io_bytes[DDIR_READ] for the
                // reads); after do_verify() the reads get the verify phase's time added.
                long ioNs = Math.max(0, verifyStartNs - startNs);
                long verifyNs = nowNs - Math.max(verifyStartNs, startNs);
                if (d == DDIR_READ) {
                    boolean readInIo = verifyJobReads && verifyReadBytesBefore > 0;
                    runtimeMs[d] = nsToRuntimeMs(readInIo ? ioNs + verifyNs : verifyNs);
                } else {
                    runtimeMs[d] = ioBytes[d] > 0 ? nsToRuntimeMs(ioNs) : 0;
                }
            }
            for (int w = 0; !perIoBw && w < bwWindows && w < windowCount; w++) {
                long deltaBytes = windowBytes[d][w];
                if (deltaBytes != 0) {
                    bw[d].add(deltaBytes * 1000 / bwSpentMs / 1024);
                }
            }
            for (int w = 0; !perIoIops && w < iopsWindows && w < iopsWindowCount; w++) {
                long deltaIos = windowIos[d][w];
                if (deltaIos != 0) {
                    iops[d].add(deltaIos * 1000 / iopsSpentMs);
                }
            }
            windowBytes[d] = new long[0];
            windowIos[d] = new long[0];
        }
        windowCount = 0;
        iopsWindowCount = 0;
    }

    /**
     * fio's {@code bw_avg_time} and {@code iops_avg_time} (options bwavgtime, iopsavgtime): the
     * widths of the windows whose bytes and I/Os make one bw and one iops sample. Set before
     * recording.
     *
     * @param bwMs bw window in ms, &gt;= 1
     * @param iopsMs iops window in ms, &gt;= 1
     */
    public void setSampleWindows(long bwMs, long iopsMs) {
        if (bwMs < 1 || iopsMs < 1) {
            throw new IllegalArgumentException("job " + info.jobname() + ": sample windows must be >= 1 ms, were "
                + bwMs + " and " + iopsMs);
        }
        if (windowCount > 0 || iopsWindowCount > 0) {
            throw new IllegalStateException("job " + info.jobname() + ": sample windows set after recording");
        }
        bwWindowNs = bwMs * 1_000_000L;
        iopsWindowNs = iopsMs * 1_000_000L;
    }

    /**
     * A per-I/O {@code write_bw_log} / {@code write_iops_log} ({@code log_avg_msec=0}): the
     * report's bw (iops) samples are then one per I/O ({@code add_bw_sample()}: bytes * 10^6 /
     * clat ns; {@code add_iops_sample()}: 1), not per window, as fio's {@code per_unit_log()}.
     */
    public void setPerIoSamples(boolean bwPerIo, boolean iopsPerIo) {
        this.perIoBw = bwPerIo;
        this.perIoIops = iopsPerIo;
    }

    /**
     * fio's report options carried in {@code struct thread_stat}: {@code unified_rw_rep}
     * ({@link #UNIFIED_SPLIT}, {@link #UNIFIED_MIXED}, {@link #UNIFIED_BOTH}), {@code sig_figs}
     * (significant_figures, 1..10) and {@code unit_base} (8 bytes, 1 bits).
     */
    public void setReportOptions(int unifiedRw, int sigFigs, int unitBase) {
        if (unifiedRw < UNIFIED_SPLIT || unifiedRw > UNIFIED_BOTH) {
            throw new IllegalArgumentException("unifiedRw must be 0, 1 or 2, was " + unifiedRw);
        }
        if (sigFigs < 1 || sigFigs > 10) {
            throw new IllegalArgumentException("sigFigs must be in [1, 10], was " + sigFigs);
        }
        if (unitBase != 1 && unitBase != 8) {
            throw new IllegalArgumentException("unitBase must be 1 or 8, was " + unitBase);
        }
        this.unifiedRw = unifiedRw;
        this.sigFigs = sigFigs;
        this.unitBase = unitBase;
    }

    /**
     * fio's {@code slat_percentiles}, {@code clat_percentiles} and {@code lat_percentiles}, which
     * the thread_stat carries to the report ({@code __show_run_stats()}).
     */
    public void setPercentileReports(boolean slatPct, boolean clatPct, boolean latPct) {
        percentileReports = (slatPct ? 1 << Latency.SLAT.ordinal() : 0)
            | (clatPct ? 1 << Latency.CLAT.ordinal() : 0)
            | (latPct ? 1 << Latency.LAT.ordinal() : 0);
    }

    /** Whether the report prints the percentiles of {@code kind} (fio's {@code *_percentiles}). */
    public boolean reportsPercentiles(Latency kind) {
        return (percentileReports & (1 << kind.ordinal())) != 0;
    }

    /** fio's {@code unified_rw_rep} of these statistics ({@link #UNIFIED_SPLIT} by default). */
    public int unifiedRw() {
        return unifiedRw;
    }

    /** fio's {@code sig_figs} (significant_figures, default 4). */
    public int sigFigs() {
        return sigFigs;
    }

    /** fio's {@code unit_base}: 8 (bytes, the default) or 1 (bits). */
    public int unitBase() {
        return unitBase;
    }

    /** fio keeps runtimes in ms rounded up from microseconds ({@code update_runtime()}). */
    private static long nsToRuntimeMs(long ns) {
        return (ns / 1000 + 999) / 1000;
    }

    /** Sets the job's major and minor page faults (fio's {@code majf}, {@code minf}). */
    public void setFaults(long majf, long minf) {
        if (majf < 0 || minf < 0) {
            throw new IllegalArgumentException("job " + info.jobname() + ": faults must be >= 0");
        }
        this.majf = majf;
        this.minf = minf;
    }

    /** Sets the CPU time the job consumed and its context switches (fio's rusage deltas). */
    public void setCpu(long usrNs, long sysNs, long ctx) {
        if (usrNs < 0 || sysNs < 0 || ctx < 0) {
            throw new IllegalArgumentException("job " + info.jobname() + ": cpu values must be >= 0, were usr="
                + usrNs + " sys=" + sysNs + " ctx=" + ctx);
        }
        this.usrNs = usrNs;
        this.sysNs = sysNs;
        this.ctx = ctx;
    }

    /** Sets the job's error number (errno; 0 for none). */
    /** The job's {@code steadystate} block, or {@code null} when it has no steadystate. */
    public SteadyStateResult steadyState() {
        return steadyState;
    }

    /** Sets what a {@code read_iolog} job replayed. */
    public void setReplay(blksim.workload.replay.ReplayStats r) {
        this.replay = r;
    }

    /** What a {@code read_iolog} job replayed, or null for other jobs. */
    public blksim.workload.replay.ReplayStats replay() {
        return replay;
    }

    /** Sets the job's {@code steadystate} block. */
    public void setSteadyState(SteadyStateResult r) {
        this.steadyState = r;
    }

    /** The depth the job's latency profile settled on ({@code td->latency_qd}). */
    public void setLatencyDepth(int depth) {
        this.latencyDepth = depth;
    }

    /** The job's {@code latency_target} (ns), {@code latency_window} (µs) and percentile. */
    public void setLatencyProfile(long targetNs, long windowUs, double percentile) {
        this.latencyTargetNs = targetNs;
        this.latencyWindowUs = windowUs;
        this.latencyPercentile = percentile;
    }

    /** fio's {@code ts->latency_target}, ns (0: none). */
    public long latencyTargetNs() {
        return latencyTargetNs;
    }

    /** fio's {@code ts->latency_window}, µs. */
    public long latencyWindowUs() {
        return latencyWindowUs;
    }

    /** fio's {@code ts->latency_percentile}. */
    public double latencyPercentile() {
        return latencyPercentile;
    }

    public void setError(int err) {
        this.error = err;
    }

    /**
     * Records the job's first fatal io_u error as fio's {@code __io_u_log_error()} does: the
     * error number, the {@code td_verror()} location text fio's header prints
     * ({@code "file:io_u.c:1896, func=io_u error"} in fio-3.36) and the failed io_u, for the
     * {@code "fio: io_u error on file F: strerror: read offset=N, buflen=N"} line fio writes
     * to stderr. A later error keeps the first (fio's {@code td_verror()} returns when
     * {@code td->error} is set).
     */
    public void setIoError(int err, String where, String file, String ddirName, long offset,
            long buflen) {
        if (error != 0) {
            return;
        }
        this.error = err;
        this.errorWhere = where;
        this.errorFile = file;
        this.errorIo = ddirName + " offset=" + offset + ", buflen=" + buflen;
    }

    /** The {@code td_verror()} location text ("file:..., func=..."), or null when not known. */
    public String errorWhere() {
        return errorWhere;
    }

    /** The failed io_u's file name for fio's stderr error line, or null. */
    public String errorFile() {
        return errorFile;
    }

    /** The failed io_u's "ddir offset=N, buflen=N" for fio's stderr error line, or null. */
    public String errorIo() {
        return errorIo;
    }

    /**
     * Counts an io_u that was issued and then failed: fio's {@code td_io_queue()} adds it to
     * {@code total_io_u} when queued, but {@code io_completed()} adds no bytes or latency
     * for an errored io_u.
     */
    public void recordFailedIo(int ddir) {
        checkDdir(ddir);
        if (!finished) {
            totalIos[ddir]++;
        }
    }

    /** Sets the zone resets the job made with zonemode=zbd ({@code nr_zone_resets}). */
    public void setZoneResets(long n) {
        this.zoneResets = n;
    }

    /**
     * Marks a zonemode=zbd job that writes or trims: fio's {@code zbd_setup_files()} sets
     * {@code ts->count_zone_resets}, and the JSON then carries {@code "zone_resets"}.
     */
    public void setCountZoneResets(boolean count) {
        this.countZoneResets = count;
    }

    /** Whether the JSON reports {@code "zone_resets"} ({@code ts->count_zone_resets}). */
    public boolean countZoneResets() {
        return countZoneResets;
    }

    /** Zone resets made with zonemode=zbd, as fio's write header prints them. */
    public long zoneResets() {
        return zoneResets;
    }

    private static void checkDdir(int ddir) {
        if (ddir < 0 || ddir >= DDIR_COUNT) {
            throw new IllegalArgumentException("ddir must be in [0, 2], was " + ddir);
        }
    }

    // ------------------------------------------------------------------ group_reporting

    /**
     * Merges the statistics of a {@code group_reporting} group; mirrors fio's
     * {@code sum_thread_stats()}: latency statistics and histograms are merged, byte and I/O
     * counts, distributions, CPU times and context switches are summed, the per-direction
     * runtime is the maximum, {@code job_runtime} is the sum, bw/iops statistics are added
     * (min, max, mean of the members summed: the group's aggregate), the error is the first
     * non-zero one and name, group and description are the first job's.
     *
     * @param jobs the group's jobs in job order; not empty
     * @return new statistics with {@link #members()} = total members
     */
    public static JobStats merge(List<JobStats> jobs) {
        return merge(jobs, false);
    }

    /**
     * {@link #merge(List)} into one "mixed" direction: fio's {@code sum_thread_stats()} into a
     * thread_stat with {@code unified_rw_rep = UNIFIED_MIXED}, which sums read, write and trim
     * into index 0 (latencies merged, bw/iops and bytes added, runtime the maximum). The
     * result reports {@link #UNIFIED_MIXED}; its report options are otherwise the first job's.
     *
     * @param jobs the jobs in job order (one for a job without group_reporting); not empty
     * @return new statistics with everything in {@link #DDIR_READ}
     */
    public static JobStats mixed(List<JobStats> jobs) {
        return merge(jobs, true);
    }

    private static JobStats merge(List<JobStats> jobs, boolean mixed) {
        if (jobs == null || jobs.isEmpty()) {
            throw new IllegalArgumentException("jobs must not be empty");
        }
        JobStats first = jobs.get(0);
        JobStats dst = new JobStats(first.info);
        dst.members = 0;
        dst.finished = true;
        dst.startNs = Long.MAX_VALUE;
        dst.endNs = Long.MIN_VALUE;
        // __show_run_stats(): the thread_stat takes these from the group's first job.
        dst.unifiedRw = mixed ? UNIFIED_MIXED : first.unifiedRw;
        dst.sigFigs = first.sigFigs;
        dst.unitBase = first.unitBase;
        dst.percentileReports = first.percentileReports;
        for (JobStats src : jobs) {
            dst.add(src, mixed);
            if (src.steadyState != null) {
                // steadystate_setup(): fio keeps a group's data on its last job.
                dst.steadyState = src.steadyState;
            }
        }
        return dst;
    }

    private void add(JobStats src, boolean mixed) {
        members += src.members;
        startNs = Math.min(startNs, src.startNs);
        endNs = Math.max(endNs, src.endNs);
        finished &= src.finished;
        runtimeNs = Math.max(runtimeNs, src.runtimeNs);
        cpuRunTimeNs += src.cpuRunTimeNs;
        jobRuntimeMs += src.jobRuntimeMs;
        for (int d = 0; d < DDIR_COUNT; d++) {
            int dd = mixed ? DDIR_READ : d; // UNIFIED_MIXED: every direction into index 0
            runtimeMs[dd] = Math.max(runtimeMs[dd], src.runtimeMs[d]);
            ioBytes[dd] += src.ioBytes[d];
            totalIos[dd] += src.totalIos[d];
            slat[dd].merge(src.slat[d], false);
            clat[dd].merge(src.clat[d], false);
            lat[dd].merge(src.lat[d], false);
            bw[dd].merge(src.bw[d], true);
            iops[dd].merge(src.iops[d], true);
            for (Latency k : Latency.values()) {
                LatencyCounts h = src.hist[k.ordinal()][d];
                if (h != null && h.totalCount() > 0) {
                    hist(k, dd).add(h);
                }
            }
            for (PrioStat p : src.prioStats[d]) {
                // sum_thread_stats(): by priority value, growing the array for a new one.
                PrioStat q = prioStat(dd, p.ioprio);
                q.clat.merge(p.clat, false);
                if (p.hist != null && p.hist.totalCount() > 0) {
                    if (q.hist == null) {
                        q.hist = new LatencyCounts();
                    }
                    q.hist.add(p.hist);
                }
            }
        }
        for (int i = 0; i < 7; i++) {
            ioDepth[i] += src.ioDepth[i];
            submit[i] += src.submit[i];
            complete[i] += src.complete[i];
        }
        totalSubmit += src.totalSubmit;
        totalComplete += src.totalComplete;
        syncLat.merge(src.syncLat, false);
        if (src.syncHist != null && src.syncHist.totalCount() > 0) {
            if (syncHist == null) {
                syncHist = new LatencyCounts();
            }
            syncHist.add(src.syncHist);
        }
        syncIos += src.syncIos;
        for (int i = 0; i < latN.length; i++) {
            latN[i] += src.latN[i];
            latU[i] += src.latU[i];
        }
        for (int i = 0; i < latM.length; i++) {
            latM[i] += src.latM[i];
        }
        usrNs += src.usrNs;
        sysNs += src.sysNs;
        ctx += src.ctx;
        majf += src.majf;
        minf += src.minf;
        if (error == 0) {
            error = src.error;
            errorWhere = src.errorWhere;
            errorFile = src.errorFile;
            errorIo = src.errorIo;
        }
        zoneResets += src.zoneResets;
        countZoneResets |= src.countZoneResets; // sum_thread_stats()
        latencyDepth = src.latencyDepth;
        latencyTargetNs = src.latencyTargetNs;
        latencyWindowUs = src.latencyWindowUs;
        latencyPercentile = src.latencyPercentile;
    }

    // ------------------------------------------------------------------ getters

    /** The job's identity (for a merged group: the first job's). */
    public JobInfo info() {
        return info;
    }

    /** Number of jobs these statistics cover (fio's {@code members}; 1 unless merged). */
    public int members() {
        return members;
    }

    /** Virtual time at which measurement started (end of ramp). */
    public long startNs() {
        return startNs;
    }

    /** Virtual time at which the job finished (for a group: the latest). */
    public long endNs() {
        return endNs;
    }

    /** Whether {@link #finish(long)} was called (for a group: on every member). */
    public boolean finished() {
        return finished;
    }

    /** Measured runtime in ns (for a group: the longest member's). */
    public long runtimeNs() {
        return runtimeNs;
    }

    /** fio's {@code runtime[ddir]} in ms: the runtime if the job moved data in that direction, else 0. */
    public long runtimeMs(int ddir) {
        checkDdir(ddir);
        return runtimeMs[ddir];
    }

    /** fio's {@code total_run_time} in ms (JSON {@code job_runtime}); summed over a group's members. */
    public long jobRuntimeMs() {
        return jobRuntimeMs;
    }

    /** Bytes transferred in direction {@code ddir} (fio {@code io_bytes}). */
    public long ioBytes(int ddir) {
        checkDdir(ddir);
        return ioBytes[ddir];
    }

    /** Completed I/Os in direction {@code ddir} (fio {@code total_io_u}). */
    public long totalIos(int ddir) {
        checkDdir(ddir);
        return totalIos[ddir];
    }

    /** Short I/Os (fio {@code short_io_u}); always 0 in the simulator. */
    public long shortIos(int ddir) {
        checkDdir(ddir);
        return 0;
    }

    /** Dropped I/Os (fio {@code drop_io_u}); always 0 in the simulator. */
    public long dropIos(int ddir) {
        checkDdir(ddir);
        return 0;
    }

    /** Sum of read, write and trim I/Os (fio {@code ddir_rw_sum(total_io_u)}). */
    public long totalIosAllDirections() {
        return totalIos[0] + totalIos[1] + totalIos[2];
    }

    /** Submission latency statistics in ns. */
    public StatSummary slat(int ddir) {
        checkDdir(ddir);
        return slat[ddir].summary();
    }

    /** Completion latency statistics in ns. */
    public StatSummary clat(int ddir) {
        checkDdir(ddir);
        return clat[ddir].summary();
    }

    /** Total latency statistics in ns. */
    public StatSummary lat(int ddir) {
        checkDdir(ddir);
        return lat[ddir].summary();
    }

    /** Latency statistics of the given kind in ns. */
    public StatSummary latency(Latency kind, int ddir) {
        return switch (kind) {
            case SLAT -> slat(ddir);
            case CLAT -> clat(ddir);
            case LAT -> lat(ddir);
        };
    }

    /** Bandwidth samples in KiB/s, one per bw_avg_time window (fio {@code bw_stat}). */
    public StatSummary bw(int ddir) {
        checkDdir(ddir);
        return bw[ddir].summary();
    }

    /** IOPS samples, one per iops_avg_time window (fio {@code iops_stat}). */
    public StatSummary iops(int ddir) {
        checkDdir(ddir);
        return iops[ddir].summary();
    }

    /** A copy of the latency histogram of the given kind and direction (values in ns). */
    public Histogram histogram(Latency kind, int ddir) {
        checkDdir(ddir);
        LatencyCounts h = hist[kind.ordinal()][ddir];
        return h == null ? new Histogram(HISTOGRAM_DIGITS) : h.toHistogram();
    }

    /**
     * The value at {@code percentile} (0..100] of a latency histogram, in ns: the middle of the
     * histogram bucket holding the first sample at or above that rank (as fio's
     * {@code calc_clat_percentiles()} reports its bucket's middle), clamped to the exact min/max;
     * 0 without samples.
     */
    public long percentile(Latency kind, int ddir, double percentile) {
        checkDdir(ddir);
        LatencyCounts c = hist[kind.ordinal()][ddir];
        if (c == null || c.totalCount() == 0) {
            return 0;
        }
        StatSummary s = latency(kind, ddir);
        // fio reports the middle of the bucket (plat_idx_to_val()); HdrHistogram returns its top
        long v = LatencyCounts.medianEquivalentValue(c.valueAtPercentile(percentile));
        return Math.max(s.min(), Math.min(s.max(), v));
    }

    /** The percentiles fio reports for this job ({@link JobInfo#effectivePercentiles()}). */
    public double[] percentileList() {
        return info.effectivePercentiles();
    }

    /** Completion latency at each of {@link #percentileList()}, in ns (fio's {@code calc_clat_percentiles()}). */
    public long[] clatPercentiles(int ddir) {
        return percentiles(Latency.CLAT, ddir);
    }

    /** Latency of the given kind at each of {@link #percentileList()}, in ns. */
    public long[] percentiles(Latency kind, int ddir) {
        double[] list = percentileList();
        long[] out = new long[list.length];
        for (int i = 0; i < list.length; i++) {
            out[i] = percentile(kind, ddir, list[i]);
        }
        return out;
    }

    /** Counts of submissions by in-flight depth: 1, 2, 4, 8, 16, 32, &gt;=64 (fio {@code io_u_map}). */
    public long[] ioDepthCounts() {
        return ioDepth.clone();
    }

    /** Counts of submit calls by batch size: 0, 4, 8, 16, 32, 64, &gt;=64 (fio {@code io_u_submit}). */
    public long[] submitCounts() {
        return submit.clone();
    }

    /** Counts of reap calls by batch size: 0, 4, 8, 16, 32, 64, &gt;=64 (fio {@code io_u_complete}). */
    public long[] completeCounts() {
        return complete.clone();
    }

    /** Number of submit calls (fio {@code total_submit}). */
    public long totalSubmit() {
        return totalSubmit;
    }

    /** Number of reap calls (fio {@code total_complete}). */
    public long totalComplete() {
        return totalComplete;
    }

    /**
     * IO depth distribution in percent of all I/Os (fio {@code stat_calc_dist(io_u_map,
     * total_io_u)}). fio counts both when an I/O is queued ({@code td_io_queue()}), so they reset
     * together at the end of {@code ramp_time}; here the I/O count is taken at completion, which
     * after a ramp includes the I/Os that were in flight at the reset, so the issues themselves
     * are the total (else a ramped QD32 job showed 32=94.9% and nothing else).
     */
    public double[] ioDepthDistribution() {
        return dist(ioDepth, Arrays.stream(ioDepth).sum());
    }

    /** Submit batch distribution in percent of submit calls. */
    public double[] submitDistribution() {
        return dist(submit, totalSubmit);
    }

    /** Complete batch distribution in percent of reap calls. */
    public double[] completeDistribution() {
        return dist(complete, totalComplete);
    }

    /** Mirrors fio's {@code stat_calc_dist()}: percentages, a non-zero share below 0.1 shows as 0.1. */
    private static double[] dist(long[] map, long total) {
        double[] out = new double[map.length];
        for (int i = 0; i < map.length; i++) {
            if (total != 0) {
                out[i] = (double) map[i] / (double) total;
                out[i] *= 100.0;
                if (out[i] < 0.1 && map[i] != 0) {
                    out[i] = 0.1;
                }
            }
        }
        return out;
    }

    /** clat counts in the nsec buckets 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 (fio {@code io_u_lat_n}). */
    public long[] latNsecCounts() {
        return latN.clone();
    }

    /** clat counts in the usec buckets 2 .. 1000 (fio {@code io_u_lat_u}). */
    public long[] latUsecCounts() {
        return latU.clone();
    }

    /** clat counts in the msec buckets 2 .. 2000, &gt;=2000 (fio {@code io_u_lat_m}). */
    public long[] latMsecCounts() {
        return latM.clone();
    }

    /** nsec bucket shares in percent of all I/Os (fio {@code stat_calc_lat_n()}). */
    public double[] latNsecPercent() {
        return latPercent(latN);
    }

    /** usec bucket shares in percent of all I/Os (fio {@code stat_calc_lat_u()}). */
    public double[] latUsecPercent() {
        return latPercent(latU);
    }

    /** msec bucket shares in percent of all I/Os (fio {@code stat_calc_lat_m()}). */
    public double[] latMsecPercent() {
        return latPercent(latM);
    }

    /** Mirrors fio's {@code stat_calc_lat()}: a non-zero share below 0.01 shows as 0.01. */
    private double[] latPercent(long[] src) {
        long total = totalIosAllDirections();
        double[] out = new double[src.length];
        for (int i = 0; i < src.length; i++) {
            if (total != 0) {
                out[i] = (double) src[i] / (double) total;
                out[i] *= 100.0;
                if (out[i] < 0.01 && src[i] != 0) {
                    out[i] = 0.01;
                }
            }
        }
        return out;
    }

    /** User CPU time in ns (summed over a group). */
    public long usrNs() {
        return usrNs;
    }

    /** System CPU time in ns (summed over a group). */
    public long sysNs() {
        return sysNs;
    }

    /** Context switches (summed over a group). */
    public long ctx() {
        return ctx;
    }

    /** Major page faults; always 0 in the simulator. */
    public long majf() {
        return majf;
    }

    /** Minor page faults; always 0 in the simulator. */
    public long minf() {
        return minf;
    }

    /** User CPU in percent of runtime: {@code sum(usr) * 100 / sum(runtime)}, 0 without runtime. */
    public double usrCpuPercent() {
        return cpuRunTimeNs == 0 ? 0.0 : (double) usrNs * 100.0 / (double) cpuRunTimeNs;
    }

    /** System CPU in percent of runtime: {@code sum(sys) * 100 / sum(runtime)}, 0 without runtime. */
    public double sysCpuPercent() {
        return cpuRunTimeNs == 0 ? 0.0 : (double) sysNs * 100.0 / (double) cpuRunTimeNs;
    }

    /** The job's error number (for a group: the first member's non-zero one). */
    public int error() {
        return error;
    }

    /** fio's {@code latency_depth}: the job's iodepth (for a group: the last member's). */
    public int latencyDepth() {
        return latencyDepth;
    }

    // ------------------------------------------------------------------ serialisation

    /**
     * Encodes these statistics into a compact, deterministic byte array (a
     * {@link DataOutputStream} stream; histograms as varint-coded (value, count) pairs of their
     * non-empty buckets). {@code encode(decode(x))} equals {@code x} byte for byte.
     */
    public byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeByte(FORMAT_VERSION);
            writeInfo(out, info);
            out.writeInt(members);
            out.writeLong(startNs);
            out.writeLong(endNs);
            out.writeBoolean(finished);
            out.writeLong(runtimeNs);
            out.writeLong(cpuRunTimeNs);
            out.writeLong(jobRuntimeMs);
            writeLongs(out, runtimeMs);
            writeLongs(out, ioBytes);
            writeLongs(out, totalIos);
            for (int d = 0; d < DDIR_COUNT; d++) {
                slat[d].write(out);
                clat[d].write(out);
                lat[d].write(out);
                bw[d].write(out);
                iops[d].write(out);
                for (Latency k : Latency.values()) {
                    writeHistogram(out, hist[k.ordinal()][d]);
                }
            }
            writeLongs(out, ioDepth);
            writeLongs(out, submit);
            writeLongs(out, complete);
            out.writeLong(totalSubmit);
            out.writeLong(totalComplete);
            writeLongs(out, latN);
            writeLongs(out, latU);
            writeLongs(out, latM);
            out.writeLong(usrNs);
            out.writeLong(sysNs);
            out.writeLong(ctx);
            out.writeLong(majf);
            out.writeLong(minf);
            out.writeInt(error);
            writeNullableString(out, errorWhere);
            writeNullableString(out, errorFile);
            writeNullableString(out, errorIo);
            out.writeInt(latencyDepth);
            out.writeLong(latencyTargetNs);
            out.writeLong(latencyWindowUs);
            out.writeDouble(latencyPercentile);
            out.writeInt(windowCount);
            out.writeInt(iopsWindowCount);
            for (int d = 0; d < DDIR_COUNT; d++) {
                for (int w = 0; w < windowCount; w++) {
                    writeVarLong(out, windowBytes[d][w]);
                }
                for (int w = 0; w < iopsWindowCount; w++) {
                    writeVarLong(out, windowIos[d][w]);
                }
            }
            out.writeBoolean(steadyState != null);
            if (steadyState != null) {
                steadyState.write(out);
            }
            out.writeBoolean(samples != null);
            if (samples != null) {
                samples.write(out);
            }
            out.writeBoolean(replay != null);
            if (replay != null) {
                replay.write(out);
            }
            out.writeLong(zoneResets);
            out.writeBoolean(countZoneResets);
            out.writeLong(bwWindowNs);
            out.writeLong(iopsWindowNs);
            out.writeByte(unifiedRw);
            out.writeByte(sigFigs);
            out.writeByte(unitBase);
            out.writeByte(percentileReports);
            out.writeBoolean(perIoBw);
            out.writeBoolean(perIoIops);
            out.writeLong(syncIos);
            syncLat.write(out);
            writeHistogram(out, syncHist);
            if (prioStats[0].size() + prioStats[1].size() + prioStats[2].size() > 0) {
                // Appended: stats without priorities encode as before.
                for (int d = 0; d < DDIR_COUNT; d++) {
                    out.writeInt(prioStats[d].size());
                    for (PrioStat p : prioStats[d]) {
                        out.writeInt(p.ioprio);
                        p.clat.write(out);
                        writeHistogram(out, p.hist);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Decodes statistics produced by {@link #encode()}.
     *
     * @throws IllegalArgumentException if {@code data} is not an encoded {@code JobStats}
     */
    public static JobStats decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            if (in.readInt() != MAGIC) {
                throw new IllegalArgumentException("not an encoded JobStats (bad magic)");
            }
            int version = in.readUnsignedByte();
            if (version != FORMAT_VERSION) {
                throw new IllegalArgumentException("unsupported JobStats format version " + version);
            }
            JobStats s = new JobStats(readInfo(in));
            s.members = in.readInt();
            s.startNs = in.readLong();
            s.endNs = in.readLong();
            s.finished = in.readBoolean();
            s.runtimeNs = in.readLong();
            s.cpuRunTimeNs = in.readLong();
            s.jobRuntimeMs = in.readLong();
            readLongs(in, s.runtimeMs);
            readLongs(in, s.ioBytes);
            readLongs(in, s.totalIos);
            for (int d = 0; d < DDIR_COUNT; d++) {
                s.slat[d] = RunningStat.read(in);
                s.clat[d] = RunningStat.read(in);
                s.lat[d] = RunningStat.read(in);
                s.bw[d] = RunningStat.read(in);
                s.iops[d] = RunningStat.read(in);
                for (Latency k : Latency.values()) {
                    s.hist[k.ordinal()][d] = readHistogram(in);
                }
            }
            readLongs(in, s.ioDepth);
            readLongs(in, s.submit);
            readLongs(in, s.complete);
            s.totalSubmit = in.readLong();
            s.totalComplete = in.readLong();
            readLongs(in, s.latN);
            readLongs(in, s.latU);
            readLongs(in, s.latM);
            s.usrNs = in.readLong();
            s.sysNs = in.readLong();
            s.ctx = in.readLong();
            s.majf = in.readLong();
            s.minf = in.readLong();
            s.error = in.readInt();
            s.errorWhere = readNullableString(in);
            s.errorFile = readNullableString(in);
            s.errorIo = readNullableString(in);
            s.latencyDepth = in.readInt();
            s.latencyTargetNs = in.readLong();
            s.latencyWindowUs = in.readLong();
            s.latencyPercentile = in.readDouble();
            int windows = in.readInt();
            int iopsWindows = in.readInt();
            if (windows < 0 || iopsWindows < 0) {
                throw new IllegalArgumentException("corrupt JobStats: negative window count " + windows
                    + "/" + iopsWindows);
            }
            s.ensureWindows(Math.max(windows, iopsWindows));
            s.windowCount = windows;
            s.iopsWindowCount = iopsWindows;
            for (int d = 0; d < DDIR_COUNT; d++) {
                for (int w = 0; w < windows; w++) {
                    s.windowBytes[d][w] = readVarLong(in);
                }
                for (int w = 0; w < iopsWindows; w++) {
                    s.windowIos[d][w] = readVarLong(in);
                }
            }
            if (in.readBoolean()) {
                s.steadyState = SteadyStateResult.read(in);
            }
            if (in.readBoolean()) {
                s.samples = IoSamples.read(in);
            }
            if (in.readBoolean()) {
                s.replay = blksim.workload.replay.ReplayStats.read(in);
            }
            s.zoneResets = in.readLong();
            s.countZoneResets = in.readBoolean();
            s.bwWindowNs = in.readLong();
            s.iopsWindowNs = in.readLong();
            s.unifiedRw = in.readUnsignedByte();
            s.sigFigs = in.readUnsignedByte();
            s.unitBase = in.readUnsignedByte();
            s.percentileReports = in.readUnsignedByte();
            s.perIoBw = in.readBoolean();
            s.perIoIops = in.readBoolean();
            s.syncIos = in.readLong();
            s.syncLat = RunningStat.read(in);
            s.syncHist = readHistogram(in);
            if (in.available() > 0) {
                for (int d = 0; d < DDIR_COUNT; d++) {
                    int n = in.readInt();
                    for (int i = 0; i < n; i++) {
                        PrioStat p = new PrioStat(in.readInt());
                        p.clat = RunningStat.read(in);
                        p.hist = readHistogram(in);
                        s.prioStats[d].add(p);
                    }
                }
            }
            if (in.available() != 0) {
                throw new IllegalArgumentException("corrupt JobStats: " + in.available() + " trailing bytes");
            }
            return s;
        } catch (IOException e) {
            throw new IllegalArgumentException("corrupt JobStats: " + e, e);
        }
    }

    private static void writeInfo(DataOutput out, JobInfo info) throws IOException {
        writeString(out, info.jobname());
        out.writeInt(info.groupId());
        out.writeInt(info.jobIndex());
        LinkedHashMap<String, String> opts = info.jobOptions();
        out.writeInt(opts.size());
        for (Map.Entry<String, String> e : opts.entrySet()) {
            writeString(out, e.getKey());
            writeNullableString(out, e.getValue());
        }
        writeString(out, info.rw());
        writeLongs(out, info.bs());
        writeString(out, info.ioengine());
        out.writeInt(info.iodepth());
        out.writeBoolean(info.syncEngine());
        double[] p = info.percentileList();
        out.writeBoolean(p != null);
        if (p != null) {
            out.writeInt(p.length);
            for (double v : p) {
                out.writeDouble(v);
            }
        }
        writeNullableString(out, info.description());
        out.writeBoolean(info.groupReporting());
        out.writeInt(info.pid());
    }

    private static JobInfo readInfo(DataInput in) throws IOException {
        String name = readString(in);
        int group = in.readInt();
        int index = in.readInt();
        int nopts = in.readInt();
        LinkedHashMap<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < nopts; i++) {
            String k = readString(in);
            opts.put(k, readNullableString(in));
        }
        String rw = readString(in);
        long[] bs = new long[3];
        readLongs(in, bs);
        String engine = readString(in);
        int depth = in.readInt();
        boolean sync = in.readBoolean();
        double[] p = null;
        if (in.readBoolean()) {
            p = new double[in.readInt()];
            for (int i = 0; i < p.length; i++) {
                p[i] = in.readDouble();
            }
        }
        String desc = readNullableString(in);
        boolean gr = in.readBoolean();
        int pid = in.readInt();
        return new JobInfo(name, group, index, opts, rw, bs, engine, depth, sync, p, desc, gr, pid);
    }

    private static void writeHistogram(DataOutput out, LatencyCounts h) throws IOException {
        if (h == null) {
            writeVarLong(out, 0);
        } else {
            h.write(out);
        }
    }

    /** A histogram written by {@link #writeHistogram}; null (empty) for no buckets. */
    private static LatencyCounts readHistogram(DataInput in) throws IOException {
        return LatencyCounts.read(in);
    }

    private static void writeLongs(DataOutput out, long[] values) throws IOException {
        for (long v : values) {
            out.writeLong(v);
        }
    }

    private static void readLongs(DataInput in, long[] into) throws IOException {
        for (int i = 0; i < into.length; i++) {
            into[i] = in.readLong();
        }
    }

    static void writeVarLong(DataOutput out, long v) throws IOException {
        if (v < 0) {
            throw new IllegalStateException("cannot encode negative value " + v);
        }
        while ((v & ~0x7FL) != 0) {
            out.writeByte((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.writeByte((int) v);
    }

    static long readVarLong(DataInput in) throws IOException {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.readUnsignedByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new IOException("varint too long");
    }

    private static void writeString(DataOutput out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readString(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("negative string length " + n);
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static void writeNullableString(DataOutput out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            writeString(out, s);
        }
    }

    private static String readNullableString(DataInput in) throws IOException {
        return in.readBoolean() ? readString(in) : null;
    }

    @Override
    public String toString() {
        return "JobStats[" + info.jobname() + ", group=" + info.groupId() + ", members=" + members
            + ", ios=" + Arrays.toString(totalIos) + ", bytes=" + Arrays.toString(ioBytes) + "]";
    }
}
