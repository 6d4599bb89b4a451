package blksim.kernel.block;

/**
 * The version-dependent rules of plugging and queue runs (kernel-model.md §5.4, §15.4.1).
 *
 * <table>
 * <caption>The two rule sets and their sources</caption>
 * <tr><th>field</th><th>{@link #V4_3}</th><th>{@link #V6}</th><th>source</th></tr>
 * <tr><td>{@code maxRequestCount}</td><td>16</td><td>32</td><td>[S] {@code BLK_MAX_REQUEST_COUNT}
 *     in {@code block/blk-core.c} (4.3: checked in {@code blk_queue_bio()} and
 *     {@code blk_sq_make_request()}) and {@code include/linux/blkdev.h} (6.x:
 *     {@code blk_add_rq_to_plug()})</td></tr>
 * <tr><td>{@code plugFlushSizeBytes}</td><td>0 (no rule)</td><td>128 KiB</td><td>[S]
 *     {@code BLK_PLUG_FLUSH_SIZE}: 6.x {@code blk_add_rq_to_plug()} flushes when the last request
 *     in the plug is at least this big; it came after 4.3 (4.3's rule is the count alone)</td></tr>
 * <tr><td>{@code doubleForMultipleQueues}</td><td>false</td><td>true</td><td>[S] 6.x
 *     {@code blk_plug_max_rq_count()}: twice the count when the plug spans several queues</td></tr>
 * <tr><td>{@code plugMergeWholeList}</td><td>true</td><td>false</td><td>[S] 4.3
 *     {@code blk_attempt_plug_merge()} walks the whole plug list backwards; 6.x tries the last
 *     request only</td></tr>
 * <tr><td>{@code elevatorSubmitRunsAsync}</td><td>false</td><td>true</td><td>[S] unplugged bio on a
 *     queue with an elevator: 6.x {@code blk_mq_submit_bio()} inserts and runs the hardware queue
 *     with async = true (kblockd); 4.3's legacy {@code blk_queue_bio()} calls
 *     {@code __blk_run_queue()} at once</td></tr>
 * <tr><td>{@code restartRunsAsync}</td><td>false</td><td>true</td><td>[S] a completion that frees
 *     a tag while requests wait: 6.x {@code blk_mq_sched_restart()} /
 *     {@code scsi_run_queue_async()} run the queue through kblockd; 4.3's
 *     {@code scsi_run_queue()} runs the legacy queue from the completion</td></tr>
 * </table>
 *
 * @param maxRequestCount requests a plug holds before adding one more flushes it
 * @param plugFlushSizeBytes a plug whose last request has at least this many bytes is flushed
 *     before the next request is added (0: no such rule)
 * @param doubleForMultipleQueues the count doubles when the plug holds requests of several queues
 * @param plugMergeWholeList plug merging tries every request of the plug, newest first (else the
 *     newest only)
 * @param elevatorSubmitRunsAsync an unplugged request inserted into an elevator runs the queue
 *     through kblockd (else at once, in the submitter's context)
 * @param restartRunsAsync a completion that frees a tag while requests wait re-runs the queue
 *     through kblockd (else at once, in the completion's context)
 */
public record BlkMqRules(int maxRequestCount, long plugFlushSizeBytes,
    boolean doubleForMultipleQueues, boolean plugMergeWholeList, boolean elevatorSubmitRunsAsync,
    boolean restartRunsAsync) {

  /** {@code BLK_PLUG_FLUSH_SIZE}: 128 KiB. */
  public static final long BLK_PLUG_FLUSH_SIZE = 128 * 1024;

  /** 4.3 (kernel mode V4_3_RC1): the legacy request path's limits on the blk-mq layer. */
  public static final BlkMqRules V4_3 = new BlkMqRules(16, 0, false, true, false, false);

  /** 6.x (every later kernel mode). */
  public static final BlkMqRules V6 =
      new BlkMqRules(32, BLK_PLUG_FLUSH_SIZE, true, false, true, true);

  public BlkMqRules {
    if (maxRequestCount < 1) {
      throw new IllegalArgumentException("maxRequestCount must be >= 1, was " + maxRequestCount);
    }
    if (plugFlushSizeBytes < 0) {
      throw new IllegalArgumentException("plugFlushSizeBytes must be >= 0, was "
          + plugFlushSizeBytes);
    }
  }
}
