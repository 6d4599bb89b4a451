package blksim.workload.fio;

import java.util.SplittableRandom;

/**
 * {@code random_generator=lfsr}: a pseudo-random order that visits every block of the region
 * exactly once per pass without any map.
 *
 * <p>fio's {@code lib/lfsr.c} steps a maximal-length linear feedback shift register over the
 * smallest power of two holding the block count and skips the states beyond it. Simplified:
 * blksim steps a full-period linear congruential generator modulo the same power of two
 * (x → a·x + c mod 2^k with c odd and a ≡ 1 mod 4, which has period 2^k by the Hull–Dobell
 * theorem) and skips the values beyond the block count the same way; the order differs from fio's,
 * the once-per-pass property and the O(1) memory do not. Owned by one job thread.
 */
public final class FullPeriodSequence {
  private final long blocks;
  private final long mask;
  private final long a;
  private final long c;
  private final long start;
  private long x;
  private long emitted;

  /** A sequence over {@code blocks} blocks, its constants drawn from {@code random}. */
  public FullPeriodSequence(long blocks, SplittableRandom random) {
    if (blocks <= 0) {
      throw new IllegalArgumentException("blocks must be > 0, was " + blocks);
    }
    this.blocks = blocks;
    int bits = 64 - Long.numberOfLeadingZeros(Math.max(1, blocks - 1));
    this.mask = bits >= 63 ? Long.MAX_VALUE : (1L << bits) - 1;
    this.a = ((random.nextLong() << 2) | 1) & mask;
    this.c = (random.nextLong() | 1) & mask;
    this.start = random.nextLong() & mask;
    this.x = start;
  }

  /** The next block of this pass, or -1 when every block has been returned once. */
  public long next() {
    if (emitted == blocks) {
      return -1;
    }
    do {
      x = (a * x + c) & mask;
    } while (x >= blocks);
    emitted++;
    return x;
  }

  /** A new pass (the same order again, as fio's {@code lfsr_reset()}). */
  public void reset() {
    x = start;
    emitted = 0;
  }
}
