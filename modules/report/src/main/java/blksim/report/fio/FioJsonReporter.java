package blksim.report.fio;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;

import blksim.kernel.sched.LockWaitStat;
import blksim.report.fio.FioReportModel.GroupRunStats;
import blksim.report.json.JsonWriter;
import blksim.workload.fio.stats.CpuUtil;
import blksim.workload.fio.stats.DiskStats;
import blksim.workload.fio.stats.EngineStats;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;
import blksim.workload.fio.stats.ThreadStat;
import blksim.workload.fio.stats.StatSummary;

/**
 * fio's {@code --output-format=json} output in the fio 3.x schema (mirrors stat.c
 * {@code __show_run_stats()}, {@code show_thread_status_json()}, {@code add_ddir_status_json()},
 * {@code add_ddir_lat_json()} and {@code json_array_add_disk_util()}), plus a top-level
 * {@code "blksim"} object with the engine's counters. Latencies are in ns, {@code bw} in KiB/s,
 * runtimes in ms, percentages as {@code %f}; keys come in fio's order, layout is fio's
 * json.c pretty-printer ({@link JsonWriter}).
 *
 * <p>Simplified against fio: {@code "fio version"} is always {@code fio-3.36}; no
 * {@code job_start} (it would be wall-clock dependent), {@code prios}, {@code cachehit},
 * steady-state or block-info sections; {@code eta} is 0 and {@code elapsed} is the virtual time
 * until the last job finished, rounded up to seconds; the latency target fields are fio's
 * defaults; options with empty values are left out (fio drops them too).
 *
 * <p>Exactly five fields depend on the wall clock: {@code timestamp}, {@code timestamp_ms},
 * {@code time} (root) and {@code wall_time_ns}, {@code events_per_wall_second}
 * ({@code blksim}); {@link #withoutWallClock(String)} removes them so two runs compare byte for
 * byte.
 *
 * <p>Example: {@code String json = FioJsonReporter.render(runResult);}
 */
public final class FioJsonReporter {

    /** The fio version this output imitates. */
    public static final String FIO_VERSION = "fio-3.36";

    private static final Set<String> ROOT_WALL_CLOCK_KEYS = Set.of("timestamp", "timestamp_ms", "time");
    private static final Set<String> BLKSIM_WALL_CLOCK_KEYS = Set.of("wall_time_ns", "events_per_wall_second");

    private FioJsonReporter() {
    }

    /**
     * Renders the run as fio's JSON output.
     *
     * @param r the run
     * @return the JSON text, ending with a newline
     */
    public static String render(RunResult r) {
        return render(r, false);
    }

    /**
     * Renders the run as fio's {@code json} or, with {@code plus}, {@code json+} output: json+
     * adds to every {@code clat_ns} object that has percentiles a {@code "bins"} object, fio's
     * latency histogram ({@code io_u_plat}) as bucket value (ns) to count, non-empty buckets
     * only, as {@code add_ddir_lat_json()} does.
     *
     * <p>Simplified: blksim records latencies in an HdrHistogram (3 significant digits, finer than
     * fio's buckets of 1/64 of a power of two); each of its buckets is counted in the fio bucket
     * that holds its middle value ({@link FioLatencyBins}), so a count may land one fio bucket
     * away from where fio would have put the exact sample.
     *
     * @param r the run
     * @param plus json+ (with the latency bins)
     * @return the JSON text, ending with a newline
     */
    public static String render(RunResult r, boolean plus) {
        FioReportModel model = FioReportModel.build(r);
        JsonWriter w = new JsonWriter();
        w.beginObject();
        w.name("fio version").value(FIO_VERSION);
        w.name("timestamp").value(Math.floorDiv(r.wallClockEpochMs(), 1000));
        w.name("timestamp_ms").value(r.wallClockEpochMs());
        w.name("time").value(FioFormat.ctime(r.wallClockEpochMs()));
        options(w, "global options", r.globalOptions());
        w.name("jobs").beginArray();
        for (JobStats ts : model.entries) {
            job(w, ts, model.groups.get(ts.info().groupId()), model.elapsedSec, plus);
        }
        w.endArray();
        if (!r.disks().isEmpty()) {
            w.name("disk_util").beginArray();
            for (DiskStats d : r.disks()) {
                disk(w, d);
            }
            w.endArray();
        }
        blksim(w, r);
        w.endObject();
        return w + "\n";
    }

