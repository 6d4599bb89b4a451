package blksim.workload.fio.stats;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

import org.HdrHistogram.Histogram;

/**
 * A latency histogram with the buckets of an HdrHistogram of 3 significant digits (values in ns,
 * lowest discernible value 1), kept sparse: one (bucket, count) entry per bucket that holds a
 * sample, in an open-addressing table, instead of HdrHistogram's dense counts array (16 KiB empty,
 * 48 KiB once it reaches 10 µs, grown by catching an exception).
 *
 * <p>Why: a job records a few hundred distinct buckets at most, but a many-job run (issue 15
 * item 1: one job per CPU, 1,024 to 4,096 of them) paid for every job's dense arrays at
 * creation, on each resize and when its statistics were encoded (a walk of the whole array).
 * {@link #toHistogram()} gives the equivalent HdrHistogram (every bucket with its count) where
 * percentiles, fio's bins or a plot need one; a bucket is identified by its lowest value, which
 * an HdrHistogram records into the same bucket, so every figure read from it is the same.
 *
 * <p>A sample is buffered raw and reaches the table in batches ({@link #record(long)}); every
 * reading method moves the buffer in first, so what is read never depends on the batching.
 *
 * <p>Not thread-safe; owned by one job's statistics.
 */
final class LatencyCounts {

  /** HdrHistogram's significant digits for blksim's latency histograms. */
  static final int DIGITS = 3;
  /**
   * HdrHistogram's {@code subBucketMask} for 3 digits and unit 1 (2,048 sub-buckets, the first
   * bucket exact up to 2,047 ns).
   */
  private static final long SUB_BUCKET_MASK = 2047;
  /** HdrHistogram's {@code leadingZeroCountBase}: 64 - unitMagnitude - subBucketCountMagnitude. */
  private static final int LEADING_ZERO_COUNT_BASE = 53;
  /** An HdrHistogram of the same shape, only for its bucket arithmetic (never recorded into). */
  private static final Histogram SHAPE = new Histogram(DIGITS);

  /** Samples {@link #record(long)} kept before they go into the table (a power of two). */
  static final int PENDING = 128;

  /**
   * The open-addressing table, interleaved: slot i is {@code table[2 i]}, the bucket key plus
   * one (0: free slot), and {@code table[2 i + 1]}, its count, so a probe touches one cache line.
   */
  private long[] table = new long[32];
  private int size;
  /** Samples in the table. */
  private long total;
  /** Raw samples recorded since the last {@link #flush()}, created at the first one. */
  private long[] pending;
  private int nPending;
  /** The HdrHistogram of the counts, built on demand and dropped by any change. */
  private Histogram view;

  /**
   * The lowest value of {@code v}'s bucket (HdrHistogram's {@code lowestEquivalentValue()} for
   * 3 digits), which identifies the bucket.
   */
  static long bucket(long v) {
    int b = LEADING_ZERO_COUNT_BASE - Long.numberOfLeadingZeros(v | SUB_BUCKET_MASK);
    return v >>> b << b;
  }

  /**
   * One sample of {@code v} ns (not negative). Kept raw in a small buffer that goes into the
   * table {@value #PENDING} samples at a time (or when the counts are read): the per-I/O cost is
   * a store into a line just written, and the table's probes, each a likely cache miss once a
   * run has 1,024 jobs' histograms (issue 15 item 1), come in a batch the CPU overlaps.
   */
  void record(long v) {
    long[] p = pending;
    if (p == null) {
      p = pending = new long[PENDING];
    }
    p[nPending] = v;
    if (++nPending == PENDING) {
      flush();
    }
  }

  /** {@code count} samples in the bucket of {@code v}. */
  void record(long v, long count) {
    if (count > 0) {
      flush();
      add(bucket(v), count);
    }
  }

  /** The number of samples. */
  long totalCount() {
    return total + nPending;
  }

