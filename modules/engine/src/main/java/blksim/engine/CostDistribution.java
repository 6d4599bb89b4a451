package blksim.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A cost (a time in ns) that may be a distribution instead of a constant, drawn from the seeded
 * stream of the component that pays it (issue 10 item 9). Scenario syntax ({@link #parse}):
 *
 * <ul>
 *   <li>{@code 10us}: a constant; {@link #sampleNs} returns it without touching the stream, so a
 *       run whose costs are all constants draws exactly what it drew before distributions
 *       existed;
 *   <li>{@code uniform(8us, 12us)}: every whole ns in [lo, hi] equally likely (one
 *       {@code nextLong});
 *   <li>{@code normal(mean=10us, sd=1us)}: Gaussian, negative draws clamped to 0 (so with
 *       sd comparable to the mean the sample mean exceeds {@code mean});
 *   <li>{@code lognormal(mean=10us, sd=2us)}: log-normal with that mean and standard deviation
 *       (σ² = ln(1 + sd²/mean²), μ = ln(mean) − σ²/2), the usual shape of a latency;
 *   <li>{@code histogram(8us:1, 10us:6, 40us:0.5)}: an empirical distribution, each value drawn
 *       with probability proportional to its weight (one {@code nextDouble});
 *   <li>{@code histogram(0us..1us:1635, 1us..2us:1272)}: the same with bins, a measured
 *       histogram as tools print it: a bin is drawn by its weight, then a whole ns in
 *       [lo, hi) uniformly (a second draw, {@code nextLong}, only for a bin wider than 1 ns).
 *       Plain values and bins may be mixed; a value is a bin of width 0.
 * </ul>
 *
 * <p>Draws are rounded to whole ns. Gaussian draws use {@code SplittableRandom.nextGaussian()}
 * (Java 17's ziggurat), which may consume a variable number of values from the stream, always
 * the same for the same seed.
 *
 * <p>Simplified: a histogram of plain values is discrete, a binned one uniform inside each bin;
 * the normal is clamped, not truly truncated.
 */
public final class CostDistribution {

  /** The shape of a distribution. */
  public enum Kind {
    CONSTANT,
    UNIFORM,
    NORMAL,
    LOGNORMAL,
    HISTOGRAM
  }

  private static final Pattern CALL =
      Pattern.compile("\\s*([a-z]+)\\s*\\((.*)\\)\\s*", Pattern.DOTALL);
  private static final Pattern DURATION =
      Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?(?:[eE][0-9]+)?)\\s*(ns|us|µs|ms|s)?\\s*");

  private final Kind kind;
  private final long a;
  private final long b;
  private final double mu;
  private final double sigma;
  private final long[] values;
  /** Bin widths (hi - lo) of a histogram, or null when every entry is a plain value. */
  private final long[] widths;
  private final double[] cumulative;
  private final String text;

  private CostDistribution(Kind kind, long a, long b, double mu, double sigma, long[] values,
      double[] cumulative, String text) {
    this(kind, a, b, mu, sigma, values, null, cumulative, text);
  }

  private CostDistribution(Kind kind, long a, long b, double mu, double sigma, long[] values,
      long[] widths, double[] cumulative, String text) {
    this.kind = kind;
    this.a = a;
    this.b = b;
    this.mu = mu;
    this.sigma = sigma;
    this.values = values;
    this.widths = widths;
    this.cumulative = cumulative;
    this.text = text;
  }

  /** A constant of {@code ns} (>= 0). */
  public static CostDistribution constant(long ns) {
    if (ns < 0) {
      throw new IllegalArgumentException("a cost must be >= 0 ns, was " + ns);
    }
    return new CostDistribution(Kind.CONSTANT, ns, ns, ns, 0, null, null, ns + "ns");
  }

  /** Every whole ns in [{@code loNs}, {@code hiNs}] equally likely. */
  public static CostDistribution uniform(long loNs, long hiNs) {
    if (loNs < 0 || hiNs < loNs) {
      throw new IllegalArgumentException("uniform(lo, hi) needs 0 <= lo <= hi, was uniform("
          + loNs + "ns, " + hiNs + "ns)");
    }
    return new CostDistribution(Kind.UNIFORM, loNs, hiNs, 0, 0, null, null,
        "uniform(" + loNs + "ns, " + hiNs + "ns)");
  }

  /** Gaussian of {@code meanNs} and {@code sdNs}, negative draws clamped to 0. */
  public static CostDistribution normal(long meanNs, long sdNs) {
    if (meanNs < 0 || sdNs < 0) {
      throw new IllegalArgumentException("normal(mean, sd) needs mean >= 0 and sd >= 0");
    }
    return new CostDistribution(Kind.NORMAL, meanNs, sdNs, meanNs, sdNs, null, null,
        "normal(mean=" + meanNs + "ns, sd=" + sdNs + "ns)");
  }

  /** Log-normal with mean {@code meanNs} and standard deviation {@code sdNs}. */
  public static CostDistribution lognormal(long meanNs, long sdNs) {
    if (meanNs <= 0 || sdNs < 0) {
      throw new IllegalArgumentException("lognormal(mean, sd) needs mean > 0 and sd >= 0");
    }
    double m = meanNs;
    double s2 = Math.log(1 + ((double) sdNs * sdNs) / (m * m));
    return new CostDistribution(Kind.LOGNORMAL, meanNs, sdNs, Math.log(m) - s2 / 2,
        Math.sqrt(s2), null, null, "lognormal(mean=" + meanNs + "ns, sd=" + sdNs + "ns)");
  }

  /** Value {@code valuesNs[i]} with probability proportional to {@code weights[i]}. */
  public static CostDistribution histogram(long[] valuesNs, double[] weights) {
    return histogram(valuesNs, new long[valuesNs.length], weights);
  }

  /**
   * Bin {@code [loNs[i], loNs[i] + widthNs[i])} with probability proportional to
   * {@code weights[i]}, uniform inside it; a width of 0 is the plain value {@code loNs[i]}.
   */
  public static CostDistribution histogram(long[] loNs, long[] widthNs, double[] weights) {
    long[] valuesNs = loNs;
    if (valuesNs.length == 0 || valuesNs.length != weights.length
        || widthNs.length != valuesNs.length) {
      throw new IllegalArgumentException("histogram needs at least one value:weight pair");
    }
    double total = 0;
    for (int i = 0; i < weights.length; i++) {
      if (!(weights[i] >= 0) || Double.isInfinite(weights[i]) || valuesNs[i] < 0
          || widthNs[i] < 0) {
        throw new IllegalArgumentException("histogram values and weights must be >= 0");
      }
      total += weights[i];
    }
    if (!(total > 0)) {
      throw new IllegalArgumentException("histogram weights must not all be 0");
    }
    double[] cum = new double[weights.length];
    double run = 0;
    boolean binned = false;
    StringBuilder sb = new StringBuilder("histogram(");
    for (int i = 0; i < weights.length; i++) {
      run += weights[i];
      cum[i] = run / total;
      sb.append(i == 0 ? "" : ", ").append(valuesNs[i]).append("ns");
      if (widthNs[i] > 0) {
        binned = true;
        sb.append("..").append(valuesNs[i] + widthNs[i]).append("ns");
      }
      sb.append(':').append(weights[i]);
    }
    cum[cum.length - 1] = 1.0;
    return new CostDistribution(Kind.HISTOGRAM, 0, 0, 0, 0, valuesNs.clone(),
        binned ? widthNs.clone() : null, cum, sb.append(')').toString());
  }

  /** True for a value that looks like a distribution call ({@code name(...)}). */
  public static boolean isDistribution(String s) {
    return CALL.matcher(s).matches();
  }

  /**
   * Parses a distribution call (see the class comment), or a plain duration as a constant.
   * Durations take a unit (ns, us, ms, s); {@code bareNs} lets a bare number mean ns (keys named
   * after a kernel parameter in ns). Throws {@link IllegalArgumentException} with the rule.
   */
  public static CostDistribution parse(String s, boolean bareNs) {
    Matcher m = CALL.matcher(s);
    if (!m.matches()) {
      return constant(duration(s, bareNs));
    }
    String name = m.group(1).toLowerCase(Locale.ROOT);
    String[] args = m.group(2).trim().isEmpty() ? new String[0] : m.group(2).split(",");
    switch (name) {
      case "uniform": {
        long[] v = named(name, args, new String[] {"lo", "hi"}, bareNs);
        return uniform(v[0], v[1]);
      }
      case "normal": {
        long[] v = named(name, args, new String[] {"mean", "sd"}, bareNs);
        return normal(v[0], v[1]);
      }
      case "lognormal": {
        long[] v = named(name, args, new String[] {"mean", "sd"}, bareNs);
        return lognormal(v[0], v[1]);
      }
      case "histogram": {
        List<Long> vals = new ArrayList<>();
        List<Long> wids = new ArrayList<>();
        List<Double> ws = new ArrayList<>();
        for (String arg : args) {
          String[] p = arg.split(":");
          if (p.length != 2) {
            throw new IllegalArgumentException("histogram takes value:weight pairs such as"
                + " histogram(8us:1, 10us:6) or bin:weight pairs such as"
                + " histogram(0us..1us:5, 1us..2us:3), got '" + arg.trim() + "'");
          }
          int dots = p[0].indexOf("..");
          if (dots >= 0) {
            long lo = duration(p[0].substring(0, dots), bareNs);
            long hi = duration(p[0].substring(dots + 2), bareNs);
            if (hi <= lo) {
              throw new IllegalArgumentException("a histogram bin lo..hi needs lo < hi, got '"
                  + p[0].trim() + "'");
            }
            vals.add(lo);
            wids.add(hi - lo);
          } else {
            vals.add(duration(p[0], bareNs));
            wids.add(0L);
          }
          try {
            ws.add(Double.parseDouble(p[1].trim()));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("histogram weight must be a number, was '"
                + p[1].trim() + "'");
          }
        }
        long[] v = new long[vals.size()];
        long[] wd = new long[vals.size()];
        double[] w = new double[ws.size()];
        for (int i = 0; i < v.length; i++) {
          v[i] = vals.get(i);
          wd[i] = wids.get(i);
          w[i] = ws.get(i);
        }
        return histogram(v, wd, w);
      }
      default:
        throw new IllegalArgumentException("unknown distribution '" + name
            + "': use a duration, uniform(lo, hi), normal(mean=, sd=), lognormal(mean=, sd=)"
            + " or histogram(value:weight, ...)");
    }
  }

  /** Two arguments, positional or {@code name=value}. */
  private static long[] named(String fn, String[] args, String[] names, boolean bareNs) {
    if (args.length != names.length) {
      throw new IllegalArgumentException(fn + " takes " + names.length + " arguments ("
          + String.join(", ", names) + "), got " + args.length);
    }
    long[] out = new long[names.length];
    for (int i = 0; i < args.length; i++) {
      String arg = args[i].trim();
      int eq = arg.indexOf('=');
      if (eq >= 0) {
        String key = arg.substring(0, eq).trim();
        if (!key.equals(names[i])) {
          throw new IllegalArgumentException(fn + "'s argument " + (i + 1) + " must be "
              + names[i] + ", was " + key);
        }
        arg = arg.substring(eq + 1);
      }
      out[i] = duration(arg, bareNs);
    }
    return out;
  }

  private static long duration(String s, boolean bareNs) {
    Matcher m = DURATION.matcher(s);
    if (!m.matches()) {
      throw new IllegalArgumentException("must be a duration such as 10us or a distribution"
          + " such as lognormal(mean=10us, sd=2us), was '" + s.trim() + "'");
    }
    double num = Double.parseDouble(m.group(1));
    String unit = m.group(2);
    if (unit == null) {
      if (!bareNs && num != 0) {
        throw new IllegalArgumentException("needs a unit (ns, us, ms, s), was '" + s.trim()
            + "'");
      }
      unit = "ns";
    }
    double scale = switch (unit) {
      case "ns" -> 1;
      case "us", "µs" -> 1e3;
      case "ms" -> 1e6;
      default -> 1e9;
    };
    return Math.round(num * scale);
  }

  /** The shape. */
  public Kind kind() {
    return kind;
  }

  /** True for a constant (no draws). */
  public boolean isConstant() {
    return kind == Kind.CONSTANT;
  }

  /** The distribution's mean in ns (before normal's clamping at 0). */
  public double meanNs() {
    switch (kind) {
      case CONSTANT:
        return a;
      case UNIFORM:
        return (a + (double) b) / 2;
      case NORMAL:
      case LOGNORMAL:
        return a;
      default:
        double mean = 0;
        double prev = 0;
        for (int i = 0; i < values.length; i++) {
          double mid = widths == null ? values[i] : values[i] + (widths[i] - 1) / 2.0;
          if (widths != null && widths[i] == 0) {
            mid = values[i];
          }
          mean += mid * (cumulative[i] - prev);
          prev = cumulative[i];
        }
        return mean;
    }
  }

  /** The smallest value a draw may take, ns. */
  public long minNs() {
    switch (kind) {
      case CONSTANT:
      case UNIFORM:
        return a;
      case HISTOGRAM:
        long min = Long.MAX_VALUE;
        for (long v : values) {
          min = Math.min(min, v);
        }
        return min;
      default:
        return 0;
    }
  }

  /**
   * One draw in ns (>= 0). A constant returns its value and draws nothing from {@code random}.
   */
  public long sampleNs(SplittableRandom random) {
    switch (kind) {
      case CONSTANT:
        return a;
      case UNIFORM:
        return a == b ? a : a + random.nextLong(b - a + 1);
      case NORMAL:
        return Math.max(0, Math.round(a + b * random.nextGaussian()));
      case LOGNORMAL:
        return Math.round(Math.exp(mu + sigma * random.nextGaussian()));
      default: {
        double u = random.nextDouble();
        int i = 0;
        while (i < cumulative.length - 1 && !(u < cumulative[i])) {
          i++;
        }
        if (widths == null || widths[i] <= 1) {
          return values[i];
        }
        return values[i] + random.nextLong(widths[i]);
      }
    }
  }

  /** Equal when the canonical text (kind and parameters in ns) is equal. */
  @Override
  public boolean equals(Object o) {
    return o instanceof CostDistribution d && d.text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  /** The scenario syntax of this distribution, in ns. */
  @Override
  public String toString() {
    return text;
  }
}
