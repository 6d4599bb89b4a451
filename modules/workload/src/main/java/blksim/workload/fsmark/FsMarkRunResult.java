package blksim.workload.fsmark;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A whole fs_mark run: its command line and the table's lines, one per iteration.
 *
 * @param options the command line
 * @param iterations the lines, in order
 */
public record FsMarkRunResult(FsMarkOptions options, List<FsMarkIteration> iterations) {

  /** Copies the list. */
  public FsMarkRunResult {
    Objects.requireNonNull(options, "options");
    iterations = List.copyOf(iterations);
  }

  /** The mean of the per-iteration Files/sec (0 without iterations). */
  public double filesPerSecMean() {
    return iterations.stream().mapToDouble(i -> i.stats().filesPerSec()).average().orElse(0);
  }

  /**
   * The standard deviation of the per-iteration Files/sec over the iterations: population form
   * (divided by the number of iterations) when {@code sample} is false, sample form (divided by one
   * less) when true; 0 with fewer than two iterations.
   */
  public double filesPerSecStdDev(boolean sample) {
    int n = iterations.size();
    if (n < 2) {
      return 0;
    }
    double mean = filesPerSecMean();
    double ss = 0;
    for (FsMarkIteration i : iterations) {
      double d = i.stats().filesPerSec() - mean;
      ss += d * d;
    }
    return Math.sqrt(ss / (sample ? n - 1 : n));
  }

  /**
   * The closing lines later versions of fs_mark print (josefbacik/fs_mark after 3.3: "Average
   * Files/sec", p50/p90/p99): the average is an {@code unsigned long long} sum to which each
   * {@code float} Files/sec is added in {@code float} arithmetic and truncated back, divided by the
   * count as a {@code float}; the percentiles are the Files/sec truncated to integers at n/2, 9n/10
   * and 99n/100 of the list sorted from fastest to slowest (so "p90" is a slow iteration).
   *
   * @param averageFilesPerSec {@code (float) sum / nr_iters}
   * @param p50 {@code files_per_sec[nr_iters / 2]}
   * @param p90 {@code files_per_sec[(nr_iters * 9) / 10]}
   * @param p99 {@code files_per_sec[(nr_iters * 99) / 100]}
   */
  public record Summary(float averageFilesPerSec, long p50, long p90, long p99) {
  }

  /** The closing summary of later fs_mark versions; needs at least one iteration. */
  public Summary summary() {
    int n = iterations.size();
    if (n == 0) {
      throw new IllegalStateException("no iterations to summarise");
    }
    long[] v = new long[n];
    long sum = 0;
    for (int k = 0; k < n; k++) {
      float fps = iterations.get(k).stats().filesPerSec();
      v[k] = (long) fps;
      sum = (long) ((float) sum + fps); // files_per_sec_sum += iteration_stats.files_per_sec
    }
    Arrays.sort(v);
    // fs_mark sorts descending; index k of the descending list is n-1-k of the ascending one.
    return new Summary((float) sum / n, v[n - 1 - n / 2], v[n - 1 - (n * 9) / 10],
        v[n - 1 - (n * 99) / 100]);
  }
}
