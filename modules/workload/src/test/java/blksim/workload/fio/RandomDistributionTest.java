package blksim.workload.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The shapes of fio's random distributions (not fio's exact sequences). */
class RandomDistributionTest {
  private static final int N = 1000;
  private static final int DRAWS = 200_000;

  private static RandomDistribution.Sampler sampler(String spec) {
    return RandomDistribution.parse(spec, 1024).sampler(N, 4096, new SplittableRandom(42));
  }

  /** Hits per block, most popular first. */
  private static long[] sortedCounts(RandomDistribution.Sampler s) {
    long[] c = new long[N];
    for (int i = 0; i < DRAWS; i++) {
      long b = s.next();
      assertTrue(b >= 0 && b < N, "block " + b);
      c[(int) b]++;
    }
    Arrays.sort(c);
    long[] desc = new long[N];
    for (int i = 0; i < N; i++) {
      desc[i] = c[N - 1 - i];
    }
    return desc;
  }

  @Test
  void zipf_rankFrequenciesFollowOneOverRankToTheTheta() {
    double theta = 1.2;
    long[] c = sortedCounts(sampler("zipf:" + theta));
    // Zipf: p(k) = k^-θ / ζ(n). ζ(1000) for θ = 1.2 summed here; share of the top block
    // 1/ζ ≈ 1/4.59 ≈ 0.218 (ζ(∞, 1.2) = 5.59; the tail from 1001 is ≈ 1000^-0.2/0.2 ≈ 1.0).
    double zeta = 0;
    for (int k = 1; k <= N; k++) {
      zeta += Math.pow(k, -theta);
    }
    double top = (double) c[0] / DRAWS;
    assertEquals(1 / zeta, top, 0.02, "top block share");
    // Second rank: 2^-1.2 ≈ 0.435 of the first (Gray's method puts exactly that mass on rank 2).
    assertEquals(Math.pow(2, -theta), (double) c[1] / c[0], 0.05);
    // Top 10% of blocks take the share Σ_{k≤100} k^-θ / ζ.
    double top10 = 0;
    for (int k = 1; k <= 100; k++) {
      top10 += Math.pow(k, -theta);
    }
    long hits = 0;
    for (int i = 0; i < 100; i++) {
      hits += c[i];
    }
    assertEquals(top10 / zeta, (double) hits / DRAWS, 0.03);
  }

  @Test
  void pareto_hotSetShare() {
    // pareto:h → rank = (n-1)·u^p, p = log h / log(1-h). With h = 0.2, p = log 0.2/log 0.8 ≈ 7.21:
    // ranks below 0.2·n take P(u^p < 0.2) = 0.2^(1/p) = 0.2^0.1386 ≈ 0.80 of the I/O (the 80/20
    // rule that gives pareto its name).
    long[] c = sortedCounts(sampler("pareto:0.2"));
    long hot = 0;
    for (int i = 0; i < N / 5; i++) {
      hot += c[i];
    }
    double p = Math.log(0.2) / Math.log(0.8);
    assertEquals(Math.pow(0.2, 1 / p), (double) hot / DRAWS, 0.02);
  }

  @Test
  void normal_spreadIsTheGivenPercentOfTheRange() {
    // normal:10 → σ = 10% of 1000 blocks = 100 around the middle (499.5).
    RandomDistribution.Sampler s = sampler("normal:10");
    double sum = 0;
    double sq = 0;
    for (int i = 0; i < DRAWS; i++) {
      long b = s.next();
      sum += b;
      sq += (double) b * b;
    }
    double mean = sum / DRAWS;
    double sd = Math.sqrt(sq / DRAWS - mean * mean);
    assertEquals(499.5, mean, 2);
    // flooring to a block lowers nothing systematic in σ beyond ~0.3 blocks.
    assertEquals(100, sd, 3);
  }

  @Test
  void zoned_sharesOfIoLandInTheirRanges() {
    // zoned:50/5:30/15:20/ → 50% of I/O in the first 5% of blocks, 30% in the next 15%, 20% in
    // the remaining 80% (formats.md 1.2).
    RandomDistribution.Sampler s = sampler("zoned:50/5:30/15:20/");
    long[] zone = new long[3];
    for (int i = 0; i < DRAWS; i++) {
      long b = s.next();
      zone[b < 50 ? 0 : b < 200 ? 1 : 2]++;
    }
    assertEquals(0.50, (double) zone[0] / DRAWS, 0.01);
    assertEquals(0.30, (double) zone[1] / DRAWS, 0.01);
    assertEquals(0.20, (double) zone[2] / DRAWS, 0.01);
  }

  @Test
  void zonedAbs_sharesOfIoLandInTheirSizes() {
    // zoned_abs:60/400k:40/ → 60% of I/O in the first 400 KiB = 100 blocks of 4 KiB.
    RandomDistribution.Sampler s = sampler("zoned_abs:60/400k:40/3600k");
    long first = 0;
    for (int i = 0; i < DRAWS; i++) {
      if (s.next() < 100) {
        first++;
      }
    }
    assertEquals(0.60, (double) first / DRAWS, 0.01);
  }

  @Test
  void scatter_isABijection() {
    RandomDistribution.Sampler s = sampler("zipf:0.8");
    boolean[] hit = new boolean[N];
    for (long r = 0; r < N; r++) {
      long b = s.scatter(r);
      assertTrue(!hit[(int) b], "rank " + r + " maps to a taken block " + b);
      hit[(int) b] = true;
    }
  }

  @Test
  void badValues_areRejected() {
    assertThrows(FioValues.BadValue.class, () -> RandomDistribution.parse("zipf:1", 1024));
    assertThrows(FioValues.BadValue.class, () -> RandomDistribution.parse("pareto:1.5", 1024));
    assertThrows(FioValues.BadValue.class, () -> RandomDistribution.parse("zoned:60/10:50/90",
        1024));
    assertThrows(FioValues.BadValue.class, () -> RandomDistribution.parse("gamma:2", 1024));
  }
}
