package blksim.report.fio;

import static blksim.report.fio.FioFormat.fixed;

import blksim.report.fio.FioReportModel.GroupRunStats;
import blksim.workload.fio.stats.DiskStats;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;
import blksim.workload.fio.stats.StatSummary;

/**
 * fio's {@code --output-format=terse} (also {@code minimal}, {@code csv}) output, terse version 3
 * (fio's default {@code --terse-version}), one semicolon-separated line per reported job or
 * {@code group_reporting} group, as fio 3.36's {@code show_thread_status_terse_all()} in
 * {@code stat.c} prints it. Field order (the HOWTO's "Terse output" table):
 *
 * <ol>
 *   <li>{@code 3;fio-3.36;jobname;groupid;error}
 *   <li>read, then write (version 3 has no trim fields), each: io KiB; bandwidth KiB/s; IOPS;
 *       runtime ms; slat min;max;mean;stdev (usec); clat min;max;mean;stdev (usec); 20
 *       {@code P%=usec} clat percentile fields (fio's {@code FIO_IO_U_LIST_MAX_LEN}; the unused
 *       ones {@code 0%=0}); lat min;max;mean;stdev (usec); bw min;max;agg%;mean;stdev (KiB/s)
 *   <li>cpu: usr%;sys%;ctx;majf;minf
 *   <li>I/O depths 1;2;4;8;16;32;&gt;=64 (%)
 *   <li>latency distribution: 10 usec buckets (2..1000; the first includes the nsec buckets, as
 *       fio's {@code stat_calc_lat_nu()}), then 12 msec buckets (2..&gt;=2000) (%)
 *   <li>per disk: name;read ios;write ios;read merges;write merges;read ticks;write ticks;
 *       in_queue;util% (fio prints these in every job's line when it runs locally)
 *   <li>{@code ;description} if the job has one
 * </ol>
 *
 * <p>Simplified: the percentile fields are clat percentiles (fio's default
 * {@code clat_percentiles}; {@code lat_percentiles} would switch them to total latency);
 * {@code unified_rw_reporting} and {@code continue_on_error} fields are never printed (blksim
 * accepts neither); no md/dm slave aggregation in the disk fields; a job with no I/O at all has
 * 0% in the first latency bucket where fio would divide 0 by 0.
 */
public final class FioTerseReporter {

    /** fio's {@code terse_version} default. */
    public static final int TERSE_VERSION = 3;
    private static final int LIST_MAX_LEN = 20;

    private FioTerseReporter() {
    }

    /**
     * Renders the run as fio's terse version 3 lines.
     *
     * @param r the run
     * @return one line per reported entry, each ending with a newline
     */
    public static String render(RunResult r) {
        FioReportModel model = FioReportModel.build(r);
        StringBuilder out = new StringBuilder(1024);
        for (JobStats ts : model.entries) {
            line(out, ts, model.groups.get(ts.info().groupId()), r);
        }
        return out.toString();
    }