    /** {@link #render(RunResult)} without the wall-clock fields: identical for identical runs. */
    public static String renderDeterministic(RunResult r) {
        return withoutWallClock(render(r));
    }

    /** Mirrors fio's {@code json_add_job_opts()}; empty maps and empty values are left out. */
    private static void options(JsonWriter w, String name, Map<String, String> opts) {
        List<Map.Entry<String, String>> kept = new ArrayList<>();
        for (Map.Entry<String, String> e : opts.entrySet()) {
            if (e.getValue() != null && !e.getValue().isEmpty()) {
                kept.add(e);
            }
        }
        if (kept.isEmpty()) {
            return;
        }
        w.name(name).beginObject();
        for (Map.Entry<String, String> e : kept) {
            w.name(e.getKey()).value(e.getValue());
        }
        w.endObject();
    }

    /** Mirrors fio's {@code show_thread_status_json()}. */
    /** fio's {@code "steadystate"} object ({@code stat.c}), for a job with {@code steadystate}. */
    private static void steadystate(JsonWriter w, blksim.workload.fio.stats.SteadyStateResult ss) {
        if (ss == null) {
            return;
        }
        w.name("steadystate").beginObject();
        w.name("ss").value(ss.ss());
        w.name("duration").value(ss.durationSec());
        w.name("attained").value(ss.attained() ? 1 : 0);
        w.name("criterion").value(ss.criterion());
        w.name("max_deviation").value(ss.maxDeviation());
        w.name("slope").value(ss.slope());
        w.name("data").beginObject();
        w.name("bw_mean").value(ss.bwMean());
        w.name("iops_mean").value(ss.iopsMean());
        if (ss.latNs() != null) {
            // stat.c: lat_mean and lat_ns only for the lat criteria, before iops and bw.
            w.name("lat_mean").value(ss.latMean());
            w.name("lat_ns").beginArray();
            for (long v : ss.latNs()) {
                w.value(v);
            }
            w.endArray();
        }
        w.name("iops").beginArray();
        for (long v : ss.iops()) {
            w.value(v);
        }
        w.endArray();
        w.name("bw").beginArray();
        for (long v : ss.bw()) {
            w.value(v);
        }
        w.endArray();
        w.endObject();
        w.endObject();
    }