  /** Adds every sample of {@code other}. */
  void add(LatencyCounts other) {
    flush();
    other.flush();
    long[] t = other.table;
    for (int i = 0; i < t.length; i += 2) {
      if (t[i] != 0) {
        add(t[i] - 1, t[i + 1]);
      }
    }
  }

  /** Moves the buffered samples into the table. */
  private void flush() {
    int n = nPending;
    if (n == 0) {
      return;
    }
    nPending = 0;
    long[] p = pending;
    for (int j = 0; j < n; j++) {
      add(bucket(p[j]), 1);
    }
  }

  private void add(long key, long count) {
    view = null;
    total += count;
    long[] t = table;
    int mask = (t.length >> 1) - 1;
    int i = slot(key, mask);
    while (true) {
      long k = t[2 * i];
      if (k == key + 1) {
        t[2 * i + 1] += count;
        return;
      }
      if (k == 0) {
        t[2 * i] = key + 1;
        t[2 * i + 1] = count;
        if (++size * 4 > t.length) {
          grow();
        }
        return;
      }
      i = (i + 1) & mask;
    }
  }

  private static int slot(long key, int mask) {
    return (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
  }

  private void grow() {
    long[] old = table;
    long[] t = new long[old.length * 2];
    int mask = (t.length >> 1) - 1;
    for (int j = 0; j < old.length; j += 2) {
      if (old[j] != 0) {
        int i = slot(old[j] - 1, mask);
        while (t[2 * i] != 0) {
          i = (i + 1) & mask;
        }
        t[2 * i] = old[j];
        t[2 * i + 1] = old[j + 1];
      }
    }
    table = t;
  }

  /** The buckets holding samples (their lowest values), ascending. */
  private long[] sortedBuckets() {
    flush();
    long[] b = new long[size];
    int n = 0;
    long[] t = table;
    for (int j = 0; j < t.length; j += 2) {
      if (t[j] != 0) {
        b[n++] = t[j] - 1;
      }
    }
    Arrays.sort(b);
    return b;
  }

  private long count(long key) {
    long[] t = table;
    int mask = (t.length >> 1) - 1;
    int i = slot(key, mask);
    while (t[2 * i] != key + 1) {
      i = (i + 1) & mask;
    }
    return t[2 * i + 1];
  }

  /**
   * The HdrHistogram of these counts (3 digits, auto-resizing): each bucket recorded at its
   * lowest value with its count. Kept until the next change; callers must not modify it.
   */
  Histogram histogram() {
    flush();
    if (view == null) {
      Histogram h = new Histogram(DIGITS);
      long[] b = sortedBuckets();
      // The highest first: the histogram resizes once.
      for (int i = b.length - 1; i >= 0; i--) {
        h.recordValueWithCount(b[i], count(b[i]));
      }
      view = h;
    }
    return view;
  }

  /** A new HdrHistogram of these counts, the caller's to keep. */
  Histogram toHistogram() {
    return histogram().copy();
  }

  /**
   * Writes the buckets as {@code JobStats}' format always had them: their number, then per bucket
   * in ascending order the varint-coded difference of its highest value to the previous one's
   * and its count (what iterating an HdrHistogram's recorded values gives).
   */
  void write(DataOutput out) throws IOException {
    long[] b = sortedBuckets();
    JobStats.writeVarLong(out, b.length);
    long previous = 0;
    for (long key : b) {
      long value = SHAPE.highestEquivalentValue(key);
      JobStats.writeVarLong(out, value - previous);
      JobStats.writeVarLong(out, count(key));
      previous = value;
    }
  }

  /** Reads what {@link #write} wrote; null for no buckets. */
  static LatencyCounts read(DataInput in) throws IOException {
    long buckets = JobStats.readVarLong(in);
    if (buckets == 0) {
      return null;
    }
    LatencyCounts c = new LatencyCounts();
    long value = 0;
    for (long i = 0; i < buckets; i++) {
      value += JobStats.readVarLong(in);
      c.record(value, JobStats.readVarLong(in));
    }
    return c;
  }
}
