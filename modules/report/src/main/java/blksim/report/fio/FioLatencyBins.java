package blksim.report.fio;

import java.util.SortedMap;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * fio's latency histogram buckets ({@code io_u_plat}, {@code stat.h}), for json+'s
 * {@code "bins"}.
 *
 * <p>fio keeps {@code FIO_IO_U_PLAT_GROUP_NR} = 29 groups of {@code FIO_IO_U_PLAT_VAL} = 64
 * buckets ({@code FIO_IO_U_PLAT_BITS} = 6). A value below 128 is its own bucket; above, the
 * group is chosen by the value's most significant bit and the bucket by the 6 bits below it, so
 * each bucket spans 1/64 of its power of two. A bucket is printed as its middle value
 * ({@code plat_idx_to_val()}); values beyond the last bucket fall into it.
 *
 * <p>Simplified: blksim's histograms are HdrHistograms; each of their recorded buckets is put,
 * whole, into the fio bucket of its middle value ({@link #of}).
 */
final class FioLatencyBins {

    static final int PLAT_BITS = 6;
    static final int PLAT_VAL = 1 << PLAT_BITS;
    static final int PLAT_GROUP_NR = 29;
    static final int PLAT_NR = PLAT_GROUP_NR * PLAT_VAL;

    private FioLatencyBins() {
    }

    /** The fio bucket index of a latency in ns (fio's {@code plat_val_to_idx()}). */
    static int index(long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException("latency must be >= 0, was " + ns);
        }
        int msb = ns == 0 ? 0 : 63 - Long.numberOfLeadingZeros(ns);
        if (msb <= PLAT_BITS) {
            return (int) ns; // below 128 the value is the index
        }
        int errorBits = msb - PLAT_BITS;
        long idx = ((long) (errorBits + 1) << PLAT_BITS) + ((ns >> errorBits) & (PLAT_VAL - 1));
        return (int) Math.min(idx, PLAT_NR - 1);
    }

    /** The value fio prints for bucket {@code idx}: its middle ({@code plat_idx_to_val()}). */
    static long value(int idx) {
        if (idx < 0 || idx >= PLAT_NR) {
            throw new IllegalArgumentException("bucket index must be in [0, " + PLAT_NR + "), was " + idx);
        }
        if (idx < (PLAT_VAL << 1)) {
            return idx;
        }
        int errorBits = (idx >> PLAT_BITS) - 1;
        long base = 1L << (errorBits + PLAT_BITS);
        long k = idx % PLAT_VAL;
        // (k + 0.5) * 2^errorBits, truncated as fio's conversion to unsigned long long does
        return base + (long) ((k + 0.5) * (1L << errorBits));
    }

    /** A histogram's counts folded into fio's buckets: bucket value (ns) to count, ascending. */
    static SortedMap<Long, Long> of(Histogram h) {
        long[] counts = new long[PLAT_NR];
        for (HistogramIterationValue v : h.recordedValues()) {
            long mid = h.medianEquivalentValue(v.getValueIteratedTo());
            counts[index(mid)] += v.getCountAtValueIteratedTo();
        }
        SortedMap<Long, Long> bins = new TreeMap<>();
        for (int i = 0; i < PLAT_NR; i++) {
            if (counts[i] != 0) {
                bins.put(value(i), counts[i]);
            }
        }
        return bins;
    }
}
