package blksim.report.fio;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;

/**
 * The part of fio's {@code __show_run_stats()} shared by the text and JSON reporters: folds jobs
 * into reported entries (one per job, or one per {@code group_reporting} group, merged with
 * {@link JobStats#merge(List)}) and computes each group's {@code struct group_run_stats}
 * (min/max runtime and bandwidth, bytes, aggregate bandwidth).
 */
final class FioReportModel {

    /** Mirrors fio's {@code struct group_run_stats} (bytes/s, ms, bytes). */
    static final class GroupRunStats {
        final int groupId;
        final long[] minRun = new long[JobStats.DDIR_COUNT];
        final long[] maxRun = new long[JobStats.DDIR_COUNT];
        final long[] minBw = new long[JobStats.DDIR_COUNT];
        final long[] maxBw = new long[JobStats.DDIR_COUNT];
        final long[] ioBytes = new long[JobStats.DDIR_COUNT];
        final long[] agg = new long[JobStats.DDIR_COUNT];
        /** {@code rs->unified_rw_rep}: the entries' values OR-ed, as __show_run_stats() does. */
        int unifiedRw;
        /** {@code rs->sig_figs} and {@code rs->unit_base}: the group's last entry's. */
        int sigFigs = 4;
        int unitBase = 8;

        GroupRunStats(int groupId) {
            this.groupId = groupId;
            Arrays.fill(minRun, Long.MAX_VALUE);
            Arrays.fill(minBw, Long.MAX_VALUE);
        }
    }

    final List<JobStats> entries;
    final Map<Integer, GroupRunStats> groups;
    /** fio's {@code elapsed}: seconds of virtual time until the last job finished, rounded up. */
    final long elapsedSec;

    private FioReportModel(List<JobStats> entries, Map<Integer, GroupRunStats> groups, long elapsedSec) {
        this.entries = entries;
        this.groups = groups;
        this.elapsedSec = elapsedSec;
    }

    static FioReportModel build(RunResult r) {
        List<List<JobStats>> folded = new ArrayList<>();
        List<JobStats> current = null;
        int lastGroup = -1;
        long lastEnd = 0;
        Map<Integer, GroupRunStats> groups = new TreeMap<>();
        for (JobStats job : r.jobs()) {
            int g = job.info().groupId();
            groups.computeIfAbsent(g, GroupRunStats::new);
            // fio starts a new thread_stat unless this job has group_reporting and stays in the group
            if (current == null || !job.info().groupReporting() || g != lastGroup) {
                current = new ArrayList<>();
                folded.add(current);
            }
            current.add(job);
            lastGroup = g;
            lastEnd = Math.max(lastEnd, job.endNs());
        }
        List<JobStats> entries = new ArrayList<>(folded.size());
        for (List<JobStats> members : folded) {
            // The thread_stat takes unified_rw_rep from its first job; mixed sums every direction.
            if (members.get(0).unifiedRw() == JobStats.UNIFIED_MIXED) {
                entries.add(JobStats.mixed(members));
            } else {
                entries.add(members.size() == 1 ? members.get(0) : JobStats.merge(members));
            }
        }
        for (JobStats ts : entries) {
            GroupRunStats rs = groups.get(ts.info().groupId());
            rs.unifiedRw |= ts.unifiedRw();
            rs.sigFigs = ts.sigFigs();
            rs.unitBase = ts.unitBase();
            for (int d = 0; d < JobStats.DDIR_COUNT; d++) {
                long runtime = ts.runtimeMs(d);
                if (runtime == 0) {
                    continue;
                }
                if (runtime < rs.minRun[d]) {
                    rs.minRun[d] = runtime;
                }
                if (runtime > rs.maxRun[d]) {
                    rs.maxRun[d] = runtime;
                }
                long bw = ts.ioBytes(d) * 1000 / runtime;
                if (bw < rs.minBw[d]) {
                    rs.minBw[d] = bw;
                }
                if (bw > rs.maxBw[d]) {
                    rs.maxBw[d] = bw;
                }
                rs.ioBytes[d] += ts.ioBytes(d);
            }
        }
        for (GroupRunStats rs : groups.values()) {
            for (int d = 0; d < JobStats.DDIR_COUNT; d++) {
                if (rs.maxRun[d] != 0) {
                    rs.agg[d] = rs.ioBytes[d] * 1000 / rs.maxRun[d];
                }
            }
        }
        long elapsed = (Math.max(0, lastEnd) + 999_999_999L) / 1_000_000_000L;
        return new FioReportModel(Collections.unmodifiableList(entries), Collections.unmodifiableMap(groups), elapsed);
    }

    /**
     * fio's {@code convert_agg_kbytes_percent()}: the share of the group's aggregate bandwidth
     * that a mean bw sample (KiB/s, truncated to int as fio passes it) represents, capped at 100.
     */
    static double aggPercent(GroupRunStats rs, int ddir, double meanKib) {
        int mean = (int) meanKib;
        double p = 100.0;
        if (rs != null && rs.agg[ddir] > 1024) {
            p = mean * 100.0 / (rs.agg[ddir] / 1024.0);
            if (p > 100.0) {
                p = 100.0;
            }
        }
        return p;
    }

    /** The name fio prints for {@code ddir} of {@code ts}: "mixed" for a UNIFIED_MIXED one. */
    static String ddirName(JobStats ts, int ddir) {
        return ts.unifiedRw() == JobStats.UNIFIED_MIXED ? "mixed" : ddirName(ddir);
    }

    /**
     * fio's {@code gen_mixed_ddir_stats_from_ts()} for {@code unified_rw_reporting=both}: the
     * entry's directions summed into one "mixed" one (printed after the per-direction ones).
     */
    static JobStats mixedOf(JobStats ts) {
        return JobStats.mixed(List.of(ts));
    }

    /** {@code fio's io_ddir_name()}. */
    static String ddirName(int ddir) {
        return switch (ddir) {
            case JobStats.DDIR_READ -> "read";
            case JobStats.DDIR_WRITE -> "write";
            case JobStats.DDIR_TRIM -> "trim";
            default -> throw new IllegalArgumentException("ddir must be in [0, 2], was " + ddir);
        };
    }
}