    private static void job(JsonWriter w, JobStats ts, GroupRunStats rs, long elapsedSec,
            boolean plus) {
        w.beginObject();
        w.name("jobname").value(ts.info().jobname());
        w.name("groupid").value(ts.info().groupId());
        w.name("error").value(ts.error());
        w.name("eta").value(0);
        w.name("elapsed").value(elapsedSec);
        options(w, "job options", ts.info().jobOptions());
        boolean mixed = ts.unifiedRw() == JobStats.UNIFIED_MIXED;
        // add_ddir_status_json(): a UNIFIED_MIXED thread_stat prints index 0 as "mixed" and
        // returns for every other direction, sync included.
        for (int d = 0; d < (mixed ? 1 : JobStats.DDIR_COUNT); d++) {
            ddir(w, ts, rs, d, plus);
        }
        if (!mixed) {
            w.name("sync").beginObject();
            w.name("total_ios").value(ts.syncIos());
            w.name("lat_ns");
            StatSummary sync = ts.syncLatency();
            if (sync.present()) {
                // add_ddir_status_json(): the sync percentiles with lat_ or clat_percentiles.
                boolean pct = ts.reportsPercentiles(JobStats.Latency.CLAT)
                    || ts.reportsPercentiles(JobStats.Latency.LAT);
                lat(w, sync, ts.percentileList(), pct ? ts.syncPercentiles() : null, null);
            } else {
                lat(w, StatSummary.EMPTY, null, null, null);
            }
            w.endObject();
        }
        if (ts.unifiedRw() == JobStats.UNIFIED_BOTH) {
            ddir(w, FioReportModel.mixedOf(ts), rs, JobStats.DDIR_READ, plus); // "mixed"
        }

        w.name("job_runtime").value(ts.jobRuntimeMs());
        w.name("usr_cpu").value(ts.usrCpuPercent());
        w.name("sys_cpu").value(ts.sysCpuPercent());
        w.name("ctx").value(ts.ctx());
        w.name("majf").value(ts.majf());
        w.name("minf").value(ts.minf());
        floats(w, "iodepth_level", new String[] {"1", "2", "4", "8", "16", "32", ">=64"}, ts.ioDepthDistribution());
        String[] batch = {"0", "4", "8", "16", "32", "64", ">=64"};
        floats(w, "iodepth_submit", batch, ts.submitDistribution());
        floats(w, "iodepth_complete", batch, ts.completeDistribution());
        String[] ranges = {"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"};
        floats(w, "latency_ns", ranges, ts.latNsecPercent());
        floats(w, "latency_us", ranges, ts.latUsecPercent());
        floats(w, "latency_ms", new String[] {"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
            "2000", ">=2000"}, ts.latMsecPercent());
        if (ts.latencyDepth() != 0) {
            w.name("latency_depth").value(ts.latencyDepth());
            // fio-3.36's stat.c: latency_target in ns (fixup_options() scales the option's µs),
            // latency_window in µs (latency_target_ns and latency_window_us came in 3.42).
            w.name("latency_target").value(ts.latencyTargetNs());
            w.name("latency_percentile").value(ts.latencyPercentile());
            w.name("latency_window").value(ts.latencyWindowUs());
        }
        // stat.c's order: "desc", then the "steadystate" block
        String desc = ts.info().description();
        if (desc != null && !desc.isEmpty()) {
            w.name("desc").value(desc);
        }
        steadystate(w, ts.steadyState());
        if (ts.countZoneResets()) {
            w.name("zone_resets").value(ts.zoneResets()); // last, as stat.c adds it
        }
        w.endObject();
    }

    private static void floats(JsonWriter w, String name, String[] keys, double[] values) {
        w.name(name).beginObject();
        for (int i = 0; i < keys.length; i++) {
            w.name(keys[i]).value(values[i]);
        }
        w.endObject();
    }

