package blksim.report.fio;

import static blksim.report.fio.FioFormat.fixed;
import static blksim.report.fio.FioFormat.num2str;
import static blksim.report.fio.FioFormat.padLeft;

import blksim.report.fio.FioFormat.ScaledLat;
import blksim.report.fio.FioFormat.Unit;
import blksim.report.fio.FioReportModel.GroupRunStats;
import blksim.workload.fio.stats.DiskStats;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;
import blksim.workload.fio.stats.StatSummary;

/**
 * fio's normal (human-readable) output in the fio 3.x layout (the fio-3.36 era): per job, or per
 * group with {@code group_reporting}, the block of {@code show_thread_status_normal()} and
 * {@code show_ddir_status()}; then {@code show_group_stats()} per reporting group and
 * {@code show_disk_util()}.
 *
 * <p>The lines fio prints before the run (job lines, version, {@code Starting ...}) and the blank
 * line that starts fio's run statistics are {@link FioPreamble}'s, printed by the CLI before this
 * text. Simplified against fio: no ETA lines; fio's defaults are assumed for {@code kb_base} (1024), {@code percentile_precision} (2),
 * and no latency target ({@code slat/clat/lat_percentiles} are the job's); the
 * date in each header is {@link RunResult#wallClockEpochMs()} in UTC; the pid is
 * {@code 1000 + job index}; no per-priority, sync, steady-state or block-info sections.
 *
 * <p>Example: {@code String text = FioTextReporter.render(runResult);}
 */
public final class FioTextReporter {

    private static final String[] GROUP_LABELS = {"   READ", "  WRITE", "   TRIM"};
    private static final String[] LAT_RANGES_US = {"2=", "4=", "10=", "20=", "50=", "100=", "250=", "500=",
        "750=", "1000="};
    private static final String[] LAT_RANGES_MS = {"2=", "4=", "10=", "20=", "50=", "100=", "250=", "500=",
        "750=", "1000=", "2000=", ">=2000="};
    private static final int PERCENTILE_PRECISION = 2;

    private FioTextReporter() {
    }

    /**
     * Renders the run as fio's normal output.
     *
     * @param r the run
     * @return the report text, ending with a newline
     */
    public static String render(RunResult r) {
        FioReportModel model = FioReportModel.build(r);
        StringBuilder out = new StringBuilder(8192);
        String date = FioFormat.ctime(r.wallClockEpochMs());
        for (JobStats ts : model.entries) {
            showThreadStatusNormal(out, ts, model.groups.get(ts.info().groupId()), date);
        }
        for (GroupRunStats rs : model.groups.values()) {
            showGroupStats(out, rs);
        }
        if (!r.disks().isEmpty()) {
            out.append("\nDisk stats (read/write):\n");
            for (DiskStats d : r.disks()) {
                showDiskUtil(out, d);
            }
        }
        return out.toString();
    }

    /**
     * The lines fio writes to stderr for the jobs' failed io_us ({@code __io_u_log_error()}:
     * "fio: io_u error on file F: strerror: read offset=N, buflen=N"), one per job that recorded
     * one, in job order.
     *
     * @param r the run
     * @return the lines, without newlines; empty when no job failed on an io_u
     */
    public static java.util.List<String> errorLines(RunResult r) {
        java.util.List<String> lines = new java.util.ArrayList<>();
        for (JobStats ts : r.jobs()) {
            if (ts.error() != 0 && ts.errorIo() != null) {
                lines.add("fio: io_u error" + (ts.errorFile() != null ? " on file " + ts.errorFile() : "")
                    + ": " + FioFormat.strerror(ts.error()) + ": " + ts.errorIo());
                // ioengines.c td_io_queue(): a synchronous engine's first write failing with EIO
                // (zbd_unaligned_write()) outside zonemode=zbd gets fio's hint.
                if (ts.error() == 5 && ts.info().syncEngine() && ts.errorIo().startsWith("write ")
                        && ts.totalIos(JobStats.DDIR_WRITE) == 1 && !ts.countZoneResets()) {
                    lines.add("fio: first I/O failed. If " + ts.errorFile() + " is a zoned block"
                        + " device, consider --zonemode=zbd");
                }
            }
        }
        return lines;
    }

