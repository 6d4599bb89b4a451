package blksim.workload.fio;

import blksim.workload.fio.FioValues.BadValue;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One direction's {@code random_distribution}: how a random job picks the block of its next I/O.
 *
 * <p>Mirrors {@code str_random_distribution_cb()} ({@code options.c}, the value syntax) and the
 * generators fio draws from ({@code lib/zipf.c} {@code zipf_next()}/{@code pareto_next()},
 * {@code lib/gauss.c} {@code gauss_next()}, and {@code __get_next_rand_offset_zoned()} /
 * {@code _zoned_abs()} in {@code io_u.c}):
 * <ul>
 *   <li>{@code random}: uniform over the region's blocks (with fio's random map unless
 *       {@code norandommap}, see {@link RandomMap});
 *   <li>{@code zipf:θ[:center]}: the rank of the block follows Zipf(θ) over the region's blocks
 *       (Gray et al.'s closed-form approximation, the one fio's {@code zipf_next()} uses, with
 *       ζ(n) summed over at most 10^7 terms as fio does);
 *   <li>{@code pareto:h[:center]}: rank = (n-1)·u^(log h / log(1-h)), fio's {@code pareto_next()};
 *   <li>{@code normal:σ%[:center]}: simplified: a normal with σ = σ% of the region around the
 *       region's middle (or {@code center}), redrawn outside the region; fio approximates it by
 *       the mean of 12 uniforms plus a uniform jitter of width σ%;
 *   <li>{@code zoned:io%/range%:…}: a uniform 1..100 draw picks the zone whose share of I/O
 *       contains it; the block is uniform inside that zone's share of the region, zones laid out
 *       in the order written. {@code zoned_abs:io%/size:…} is the same with absolute zone sizes.
 *       An empty io% shares what the others leave equally.
 * </ul>
 * zipf, pareto and normal scatter the ranks over the region, as fio's {@code __hash_u64()} does,
 * with a bijection (rank·P + offset mod n, P odd and coprime to n) so every rank keeps its own
 * block: the popularity of blocks has the distribution's shape, not fio's exact block sequence.
 * Immutable.
 */
public final class RandomDistribution {
  /** The distribution family. */
  public enum Kind {
    RANDOM,
    ZIPF,
    PARETO,
    NORMAL,
    ZONED,
    ZONED_ABS,
    /** {@code sequence:B0,B1,...}: fio's fixed sequence of block indices. */
    SEQUENCE
  }

  /** One zone of {@code zoned}/{@code zoned_abs}: its share of I/O and of the range. */
  public record Zone(double ioPercent, double rangePercent, long rangeBytes) {}

  /** fio's {@code ZIPF_MAX_GEN}: ζ(n) is summed over at most this many terms. */
  static final long ZIPF_MAX_GEN = 10_000_000L;

  /** The uniform default. */
  public static final RandomDistribution UNIFORM =
      new RandomDistribution(Kind.RANDOM, 0, -1, List.of(), "random");

  private final Kind kind;
  private final double param;
  private final double center;
  private final List<Zone> zones;
  private final String text;

  /** The block indices of {@code sequence}; empty otherwise. */
  private long[] sequence = new long[0];

  /** fio's {@code FIO_SEQ_MAX}: at most 64 elements. */
  static final int SEQ_MAX = 64;

