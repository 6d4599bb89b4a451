package blksim.cli;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The host's cost of a dependent memory load by working-set size: a pointer chase over one
 * cache line in every 64 bytes of an {@code int[]}, the lines visited in one random cycle (so
 * neither the hardware prefetcher nor out-of-order execution hides the latency), median of 5
 * passes per size. It puts a figure on what the scaling benchmark's growth is made of (issue
 * 15): a simulated I/O at 4,096 CPUs touches objects last touched a whole step of 4,096 CPUs
 * ago, so its loads cost what a working set of the model's size costs, against an L2-sized one
 * at 64 CPUs.
 *
 * <p>Runs without the build, from the repository root: {@code java
 * modules/cli/src/main/java/blksim/cli/MemoryLatency.java [MiB ...]} (default sizes 0.25 to
 * 256 MiB). Not a model component; it reads the wall clock on purpose.
 */
public final class MemoryLatency {
  private static final int LINE_INTS = 16;
  /** Where each chase's last index goes, so the JIT cannot drop the loads. */
  private static volatile int sink;

  private MemoryLatency() {}

  public static void main(String[] args) {
    double[] mib = args.length == 0
        ? new double[] {0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256}
        : Arrays.stream(args).mapToDouble(Double::parseDouble).toArray();
    System.out.printf("%10s %12s%n", "MiB", "ns per load");
    for (double m : mib) {
      System.out.printf("%10s %12.1f%n", m, nsPerLoad((long) (m * 1024 * 1024), 4_000_000L, 5));
    }
  }

  /**
   * Median ns per dependent load over a working set of {@code bytes}: {@code passes} passes of
   * at least {@code minLoads} loads (and at least 4 per line), after a warm-up of a quarter pass.
   */
  static double nsPerLoad(long bytes, long minLoads, int passes) {
    int lines = (int) Math.max(2, bytes / (LINE_INTS * 4));
    int[] next = new int[lines * LINE_INTS];
    int[] order = new int[lines];
    for (int i = 0; i < lines; i++) {
      order[i] = i;
    }
    SplittableRandom random = new SplittableRandom(42);
    for (int i = lines - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    for (int i = 0; i < lines; i++) {
      next[order[i] * LINE_INTS] = order[(i + 1) % lines] * LINE_INTS;
    }
    long loads = Math.max(minLoads, 4L * lines);
    double[] times = new double[passes];
    sink = chase(next, loads / 4); // warm-up
    for (int r = 0; r < passes; r++) {
      long t0 = System.nanoTime();
      sink = chase(next, loads);
      times[r] = (System.nanoTime() - t0) / (double) loads;
    }
    Arrays.sort(times);
    return times[times.length / 2];
  }

  private static int chase(int[] next, long loads) {
    int i = 0;
    for (long n = 0; n < loads; n++) {
      i = next[i];
    }
    return i;
  }
}