    private static void showThreadStatusNormal(StringBuilder out, JobStats ts, GroupRunStats rs, String date) {
        long bytes = ts.ioBytes(0) + ts.ioBytes(1) + ts.ioBytes(2);
        if (bytes == 0 && ts.totalIosAllDirections() == 0) {
            return;
        }
        out.append(ts.info().jobname()).append(": (groupid=").append(ts.info().groupId())
            .append(", jobs=").append(ts.members()).append("): err=").append(padLeft(ts.error(), 2));
        if (ts.error() != 0) {
            // fio's ts->verror: "file:io_u.c:1896, func=io_u error, error=..." (td_verror())
            String where = ts.errorWhere() != null ? ts.errorWhere() : "func=io_u error";
            out.append(" (").append(where).append(", error=").append(FioFormat.strerror(ts.error()))
                .append(')');
        }
        out.append(": pid=").append(ts.info().pid()).append(": ").append(date).append('\n');
        String desc = ts.info().description();
        if (desc != null && !desc.isEmpty()) {
            out.append("  Description  : [").append(desc).append("]\n");
        }
        Unit bwUnit = ts.unitBase() == 1 ? Unit.BITPERSEC : Unit.BYTEPERSEC;
        for (int d = 0; d < JobStats.DDIR_COUNT; d++) {
            if (ts.ioBytes(d) != 0) {
                showDdirStatus(out, rs, ts, d, bwUnit);
            }
        }
        if (ts.unifiedRw() == JobStats.UNIFIED_BOTH) {
            // show_mixed_ddir_status(): gen_mixed_ddir_stats_from_ts() copies sig_figs but not
            // unit_base, so fio prints the mixed BW= with num2str's N2S_NONE (no unit).
            showDdirStatus(out, rs, FioReportModel.mixedOf(ts), JobStats.DDIR_READ, Unit.NONE);
        }
        showLat(out, ts.latNsecPercent(), LAT_RANGES_US, "nsec");
        showLat(out, ts.latUsecPercent(), LAT_RANGES_US, "usec");
        showLat(out, ts.latMsecPercent(), LAT_RANGES_MS, "msec");
        if (ts.syncLatency().present()) {
            // show_ddir_status(DDIR_SYNC): after show_latencies(), before the cpu line.
            out.append("  fsync/fdatasync/sync_file_range:\n");
            displayLat(out, "sync", ts.syncLatency());
            showClatPercentiles(out, ts.syncPercentiles(), ts.percentileList(), "sync");
        }

        out.append("  cpu          : usr=").append(fixed(ts.usrCpuPercent(), 3, 2))
            .append("%, sys=").append(fixed(ts.sysCpuPercent(), 3, 2))
            .append("%, ctx=").append(ts.ctx()).append(", majf=").append(ts.majf())
            .append(", minf=").append(ts.minf()).append('\n');
        dist(out, "  IO depths    : ", new String[] {"1", "2", "4", "8", "16", "32", ">=64"},
            ts.ioDepthDistribution());
        String[] batch = {"0", "4", "8", "16", "32", "64", ">=64"};
        dist(out, "     submit    : ", batch, ts.submitDistribution());
        dist(out, "     complete  : ", batch, ts.completeDistribution());
        out.append("     issued rwts: total=").append(ts.totalIos(0)).append(',').append(ts.totalIos(1))
            .append(',').append(ts.totalIos(2)).append(',').append(ts.syncIos())
            .append(" short=").append(ts.shortIos(0)).append(',').append(ts.shortIos(1)).append(',')
            .append(ts.shortIos(2)).append(",0")
            .append(" dropped=").append(ts.dropIos(0)).append(',').append(ts.dropIos(1)).append(',')
            .append(ts.dropIos(2)).append(",0\n");
        if (ts.latencyDepth() != 0) {
            // fio-3.36's stat.c: "target=%llu, window=%llu" (ns and µs as stored).
            out.append("     latency   : target=").append(ts.latencyTargetNs())
                .append(", window=").append(ts.latencyWindowUs())
                .append(String.format(java.util.Locale.ROOT, ", percentile=%.2f%%, depth=",
                    ts.latencyPercentile()))
                .append(ts.latencyDepth()).append('\n');
        }
    }

    private static void dist(StringBuilder out, String label, String[] names, double[] values) {
        out.append(label);
        for (int i = 0; i < names.length; i++) {
            if (i > 0) {
                out.append(", ");
            }
            out.append(names[i]).append('=').append(fixed(values[i], 3, 1)).append('%');
        }
        out.append('\n');
    }

