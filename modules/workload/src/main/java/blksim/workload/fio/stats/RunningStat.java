package blksim.workload.fio.stats;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Mirrors fio's {@code struct io_stat} and its updaters {@code add_stat_sample()} and
 * {@code sum_stat()}: min, max, sample count, mean and the sum of squared deviations {@code S}.
 *
 * <p>Difference from fio: the mean of directly recorded samples is kept exact as
 * {@code sum / samples} (a {@code long} sum), and {@code S} is updated with Welford's step using
 * that exact mean, so mean and standard deviation do not drift over millions of samples.
 * Owned by the {@link JobStats} that contains it; not thread-safe.
 */
final class RunningStat {

    private long samples;
    private long min = Long.MAX_VALUE;
    private long max;
    private long sum;
    private double mean;
    private double s;

    /** Adds one sample; mirrors {@code add_stat_sample()}. */
    void add(long value) {
        double oldMean = mean;
        samples++;
        sum += value;
        mean = (double) sum / samples;
        s += (value - oldMean) * (value - mean);
        if (value < min) {
            min = value;
        }
        if (value > max) {
            max = value;
        }
    }

    /**
     * Adds {@code src} into this statistic; mirrors fio's {@code sum_stat()}. With
     * {@code pureSum} false (latencies) the two sample sets are merged with the parallel
     * variance formula; with {@code pureSum} true (bw/iops under group_reporting) fio adds min,
     * max, mean and S of the members, so the group shows the aggregate bandwidth.
     */
    void merge(RunningStat src, boolean pureSum) {
        if (src.samples == 0) {
            return;
        }
        if (samples == 0) {
            copyFrom(src);
            return;
        }
        if (pureSum) {
            min += src.min;
            max += src.max;
            samples += src.samples;
            sum += src.sum;
            mean += src.mean;
            s += src.s;
            return;
        }
        double delta = src.mean - mean;
        long n = samples + src.samples;
        double newS = src.s + s + delta * delta * ((double) samples * (double) src.samples) / n;
        min = Math.min(min, src.min);
        max = Math.max(max, src.max);
        samples = n;
        sum += src.sum;
        mean = (double) sum / samples;
        s = newS;
    }

    private void copyFrom(RunningStat src) {
        samples = src.samples;
        min = src.min;
        max = src.max;
        sum = src.sum;
        mean = src.mean;
        s = src.s;
    }

    /** Number of samples. */
    long samples() {
        return samples;
    }

    /** Snapshot as fio's {@code calc_lat()} would report it. */
    StatSummary summary() {
        if (samples == 0) {
            return StatSummary.EMPTY;
        }
        double dev = samples > 1 ? Math.sqrt(s / (samples - 1.0)) : 0.0;
        return new StatSummary(samples, min, max, mean, dev);
    }

    void write(DataOutput out) throws IOException {
        out.writeLong(samples);
        out.writeLong(min);
        out.writeLong(max);
        out.writeLong(sum);
        out.writeDouble(mean);
        out.writeDouble(s);
    }

    static RunningStat read(DataInput in) throws IOException {
        RunningStat r = new RunningStat();
        r.samples = in.readLong();
        r.min = in.readLong();
        r.max = in.readLong();
        r.sum = in.readLong();
        r.mean = in.readDouble();
        r.s = in.readDouble();
        return r;
    }
}
