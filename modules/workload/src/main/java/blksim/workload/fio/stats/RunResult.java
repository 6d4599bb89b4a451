package blksim.workload.fio.stats;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;

/**
 * Everything a reporter needs to print one run the way fio's {@code __show_run_stats()} does:
 * the per-job statistics in job order, the disks' counters, the engine's counters and the
 * wall-clock instant used for fio's timestamp fields.
 *
 * <p>Group membership comes from {@link JobInfo#groupId()}; whether a group is printed merged
 * comes from {@link JobInfo#groupReporting()}.
 *
 * @param jobs per-job statistics, in job order (fio's thread order)
 * @param disks disk counters, printed in list order
 * @param engine engine counters, or {@code null} when not available
 * @param wallClockEpochMs wall-clock time of the report in ms since the epoch (fio's
 *     {@code timestamp_ms}, {@code time} and the date in each job header)
 * @param blksimVersion the simulator's version string
 * @param globalOptions options of the job file's {@code [global]} section, in file order
 *     (fio's {@code "global options"}); empty when there is none
 * @param cpus each simulated CPU's time, all tasks included (blksim's addition; empty if unknown)
 * @param threads every simulated thread's statistics, by CPU then placement order (blksim's
 *     addition; empty if unknown)
 */
public record RunResult(List<JobStats> jobs, List<DiskStats> disks, EngineStats engine, long wallClockEpochMs,
                        String blksimVersion, LinkedHashMap<String, String> globalOptions,
                        List<CpuUtil> cpus, List<ThreadStat> threads) {

    /** Validates and copies the components. */
    public RunResult {
        jobs = List.copyOf(Objects.requireNonNull(jobs, "jobs must not be null"));
        disks = disks == null ? List.of() : List.copyOf(disks);
        blksimVersion = blksimVersion == null ? "unknown" : blksimVersion;
        globalOptions = globalOptions == null ? new LinkedHashMap<>() : new LinkedHashMap<>(globalOptions);
        cpus = cpus == null ? List.of() : List.copyOf(cpus);
        threads = threads == null ? List.of() : List.copyOf(threads);
    }

    /** A run without per-thread figures. */
    public RunResult(List<JobStats> jobs, List<DiskStats> disks, EngineStats engine, long wallClockEpochMs,
                     String blksimVersion, LinkedHashMap<String, String> globalOptions,
                     List<CpuUtil> cpus) {
        this(jobs, disks, engine, wallClockEpochMs, blksimVersion, globalOptions, cpus, List.of());
    }

    /** A run without per-CPU figures. */
    public RunResult(List<JobStats> jobs, List<DiskStats> disks, EngineStats engine, long wallClockEpochMs,
                     String blksimVersion, LinkedHashMap<String, String> globalOptions) {
        this(jobs, disks, engine, wallClockEpochMs, blksimVersion, globalOptions, List.of());
    }

    /** A run without {@code [global]} options. */
    public RunResult(List<JobStats> jobs, List<DiskStats> disks, EngineStats engine, long wallClockEpochMs,
                     String blksimVersion) {
        this(jobs, disks, engine, wallClockEpochMs, blksimVersion, new LinkedHashMap<>());
    }

    /** A copy of the global options, in file order. */
    @Override
    public LinkedHashMap<String, String> globalOptions() {
        return new LinkedHashMap<>(globalOptions);
    }
}