    /** Mirrors fio's {@code show_ddir_status()} for read/write/trim. */
    private static void showDdirStatus(StringBuilder out, GroupRunStats rs, JobStats ts, int ddir,
            Unit bwUnit) {
        long runt = ts.runtimeMs(ddir);
        if (runt == 0) {
            return;
        }
        int sig = ts.sigFigs();
        long bw = 1000 * ts.ioBytes(ddir) / runt;
        String io = num2str(ts.ioBytes(ddir), sig, 1, true, Unit.BYTE);
        String bwP = num2str(bw, sig, 1, true, bwUnit);
        String bwAlt = num2str(bw, sig, 1, false, bwUnit);
        long iops = 1000 * ts.totalIos(ddir) / runt;
        String iopsP = num2str(iops, sig, 1, false, Unit.NONE);
        // fio-3.36 appends the zoned-block-device reset count to every write header
        String post = ddir == JobStats.DDIR_WRITE ? "; " + ts.zoneResets() + " zone resets" : "";
        out.append("  ").append(FioReportModel.ddirName(ts, ddir)).append(": IOPS=").append(iopsP)
            .append(", BW=").append(bwP).append(" (").append(bwAlt).append(")(").append(io).append('/')
            .append(runt).append("msec)").append(post).append('\n');

        displayLat(out, "slat", ts.slat(ddir));
        displayLat(out, "clat", ts.clat(ddir));
        displayLat(out, " lat", ts.lat(ddir));
        // stat.c: per-priority lines only when two priorities or more have samples.
        java.util.List<JobStats.PrioStat> prios = prioStats(ts, ddir);
        for (JobStats.PrioStat p : prios) {
            displayLat(out, "clat prio " + prioName(p.ioprio()), p.clat());
        }
        // stat.c show_ddir_status(): each latency's percentiles as its *_percentiles option
        // asks (clat_percentiles on by default), then the per-priority ones.
        if (ts.reportsPercentiles(JobStats.Latency.SLAT) && ts.slat(ddir).present()) {
            showClatPercentiles(out, ts.percentiles(JobStats.Latency.SLAT, ddir),
                ts.percentileList(), "slat");
        }
        if (ts.reportsPercentiles(JobStats.Latency.CLAT) && ts.clat(ddir).present()) {
            showClatPercentiles(out, ts.clatPercentiles(ddir), ts.percentileList(), "clat");
        }
        if (ts.reportsPercentiles(JobStats.Latency.LAT) && ts.lat(ddir).present()) {
            showClatPercentiles(out, ts.percentiles(JobStats.Latency.LAT, ddir),
                ts.percentileList(), "lat");
        }
        if (ts.clat(ddir).present() && (ts.reportsPercentiles(JobStats.Latency.CLAT)
                || ts.reportsPercentiles(JobStats.Latency.LAT))) {
            long samples = ts.clat(ddir).samples();
            for (JobStats.PrioStat p : prios) {
                showClatPercentiles(out, p.percentiles(ts.percentileList()), ts.percentileList(),
                    "clat prio " + prioName(p.ioprio()) + " ("
                    + fixed(100.0 * p.samples() / samples, 0, 2) + "% of IOs)");
            }
        }

        StatSummary b = ts.bw(ddir);
        if (b.present()) {
            // stat.c: rs->unit_base picks Kibit and multiplies by 8 (kb_base 1024 assumed)
            boolean bits = rs != null && rs.unitBase == 1;
            String unit = bits ? "Kibit" : "KiB";
            double pOfAgg = FioReportModel.aggPercent(rs, ddir, b.mean());
            double minD = b.min();
            double maxD = b.max();
            double mean = b.mean();
            double dev = b.stddev();
            if (bits) {
                minD *= 8.0;
                maxD *= 8.0;
                mean *= 8.0;
                dev *= 8.0;
            }
            if (mean > 1024.0 * 1024.0) {
                minD /= 1024.0;
                maxD /= 1024.0;
                mean /= 1024.0;
                dev /= 1024.0;
                unit = bits ? "Mibit" : "MiB";
            }
            long min = (long) minD;
            long max = (long) maxD;
            out.append("   bw (").append(padLeft(unit, 5)).append("/s): min=").append(padLeft(min, 5))
                .append(", max=").append(padLeft(max, 5)).append(", per=").append(fixed(pOfAgg, 3, 2))
                .append("%, avg=").append(fixed(mean, 5, 2)).append(", stdev=").append(fixed(dev, 5, 2))
                .append(", samples=").append(b.samples()).append('\n');
        }
        StatSummary i = ts.iops(ddir);
        if (i.present()) {
            out.append("   iops        : min=").append(padLeft(i.min(), 5)).append(", max=")
                .append(padLeft(i.max(), 5)).append(", avg=").append(fixed(i.mean(), 5, 2))
                .append(", stdev=").append(fixed(i.stddev(), 5, 2)).append(", samples=")
                .append(i.samples()).append('\n');
        }
    }

