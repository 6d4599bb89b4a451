package blksim.workload.fio.stats;

/**
 * Immutable view of one fio {@code struct io_stat}, as {@code calc_lat()} in fio's stat.c
 * reads it: sample count, minimum, maximum, mean and sample standard deviation
 * ({@code sqrt(S / (n - 1))}, 0 for fewer than two samples).
 *
 * <p>Units are those of the statistic: nanoseconds for slat/clat/lat, KiB/s for bw samples,
 * I/Os per second for iops samples. When {@code samples == 0} every field is 0, which is what
 * fio prints in JSON for an unused statistic.
 *
 * @param samples number of samples ({@code N} in fio's JSON)
 * @param min smallest sample
 * @param max largest sample
 * @param mean arithmetic mean
 * @param stddev sample standard deviation
 */
public record StatSummary(long samples, long min, long max, double mean, double stddev) {

    /** The summary of a statistic without samples. */
    public static final StatSummary EMPTY = new StatSummary(0, 0, 0, 0.0, 0.0);

    /** Whether the statistic has samples (fio's {@code calc_lat()} returning true). */
    public boolean present() {
        return samples > 0;
    }
}
