package blksim.kernel.device;

import blksim.engine.Seeds;
import blksim.kernel.block.Bio;
import blksim.kernel.block.BioBasedQueue;
import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.ReqOp;
import blksim.kernel.block.DriverCpu;
import java.util.SplittableRandom;

/**
 * A zram device as one CPU submits to it: mirrors {@code zram_submit_bio()}, which serves the bio
 * page by page in the submitter's context and completes it before returning (kernel-model.md
 * §7.2):
 * <ul>
 *   <li>read ({@code zram_bio_read()} → {@code zram_bvec_read()} → {@code zram_read_page()} →
 *       {@code zram_read_from_zspool()}): take the slot lock, look up the handle and flags, then
 *       decompress with the per-CPU stream (compressed page), copy (huge page) or fill (same-filled
 *       page, modelled as free);</li>
 *   <li>write ({@code zram_bio_write()} → {@code zram_bvec_write()} → {@code zram_write_page()}):
 *       detect a same-filled page ({@code page_same_filled()}, then only metadata is stored),
 *       otherwise compress with the per-CPU stream and store the object with {@code zs_malloc()};
 *       a page that compresses too badly is stored uncompressed (huge: compression plus a page
 *       copy);</li>
 *   <li>discard: the slot lock and {@code zram_free_page()} per page; flush: nothing per page.</li>
 * </ul>
 *
 * <p>CPU time per bio: {@code fixedCostNs} + Σ over the 4 KiB pages the bio touches of
 * ({@code slotNs} + the page's kind cost): read: compressed {@code decompressNs}, huge
 * {@code copyNs}, same-filled 0; write: compressed {@code compressNs}, huge {@code compressNs} +
 * {@code copyNs}, same-filled 0.
 *
 * <p>Page kinds. Which kind a page holds is part of the stored data, so it is a fixed function of
 * the page index: a hash of the index and a content seed drawn once from the random stream given
 * to the constructor, compared with the fractions of {@link ZramParams}. The same page therefore
 * has the same kind on every read and write, the cost of a bio is a pure function of the bio, and
 * over many distinct pages the kinds follow the configured mix. Give every CPU's queue of one
 * device a stream with the same seed (for instance derived from the run seed and the device's
 * id) and all CPUs agree on each page's kind.
 *
 * <p>Simplified: writes do not change a page's kind (the workload's data are assumed to have the
 * mix of the stored data); partial-page I/O, which zram would serve with a read-modify-write,
 * cannot arise with zram's 4 KiB logical blocks except for misaligned offsets, which cost as whole
 * pages here; the slot lock and the per-CPU compression stream are never contended (a
 * preempted holder is not modelled). The slot lock is a bit spinlock per 4 KiB slot, so two
 * CPUs collide only on the same page: with 48 jobs reading a 20 GiB device at random, an I/O
 * finds its slot held with probability about 47 / 5.2M (1e-5), negligible; jobs that share a
 * small region or overlap sequentially would contend and are not served by this model; writeback to a backing device, recompression and the
 * {@code zs_malloc()} retry that may sleep are not modelled.
 *
 * <p>Owned by its {@link DriverCpu}; stateless apart from its disk counters.
 */
public final class ZramQueue extends BioBasedQueue {

  /** How zram holds one page. */
  public enum PageKind {
    /** One repeated word, kept as metadata only (ZRAM_SAME). */
    SAME_FILLED,
    /** Stored uncompressed because it compresses too badly (ZRAM_HUGE). */
    HUGE,
    /** Compressed into a zsmalloc object. */
    COMPRESSED
  }

  /** zram's logical block size ({@code ZRAM_LOGICAL_BLOCK_SIZE}, 4 KiB). */
  public static final int LOGICAL_BLOCK_SIZE = 4096;

  /** Odd constant spreading consecutive page indexes over the hash input (the golden ratio). */
  private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

  private final ZramParams params;
  private final long contentSeed;

  /**
   * @param params the device
   * @param blockLayer generic block-layer costs
   * @param cpu the CPU this queue belongs to
   * @param random a seeded stream from the caller; one value is drawn from it, at construction,
   *     to fix the kinds of the device's pages
   */
  public ZramQueue(ZramParams params, BlockLayerParams blockLayer, DriverCpu cpu,
      SplittableRandom random) {
    super(params.name(), params.sizeBytes(), LOGICAL_BLOCK_SIZE, params.nowait(), blockLayer,
        cpu);
    this.params = params;
    this.contentSeed = random.nextLong();
  }

  /** The device's parameters. */
  public ZramParams params() {
    return params;
  }

  /** The kind of the page with index {@code page} (a 4 KiB page number on the device). */
  public PageKind pageKind(long page) {
    double u = (Seeds.mix(contentSeed + page * GOLDEN_GAMMA) >>> 11) * 0x1.0p-53;
    if (u < params.sameFilledFraction()) {
      return PageKind.SAME_FILLED;
    }
    if (u < params.sameFilledFraction() + params.hugeFraction()) {
      return PageKind.HUGE;
    }
    return PageKind.COMPRESSED;
  }

  /** CPU time of {@code zram_submit_bio()} for {@code bio}; see the class comment. */
  @Override
  protected long serviceNs(Bio bio) {
    long pages = bio.pageCount();
    long ns = params.fixedCostNs();
    switch (bio.op()) {
      case READ:
      case WRITE:
        long first = bio.firstPage();
        boolean read = bio.op() == ReqOp.READ;
        for (long p = first; p < first + pages; p++) {
          ns += params.slotNs() + (read ? readNs(pageKind(p)) : writeNs(pageKind(p)));
        }
        return ns;
      case DISCARD:
        return ns + pages * params.slotNs();
      default:
        return ns;
    }
  }

  private long readNs(PageKind kind) {
    switch (kind) {
      case SAME_FILLED:
        return 0;
      case HUGE:
        return params.copyNs();
      default:
        return params.decompressNs();
    }
  }

  private long writeNs(PageKind kind) {
    switch (kind) {
      case SAME_FILLED:
        return 0;
      case HUGE:
        return params.compressNs() + params.copyNs();
      default:
        return params.compressNs();
    }
  }
}
