package blksim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Costs as distributions (issue 10 item 9): parsing, moments and stream use. */
@Timeout(30)
class CostDistributionTest {
  private static final int N = 200_000;

  /** Sample mean and standard deviation of {@code N} draws with seed 42. */
  private static double[] moments(CostDistribution d) {
    SplittableRandom r = new SplittableRandom(42);
    double sum = 0;
    double sq = 0;
    long min = Long.MAX_VALUE;
    for (int i = 0; i < N; i++) {
      long x = d.sampleNs(r);
      min = Math.min(min, x);
      sum += x;
      sq += (double) x * x;
    }
    double mean = sum / N;
    return new double[] {mean, Math.sqrt(sq / N - mean * mean), min};
  }

  private static void assertNear(double want, double got, double rel, String what) {
    assertTrue(Math.abs(got - want) <= rel * want, what + ": want " + want + " ± " + (rel * 100)
        + "%, got " + got);
  }

  @Test
  void lognormal_hasTheGivenMeanAndSd() {
    double[] m = moments(CostDistribution.parse("lognormal(mean=10us, sd=2us)", false));
    assertNear(10_000, m[0], 0.01, "mean");
    assertNear(2_000, m[1], 0.03, "sd");
    assertTrue(m[2] > 0, "a log-normal is positive");
  }

  @Test
  void normal_andUniform_haveTheirMoments() {
    double[] n = moments(CostDistribution.parse("normal(mean=10us, sd=1us)", false));
    assertNear(10_000, n[0], 0.01, "normal mean");
    assertNear(1_000, n[1], 0.03, "normal sd");
    double[] u = moments(CostDistribution.parse("uniform(8us, 12us)", false));
    assertNear(10_000, u[0], 0.01, "uniform mean");
    assertNear(4_000 / Math.sqrt(12), u[1], 0.03, "uniform sd");
    assertTrue(u[2] >= 8_000);
  }

  @Test
  void normal_isClampedAtZero() {
    double[] n = moments(CostDistribution.normal(1_000, 2_000));
    assertEquals(0, n[2], "negative draws become 0");
  }

  @Test
  void histogram_drawsItsValuesInProportionToTheWeights() {
    CostDistribution h = CostDistribution.parse("histogram(10us:3, 40us:1)", false);
    assertEquals(17_500, h.meanNs(), 1e-6);
    double[] m = moments(h);
    assertNear(17_500, m[0], 0.01, "mean");
    assertEquals(10_000, m[2]);
  }

  @Test
  void binnedHistogram_isUniformInsideItsBins() {
    CostDistribution h = CostDistribution.parse("histogram(0us..1us:3, 1us..2us:1, 5us:0)",
        false);
    assertEquals("histogram(0ns..1000ns:3.0, 1000ns..2000ns:1.0, 5000ns:0.0)", h.toString());
    assertEquals(0.75 * 499.5 + 0.25 * 1499.5, h.meanNs(), 1e-6);
    SplittableRandom r = new SplittableRandom(5);
    int[] perHundred = new int[20];
    for (int i = 0; i < N; i++) {
      long x = h.sampleNs(r);
      assertTrue(x >= 0 && x < 2_000, "inside the bins: " + x);
      perHundred[(int) (x / 100)]++;
    }
    // 3/4 of the draws spread over the ten 100 ns slices of the first bin, 1/4 over the second.
    for (int k = 0; k < 20; k++) {
      assertNear(k < 10 ? 0.075 * N : 0.025 * N, perHundred[k], 0.05, "slice " + k);
    }
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> CostDistribution.parse("histogram(2us..1us:1)", false)).getMessage()
        .contains("lo < hi"));
  }

  @Test
  void plainHistogram_drawsAsBefore() {
    // A histogram without bins takes one nextDouble per draw, as it did before bins existed.
    CostDistribution h = CostDistribution.parse("histogram(10us:3, 40us:1)", false);
    SplittableRandom r = new SplittableRandom(9);
    SplittableRandom ref = new SplittableRandom(9);
    for (int i = 0; i < 1000; i++) {
      long want = ref.nextDouble() < 0.75 ? 10_000 : 40_000;
      assertEquals(want, h.sampleNs(r));
    }
  }

  @Test
  void constant_drawsNothingFromTheStream() {
    CostDistribution c = CostDistribution.parse("10us", false);
    assertTrue(c.isConstant());
    SplittableRandom r = new SplittableRandom(7);
    assertEquals(10_000, c.sampleNs(r));
    assertEquals(new SplittableRandom(7).nextLong(), r.nextLong(), "stream untouched");
    assertEquals(10_000, c.sampleNs(null));
  }

  @Test
  void sameSeed_sameDraws() {
    CostDistribution d = CostDistribution.parse("lognormal(10us, 3us)", false);
    SplittableRandom a = new SplittableRandom(3);
    SplittableRandom b = new SplittableRandom(3);
    for (int i = 0; i < 1000; i++) {
      assertEquals(d.sampleNs(a), d.sampleNs(b));
    }
  }

  @Test
  void badValues_sayTheRule() {
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> CostDistribution.parse("gamma(1us, 2us)", false)).getMessage()
        .contains("unknown distribution 'gamma'"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> CostDistribution.parse("lognormal(mean=10us)", false)).getMessage()
        .contains("takes 2 arguments"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> CostDistribution.parse("normal(sd=1us, mean=10us)", false)).getMessage()
        .contains("must be mean"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> CostDistribution.parse("uniform(12us, 8us)", false)).getMessage()
        .contains("lo <= hi"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> CostDistribution.parse("uniform(8, 12us)", false)).getMessage()
        .contains("needs a unit"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> CostDistribution.parse("histogram(10us)", false)).getMessage()
        .contains("value:weight"));
    assertEquals(8, CostDistribution.parse("uniform(8, 12)", true).minNs(), "bare ns for -nsec");
  }
}
