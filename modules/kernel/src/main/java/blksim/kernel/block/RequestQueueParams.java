package blksim.kernel.block;

import java.util.Locale;

/**
 * A request-based (blk-mq) device's queue limits, scheduler and CPU costs (kernel-model.md §5.3,
 * §5.7).
 *
 * <table>
 * <caption>Defaults and their sources</caption>
 * <tr><th>field</th><th>default</th><th>source</th></tr>
 * <tr><td>{@code nrRequests}</td><td>2 × min(queueDepth, 128) with a scheduler, queueDepth
 *     without</td><td>[S] {@code blk_mq_init_sched()} ({@code BLKDEV_DEFAULT_RQ} 128); §5.3 [A]
 *     treats it as configurable (4.3's legacy queue: 128)</td></tr>
 * <tr><td>{@code maxBytes}</td><td>512 KiB</td><td>[A] §15.5 T4 "max request 512 KiB"</td></tr>
 * <tr><td>{@code maxSegments}</td><td>128</td><td>[S] {@code BLK_MAX_SEGMENTS}, and libata's
 *     {@code LIBATA_MAX_PRD}</td></tr>
 * <tr><td>{@code submitCostNs}</td><td>profile {@code costs.blk-mq.submit}</td><td>[A]</td></tr>
 * <tr><td>{@code completionCostNs}</td><td>profile {@code costs.blk-mq.complete}</td><td>[A]</td></tr>
 * </table>
 *
 * @param name the disk's name ({@code sdb})
 * @param capacityBytes capacity
 * @param logicalBlockSize logical block size, 512 or 4096
 * @param queueDepth driver tags of the (single) hardware queue ({@code queue_depth}; a SATA
 *     disk's NCQ depth)
 * @param nrRequests scheduler tags ({@code nr_requests}): requests that may exist at once, in
 *     plugs, in the scheduler or at the driver
 * @param scheduler the I/O scheduler
 * @param maxBytes largest request ({@code max_sectors_kb})
 * @param maxSegments most physical segments of a request ({@code max_segments})
 * @param deadline mq-deadline's tunables (used when {@code scheduler} is mq-deadline)
 * @param rules the kernel version's plugging and run rules
 * @param submitCostNs CPU time per bio from {@code submit_bio()} through blk-mq, including a
 *     dispatch to the driver in the same context
 * @param completionCostNs interrupt-context CPU time per request: the driver's completion, the
 *     bios' {@code bio_endio()} and the wakeups they cause
 */
public record RequestQueueParams(String name, long capacityBytes, int logicalBlockSize,
    int queueDepth, int nrRequests, Scheduler scheduler, long maxBytes, int maxSegments,
    MqDeadlineParams deadline, BlkMqRules rules, long submitCostNs, long completionCostNs) {

  /** Default of {@link #maxBytes}. */
  public static final long DEFAULT_MAX_BYTES = 512 * 1024;
  /** Default of {@link #maxSegments}. */
  public static final int DEFAULT_MAX_SEGMENTS = 128;

  /** The I/O schedulers modelled. */
  public enum Scheduler {
    /** {@code none}. */
    NONE,
    /** {@code mq-deadline} (also the legacy {@code deadline}). */
    MQ_DEADLINE;

    /** Parses {@code none}, {@code mq-deadline} or {@code deadline}. */
    public static Scheduler parse(String s) {
      switch (s.trim().toLowerCase(Locale.ROOT)) {
        case "none":
          return NONE;
        case "mq-deadline":
        case "deadline":
          return MQ_DEADLINE;
        default:
          throw new IllegalArgumentException("scheduler must be none, mq-deadline or deadline,"
              + " was '" + s + "'");
      }
    }

    /** The sysfs name. */
    public String sysfsName() {
      return this == NONE ? "none" : "mq-deadline";
    }
  }

  /**
   * The scheduler of a blk-mq queue with {@code hwQueues} hardware queues: {@code given}, or when
   * it is null the kernel's default ({@code elevator_get_default()}: mq-deadline for a single
   * hardware queue, none for several).
   */
  public static Scheduler schedulerFor(Scheduler given, int hwQueues) {
    if (given != null) {
      return given;
    }
    return hwQueues == 1 ? Scheduler.MQ_DEADLINE : Scheduler.NONE;
  }

  /** The kernel's default {@code nr_requests} for {@code queueDepth} and {@code scheduler}. */
  public static int defaultNrRequests(int queueDepth, Scheduler scheduler) {
    return scheduler == Scheduler.NONE ? queueDepth : 2 * Math.min(queueDepth, 128);
  }

  public RequestQueueParams {
    if (capacityBytes <= 0 || capacityBytes % 4096 != 0) {
      throw new IllegalArgumentException("size must be a positive multiple of 4 KiB, was "
          + capacityBytes);
    }
    if (logicalBlockSize != 512 && logicalBlockSize != 4096) {
      throw new IllegalArgumentException("bs must be 512 or 4096, was " + logicalBlockSize);
    }
    if (queueDepth < 1 || queueDepth > 65536) {
      throw new IllegalArgumentException("queue-depth must be in [1, 65536], was " + queueDepth);
    }
    if (nrRequests < 1 || nrRequests > 65536) {
      throw new IllegalArgumentException("nr-requests must be in [1, 65536], was " + nrRequests);
    }
    if (scheduler == Scheduler.NONE && nrRequests > queueDepth) {
      throw new IllegalArgumentException("nr-requests without a scheduler cannot exceed"
          + " queue-depth (" + queueDepth + "): the requests are the driver tags, was "
          + nrRequests);
    }
    if (maxBytes < logicalBlockSize || maxBytes % 512 != 0) {
      throw new IllegalArgumentException("max-sectors must be a multiple of 512 bytes of at least"
          + " the block size, was " + maxBytes);
    }
    if (maxSegments < 1) {
      throw new IllegalArgumentException("max-segments must be >= 1, was " + maxSegments);
    }
    if (submitCostNs < 0 || completionCostNs < 0) {
      throw new IllegalArgumentException("CPU costs must be >= 0");
    }
  }
}