    private static void line(StringBuilder out, JobStats ts, GroupRunStats rs, RunResult r) {
        out.append(TERSE_VERSION).append(';').append(FioPreamble.FIO_VERSION).append(';')
            .append(ts.info().jobname()).append(';').append(ts.info().groupId()).append(';')
            .append(ts.error());
        // show_thread_status_terse_all(): read (or mixed), write unless UNIFIED_MIXED, then the
        // mixed direction with UNIFIED_BOTH (version 3 has no trim fields).
        ddir(out, ts, rs, JobStats.DDIR_READ);
        if (ts.unifiedRw() != JobStats.UNIFIED_MIXED) {
            ddir(out, ts, rs, JobStats.DDIR_WRITE);
        }
        if (ts.unifiedRw() == JobStats.UNIFIED_BOTH) {
            ddir(out, FioReportModel.mixedOf(ts), rs, JobStats.DDIR_READ);
        }
        out.append(';').append(fixed(ts.usrCpuPercent(), 6)).append("%;")
            .append(fixed(ts.sysCpuPercent(), 6)).append("%;").append(ts.ctx()).append(';')
            .append(ts.majf()).append(';').append(ts.minf());
        for (double d : ts.ioDepthDistribution()) {
            out.append(';').append(fixed(d, 3, 1)).append('%');
        }
        double[] u = ts.latUsecPercent();
        long total = ts.totalIosAllDirections();
        if (total != 0) {
            long n = 0;
            for (long c : ts.latNsecCounts()) {
                n += c;
            }
            u[0] += 100.0 * n / total;
        }
        for (double d : u) {
            out.append(';').append(fixed(d, 3, 2)).append('%');
        }
        for (double d : ts.latMsecPercent()) {
            out.append(';').append(fixed(d, 3, 2)).append('%');
        }
        for (DiskStats d : r.disks()) {
            out.append(';').append(d.name()).append(';').append(d.readIos()).append(';')
                .append(d.writeIos()).append(';').append(d.readMerges()).append(';')
                .append(d.writeMerges()).append(';').append(d.readTicksMs()).append(';')
                .append(d.writeTicksMs()).append(';').append(d.inQueueMs()).append(';')
                .append(fixed(Math.min(100.0, d.utilPercent()), 3, 2)).append('%');
        }
        String desc = ts.info().description();
        if (desc != null && !desc.isEmpty()) {
            out.append(';').append(desc);
        }
        out.append('\n');
    }

    /** fio's {@code show_ddir_status_terse()} for version 3. */
    private static void ddir(StringBuilder out, JobStats ts, GroupRunStats rs, int d) {
        long runt = ts.runtimeMs(d);
        long bw = 0;
        long iops = 0;
        if (runt != 0) {
            bw = 1000 * ts.ioBytes(d) / runt / 1024;
            iops = 1000 * ts.totalIos(d) / runt;
        }
        out.append(';').append(ts.ioBytes(d) >> 10).append(';').append(bw).append(';').append(iops)
            .append(';').append(runt);
        usec(out, ts.slat(d));
        usec(out, ts.clat(d));
        double[] plist = ts.percentileList();
        // show_ddir_status_terse(): lat_percentiles' values, else clat_percentiles', else none.
        JobStats.Latency kind = ts.reportsPercentiles(JobStats.Latency.LAT) ? JobStats.Latency.LAT
            : ts.reportsPercentiles(JobStats.Latency.CLAT) ? JobStats.Latency.CLAT : null;
        StatSummary kindStat = kind == JobStats.Latency.LAT ? ts.lat(d) : ts.clat(d);
        int len = kind == null ? 0 : plist.length;
        long[] values = kind != null && kindStat.present() ? ts.percentiles(kind, d)
            : new long[plist.length];
        for (int i = 0; i < LIST_MAX_LEN; i++) {
            if (i >= len) {
                out.append(";0%=0");
            } else {
                out.append(';').append(fixed(plist[i], 6)).append("%=").append(values[i] / 1000);
            }
        }
        usec(out, ts.lat(d));
        StatSummary b = ts.bw(d);
        if (b.present()) {
            double pOfAgg = 100.0;
            if (rs.agg[d] != 0) {
                long aggKib = rs.agg[d] / 1024;
                pOfAgg = aggKib == 0 ? Double.POSITIVE_INFINITY : b.mean() * 100 / (double) aggKib;
                pOfAgg = Math.min(pOfAgg, 100.0);
            }
            out.append(';').append(b.min()).append(';').append(b.max()).append(';')
                .append(fixed(pOfAgg, 6)).append("%;").append(fixed(b.mean(), 6)).append(';')
                .append(fixed(b.stddev(), 6));
        } else {
            out.append(";0;0;0.000000%;0.000000;0.000000");
        }
    }

    /** min;max;mean;stdev in usec as fio's terse lines print ns statistics. */
    private static void usec(StringBuilder out, StatSummary s) {
        if (!s.present()) {
            out.append(";0;0;0.000000;0.000000");
            return;
        }
        out.append(';').append(s.min() / 1000).append(';').append(s.max() / 1000).append(';')
            .append(fixed(s.mean() / 1000, 6)).append(';').append(fixed(s.stddev() / 1000, 6));
    }
}
