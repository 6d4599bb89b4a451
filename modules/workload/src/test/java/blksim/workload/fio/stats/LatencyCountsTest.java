package blksim.workload.fio.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.junit.jupiter.api.Test;

/** The sparse latency counts are an HdrHistogram of 3 digits, bucket for bucket. */
class LatencyCountsTest {

  /** Latencies from 0 to a few seconds, spread over every power of two. */
  private static long[] samples(long seed, int n) {
    SplittableRandom r = new SplittableRandom(seed);
    long[] v = new long[n];
    for (int i = 0; i < n; i++) {
      v[i] = r.nextLong(1L << r.nextInt(33));
    }
    return v;
  }

  @Test
  void bucketIsHdrHistogramsLowestEquivalentValue() {
    Histogram shape = new Histogram(3);
    for (long v : samples(1, 200_000)) {
      assertEquals(shape.lowestEquivalentValue(v), LatencyCounts.bucket(v), "value " + v);
    }
    for (int p = 0; p < 62; p++) {
      for (long v : new long[] {(1L << p) - 1, 1L << p, (1L << p) + 1}) {
        assertEquals(shape.lowestEquivalentValue(v), LatencyCounts.bucket(v), "value " + v);
      }
    }
  }

  @Test
  void histogramHasTheSameCountsPercentilesAndEncodingAsOneRecordedDirectly() throws IOException {
    long[] v = samples(2, 50_000);
    Histogram direct = new Histogram(3);
    LatencyCounts sparse = new LatencyCounts();
    // recorded in two halves and added, as a group's merge does
    LatencyCounts second = new LatencyCounts();
    for (int i = 0; i < v.length; i++) {
      direct.recordValue(v[i]);
      (i % 2 == 0 ? sparse : second).record(v[i]);
    }
    sparse.add(second);
    Histogram h = sparse.toHistogram();
    assertEquals(direct.getTotalCount(), sparse.totalCount());
    assertEquals(direct.getTotalCount(), h.getTotalCount());
    for (double p : new double[] {0, 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5,
        99.9, 99.95, 99.99, 100}) {
      assertEquals(direct.getValueAtPercentile(p), h.getValueAtPercentile(p), "p" + p);
    }
    assertEquals(direct.getMaxValue(), h.getMaxValue());
    assertEquals(direct.getMinNonZeroValue(), h.getMinNonZeroValue());
    assertEquals(direct.getMean(), h.getMean(), 0.0);
    // The encoding is the one JobStats wrote from an HdrHistogram's recorded values.
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(expected)) {
      int buckets = 0;
      for (HistogramIterationValue ignored : direct.recordedValues()) {
        buckets++;
      }
      JobStats.writeVarLong(out, buckets);
      long previous = 0;
      for (HistogramIterationValue x : direct.recordedValues()) {
        JobStats.writeVarLong(out, x.getValueIteratedTo() - previous);
        JobStats.writeVarLong(out, x.getCountAtValueIteratedTo());
        previous = x.getValueIteratedTo();
      }
    }
    ByteArrayOutputStream actual = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(actual)) {
      sparse.write(out);
    }
    assertArrayEquals(expected.toByteArray(), actual.toByteArray());
    // ... and reads back to the same counts.
    LatencyCounts back = LatencyCounts.read(new DataInputStream(
        new ByteArrayInputStream(actual.toByteArray())));
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(again)) {
      back.write(out);
    }
    assertArrayEquals(actual.toByteArray(), again.toByteArray());
  }

  @Test
  void valueAtPercentile_isHdrHistogramsGetValueAtPercentile() {
    double[] ps = {0, 1e-9, 0.5, 1, 5, 10, 20, 25, 30, 33.333, 40, 50, 60, 66.667, 70, 75, 80, 90,
        95, 99, 99.5, 99.9, 99.95, 99.99, 99.999, 100 - 1e-9, 100, 150, -5};
    // Many samples over every power of two; few, where the rank rounding decides; one; repeats.
    long[][] sets = {samples(3, 20_000), samples(4, 7), samples(5, 1), {5, 5, 5, 2047, 2048,
        2049, 1L << 40}, {0, 0, 0, 1}};
    for (long[] v : sets) {
      Histogram direct = new Histogram(3);
      LatencyCounts c = new LatencyCounts();
      for (long x : v) {
        direct.recordValue(x);
        c.record(x);
      }
      for (double p : ps) {
        assertEquals(direct.getValueAtPercentile(p), c.valueAtPercentile(p),
            v.length + " samples, p" + p);
        assertEquals(direct.medianEquivalentValue(direct.getValueAtPercentile(p)),
            LatencyCounts.medianEquivalentValue(c.valueAtPercentile(p)), "median, p" + p);
      }
    }
    assertEquals(new Histogram(3).getValueAtPercentile(50), new LatencyCounts()
        .valueAtPercentile(50), "empty");
  }

  @Test
  void emptyCountsEncodeAsNoBuckets_andReadBackAsNull() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(b)) {
      new LatencyCounts().write(out);
    }
    assertArrayEquals(new byte[] {0}, b.toByteArray());
    assertNull(LatencyCounts.read(new DataInputStream(new ByteArrayInputStream(b.toByteArray()))));
  }

  @Test
  void aChangeAfterAHistogramWasTakenIsSeenByTheNextOne() {
    LatencyCounts c = new LatencyCounts();
    c.record(10_000);
    assertEquals(1, c.histogram().getTotalCount());
    c.record(20_000, 3);
    assertEquals(4, c.histogram().getTotalCount());
    assertEquals(new Histogram(3).highestEquivalentValue(20_000),
        c.histogram().getValueAtPercentile(100));
    c.record(30_000);
    assertEquals(5, c.totalCount());
    assertEquals(5, c.histogram().getTotalCount());
    assertEquals(new Histogram(3).highestEquivalentValue(30_000),
        c.histogram().getValueAtPercentile(100));
  }

  @Test
  void buffered_samplesAreCountedAndEncodedAtEveryPointOfTheBatch() throws IOException {
    // Read after each of 3 x PENDING + 5 samples (a partial buffer, a full one, a flushed one):
    // the encoding equals that of a histogram recorded directly with the same samples.
    long[] v = samples(3, 3 * LatencyCounts.PENDING + 5);
    LatencyCounts c = new LatencyCounts();
    Histogram direct = new Histogram(3);
    for (int i = 0; i < v.length; i++) {
      c.record(v[i]);
      direct.recordValue(v[i]);
      assertEquals(i + 1, c.totalCount());
      if (i % 37 == 0 || i % LatencyCounts.PENDING == LatencyCounts.PENDING - 1) {
        LatencyCounts copy = new LatencyCounts();
        copy.add(c);
        assertEquals(i + 1, copy.totalCount());
        assertEquals(direct.getValueAtPercentile(50), c.histogram().getValueAtPercentile(50));
        assertEquals(direct.getTotalCount(), c.histogram().getTotalCount());
      }
    }
  }

  @Test
  void interleavedRecordsCountedRecordsAndReadsMatchOneHistogram() {
    // Samples, counted samples (unordered, as a merge or a read-back gives them) and reads in
    // between: the buffer's merges (of every size as it grows) must never change a figure.
    SplittableRandom r = new SplittableRandom(7);
    Histogram direct = new Histogram(3);
    LatencyCounts sparse = new LatencyCounts();
    for (int i = 0; i < 300_000; i++) {
      long v = r.nextLong(1L << r.nextInt(28));
      int what = r.nextInt(1000);
      if (what == 0) {
        long c = 1 + r.nextInt(5);
        direct.recordValueWithCount(v, c);
        sparse.record(v, c);
      } else if (what == 1) {
        assertEquals(direct.getTotalCount(), sparse.totalCount());
        assertEquals(direct.getValueAtPercentile(99), sparse.histogram().getValueAtPercentile(99));
      } else {
        direct.recordValue(v);
        sparse.record(v);
      }
    }
    Histogram h = sparse.toHistogram();
    assertEquals(direct.getTotalCount(), h.getTotalCount());
    for (double p : new double[] {0, 1, 50, 90, 99, 99.9, 100}) {
      assertEquals(direct.getValueAtPercentile(p), h.getValueAtPercentile(p), "p" + p);
    }
    assertEquals(direct.getMean(), h.getMean(), 0.0);
  }
}