    /** Mirrors fio's {@code add_ddir_status_json()} for read/write/trim. */
    private static void ddir(JsonWriter w, JobStats ts, GroupRunStats rs, int d, boolean plus) {
        w.name(FioReportModel.ddirName(ts, d)).beginObject();
        long runt = ts.runtimeMs(d);
        long bwBytes = 0;
        long bw = 0;
        double iops = 0.0;
        if (runt != 0) {
            bwBytes = 1000 * ts.ioBytes(d) / runt;
            bw = bwBytes / 1024;
            iops = 1000.0 * ts.totalIos(d) / runt;
        }
        w.name("io_bytes").value(ts.ioBytes(d));
        w.name("io_kbytes").value(ts.ioBytes(d) >> 10);
        w.name("bw_bytes").value(bwBytes);
        w.name("bw").value(bw);
        w.name("iops").value(iops);
        w.name("runtime").value(runt);
        w.name("total_ios").value(ts.totalIos(d));
        w.name("short_ios").value(ts.shortIos(d));
        w.name("drop_ios").value(ts.dropIos(d));
        // stat.c add_ddir_status_json(): each latency object has its percentiles (and with
        // json+ its bins) when its *_percentiles option is on.
        for (JobStats.Latency k : JobStats.Latency.values()) {
            StatSummary l = k == JobStats.Latency.SLAT ? ts.slat(d)
                : k == JobStats.Latency.CLAT ? ts.clat(d) : ts.lat(d);
            boolean pct = ts.reportsPercentiles(k) && l.present();
            w.name(k == JobStats.Latency.SLAT ? "slat_ns"
                : k == JobStats.Latency.CLAT ? "clat_ns" : "lat_ns");
            lat(w, l, ts.percentileList(), pct ? ts.percentiles(k, d) : null,
                pct && plus ? FioLatencyBins.of(ts.histogram(k, d)) : null);
        }
        java.util.List<JobStats.PrioStat> prios = FioTextReporter.prioStats(ts, d);
        if (!prios.isEmpty()) {
            // stat.c add_ddir_status_json(): "prios", one object per priority with samples.
            w.name("prios").beginArray();
            for (JobStats.PrioStat p : prios) {
                w.beginObject();
                w.name("prioclass").value(blksim.workload.fio.CmdPrio.ioClass(p.ioprio()));
                w.name("prio").value(blksim.workload.fio.CmdPrio.level(p.ioprio()));
                w.name("priohint").value(blksim.workload.fio.CmdPrio.hint(p.ioprio()));
                w.name("clat_ns");
                lat(w, p.clat(), ts.percentileList(), p.percentiles(ts.percentileList()), null);
                w.endObject();
            }
            w.endArray();
        }

        StatSummary b = ts.bw(d);
        double pOfAgg = b.present() ? FioReportModel.aggPercent(rs, d, b.mean()) : 0.0;
        w.name("bw_min").value(b.min());
        w.name("bw_max").value(b.max());
        w.name("bw_agg").value(pOfAgg);
        w.name("bw_mean").value(b.mean());
        w.name("bw_dev").value(b.stddev());
        w.name("bw_samples").value(b.samples());
        StatSummary i = ts.iops(d);
        w.name("iops_min").value(i.min());
        w.name("iops_max").value(i.max());
        w.name("iops_mean").value(i.mean());
        w.name("iops_stddev").value(i.stddev());
        w.name("iops_samples").value(i.samples());
        w.endObject();
    }

    /** Mirrors fio's {@code add_ddir_lat_json()}; percentiles keyed by {@code "%f"} of the percentile. */
    private static void lat(JsonWriter w, StatSummary s, double[] plist, long[] values,
            java.util.SortedMap<Long, Long> bins) {
        w.beginObject();
        w.name("min").value(s.min());
        w.name("max").value(s.max());
        w.name("mean").value(s.mean());
        w.name("stddev").value(s.stddev());
        w.name("N").value(s.samples());
        if (values != null && s.present()) {
            w.name("percentile").beginObject();
            for (int k = 0; k < values.length; k++) {
                w.name(JsonWriter.formatDouble(plist[k])).value(values[k]);
            }
            w.endObject();
            if (bins != null) {
                w.name("bins").beginObject();
                for (Map.Entry<Long, Long> b : bins.entrySet()) {
                    w.name(Long.toString(b.getKey())).value(b.getValue());
                }
                w.endObject();
            }
        }
        w.endObject();
    }

    /** Mirrors fio's {@code json_array_add_disk_util()} (no slave aggregation). */
    private static void disk(JsonWriter w, DiskStats d) {
        w.beginObject();
        w.name("name").value(d.name());
        w.name("read_ios").value(d.readIos());
        w.name("write_ios").value(d.writeIos());
        w.name("read_sectors").value(d.readSectors());
        w.name("write_sectors").value(d.writeSectors());
        w.name("read_merges").value(d.readMerges());
        w.name("write_merges").value(d.writeMerges());
        w.name("read_ticks").value(d.readTicksMs());
        w.name("write_ticks").value(d.writeTicksMs());
        w.name("in_queue").value(d.inQueueMs());
        w.name("util").value(Math.min(100.0, d.utilPercent()));
        w.endObject();
    }

    private static void blksim(JsonWriter w, RunResult r) {
        w.name("blksim").beginObject();
        EngineStats e = r.engine();
        if (e != null) {
            w.name("events").value(e.events());
            w.name("windows").value(e.windows());
            w.name("partitions").value(e.partitions());
            w.name("coupling_factor").value(e.couplingFactor());
            w.name("simulated_time_ns").value(e.simulatedTimeNs());
            w.name("wall_time_ns").value(e.wallTimeNs());
            w.name("events_per_wall_second").value(e.eventsPerWallSecond());
        }
        w.name("version").value(r.blksimVersion());
        cpus(w, r.cpus());
        threads(w, r.threads());
        tagWaits(w, r.disks());
        w.endObject();
    }

