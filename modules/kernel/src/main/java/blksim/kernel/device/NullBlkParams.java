package blksim.kernel.device;

import blksim.kernel.block.BlkMqRules;
import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.DriverCpu;
import blksim.kernel.block.Kblockd;
import blksim.kernel.block.MqDeadlineParams;
import blksim.kernel.block.RequestQueueParams;
import blksim.kernel.block.RequestQueueParams.Scheduler;
import blksim.engine.CostDistribution;
import java.util.SplittableRandom;

/**
 * A null_blk device ({@code drivers/block/null_blk}) in {@code queue_mode=2} (blk-mq, the
 * module's default), with the module parameters' names. Its requests go through the shared
 * blk-mq request layer ({@link NullBlkDriver}).
 *
 * <table>
 * <caption>Defaults and their sources</caption>
 * <tr><th>field</th><th>default</th><th>source</th></tr>
 * <tr><td>{@code hwQueueDepth}</td><td>64</td><td>[S] {@code g_hw_queue_depth}</td></tr>
 * <tr><td>{@code submitQueues}</td><td>{@link #PER_CPU}: one per CPU</td><td>blksim's choice,
 *     not the module's 1: it is the per-CPU hardware context blksim always modelled (so existing
 *     figures stay), what null_blk benchmarks usually load ({@code submit_queues=$(nproc)}), and
 *     it keeps each context's state on one CPU, so runs may be partitioned freely. The kernel
 *     clamps a larger value to {@code nr_cpu_ids} and 0 to 1
 *     ({@code null_validate_conf()})</td></tr>
 * <tr><td>{@code scheduler}</td><td>null (auto)</td><td>[S] {@code elevator_get_default()}:
 *     mq-deadline with one hardware queue, none with several</td></tr>
 * <tr><td>{@code nrRequests}</td><td>0 (auto)</td><td>[S] {@code blk_mq_init_sched()}:
 *     2 × min(depth, 128) with a scheduler; the driver tags without one</td></tr>
 * <tr><td>{@code maxBytes}</td><td>255 sectors (130,560 bytes)</td><td>[S] null_blk's
 *     {@code max_sectors} of 0 takes {@code queue_max_hw_sectors()}, the default limit
 *     {@code BLK_SAFE_MAX_SECTORS} (6.6 {@code null_add_dev()}); {@code max_sectors_kb} reads
 *     127</td></tr>
 * </table>
 *
 * @param name disk name, {@code nullb0}
 * @param sizeBytes capacity ({@code gb} parameter, in bytes here)
 * @param blockSize logical block size ({@code bs}, 512 or 4096)
 * @param hwQueueDepth driver tags per hardware queue ({@code hw_queue_depth}, default 64)
 * @param irqmode completion mode ({@code irqmode}, default softirq)
 * @param completion completion time in timer mode ({@code completion_nsec}, default a constant
 *     10,000 ns); a distribution (issue 10 item 9) is drawn per request from the stream of the
 *     CPU that ran {@code queue_rq} (see {@link NullBlkDriver}); the real module's timer is a
 *     constant, so a spread stands for the device being modelled, not null_blk
 * @param submitCostNs CPU time of the submission path per request: {@code submit_bio} through
 *     blk-mq to {@code null_queue_rq} (machine profile)
 * @param completionCostNs CPU time of completing a request in interrupt or softirq context,
 *     including the bio's end_io and the wakeup (machine profile)
 * @param submitQueues hardware queues ({@code submit_queues}); {@link #PER_CPU} for one per CPU;
 *     more than the CPUs is clamped to the CPUs as the kernel does
 * @param scheduler the I/O scheduler, or null for the kernel's default choice
 * @param nrRequests scheduler tags per hardware queue ({@code nr_requests}), or 0 for the
 *     kernel's default
 * @param maxBytes largest request a merge may build ({@code max_sectors}, in bytes)
 * @param rules the kernel version's plugging and queue-run rules
 * @param sharedTags the module's {@code shared_tags}: the device's hardware queue {@code i}
 *     draws its driver tags from {@code tags[i]} of one tag set shared by every null_blk device
 *     with it on ({@code null_init_global_tag_set()}); with two or more such devices fair
 *     sharing applies ({@link blksim.kernel.block.BlkMqTags})
 * @param sharedTagBitmap the module's {@code shared_tag_bitmap}
 *     ({@code BLK_MQ_F_TAG_HCTX_SHARED}): every hardware queue of the device (of all devices with
 *     {@code sharedTags}) draws from one map of {@code hw_queue_depth} tags
 * @param pollQueues the module's {@code poll_queues}: 0 (blksim's default; the module's is 1)
 *     for none, so REQ_POLLED bios complete by interrupt; more makes the device poll REQ_POLLED
 *     requests ({@link NullBlkDriver#poll}). Loaded as {@code submit_queues} is, it must be at
 *     most the CPUs ({@code null_validate_conf()} clamps it to {@code nr_cpu_ids})
 */
