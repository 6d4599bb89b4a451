package blksim.workload.fio.stats;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

import org.HdrHistogram.Histogram;

/**
 * A latency histogram with the buckets of an HdrHistogram of 3 significant digits (values in ns,
 * lowest discernible value 1), kept sparse: one (bucket, count) entry per bucket that holds a
 * sample, in a sorted array, instead of HdrHistogram's dense counts array (16 KiB empty,
 * 48 KiB once it reaches 10 µs, grown by catching an exception).
 *
 * <p>Why: a job records a few hundred distinct buckets at most, but a many-job run (issue 15
 * item 1: one job per CPU, 1,024 to 4,096 of them) paid for every job's dense arrays at
 * creation, on each resize and when its statistics were encoded (a walk of the whole array).
 * {@link #toHistogram()} gives the equivalent HdrHistogram (every bucket with its count) where
 * percentiles, fio's bins or a plot need one; a bucket is identified by its lowest value, which
 * an HdrHistogram records into the same bucket, so every figure read from it is the same.
 *
 * <p>A sample is appended raw to a buffer ({@link #record(long)}); a full buffer is sorted and
 * merged into the sorted entries in one sequential pass ({@link #flush()}), and the buffer grows
 * with the number of entries (up to {@link #MAX_PENDING}), so a merge costs O(1) per sample.
 * This replaced an open-addressing hash table (issue 15 item 1): with one job per CPU and
 * almost every sample in a bucket of its own, each sample was a random write into a table of
 * 32 bytes per bucket, and 1,024 jobs' three tables (about 100 MB) did not fit any host cache;
 * appends and sequential merges do. Every reading method merges the buffer in first, so what is
 * read never depends on the batching.
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

  /** Samples {@link #record(long)} buffers at first before they are merged into the entries. */
  static final int PENDING = 128;
  /** The largest buffer: past it a merge costs (entries / buffer) per sample, still sequential. */
  static final int MAX_PENDING = 4096;

  /**
   * The entries, ascending by bucket, interleaved: entry i is {@code entries[2 i]}, the bucket's
   * lowest value, and {@code entries[2 i + 1]}, its count; {@code size} entries are in use.
   */
  private long[] entries = new long[32];
  private int size;
  /** Samples in the entries. */
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
  /** Records one sample of {@code v} ns (>= 0). */
  void record(long v) {
    long[] p = pending;
    if (p == null) {
      p = pending = new long[PENDING];
    }
    p[nPending] = v;
    if (++nPending == p.length) {
      flush();
    }
  }

  /** Records {@code count} samples of {@code v} ns (count <= 0: nothing). */
  void record(long v, long count) {
    if (count > 0) {
      flush();
      add(bucket(v), count);
    }
  }

  /** The number of samples recorded. */
  long totalCount() {
    return total + nPending;
  }

  /** Adds every sample of {@code other} (which is left as it was, its buffer merged in). */
  void add(LatencyCounts other) {
    flush();
    other.flush();
    if (other.size == 0) {
      return;
    }
    view = null;
    total += other.total;
    long[] a = entries;
    long[] b = other.entries;
    long[] m = new long[Math.max(32, 2 * (size + other.size))];
    int i = 0;
    int j = 0;
    int w = 0;
    while (i < size || j < other.size) {
      if (j == other.size || (i < size && a[2 * i] < b[2 * j])) {
        m[2 * w] = a[2 * i];
        m[2 * w + 1] = a[2 * i + 1];
        i++;
      } else if (i == size || b[2 * j] < a[2 * i]) {
        m[2 * w] = b[2 * j];
        m[2 * w + 1] = b[2 * j + 1];
        j++;
      } else {
        m[2 * w] = a[2 * i];
        m[2 * w + 1] = a[2 * i + 1] + b[2 * j + 1];
        i++;
        j++;
      }
      w++;
    }
    entries = m;
    size = w;
  }

  /**
   * Merges the buffered samples into the entries: buckets them, sorts them, then merges from the
   * back in place (the entries grown first if the new buckets do not fit).
   */
  private void flush() {
    int n = nPending;
    if (n == 0) {
      return;
    }
    nPending = 0;
    view = null;
    total += n;
    long[] p = pending;
    for (int j = 0; j < n; j++) {
      p[j] = bucket(p[j]);
    }
    Arrays.sort(p, 0, n);
    // Pass 1: how many of the buffer's distinct buckets are new.
    long[] e = entries;
    int added = 0;
    int i = 0;
    for (int j = 0; j < n; ) {
      long k = p[j];
      while (j < n && p[j] == k) {
        j++;
      }
      while (i < size && e[2 * i] < k) {
        i++;
      }
      if (i == size || e[2 * i] != k) {
        added++;
      }
    }
    int newSize = size + added;
    if (2 * newSize > e.length) {
      e = entries = Arrays.copyOf(e, Math.max(2 * newSize, 2 * e.length));
    }
    // Pass 2: merge from the back.
    i = size - 1;
    int w = newSize - 1;
    for (int j = n - 1; j >= 0; ) {
      long k = p[j];
      int c = 0;
      while (j >= 0 && p[j] == k) {
        j--;
        c++;
      }
      while (i >= 0 && e[2 * i] > k) {
        e[2 * w] = e[2 * i];
        e[2 * w + 1] = e[2 * i + 1];
        w--;
        i--;
      }
      if (i >= 0 && e[2 * i] == k) {
        e[2 * w] = k;
        e[2 * w + 1] = e[2 * i + 1] + c;
        i--;
      } else {
        e[2 * w] = k;
        e[2 * w + 1] = c;
      }
      w--;
    }
    size = newSize;
    // A buffer about as large as the entries keeps a merge's cost per sample constant.
    if (size > p.length && p.length < MAX_PENDING) {
      pending = new long[Math.min(MAX_PENDING, Integer.highestOneBit(size - 1) << 1)];
    }
  }

  /** Adds {@code count} samples to the bucket {@code key} (a bucket's lowest value). */
  private void add(long key, long count) {
    view = null;
    total += count;
    int i = index(key);
    if (i >= 0) {
      entries[2 * i + 1] += count;
      return;
    }
    i = -i - 1;
    long[] e = entries;
    if (2 * (size + 1) > e.length) {
      e = entries = Arrays.copyOf(e, 2 * e.length);
    }
    System.arraycopy(e, 2 * i, e, 2 * i + 2, 2 * (size - i));
    e[2 * i] = key;
    e[2 * i + 1] = count;
    size++;
  }

  /** The entry of bucket {@code key}, or -(insertion point) - 1 (binary search). */
  private int index(long key) {
    long[] e = entries;
    int lo = 0;
    int hi = size - 1;
    if (size > 0 && e[2 * hi] < key) {
      return -size - 1; // the usual case when reading a histogram back: ascending buckets
    }
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long k = e[2 * mid];
      if (k < key) {
        lo = mid + 1;
      } else if (k > key) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -lo - 1;
  }

  /**
   * The HdrHistogram of these counts (3 digits, auto-resizing): each bucket recorded at its
   * lowest value with its count. Kept until the next change; callers must not modify it.
   */
  Histogram histogram() {
    flush();
    if (view == null) {
      Histogram h = new Histogram(DIGITS);
      long[] e = entries;
      // The highest first: the histogram resizes once.
      for (int i = size - 1; i >= 0; i--) {
        h.recordValueWithCount(e[2 * i], e[2 * i + 1]);
      }
      view = h;
    }
    return view;
  }

  /**
   * What {@link #histogram()}{@code .getValueAtPercentile(percentile)} returns (HdrHistogram
   * 2.2.2's rule), read from the entries without building the histogram: the rank is
   * {@code max(1, ceil(p * total / 100))} with {@code p} the percentile one ulp lower, clamped to
   * [0, 100]; the first bucket whose running count reaches it gives its highest equivalent value
   * (its lowest for 0); 0 if none. The histogram's counts array is tens of thousands of slots and
   * the entries a few hundred, and a report asks every job for every percentile of three
   * latencies twice (text and JSON): with a job per CPU on thousands of CPUs the percentiles took
   * as long as the simulation.
   */
  long valueAtPercentile(double percentile) {
    flush();
    double p = Math.min(Math.max(Math.nextAfter(percentile, Double.NEGATIVE_INFINITY), 0), 100.0);
    long rank = Math.max((long) Math.ceil(p * total / 100.0), 1);
    long running = 0;
    long[] e = entries;
    for (int i = 0; i < size; i++) {
      running += e[2 * i + 1];
      if (running >= rank) {
        return percentile == 0.0 ? e[2 * i] : SHAPE.highestEquivalentValue(e[2 * i]);
      }
    }
    return 0;
  }

  /** HdrHistogram's {@code medianEquivalentValue()} for these 3-digit buckets. */
  static long medianEquivalentValue(long v) {
    return SHAPE.medianEquivalentValue(v);
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
    flush();
    JobStats.writeVarLong(out, size);
    long previous = 0;
    long[] e = entries;
    for (int i = 0; i < size; i++) {
      long value = SHAPE.highestEquivalentValue(e[2 * i]);
      JobStats.writeVarLong(out, value - previous);
      JobStats.writeVarLong(out, e[2 * i + 1]);
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