    /**
     * Per disk, summed over its hardware queues: the submitters' sleeps for a tag
     * ({@code blk_mq_get_tag()}) and the time they lasted, and the submissions' spins on a
     * contended scheduler lock ({@code kernel.spinlock-contention = on}) and their time.
     */
    private static void tagWaits(JsonWriter w, List<DiskStats> disks) {
        if (disks.isEmpty()) {
            return;
        }
        w.name("queues").beginObject();
        for (DiskStats d : disks) {
            w.name(d.name()).beginObject();
            w.name("tag_waits").value(d.tagWaits());
            w.name("tag_wait_ns").value(d.tagWaitNs());
            w.name("sched_lock_spins").value(d.lockSpins());
            w.name("sched_lock_spin_ns").value(d.lockSpinNs());
            w.endObject();
        }
        w.endObject();
    }

    /**
     * Every simulated thread (fio's, io-wq workers, kworkers, kthreads) with what
     * {@code /proc/<tid>/stat}, {@code status} and {@code schedstat} would show: CPU time in ns,
     * context switches, time waiting on a run queue and timeslices.
     */
    private static void threads(JsonWriter w, List<ThreadStat> threads) {
        if (threads.isEmpty()) {
            return;
        }
        w.name("threads").beginArray();
        for (ThreadStat t : threads) {
            w.beginObject();
            w.name("cpu").value(t.cpu());
            w.name("tid").value(t.tid());
            w.name("comm").value(t.comm());
            w.name("nice").value(t.nice());
            w.name("usr_ns").value(t.utimeNs());
            w.name("sys_ns").value(t.stimeNs());
            w.name("nvcsw").value(t.nvcsw());
            w.name("nivcsw").value(t.nivcsw());
            w.name("run_delay_ns").value(t.runDelayNs());
            w.name("pcount").value(t.pcount());
            w.name("nr_migrations").value(t.migrations());
            w.name("state").value(String.valueOf(t.state()));
            if (!t.wchan().isEmpty()) {
                w.name("wchan").value(t.wchan());
            }
            if (!t.locks().isEmpty()) {
                w.name("locks").beginArray();
                for (LockWaitStat l : t.locks()) {
                    lock(w, l);
                }
                w.endArray();
            }
            w.endObject();
        }
        w.endArray();
        locks(w, threads);
    }

    /**
     * The sleeping locks, each summed over the threads that took it (per-lock
     * {@code /proc/lock_stat}-like figures), and how many threads were in D state at the end.
     */
    private static void locks(JsonWriter w, List<ThreadStat> threads) {
        java.util.Map<String, LockWaitStat> locks = lockTotals(threads);
        if (locks.isEmpty()) {
            return;
        }
        w.name("locks").beginArray();
        for (LockWaitStat l : locks.values()) {
            lock(w, l);
        }
        w.endArray();
        w.name("d_state_threads").value(threads.stream().filter(t -> t.state() == 'D').count());
    }

    /** Per lock, in order of first appearance (threads by CPU, then by first use). */
    public static java.util.Map<String, LockWaitStat> lockTotals(List<ThreadStat> threads) {
        java.util.Map<String, LockWaitStat> locks = new java.util.LinkedHashMap<>();
        for (ThreadStat t : threads) {
            for (LockWaitStat l : t.locks()) {
                locks.merge(l.lock(), l, LockWaitStat::plus);
            }
        }
        return locks;
    }

    private static void lock(JsonWriter w, LockWaitStat l) {
        w.beginObject();
        w.name("lock").value(l.lock());
        w.name("acquisitions").value(l.acquisitions());
        w.name("contended").value(l.contended());
        w.name("spun").value(l.spun());
        w.name("slept").value(l.slept());
        w.name("wait_ns").value(l.waitNs());
        w.name("spin_ns").value(l.spinNs());
        w.name("sleep_ns").value(l.sleepNs());
        w.name("max_wait_ns").value(l.maxWaitNs());
        w.name("handoffs").value(l.handoffs());
        w.endObject();
    }

