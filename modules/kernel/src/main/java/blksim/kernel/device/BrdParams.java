package blksim.kernel.device;

import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.DriverCpu;
import blksim.engine.CostDistribution;
import blksim.engine.Seeds;
import java.util.SplittableRandom;

/**
 * A brd RAM disk ({@code drivers/block/brd.c}, {@code /dev/ramN}) and the CPU costs of serving
 * it. Every cost is CPU time in the context that submits the bio (kernel-model.md §7.1).
 *
 * <p>Calibration. The only published figure is thread 5's (kernel-model.md §12.5, linux-block,
 * May 2023, 48 fio io_uring jobs on 48 CPUs, 4 KiB random reads, nowait on): 7.9 µs of fio-thread
 * CPU per I/O [D], which also contains fio's own user time and io_uring's inline path. The
 * defaults attribute it as follows [A]: fio user time 0.8 µs [D: usr is 10.1 % of the 97.3 %
 * usr+sys], io_uring and system-call path outside {@code submit_bio()} (io_uring_enter, SQE
 * preparation, bio set-up, CQE posting, reap) 1.6 µs [A], brd itself 5.5 µs = fixed 0.5 µs + one
 * page 5.0 µs [A]. A 4 KiB memcpy on an idle core takes well under 1 µs [A], so the per-page
 * default carries whatever slowed thread 5's machine down (memory traffic of 48 busy CPUs, its
 * kernel configuration); it is the knob to calibrate in the machine profile.
 *
 * <table>
 * <caption>Defaults and their sources</caption>
 * <tr><th>field</th><th>default</th><th>source</th></tr>
 * <tr><td>{@code nowait}</td><td>false</td><td>[S] thread 5 measured brd with nowait off by
 *     default on 6.4-rc1 (§7.1, §13 item 9); recent kernels declare BLK_FEAT_NOWAIT.</td></tr>
 * <tr><td>{@code fixedCostNs}</td><td>500 ns</td><td>[A] {@code submit_bio()} →
 *     {@code brd_submit_bio()} entry, the segment loop, {@code bio_endio()}; share of the 5.5 µs
 *     device part of §12.5's 7.9 µs.</td></tr>
 * <tr><td>{@code perPageReadNs}</td><td>5,000 ns</td><td>[A] {@code brd_lookup_page()} +
 *     4 KiB {@code memcpy} to the bio page; rest of the 5.5 µs device part of §12.5's
 *     7.9 µs.</td></tr>
 * <tr><td>{@code perPageWriteNs}</td><td>5,000 ns</td><td>[A] as a read, copying the other way
 *     ({@code copy_to_brd()}); no published write figure.</td></tr>
 * <tr><td>{@code firstWriteAllocNs}</td><td>1,000 ns</td><td>[A] {@code brd_insert_page()}:
 *     {@code alloc_page(__GFP_ZERO)} (allocation and zeroing 4 KiB) and the radix-tree insert
 *     under {@code brd_lock}; no published figure.</td></tr>
 * <tr><td>{@code prefilled}</td><td>true</td><td>[A] the device was written before it is
 *     measured (thread 5's brd set-up is not shown, §12.5 [U]).</td></tr>
 * </table>
 *
 * @param name disk name, {@code ram0}
 * @param sizeBytes capacity (brd's {@code rd_size}, which is in KiB, here in bytes)
 * @param nowait whether the driver declares QUEUE_FLAG_NOWAIT (a per-device switch)
 * @param fixedCostNs CPU time per bio independent of its size
 * @param perPageRead CPU time per 4 KiB page read: page lookup and copy; a constant, or a
 *     distribution drawn per page (issue 10 item 9)
 * @param perPageWrite CPU time per 4 KiB page written: page lookup and copy; likewise
 * @param firstWriteAllocNs extra CPU time to allocate a backing page on the first write to it
 * @param prefilled whether every page already has its backing page (then no write allocates); if
 *     false, every written page pays {@code firstWriteAllocNs}
 */