    /** fio's per-priority statistics of {@code ddir} with samples, or none unless two have. */
    static java.util.List<JobStats.PrioStat> prioStats(JobStats ts, int ddir) {
        java.util.List<JobStats.PrioStat> out = new java.util.ArrayList<>();
        for (JobStats.PrioStat p : ts.prios(ddir)) {
            if (p.samples() > 0) {
                out.add(p);
            }
        }
        return out.size() >= 2 ? out : java.util.List.of();
    }

    /** {@code class/level/hint} of an ioprio value ({@code "%u/%u/%u"}). */
    static String prioName(int ioprio) {
        return blksim.workload.fio.CmdPrio.ioClass(ioprio) + "/"
            + blksim.workload.fio.CmdPrio.level(ioprio) + "/"
            + blksim.workload.fio.CmdPrio.hint(ioprio);
    }

    /** Mirrors fio's {@code display_lat()}. */
    private static void displayLat(StringBuilder out, String name, StatSummary s) {
        if (!s.present()) {
            return;
        }
        ScaledLat l = FioFormat.scaleLatency(s.min(), s.max(), s.mean(), s.stddev());
        out.append("    ").append(name).append(" (").append(l.unit()).append("): min=")
            .append(num2str(l.min(), 6, 1, false, Unit.NONE)).append(", max=")
            .append(num2str(l.max(), 6, 1, false, Unit.NONE)).append(", avg=").append(fixed(l.mean(), 5, 2))
            .append(", stdev=").append(fixed(l.dev(), 5, 2)).append('\n');
    }

    /** Mirrors fio's {@code show_clat_percentiles()}. */
    private static void showClatPercentiles(StringBuilder out, long[] values, double[] plist, String pre) {
        if (values.length == 0) {
            return;
        }
        long minv = Long.MAX_VALUE;
        long maxv = 0;
        for (long v : values) {
            minv = Math.min(minv, v);
            maxv = Math.max(maxv, v);
        }
        int scaleDown;
        long divisor;
        String unit;
        if (minv > 2_000_000 && maxv > 99_999_999L) {
            scaleDown = 2;
            divisor = 1_000_000;
            unit = "msec";
        } else if (minv > 2000 && maxv > 99_999) {
            scaleDown = 1;
            divisor = 1000;
            unit = "usec";
        } else {
            scaleDown = 0;
            divisor = 1;
            unit = "nsec";
        }
        out.append("    ").append(pre).append(" percentiles (").append(unit).append("):\n     |");
        long scaledMax = maxv / divisor;
        int timeWidth = scaledMax == 0 ? 5 : Math.max(5, (int) (Math.log10(scaledMax) + 1));
        int perLine = (80 - 7) / (PERCENTILE_PRECISION + 10 + timeWidth);
        for (int j = 0; j < values.length; j++) {
            if (j != 0 && j % perLine == 0) {
                out.append("     |");
            }
            boolean last = j == values.length - 1;
            long v = values[j];
            for (int k = 0; k < scaleDown; k++) {
                v = (v + 999) / 1000;
            }
            out.append(' ').append(fixed(plist[j], PERCENTILE_PRECISION + 3, PERCENTILE_PRECISION))
                .append("th=[").append(padLeft(v, timeWidth)).append(']').append(last ? '\n' : ',');
            if (last) {
                break;
            }
            if (j % perLine == perLine - 1) {
                out.append('\n');
            }
        }
    }

