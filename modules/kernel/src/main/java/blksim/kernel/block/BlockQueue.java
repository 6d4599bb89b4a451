package blksim.kernel.block;

/**
 * The submission side of a block device as one CPU sees it: a blk-mq hardware context mapped to
 * the CPU, or a bio-based driver's {@code submit_bio}. One instance per (device, CPU); it acts
 * only inside its CPU's handling of a message.
 *
 * <p>The protocol, in the submitting task's context: pay {@link #submitCostNs} as system time,
 * then call {@link #issue} once. A device whose {@link #supportsNowait} can be false applies the
 * check of {@code submit_bio_noacct()} ({@link BlockLayer#checkSubmit}) in both, so that a
 * REQ_NOWAIT bio it cannot take costs only the check and completes at once with an error.
 */
public interface BlockQueue {

  /** The disk's name, {@code nullb0}. */
  String diskName();

  /** Capacity in bytes. */
  long capacityBytes();

  /** Logical block size in bytes (512 or 4096). */
  int logicalBlockSize();

  /**
   * Whether the device takes REQ_NOWAIT bios (QUEUE_FLAG_NOWAIT, later BLK_FEAT_NOWAIT). blk-mq
   * devices do by default; bio-based drivers opt in (see {@link BioBasedQueue}).
   */
  default boolean supportsNowait() {
    return true;
  }

  /**
   * CPU time in system mode that the submitting task spends in the block layer and the driver to
   * submit {@code bio} (from {@code submit_bio()} to the driver's {@code queue_rq()} returning, or,
   * for a synchronous bio-based driver, to its {@code submit_bio} returning with the data
   * copied). A pure function of the bio and the device's parameters: calling it twice gives the
   * same answer.
   */
  long submitCostNs(Bio bio);

  /**
   * Issues {@code bio} after its submission cost was paid, and returns whether the bio was taken
   * (it is in flight, or it already completed).
   *
   * <p>Returns false, and does nothing, only when no driver tag is free and the bio may sleep: the
   * caller sleeps and retries after {@code onTagFree} runs (mirrors {@code blk_mq_get_tag()}
   * sleeping on the tag wait queue). A REQ_NOWAIT bio never waits: it completes at once through
   * {@code endIo}, before this method returns, with {@code -EOPNOTSUPP} if the device does not
   * support nowait, or {@code -EAGAIN} if no tag is free. On success {@code endIo} runs with 0
   * when the bio completes, possibly before this method returns (a driver that completes inline).
   *
   * <p>The retry after false passes the same {@code Bio} object (every caller keeps it): a
   * request-based queue that split the bio and had submitted some of its pieces before the wait
   * finds them by the bio's identity and goes on from the piece that waited, with the
   * {@code endIo} of the first call ({@link RequestQueue}).
   */
  boolean issue(Bio bio, BioEndIo endIo, Runnable onTagFree);

  /**
   * {@link #issue(Bio, BioEndIo, Runnable)} by a task holding {@code plug} ({@code current->plug};
   * null or not started: none). A request-based queue ({@link RequestQueue}) merges the bio into
   * the plug or adds its request there (kernel-model.md §5.4); other drivers ignore the plug, as
   * bio-based drivers do.
   */
  default boolean issue(Bio bio, BioEndIo endIo, Runnable onTagFree, Plug plug) {
    return issue(bio, endIo, onTagFree);
  }

  /**
   * The largest request the queue builds ({@code max_sectors}, in bytes), or
   * {@link Long#MAX_VALUE} where the model does not split bios (bio-based queues). A request-based
   * queue splits a larger bio itself ({@code bio_split_to_limits()}, {@link RequestQueue}), so
   * bio builders (the writeback flusher, direct I/O, readahead) build up to
   * {@code BIO_MAX_VECS} pages and do not read this.
   */
  default long maxRequestBytes() {
    return Long.MAX_VALUE;
  }

  /**
   * The zone layout and write pointers of a zoned device (what {@code BLKREPORTZONE},
   * {@code BLKGETZONESZ} and sysfs give user space), or null for a regular device.
   */
  default ZoneGeometry zones() {
    return null;
  }

  /**
   * Whether the device has a volatile write cache ({@code BLK_FEAT_WRITE_CACHE}, QUEUE_FLAG_WC
   * before 6.11). Without one, {@code submit_bio_noacct()} strips REQ_PREFLUSH and REQ_FUA and
   * completes an empty flush at once, without reaching the driver. No device model here has a
   * write cache; a stacked device that takes flushes itself (dm) may say true.
   */
  default boolean writeCache() {
    return false;
  }

  /** The driver's one-line summary of the drive's state ({@link MqDriver#summary}), or "". */
  default String driveSummary() {
    return "";
  }

  /** The queue's writeback throttling ({@link Wbt}), or null when it has none. */
  default Wbt wbt() {
    return null;
  }

  /** This CPU's share of the disk's statistics. */
  DiskCounters counters();

  /** The device's trace ({@code q->blk_trace}), or null when it is not traced. */
  default blksim.kernel.blktrace.BlkTrace blkTrace() {
    return null;
  }

  /**
   * Whether REQ_POLLED bios are polled on this queue (a blk-mq device with poll queues,
   * {@code QUEUE_FLAG_POLL}); false: {@code submit_bio_noacct()} clears REQ_POLLED and the bio
   * completes by interrupt.
   */
  default boolean polled() {
    return false;
  }

  /**
   * {@code bio_poll()} of a bio submitted through this view, by a task polling on CPU
   * {@code on}: completes the REQ_POLLED requests of the bio's hardware context that the
   * hardware has finished, in the caller's context on {@code on} (no interrupt), and returns how
   * many. 0 on a queue that does not {@link #polled() poll}.
   */
  default int poll(DriverCpu on) {
    return 0;
  }

  /**
   * Registers a task polling this queue: {@code waker} runs when a polled request of it becomes
   * findable by {@link #poll} ({@link MqDriver#pollWaker}; nvme's poll queues).
   */
  default void pollWaker(Runnable waker) {}

  /** The CPU this view submits from, or null when the queue does not say. */
  default DriverCpu cpu() {
    return null;
  }
}
