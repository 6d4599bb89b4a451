package blksim.kernel.device;

import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.DriverCpu;
import java.util.SplittableRandom;

/**
 * A zram device ({@code drivers/block/zram/}, {@code /dev/zramN}): its size, the kinds of pages
 * its stored data consist of, and the CPU costs of serving it. Every cost is CPU time in the
 * context that submits the bio (kernel-model.md §7.2).
 *
 * <p>Page kinds, as zram stores them: <em>same-filled</em> (one repeated word; ZRAM_SAME, kept as
 * metadata only), <em>huge</em> (compresses to at least {@code huge_class_size}; ZRAM_HUGE, kept
 * uncompressed), and <em>compressed</em> (the rest). The fractions describe the data the workload
 * reads and writes; thread 5 did not say whether its data were compressible (§7.2 [U]).
 *
 * <p>Calibration. The only published figure is thread 5's (§12.5, 48 fio io_uring jobs on 48 CPUs,
 * 4 KiB random reads, nowait on): 51.9 µs of fio-thread CPU per I/O [D], which also contains fio's
 * user time and io_uring's inline path. The defaults attribute it as follows [A]: fio user time
 * 1.0 µs [D: usr is 1.85 % of the 99.0 % usr+sys], io_uring and system-call path outside
 * {@code submit_bio()} 1.6 µs [A] (as for brd, see {@link BrdParams}), zram itself 49.3 µs =
 * fixed 0.5 µs + slot 0.5 µs + decompression 48.3 µs, assuming compressible data (the default
 * mix). For comparison, a whole 4 KiB lzo-rle zram read measured with fio on an idle desktop CPU
 * takes about 2.2 µs (mean latency 2235 ns, page-cluster 0, in "Zram Performance Analysis",
 * https://news.cgast.org/news/31091), so the defaults carry whatever slowed thread 5's machine;
 * calibrate them in the machine profile.
 *
 * <table>
 * <caption>Defaults and their sources</caption>
 * <tr><th>field</th><th>default</th><th>source</th></tr>
 * <tr><td>{@code nowait}</td><td>false</td><td>[S] May-2023 zram had no nowait support; thread
 *     5's patch adds it (§7.2).</td></tr>
 * <tr><td>{@code sameFilledFraction}</td><td>0</td><td>[A] thread 5's data unknown (§7.2
 *     [U]).</td></tr>
 * <tr><td>{@code hugeFraction}</td><td>0</td><td>[A] thread 5's data unknown (§7.2 [U]).</td></tr>
 * <tr><td>{@code fixedCostNs}</td><td>500 ns</td><td>[A] {@code submit_bio()} →
 *     {@code zram_submit_bio()}, {@code bio_start_io_acct()}/{@code bio_end_io_acct()},
 *     {@code bio_endio()}; share of the 49.3 µs device part of §12.5's 51.9 µs.</td></tr>
 * <tr><td>{@code slotNs}</td><td>500 ns</td><td>[A] per page: {@code zram_slot_lock()}, the
 *     handle and flag lookup, {@code zram_accessed()}; share of the same 49.3 µs.</td></tr>
 * <tr><td>{@code decompressNs}</td><td>48,300 ns</td><td>[A] per compressed page read:
 *     {@code zcomp_stream_get()}, {@code zs_map_object()}, lzo-rle decompression; the rest of
 *     the 49.3 µs.</td></tr>
 * <tr><td>{@code compressNs}</td><td>117,000 ns</td><td>[A] per page written: per-CPU stream
 *     compression, {@code zs_malloc()} and the copy into zsmalloc. Scaled from the read by the
 *     write/read throughput ratio 2.4 of zram with LZO in Sergey Senozhatsky's iozone run
 *     (commit "zram: add lz4 algorithm backend", 2014: initial write 1,642,744 KB/s, read
 *     3,957,026 KB/s): 2.4 × 49.3 µs − 1.0 µs.</td></tr>
 * <tr><td>{@code copyNs}</td><td>5,000 ns</td><td>[A] per huge page: a 4 KiB {@code memcpy}
 *     from or to the zsmalloc object; the same as brd's per-page default.</td></tr>
 * </table>
 *
 * @param name disk name, {@code zram0}
 * @param sizeBytes capacity ({@code disksize}, page-aligned by zram)
 * @param nowait whether the driver declares QUEUE_FLAG_NOWAIT (a per-device switch)
 * @param sameFilledFraction fraction of pages that are same-filled, in [0, 1]
 * @param hugeFraction fraction of pages that are huge (stored uncompressed), in [0, 1]
 * @param fixedCostNs CPU time per bio independent of its size
 * @param slotNs CPU time per page for the slot lock and lookup, whatever the page's kind
 * @param decompressNs CPU time to decompress one compressed page on a read
 * @param compressNs CPU time to compress one page and store it in zsmalloc on a write (huge pages
 *     pay it too: zram compresses before it finds the result too big)
 * @param copyNs CPU time to copy one huge page, on a read or a write
 */