    /** Mirrors fio's {@code show_lat()}: non-zero buckets only, five per line. */
    private static void showLat(StringBuilder out, double[] pct, String[] ranges, String msg) {
        boolean newLine = true;
        boolean shown = false;
        int line = 0;
        for (int i = 0; i < pct.length; i++) {
            if (pct[i] <= 0.0) {
                continue;
            }
            shown = true;
            if (newLine) {
                if (line != 0) {
                    out.append('\n');
                }
                out.append("  lat (").append(msg).append(")   : ");
                newLine = false;
                line = 0;
            }
            if (line != 0) {
                out.append(", ");
            }
            out.append(ranges[i]).append(fixed(pct[i], 3, 2)).append('%');
            line++;
            if (line == 5) {
                newLine = true;
            }
        }
        if (shown) {
            out.append('\n');
        }
    }

    /** Mirrors fio's {@code show_group_stats()}. */
    private static void showGroupStats(StringBuilder out, GroupRunStats rs) {
        out.append("\nRun status group ").append(rs.groupId).append(" (all jobs):\n");
        for (int d = 0; d < JobStats.DDIR_COUNT; d++) {
            if (rs.maxRun[d] == 0) {
                continue;
            }
            groupLine(out, rs, rs.unifiedRw == JobStats.UNIFIED_MIXED ? "  MIXED" : GROUP_LABELS[d],
                rs.agg[d], rs.minBw[d], rs.maxBw[d], rs.ioBytes[d], rs.minRun[d], rs.maxRun[d]);
        }
        if (rs.unifiedRw == JobStats.UNIFIED_BOTH) {
            // show_mixed_group_stats(): sums of bytes and aggregates, extremes of the rest
            long io = 0;
            long agg = 0;
            long minBw = Long.MAX_VALUE;
            long maxBw = 0;
            long minRun = Long.MAX_VALUE;
            long maxRun = 0;
            for (int d = 0; d < JobStats.DDIR_COUNT; d++) {
                if (rs.maxRun[d] == 0) {
                    continue;
                }
                io += rs.ioBytes[d];
                agg += rs.agg[d];
                minBw = Math.min(minBw, rs.minBw[d]);
                maxBw = Math.max(maxBw, rs.maxBw[d]);
                minRun = Math.min(minRun, rs.minRun[d]);
                maxRun = Math.max(maxRun, rs.maxRun[d]);
            }
            if (maxRun == 0) {
                // fio prints the -1 initial values as unsigned; nothing ran, so nothing to show
                return;
            }
            groupLine(out, rs, "  MIXED", agg, minBw, maxBw, io, minRun, maxRun);
        }
    }

    private static void groupLine(StringBuilder out, GroupRunStats rs, String label, long agg, long minBw,
            long maxBw, long io, long minRun, long maxRun) {
        out.append(label).append(": bw=").append(bps(rs, agg, true)).append(" (")
            .append(bps(rs, agg, false)).append("), ").append(bps(rs, minBw, true)).append('-')
            .append(bps(rs, maxBw, true)).append(" (").append(bps(rs, minBw, false)).append('-')
            .append(bps(rs, maxBw, false)).append("), io=")
            .append(num2str(io, rs.sigFigs, 1, true, Unit.BYTE)).append(" (")
            .append(num2str(io, rs.sigFigs, 1, false, Unit.BYTE)).append("), run=")
            .append(minRun).append('-').append(maxRun).append("msec\n");
    }

    private static String bps(GroupRunStats rs, long v, boolean pow2) {
        return num2str(v, rs.sigFigs, 1, pow2, rs.unitBase == 1 ? Unit.BITPERSEC : Unit.BYTEPERSEC);
    }

    /** Mirrors fio's {@code print_disk_util()} (normal form, fio-3.36 with sectors). */
    private static void showDiskUtil(StringBuilder out, DiskStats d) {
        double util = Math.min(100.0, d.utilPercent());
        out.append("  ").append(d.name()).append(": ios=").append(d.readIos()).append('/').append(d.writeIos())
            .append(", sectors=").append(d.readSectors()).append('/').append(d.writeSectors())
            .append(", merge=").append(d.readMerges()).append('/').append(d.writeMerges())
            .append(", ticks=").append(d.readTicksMs()).append('/').append(d.writeTicksMs())
            .append(", in_queue=").append(d.inQueueMs()).append(", util=").append(fixed(util, 3, 2))
            .append("%\n");
    }
}
