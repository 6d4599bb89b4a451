package blksim.workload.trace;

/**
 * Which blktrace event of a request's life is taken as its arrival when a blkparse or blktrace
 * trace is read.
 *
 * <p>blktrace records several events per request (Q queued, G, I inserted, D issued to the driver,
 * C completed, ...; {@code blktrace_api.h} {@code __BLK_TA_*}). Replaying the Q events replays
 * what the file system or application submitted (fio's blktrace replay does this,
 * {@code blktrace.c queue_trace()}); D replays what the driver saw after merging and scheduling;
 * C is the last resort for traces that kept only completions.
 */
public enum BlkArrival {
  /** {@code __BLK_TA_QUEUE}: the bio entered the block layer. */
  Q,
  /** {@code __BLK_TA_ISSUE}: the request was issued to the driver. */
  D,
  /** {@code __BLK_TA_COMPLETE}: the request completed (no recorded latency then). */
  C
}