    /**
     * The machine's CPU time, all tasks included (kworkers, io-wq workers, kthreads), which fio's
     * per-thread usr/sys never shows: the total, then each CPU, as percentages of elapsed time.
     */
    private static void cpus(JsonWriter w, List<CpuUtil> cpus) {
        if (cpus.isEmpty()) {
            return;
        }
        long u = 0, s = 0, i = 0, d = 0, t = 0, cs = 0;
        for (CpuUtil c : cpus) {
            u += c.userNs();
            s += c.sysNs();
            i += c.irqNs();
            d += c.idleNs();
            t += c.totalNs();
            cs += c.contextSwitches();
        }
        w.name("cpu_util").beginObject();
        utilFields(w, u, s, i, d, t, cs);
        w.endObject();
        w.name("cpus").beginArray();
        for (CpuUtil c : cpus) {
            w.beginObject();
            w.name("cpu").value(c.cpu());
            utilFields(w, c.userNs(), c.sysNs(), c.irqNs(), c.idleNs(), c.totalNs(),
                c.contextSwitches());
            w.endObject();
        }
        w.endArray();
    }

    private static void utilFields(JsonWriter w, long u, long s, long i, long d, long t, long cs) {
        double k = t == 0 ? 0 : 100.0 / t;
        w.name("usr").value(u * k);
        w.name("sys").value(s * k);
        w.name("irq").value(i * k);
        w.name("idle").value(d * k);
        w.name("ctx").value(cs);
    }

    /**
     * Removes the wall-clock-dependent fields from JSON produced by {@link #render(RunResult)}:
     * {@code timestamp}, {@code timestamp_ms} and {@code time} of the root object and
     * {@code wall_time_ns} and {@code events_per_wall_second} of the {@code blksim} object. The
     * rest of the text is kept byte for byte (a comma left dangling by a removed last member is
     * dropped). Relies on the one-member-per-line layout of {@link JsonWriter}.
     */
    public static String withoutWallClock(String json) {
        String[] lines = json.split("\n", -1);
        List<String> kept = new ArrayList<>(lines.length);
        Deque<String> path = new ArrayDeque<>();
        for (String line : lines) {
            String t = line.trim();
            if (t.startsWith("}") || t.startsWith("]")) {
                path.poll();
                kept.add(line);
                continue;
            }
            String key = t.startsWith("\"") ? keyOf(t) : null;
            if (key != null && isWallClock(path, key)) {
                if (!t.endsWith(",")) {
                    stripTrailingComma(kept);
                }
                continue;
            }
            if (t.endsWith("{") || t.endsWith("[")) {
                path.push(key == null ? (path.isEmpty() ? "$" : "[]") : key);
            }
            kept.add(line);
        }
        return String.join("\n", kept);
    }

    private static boolean isWallClock(Deque<String> path, String key) {
        if (path.size() == 1 && "$".equals(path.peek())) {
            return ROOT_WALL_CLOCK_KEYS.contains(key);
        }
        if (path.size() == 2 && "blksim".equals(path.peek()) && "$".equals(path.peekLast())) {
            return BLKSIM_WALL_CLOCK_KEYS.contains(key);
        }
        return false;
    }

    private static void stripTrailingComma(List<String> kept) {
        if (kept.isEmpty()) {
            return;
        }
        int last = kept.size() - 1;
        String prev = kept.get(last);
        if (prev.endsWith(",")) {
            kept.set(last, prev.substring(0, prev.length() - 1));
        }
    }

    /** The key of a {@code "key" : value} line, or {@code null} if the line is not a member. */
    private static String keyOf(String t) {
        StringBuilder k = new StringBuilder();
        for (int i = 1; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '\\' && i + 1 < t.length()) {
                k.append(t.charAt(++i));
            } else if (c == '"') {
                return t.startsWith(" : ", i + 1) ? k.toString() : null;
            } else {
                k.append(c);
            }
        }
        return null;
    }
}