public record NullBlkParams(String name, long sizeBytes, int blockSize, int hwQueueDepth,
    IrqMode irqmode, CostDistribution completion, long submitCostNs, long completionCostNs,
    int submitQueues, Scheduler scheduler, int nrRequests, long maxBytes, BlkMqRules rules,
    boolean sharedTags, boolean sharedTagBitmap, int pollQueues)
    implements DeviceParams {

  /** The device without poll queues. */
  public NullBlkParams(String name, long sizeBytes, int blockSize, int hwQueueDepth,
      IrqMode irqmode, CostDistribution completion, long submitCostNs, long completionCostNs,
      int submitQueues, Scheduler scheduler, int nrRequests, long maxBytes, BlkMqRules rules,
      boolean sharedTags, boolean sharedTagBitmap) {
    this(name, sizeBytes, blockSize, hwQueueDepth, irqmode, completion, submitCostNs,
        completionCostNs, submitQueues, scheduler, nrRequests, maxBytes, rules, sharedTags,
        sharedTagBitmap, 0);
  }

  /** These parameters with {@code poll_queues} of {@code n} (0: none). */
  public NullBlkParams withPollQueues(int n) {
    return new NullBlkParams(name, sizeBytes, blockSize, hwQueueDepth, irqmode, completion,
        submitCostNs, completionCostNs, submitQueues, scheduler, nrRequests, maxBytes, rules,
        sharedTags, sharedTagBitmap, n);
  }

  /** The device with a tag set of its own, one map per hardware queue (the module's default). */
  public NullBlkParams(String name, long sizeBytes, int blockSize, int hwQueueDepth,
      IrqMode irqmode, CostDistribution completion, long submitCostNs, long completionCostNs,
      int submitQueues, Scheduler scheduler, int nrRequests, long maxBytes, BlkMqRules rules) {
    this(name, sizeBytes, blockSize, hwQueueDepth, irqmode, completion, submitCostNs,
        completionCostNs, submitQueues, scheduler, nrRequests, maxBytes, rules, false, false);
  }

  /** These parameters with {@code shared_tags} and {@code shared_tag_bitmap} as given. */
  public NullBlkParams withSharedTags(boolean shared, boolean bitmap) {
    return new NullBlkParams(name, sizeBytes, blockSize, hwQueueDepth, irqmode, completion,
        submitCostNs, completionCostNs, submitQueues, scheduler, nrRequests, maxBytes, rules,
        shared, bitmap, pollQueues);
  }

  /** null_blk's default {@code hw_queue_depth}. */
  public static final int DEFAULT_HW_QUEUE_DEPTH = 64;
  /** null_blk's default {@code completion_nsec}. */
  public static final long DEFAULT_COMPLETION_NS = 10_000;
  /** {@link #submitQueues} value for one hardware queue per CPU. */
  public static final int PER_CPU = 0;
  /** {@code BLK_SAFE_MAX_SECTORS} (255) in bytes: null_blk's default largest request. */
  public static final long DEFAULT_MAX_BYTES = 255 * 512;

  /**
   * The device as blksim has always built it: one hardware queue per CPU, no scheduler (also on
   * one CPU, where the kernel's default would be mq-deadline), {@code nr_requests} equal to the
   * driver tags, the default {@code max_sectors} and 6.x rules.
   */
  public NullBlkParams(String name, long sizeBytes, int blockSize, int hwQueueDepth,
      IrqMode irqmode, long completionNs, long submitCostNs, long completionCostNs) {
    this(name, sizeBytes, blockSize, hwQueueDepth, irqmode, completionNs, submitCostNs,
        completionCostNs, PER_CPU, Scheduler.NONE, 0, DEFAULT_MAX_BYTES, BlkMqRules.V6);
  }

  /** The device with a constant {@code completion_nsec} of {@code completionNs}. */
  public NullBlkParams(String name, long sizeBytes, int blockSize, int hwQueueDepth,
      IrqMode irqmode, long completionNs, long submitCostNs, long completionCostNs,
      int submitQueues, Scheduler scheduler, int nrRequests, long maxBytes, BlkMqRules rules) {
    this(name, sizeBytes, blockSize, hwQueueDepth, irqmode, constantCompletion(completionNs),
        submitCostNs, completionCostNs, submitQueues, scheduler, nrRequests, maxBytes, rules);
  }

  private static CostDistribution constantCompletion(long completionNs) {
    if (completionNs < 0) {
      throw new IllegalArgumentException("completion_nsec must be >= 0, was " + completionNs);
    }
    return CostDistribution.constant(completionNs);
  }

  /** The mean completion time in timer mode, ns (the constant when it is one). */
  public long completionNs() {
    return Math.round(completion.meanNs());
  }

  public NullBlkParams {
    if (sizeBytes <= 0 || sizeBytes % 4096 != 0) {
      throw new IllegalArgumentException("size must be a positive multiple of 4 KiB, was "
          + sizeBytes);
    }
    if (blockSize != 512 && blockSize != 4096) {
      throw new IllegalArgumentException("bs must be 512 or 4096, was " + blockSize);
    }
    if (hwQueueDepth < 1 || hwQueueDepth > 65536) {
      throw new IllegalArgumentException("hw_queue_depth must be in [1, 65536], was "
          + hwQueueDepth);
    }
    java.util.Objects.requireNonNull(completion, "completion");
    if (submitCostNs < 0 || completionCostNs < 0) {
      throw new IllegalArgumentException("CPU costs must be >= 0");
    }
    if (submitQueues < 0) {
      throw new IllegalArgumentException("submit_queues must be >= 1 (or per CPU), was "
          + submitQueues);
    }
    if (nrRequests < 0 || nrRequests > 65536) {
      throw new IllegalArgumentException("nr_requests must be in [1, 65536], was " + nrRequests);
    }
    if (scheduler == Scheduler.NONE && nrRequests > hwQueueDepth) {
      throw new IllegalArgumentException("nr_requests without a scheduler cannot exceed"
          + " hw_queue_depth (" + hwQueueDepth + "): the requests are the driver tags, was "
          + nrRequests);
    }
    if (maxBytes < blockSize || maxBytes % 512 != 0) {
      throw new IllegalArgumentException("max_sectors must be a multiple of 512 bytes of at least"
          + " the block size, was " + maxBytes);
    }
    java.util.Objects.requireNonNull(rules, "rules");
    if (pollQueues < 0) {
      throw new IllegalArgumentException("poll_queues must be >= 0, was " + pollQueues);
    }
  }

  /** Hardware queues on a machine of {@code nCpus} CPUs (clamped as the kernel does). */
  public int hwQueues(int nCpus) {
    return submitQueues == PER_CPU ? nCpus : Math.min(submitQueues, nCpus);
  }

  /** The scheduler with {@code hwQueues} hardware queues: the given one, else the kernel's. */
  public Scheduler schedulerFor(int hwQueues) {
    return RequestQueueParams.schedulerFor(scheduler, hwQueues);
  }

  /** {@code nr_requests} with {@code hwQueues} hardware queues. */
  public int nrRequestsFor(int hwQueues) {
    return nrRequests != 0 ? nrRequests
        : RequestQueueParams.defaultNrRequests(hwQueueDepth, schedulerFor(hwQueues));
  }

  /** The request-queue parameters of each of {@code hwQueues} hardware contexts. */
  public RequestQueueParams queueParams(int hwQueues) {
    return new RequestQueueParams(name, sizeBytes, blockSize, hwQueueDepth,
        nrRequestsFor(hwQueues), schedulerFor(hwQueues), maxBytes,
        RequestQueueParams.DEFAULT_MAX_SEGMENTS, MqDeadlineParams.DEFAULTS, rules, submitCostNs,
        completionCostNs);
  }

  /**
   * A stand-alone view on {@code cpu} alone (a device on a one-CPU machine whose only CPU is
   * {@code cpu}; for tests): a {@link NullBlkDriver} with one hardware context, whose queue runs
   * go to {@link Kblockd#INLINE}. Scenarios build one driver per device with
   * {@link NullBlkDriver#NullBlkDriver} and attach every CPU.
   */
  @Override
  public BlockQueue newQueue(DriverCpu cpu, BlockLayerParams blockLayer,
      SplittableRandom random) {
    int[] map = new int[cpu.cpuId() + 1];
    return new NullBlkDriver(this, map, 1, Kblockd.INLINE).attach(cpu);
  }
}