public record BrdParams(String name, long sizeBytes, boolean nowait, long fixedCostNs,
    CostDistribution perPageRead, CostDistribution perPageWrite, long firstWriteAllocNs,
    boolean prefilled) implements DeviceParams {

  /** The device with constant per-page costs. */
  public BrdParams(String name, long sizeBytes, boolean nowait, long fixedCostNs,
      long perPageReadNs, long perPageWriteNs, long firstWriteAllocNs, boolean prefilled) {
    this(name, sizeBytes, nowait, fixedCostNs, constant("perPageReadNs", perPageReadNs),
        constant("perPageWriteNs", perPageWriteNs), firstWriteAllocNs, prefilled);
  }

  private static CostDistribution constant(String field, long ns) {
    DeviceChecks.cost(field, ns);
    return CostDistribution.constant(ns);
  }

  /** Mean CPU time per 4 KiB page read, ns (the constant when it is one). */
  public long perPageReadNs() {
    return Math.round(perPageRead.meanNs());
  }

  /** Mean CPU time per 4 KiB page written, ns (the constant when it is one). */
  public long perPageWriteNs() {
    return Math.round(perPageWrite.meanNs());
  }

  /** Default of {@link #nowait}, [S] thread 5's brd. */
  public static final boolean DEFAULT_NOWAIT = false;
  /** Default of {@link #fixedCostNs}, [A]. */
  public static final long DEFAULT_FIXED_COST_NS = 500;
  /** Default of {@link #perPageReadNs}, [A] from §12.5. */
  public static final long DEFAULT_PER_PAGE_READ_NS = 5_000;
  /** Default of {@link #perPageWriteNs}, [A]. */
  public static final long DEFAULT_PER_PAGE_WRITE_NS = 5_000;
  /** Default of {@link #firstWriteAllocNs}, [A]. */
  public static final long DEFAULT_FIRST_WRITE_ALLOC_NS = 1_000;
  /** Default of {@link #prefilled}, [A]. */
  public static final boolean DEFAULT_PREFILLED = true;

  public BrdParams {
    DeviceChecks.name(name);
    if (sizeBytes <= 0 || sizeBytes % 1024 != 0) {
      throw new IllegalArgumentException("sizeBytes must be a positive multiple of 1024 (brd's"
          + " rd_size is in KiB), was " + sizeBytes);
    }
    DeviceChecks.cost("fixedCostNs", fixedCostNs);
    DeviceChecks.cost("perPageReadNs", Math.round(perPageRead.meanNs()));
    DeviceChecks.cost("perPageWriteNs", Math.round(perPageWrite.meanNs()));
    DeviceChecks.cost("firstWriteAllocNs", firstWriteAllocNs);
  }

  /** brd's logical block size, 512 bytes. */
  @Override
  public int blockSize() {
    return BrdQueue.LOGICAL_BLOCK_SIZE;
  }

  /**
   * A {@link BrdQueue} on {@code cpu}. With constant per-page costs brd draws no random numbers;
   * a distribution is drawn per page from a stream of this queue's own, seeded from one value of
   * {@code random} and the CPU id (the queue is touched by its CPU alone).
   */
  @Override
  public BrdQueue newQueue(DriverCpu cpu, BlockLayerParams blockLayer,
      SplittableRandom random) {
    SplittableRandom own = perPageRead.isConstant() && perPageWrite.isConstant() ? null
        : new SplittableRandom(Seeds.forComponent(random.nextLong(), "cpu" + cpu.cpuId()));
    return new BrdQueue(this, blockLayer, cpu, own);
  }

  /** A brd device with every other value at its default. */
  public static BrdParams defaults(String name, long sizeBytes) {
    return new BrdParams(name, sizeBytes, DEFAULT_NOWAIT, DEFAULT_FIXED_COST_NS,
        DEFAULT_PER_PAGE_READ_NS, DEFAULT_PER_PAGE_WRITE_NS, DEFAULT_FIRST_WRITE_ALLOC_NS,
        DEFAULT_PREFILLED);
  }

  /** These parameters with the nowait switch set to {@code on}. */
  public BrdParams withNowait(boolean on) {
    return new BrdParams(name, sizeBytes, on, fixedCostNs, perPageRead, perPageWrite,
        firstWriteAllocNs, prefilled);
  }
}
