package blksim.workload.fio.stats;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Identity and reporting options of one fio job thread: what fio keeps in
 * {@code struct thread_options} and copies into {@code struct thread_stat} for printing
 * (name, group id, description, percentile list, {@code group_reporting}).
 *
 * <p>Arrays and the option map are copied on construction and on access, so a {@code JobInfo}
 * is immutable.
 *
 * @param jobname the job's section name (fio {@code name})
 * @param groupId the reporting group ({@code groupid}), 0-based
 * @param jobIndex the job's position in the job file after {@code numjobs} expansion, 0-based;
 *     reporters derive the fake pid from it
 * @param jobOptions the options set in the job's own section, in file order
 *     (fio's {@code "job options"})
 * @param rw fio's {@code rw} value, e.g. {@code "randread"}
 * @param bs block size per direction in bytes: read, write, trim
 * @param ioengine fio's {@code ioengine} value
 * @param iodepth fio's {@code iodepth}; printed as the latency depth
 * @param syncEngine whether the engine is synchronous; slat is then not measured (fio omits the
 *     slat line for sync engines)
 * @param percentileList clat percentiles to report, fio's {@code percentile_list};
 *     {@code null} or empty means fio's default list
 * @param description fio's {@code description}, or {@code null}
 * @param groupReporting whether fio's {@code group_reporting} is set for this job
 * @param pid the process id fio prints ({@code pid=}): the simulated job task's pid, distinct
 *     per job (fio forks each job; with {@code thread} it prints each thread's tid, also
 *     distinct), so the same number {@code run --threads} shows for the job
 */
public record JobInfo(String jobname, int groupId, int jobIndex, LinkedHashMap<String, String> jobOptions,
                      String rw, long[] bs, String ioengine, int iodepth, boolean syncEngine,
                      double[] percentileList, String description, boolean groupReporting, int pid) {

    /** fio's default {@code percentile_list} (stat.h {@code FIO_IO_U_LIST_MAX_LEN} entries used: 17). */
    public static final double[] DEFAULT_PERCENTILES = {
        1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99
    };

    /** Validates and copies the components. */
    public JobInfo {
        Objects.requireNonNull(jobname, "jobname must not be null");
        if (groupId < 0) {
            throw new IllegalArgumentException("groupId must be >= 0, was " + groupId);
        }
        if (jobIndex < 0) {
            throw new IllegalArgumentException("jobIndex must be >= 0, was " + jobIndex);
        }
        if (pid < 1) {
            throw new IllegalArgumentException("pid must be >= 1, was " + pid);
        }
        if (iodepth < 1) {
            throw new IllegalArgumentException("iodepth must be >= 1, was " + iodepth);
        }
        if (bs != null && bs.length != 3) {
            throw new IllegalArgumentException("bs must have 3 entries (read, write, trim), had " + bs.length);
        }
        if (percentileList != null) {
            for (double p : percentileList) {
                if (!(p > 0.0 && p <= 100.0)) {
                    throw new IllegalArgumentException("percentileList entries must be in (0, 100], was " + p);
                }
            }
        }
        jobOptions = jobOptions == null ? new LinkedHashMap<>() : new LinkedHashMap<>(jobOptions);
        rw = rw == null ? "read" : rw;
        bs = bs == null ? new long[] {4096, 4096, 4096} : bs.clone();
        ioengine = ioengine == null ? "sync" : ioengine;
        percentileList = percentileList == null ? null : percentileList.clone();
    }

    /** Without a task pid: {@code 1000 + jobIndex}, for stats made outside a simulation. */
    public JobInfo(String jobname, int groupId, int jobIndex, LinkedHashMap<String, String> jobOptions,
                   String rw, long[] bs, String ioengine, int iodepth, boolean syncEngine,
                   double[] percentileList, String description, boolean groupReporting) {
        this(jobname, groupId, jobIndex, jobOptions, rw, bs, ioengine, iodepth, syncEngine,
            percentileList, description, groupReporting, 1000 + jobIndex);
    }

    /**
     * The constructor the brief's eleven components describe; {@code groupReporting} is taken
     * from {@code jobOptions} (key {@code group_reporting} present and not {@code "0"}/{@code "false"}).
     */
    public JobInfo(String jobname, int groupId, int jobIndex, LinkedHashMap<String, String> jobOptions,
                   String rw, long[] bs, String ioengine, int iodepth, boolean syncEngine,
                   double[] percentileList, String description) {
        this(jobname, groupId, jobIndex, jobOptions, rw, bs, ioengine, iodepth, syncEngine,
            percentileList, description, groupReportingOption(jobOptions));
    }

    private static boolean groupReportingOption(Map<String, String> options) {
        if (options == null || !options.containsKey("group_reporting")) {
            return false;
        }
        String v = options.get("group_reporting");
        return v == null || !(v.equals("0") || v.equalsIgnoreCase("false"));
    }

    /** A copy of the job's own options, in file order. */
    @Override
    public LinkedHashMap<String, String> jobOptions() {
        return new LinkedHashMap<>(jobOptions);
    }

    /** A copy of the per-direction block sizes. */
    @Override
    public long[] bs() {
        return bs.clone();
    }

    /** A copy of the configured percentile list, or {@code null} when fio's default applies. */
    @Override
    public double[] percentileList() {
        return percentileList == null ? null : percentileList.clone();
    }

    /** The percentiles fio reports for this job: the configured list (or the default), sorted. */
    public double[] effectivePercentiles() {
        double[] p = (percentileList == null || percentileList.length == 0)
            ? DEFAULT_PERCENTILES.clone() : percentileList.clone();
        Arrays.sort(p);
        return p;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobInfo other
            && jobname.equals(other.jobname) && groupId == other.groupId && jobIndex == other.jobIndex
            && jobOptions.equals(other.jobOptions) && rw.equals(other.rw) && Arrays.equals(bs, other.bs)
            && ioengine.equals(other.ioengine) && iodepth == other.iodepth && syncEngine == other.syncEngine
            && Arrays.equals(percentileList, other.percentileList)
            && Objects.equals(description, other.description) && groupReporting == other.groupReporting
            && pid == other.pid;
    }

    @Override
    public int hashCode() {
        return Objects.hash(jobname, groupId, jobIndex, jobOptions, rw, Arrays.hashCode(bs), ioengine, iodepth,
            syncEngine, Arrays.hashCode(percentileList), description, groupReporting, pid);
    }

    @Override
    public String toString() {
        return "JobInfo[jobname=" + jobname + ", groupId=" + groupId + ", jobIndex=" + jobIndex
            + ", rw=" + rw + ", bs=" + Arrays.toString(bs) + ", ioengine=" + ioengine + ", iodepth=" + iodepth
            + ", syncEngine=" + syncEngine + ", groupReporting=" + groupReporting + ", pid=" + pid + "]";
    }
}
