package blksim.kernel.device;

import blksim.engine.CostDistribution;
import blksim.kernel.block.Bio;
import blksim.kernel.block.BioBasedQueue;
import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.DriverCpu;
import java.util.SplittableRandom;

/**
 * A brd RAM disk as one CPU submits to it: mirrors {@code brd_submit_bio()}, which walks the
 * bio's segments and calls {@code brd_do_bvec()} for each: {@code copy_to_brd_setup()} (allocate
 * the backing page with {@code brd_insert_page()} on the first write to it), then
 * {@code copy_from_brd()} or {@code copy_to_brd()} (look the page up in the device's radix tree
 * or xarray and {@code memcpy} it), and finally {@code bio_endio()}. Everything runs in the
 * submitter's context and the bio completes before {@code submit_bio()} returns
 * (kernel-model.md §7.1).
 *
 * <p>CPU time per bio: {@code fixedCostNs} + pages × {@code perPageReadNs} for a read, or
 * pages × ({@code perPageWriteNs} + {@code firstWriteAllocNs} unless {@code prefilled}) for a
 * write, where pages is the number of 4 KiB pages the bio's range touches. FLUSH and DISCARD
 * cost {@code fixedCostNs} only. Nowait support is the per-device switch {@code nowait}.
 *
 * <p>Simplified:
 * <ul>
 *   <li>The page tree is per device and shared by all CPUs, which partitions cannot share, so
 *       which pages exist is not tracked: {@code prefilled} says whether all of them do (no write
 *       allocates) or none does (every written page allocates: exact for a first pass over an
 *       empty device, an upper bound after it). Reads of a page that does not exist
 *       ({@code memset} instead of {@code memcpy}) cost as much as reads of one that does.</li>
 *   <li>A bio that covers part of a page costs a whole page.</li>
 *   <li>Allocation never fails: the -ENOMEM/-EAGAIN a REQ_NOWAIT write gets in newer kernels when
 *       {@code GFP_NOWAIT} allocation fails is not modelled.</li>
 *   <li>The kernel's brd does not call {@code bio_start_io_acct()}, so {@code /proc/diskstats}
 *       shows zeros for {@code ramN}; this model counts its bios anyway so that reports show the
 *       device's load.</li>
 *   <li>May-2023 brd had no discard support (the block layer would fail a DISCARD with
 *       -EOPNOTSUPP); here a DISCARD succeeds at the fixed cost.</li>
 * </ul>
 *
 * <p>Owned by its {@link DriverCpu}; stateless apart from its disk counters.
 */
public final class BrdQueue extends BioBasedQueue {
  private final BrdParams params;

  /** brd's logical block size: the block layer's default of 512 bytes (the physical is 4 KiB). */
  public static final int LOGICAL_BLOCK_SIZE = 512;

  private final SplittableRandom random;

  public BrdQueue(BrdParams params, BlockLayerParams blockLayer, DriverCpu cpu) {
    this(params, blockLayer, cpu, null);
  }

  /**
   * The queue on {@code cpu}; {@code random} (this queue's own stream) is drawn from only when a
   * per-page cost is a distribution, and may be null when both are constants.
   */
  public BrdQueue(BrdParams params, BlockLayerParams blockLayer, DriverCpu cpu,
      SplittableRandom random) {
    super(params.name(), params.sizeBytes(), LOGICAL_BLOCK_SIZE, params.nowait(), blockLayer,
        cpu);
    this.params = params;
    this.random = random;
  }

  /** {@code pages} draws of {@code c} (one multiplication for a constant). */
  private long pagesNs(CostDistribution c, long pages) {
    if (c.isConstant()) {
      return pages * c.sampleNs(null);
    }
    long sum = 0;
    for (long i = 0; i < pages; i++) {
      sum += c.sampleNs(random);
    }
    return sum;
  }

  /** The device's parameters. */
  public BrdParams params() {
    return params;
  }

  /** CPU time of {@code brd_submit_bio()} for {@code bio}; see the class comment. */
  @Override
  protected long serviceNs(Bio bio) {
    long pages = bio.pageCount();
    switch (bio.op()) {
      case READ:
        return params.fixedCostNs() + pagesNs(params.perPageRead(), pages);
      case WRITE:
        long alloc = params.prefilled() ? 0 : params.firstWriteAllocNs();
        return params.fixedCostNs() + pagesNs(params.perPageWrite(), pages) + pages * alloc;
      default:
        return params.fixedCostNs();
    }
  }
}
