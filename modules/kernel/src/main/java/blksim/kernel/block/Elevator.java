package blksim.kernel.block;

/**
 * An I/O scheduler of a {@link RequestQueue} ({@code struct elevator_type}): where requests wait
 * between insertion and dispatch, which queued request a bio merges into, and which request the
 * driver gets next. Owned by its queue.
 */
interface Elevator {

  /** The scheduler's sysfs name. */
  String name();

  /**
   * {@code blk_mq_sched_bio_merge()}: merges {@code bio} into a queued (not dispatched) request
   * if the scheduler's rules allow; returns whether it did.
   */
  boolean bioMerge(Bio bio, BioEndIo endIo);

  /**
   * Inserts {@code rq} ({@code ->insert_requests}) at {@code now}; returns true if it merged into
   * a queued request instead ({@code blk_mq_sched_try_insert_merge()}) and is to be freed.
   */
  boolean insert(Request rq, long now);

  /** The next request for the driver ({@code ->dispatch_request}), removed; null if none. */
  Request dispatch(long now);

  /**
   * {@code ->finish_request}: {@code rq} completed (mq-deadline unlocks its zone on a zoned
   * device). Nothing by default.
   */
  default void finishRequest(Request rq) {}

  /** Requests waiting ({@code ->has_work}). */
  int queued();
}