  /**
   * {@code random_distribution=sequence:B0,B1,...} (fio's {@code parse_sequence_distribution()}):
   * the whole value, commas included (they separate the elements, not the directions), up to
   * 64 non-negative block indices.
   */
  static RandomDistribution parseSequence(String v) {
    String list = v.substring("sequence".length());
    if (!list.startsWith(":") || list.length() == 1) {
      throw new BadValue("missing pattern in sequence distribution: sequence:B0,B1,..., was "
          + v);
    }
    String[] parts = list.substring(1).split(",", -1);
    if (parts.length > SEQ_MAX) {
      throw new BadValue("sequence distribution supports up to " + SEQ_MAX + " elements (got "
          + parts.length + ")");
    }
    long[] seq = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      String n = parts[i].strip();
      if (n.isEmpty() || !n.chars().allMatch(Character::isDigit) || n.length() > 9) {
        throw new BadValue("invalid or negative element <" + n + "> in random_sequence");
      }
      seq[i] = Long.parseLong(n);
    }
    RandomDistribution r = new RandomDistribution(Kind.SEQUENCE, 0, -1, List.of(), v);
    r.sequence = seq;
    return r;
  }

  private RandomDistribution(Kind kind, double param, double center, List<Zone> zones,
      String text) {
    this.kind = kind;
    this.param = param;
    this.center = center;
    this.zones = zones;
    this.text = text;
  }

  /** The family. */
  public Kind kind() {
    return kind;
  }

  /** θ of zipf, h of pareto, σ% of normal; 0 otherwise. */
  public double param() {
    return param;
  }

  /** The zones of zoned/zoned_abs, in the order written; empty otherwise. */
  public List<Zone> zones() {
    return zones;
  }

  /** Whether fio keeps its random map for it (only {@code random} does). */
  public boolean usesRandomMap() {
    return kind == Kind.RANDOM;
  }

  @Override
  public String toString() {
    return text;
  }

  /**
   * Parses one direction's value (no comma).
   *
   * @throws BadValue naming the rule broken
   */
  static RandomDistribution parse(String v, int kbBase) {
    String[] p = v.split(":", -1);
    switch (p[0]) {
      case "random":
        if (p.length > 1) {
          throw new BadValue("random takes no parameter, was " + v);
        }
        return UNIFORM;
      case "zipf", "pareto", "normal", "gauss": {
        if (p.length < 2 || p.length > 3 || p[1].isEmpty()) {
          throw new BadValue(p[0] + " needs a value: " + p[0] + ":X[:center], was " + v);
        }
        double x = number(p[1], v);
        Kind k = p[0].equals("zipf") ? Kind.ZIPF : p[0].equals("pareto") ? Kind.PARETO
            : Kind.NORMAL;
        // str_random_distribution_cb(): zipf theta != 1, pareto 0 < h < 1, normal dev >= 0.
        if (k == Kind.ZIPF && (x == 1.0 || x <= 0)) {
          throw new BadValue("zipf theta must be positive and not 1, was " + p[1]);
        }
        if (k == Kind.PARETO && (x <= 0 || x >= 1)) {
          throw new BadValue("pareto h must be in (0, 1), was " + p[1]);
        }
        if (k == Kind.NORMAL && (x < 0 || x > 100)) {
          throw new BadValue("normal deviation must be a percentage in [0, 100], was " + p[1]);
        }
        double c = -1;
        if (p.length == 3) {
          c = number(p[2], v);
          if (c < 0 || c > 1) {
            throw new BadValue("center must be in [0, 1], was " + p[2]);
          }
        }
        return new RandomDistribution(k, x, c, List.of(), v);
      }
      case "zoned", "zoned_abs":
        return zoned(p, v, kbBase);
      case "sequence":
        return parseSequence(v);
      default:
        throw new BadValue("must be random, zipf:θ, pareto:h, normal:σ, zoned:… or zoned_abs:…,"
            + " was " + v);
    }
  }

  private static RandomDistribution zoned(String[] p, String v, int kbBase) {
    boolean abs = p[0].equals("zoned_abs");
    List<double[]> raw = new ArrayList<>();
    List<Long> bytes = new ArrayList<>();
    double ioSum = 0;
    double rangeSum = 0;
    int missing = 0;
    for (int i = 1; i < p.length; i++) {
      String z = p[i];
      int slash = z.indexOf('/');
      if (slash < 0) {
        throw new BadValue("a zone is io%/" + (abs ? "size" : "range%") + ", was " + z);
      }
      String io = z.substring(0, slash);
      String range = z.substring(slash + 1);
      double ioP = io.isEmpty() ? -1 : number(io, v);
      long b = 0;
      double r;
      if (abs) {
        b = FioValues.bytes(range, kbBase);
        r = 0;
      } else {
        r = range.isEmpty() ? -1 : number(range, v);
      }
      if (ioP < 0 && !io.isEmpty() || ioP > 100) {
        throw new BadValue("a zone's io% must be in [0, 100], was " + z);
      }
      if (ioP < 0) {
        missing++;
      } else {
        ioSum += ioP;
      }
      if (!abs && r >= 0) {
        rangeSum += r;
      }
      raw.add(new double[] {ioP, r});
      bytes.add(b);
    }
    if (raw.isEmpty()) {
      throw new BadValue(p[0] + " needs at least one zone, was " + v);
    }
    if (ioSum > 100 + 1e-9 || !abs && rangeSum > 100 + 1e-9) {
      throw new BadValue(p[0] + " percentages add up to more than 100, was " + v);
    }
    List<Zone> zones = new ArrayList<>();
    double share = missing == 0 ? 0 : (100 - ioSum) / missing;
    double io = 0;
    for (int i = 0; i < raw.size(); i++) {
      double[] z = raw.get(i);
      double ioP = z[0] < 0 ? share : z[0];
      double r = z[1] < 0 ? 100 - rangeSum : z[1];
      io += ioP;
      zones.add(new Zone(ioP, abs ? 0 : r, bytes.get(i)));
    }
    if (Math.abs(io - 100) > 1e-6) {
      throw new BadValue(p[0] + " I/O percentages must add up to 100, were " + io + " in " + v);
    }
    return new RandomDistribution(abs ? Kind.ZONED_ABS : Kind.ZONED, 0, -1, List.copyOf(zones),
        v);
  }

  private static double number(String s, String whole) {
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      throw new BadValue("not a number: " + s + " in " + whole);
    }
  }

  /** The generator of this distribution over {@code blocks} blocks of {@code blockBytes}. */
  public Sampler sampler(long blocks, long blockBytes, SplittableRandom random) {
    return new Sampler(blocks, blockBytes, random);
  }

  /** {@link #sampler}, with {@code random_sequence_stride} for a {@code sequence}. */
  public Sampler sampler(long blocks, long blockBytes, SplittableRandom random, boolean stride) {
    Sampler sm = new Sampler(blocks, blockBytes, random);
    sm.stride = stride;
    return sm;
  }

  /**
   * Draws blocks in [0, blocks). Owned by one job thread; its draws come from the job's stream.
   */
  public final class Sampler {
    private final long n;
    private final SplittableRandom random;
    private final long scatterMul;
    private final long scatterOff;
    private final double zetan;
    private final double zeta2;
    private final long[] zoneStart;
    private final long[] zoneBlocks;
    private final double[] zoneCumIo;
    /** {@code sequence}: the draws so far (fio's {@code io_issues[ddir]}) and the stride flag. */
    private long count;
    private boolean stride;

    /**
     * fio's {@code __get_next_rand_offset_sequence()}: element {@code count mod k}; with
     * {@code random_sequence_stride} plus {@code k} times the completed cycles. -1 when beyond
     * the region (fio then has no next offset and the job's I/O ends).
     */
    private long sequenceBlock(long c) {
      int k = sequence.length;
      long b = stride ? c / k * k + sequence[(int) (c % k)] : sequence[(int) (c % k)];
      return b >= n ? -1 : b;
    }

    /** {@code sequence}: whether the next block lies beyond the region (the I/O ends there). */
    public boolean nextOutOfRange() {
      return kind == Kind.SEQUENCE && sequenceBlock(count) < 0;
    }

    /**
     * {@code sequence}: whether the next block is out of range because the written index itself
     * is (fio: "sequence access block N in base pattern out of bounds", EINVAL).
     */
    public boolean baseOutOfRange() {
      return kind == Kind.SEQUENCE && sequence[(int) (count % sequence.length)] >= n;
    }

    Sampler(long blocks, long blockBytes, SplittableRandom random) {
      if (blocks <= 0) {
        throw new IllegalArgumentException("blocks must be > 0, was " + blocks);
      }
      this.n = blocks;
      this.random = random;
      if (kind == Kind.ZIPF || kind == Kind.PARETO || kind == Kind.NORMAL) {
        long mul = (random.nextLong() | 1) & Long.MAX_VALUE;
        while (gcd(mul % n, n) != 1) {
          mul += 2;
        }
        scatterMul = mul % n;
        // shared_rand_init(): a random offset, or n·center when a center is given.
        scatterOff = center >= 0 ? (long) (n * center) % n : Math.floorMod(random.nextLong(), n);
      } else {
        scatterMul = 1;
        scatterOff = 0;
      }
      double z = 0;
      if (kind == Kind.ZIPF) {
        long terms = Math.min(n, ZIPF_MAX_GEN);
        for (long i = 0; i < terms; i++) {
          z += Math.pow(1.0 / (i + 1), param);
        }
      }
      zetan = z;
      zeta2 = 1.0 + Math.pow(0.5, param);
      if (kind == Kind.ZONED || kind == Kind.ZONED_ABS) {
        int k = zones.size();
        zoneStart = new long[k];
        zoneBlocks = new long[k];
        zoneCumIo = new double[k];
        long start = 0;
        double cum = 0;
        for (int i = 0; i < k; i++) {
          Zone zn = zones.get(i);
          long len = kind == Kind.ZONED ? (long) (n * zn.rangePercent() / 100.0)
              : zn.rangeBytes() / blockBytes;
          zoneStart[i] = start;
          zoneBlocks[i] = Math.max(0, Math.min(len, n - start));
          start += len;
          cum += zn.ioPercent();
          zoneCumIo[i] = cum;
        }
      } else {
        zoneStart = null;
        zoneBlocks = null;
        zoneCumIo = null;
      }
    }

    /** The next block, in [0, blocks). */
    public long next() {
      return switch (kind) {
        case RANDOM -> random.nextLong(n);
        case ZIPF, PARETO, NORMAL -> scatter(rank());
        case ZONED, ZONED_ABS -> zoned();
        case SEQUENCE -> sequenceBlock(count++);
      };
    }

    /**
     * The unscattered value: the popularity rank (0 = most popular) for zipf and pareto, the
     * position along the region for normal. For tests of the distribution's shape.
     */
    long rank() {
      switch (kind) {
        case ZIPF: {
          // zipf_next(): Gray et al., "Quickly generating billion-record synthetic databases".
          double alpha = 1.0 / (1.0 - param);
          double eta = (1.0 - Math.pow(2.0 / n, 1.0 - param)) / (1.0 - zeta2 / zetan);
          double u = random.nextDouble();
          double uz = u * zetan;
          long val;
          if (uz < 1.0) {
            val = 1;
          } else if (uz < 1.0 + Math.pow(0.5, param)) {
            val = 2;
          } else {
            val = 1 + (long) (n * Math.pow(eta * u - eta + 1.0, alpha));
          }
          return Math.min(val - 1, n - 1);
        }
        case PARETO: {
          double pow = Math.log(param) / Math.log(1.0 - param);
          return (long) ((n - 1) * Math.pow(random.nextDouble(), pow));
        }
        case NORMAL: {
          double mean = center >= 0 ? center * (n - 1) : (n - 1) / 2.0;
          double sd = n * param / 100.0;
          if (sd == 0) {
            return (long) mean;
          }
          while (true) {
            double x = mean + sd * gaussian();
            if (x >= 0 && x < n) {
              return (long) x;
            }
          }
        }
        default:
          throw new IllegalStateException("no rank for " + kind);
      }
    }

    /** The block of {@code rank}: a bijection of [0, n). */
    long scatter(long rank) {
      if (kind == Kind.NORMAL) {
        // A normal keeps its shape along the region (fio hashes it away; see the class doc).
        return rank;
      }
      long m = n < (1L << 31) ? rank * scatterMul % n : mulMod(rank, scatterMul, n);
      return (m + scatterOff) % n;
    }

    private long zoned() {
      // __get_next_rand_offset_zoned(): v = rand_between(1, 100) picks the zone.
      int v = 1 + random.nextInt(100);
      for (int i = 0; i < zoneCumIo.length; i++) {
        if (v <= zoneCumIo[i] + 1e-9 && zoneBlocks[i] > 0) {
          return zoneStart[i] + random.nextLong(zoneBlocks[i]);
        }
      }
      return random.nextLong(n);
    }

    /** Box–Muller, one value per call (the pair's second value is dropped). */
    private double gaussian() {
      double u1 = random.nextDouble();
      double u2 = random.nextDouble();
      return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
    }
  }

  private static long mulMod(long a, long b, long m) {
    return java.math.BigInteger.valueOf(a).multiply(java.math.BigInteger.valueOf(b))
        .mod(java.math.BigInteger.valueOf(m)).longValue();
  }

  private static long gcd(long a, long b) {
    while (b != 0) {
      long t = a % b;
      a = b;
      b = t;
    }
    return Math.abs(a);
  }
}