public record ZramParams(String name, long sizeBytes, boolean nowait, double sameFilledFraction,
    double hugeFraction, long fixedCostNs, long slotNs, long decompressNs, long compressNs,
    long copyNs) implements DeviceParams {

  /** Default of {@link #nowait}, [S] May-2023 zram. */
  public static final boolean DEFAULT_NOWAIT = false;
  /** Default of {@link #sameFilledFraction}, [A]. */
  public static final double DEFAULT_SAME_FILLED_FRACTION = 0;
  /** Default of {@link #hugeFraction}, [A]. */
  public static final double DEFAULT_HUGE_FRACTION = 0;
  /** Default of {@link #fixedCostNs}, [A] from §12.5. */
  public static final long DEFAULT_FIXED_COST_NS = 500;
  /** Default of {@link #slotNs}, [A] from §12.5. */
  public static final long DEFAULT_SLOT_NS = 500;
  /** Default of {@link #decompressNs}, [A] from §12.5. */
  public static final long DEFAULT_DECOMPRESS_NS = 48_300;
  /** Default of {@link #compressNs}, [A] scaled from the read. */
  public static final long DEFAULT_COMPRESS_NS = 117_000;
  /** Default of {@link #copyNs}, [A]. */
  public static final long DEFAULT_COPY_NS = 5_000;

  public ZramParams {
    DeviceChecks.name(name);
    if (sizeBytes <= 0 || sizeBytes % 4096 != 0) {
      throw new IllegalArgumentException("sizeBytes must be a positive multiple of 4096 (zram"
          + " page-aligns disksize), was " + sizeBytes);
    }
    DeviceChecks.fraction("sameFilledFraction", sameFilledFraction);
    DeviceChecks.fraction("hugeFraction", hugeFraction);
    if (sameFilledFraction + hugeFraction > 1) {
      throw new IllegalArgumentException("sameFilledFraction + hugeFraction must be <= 1, was "
          + sameFilledFraction + " + " + hugeFraction);
    }
    DeviceChecks.cost("fixedCostNs", fixedCostNs);
    DeviceChecks.cost("slotNs", slotNs);
    DeviceChecks.cost("decompressNs", decompressNs);
    DeviceChecks.cost("compressNs", compressNs);
    DeviceChecks.cost("copyNs", copyNs);
  }

  /** zram's logical block size, 4 KiB. */
  @Override
  public int blockSize() {
    return ZramQueue.LOGICAL_BLOCK_SIZE;
  }

  /** A {@link ZramQueue} on {@code cpu}, fixing its page kinds with one draw from {@code random}. */
  @Override
  public ZramQueue newQueue(DriverCpu cpu, BlockLayerParams blockLayer,
      SplittableRandom random) {
    return new ZramQueue(this, blockLayer, cpu, random);
  }

  /** A zram device with every other value at its default. */
  public static ZramParams defaults(String name, long sizeBytes) {
    return new ZramParams(name, sizeBytes, DEFAULT_NOWAIT, DEFAULT_SAME_FILLED_FRACTION,
        DEFAULT_HUGE_FRACTION, DEFAULT_FIXED_COST_NS, DEFAULT_SLOT_NS, DEFAULT_DECOMPRESS_NS,
        DEFAULT_COMPRESS_NS, DEFAULT_COPY_NS);
  }

  /** These parameters with the nowait switch set to {@code on}. */
  public ZramParams withNowait(boolean on) {
    return new ZramParams(name, sizeBytes, on, sameFilledFraction, hugeFraction, fixedCostNs,
        slotNs, decompressNs, compressNs, copyNs);
  }

  /** These parameters with the given mix of page kinds. */
  public ZramParams withMix(double sameFilled, double huge) {
    return new ZramParams(name, sizeBytes, nowait, sameFilled, huge, fixedCostNs, slotNs,
        decompressNs, compressNs, copyNs);
  }
}
