package blksim.kernel.mm;

/**
 * What {@code balance_dirty_pages()} did over a run: iterations, how many were in freerun, how
 * many slept, and the distribution of the pauses slept (power-of-two millisecond buckets:
 * bucket 0 is under 1 ms, bucket k covers [2^(k-1), 2^k) ms, the last bucket is open).
 */
public final class BdpStats {
  /** Number of pause buckets. */
  public static final int BUCKETS = 10;

  long iterations;
  long freerun;
  long sleeps;
  long pauseNs;
  long maxPauseNs;
  final long[] pauseBuckets = new long[BUCKETS];

  void record(BdpDecision d, int hz) {
    iterations++;
    if (d.freerun()) {
      freerun++;
    }
    if (d.sleep()) {
      long ns = d.pauseNs(hz);
      sleeps++;
      pauseNs += ns;
      maxPauseNs = Math.max(maxPauseNs, ns);
      long ms = ns / 1_000_000;
      int b = ms == 0 ? 0 : Math.min(BUCKETS - 1, 64 - Long.numberOfLeadingZeros(ms));
      pauseBuckets[b]++;
    }
  }

  public long iterations() {
    return iterations;
  }

  public long freerun() {
    return freerun;
  }

  public long sleeps() {
    return sleeps;
  }

  public long pauseNs() {
    return pauseNs;
  }

  public long maxPauseNs() {
    return maxPauseNs;
  }

  /** The pause histogram (class comment). */
  public long[] pauseBuckets() {
    return pauseBuckets.clone();
  }
}
