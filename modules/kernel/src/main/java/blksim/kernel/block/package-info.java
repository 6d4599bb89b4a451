/**
 * The block layer: bios, their submission and the per-CPU view of a device's queue
 * (kernel-model.md §5).
 *
 * <p>Glossary (kernel identifier → Java):
 * <ul>
 *   <li>{@code struct bio} → {@link blksim.kernel.block.Bio}; {@code bi_end_io} →
 *       {@link blksim.kernel.block.BioEndIo}; {@code enum req_op} →
 *       {@link blksim.kernel.block.ReqOp}</li>
 *   <li>{@code submit_bio()}, {@code submit_bio_noacct()} → {@link blksim.kernel.block.BlockLayer}
 *       (the REQ_NOWAIT check) and {@link blksim.kernel.block.BlockQueue#submitCostNs} /
 *       {@link blksim.kernel.block.BlockQueue#issue}</li>
 *   <li>a blk-mq hardware context or a bio-based driver's {@code ->submit_bio}, seen from one
 *       CPU → {@link blksim.kernel.block.BlockQueue}; a synchronous bio-based driver →
 *       {@link blksim.kernel.block.BioBasedQueue}</li>
 *   <li>QUEUE_FLAG_NOWAIT / BLK_FEAT_NOWAIT, {@code bdev_nowait()} →
 *       {@link blksim.kernel.block.BlockQueue#supportsNowait}</li>
 *   <li>{@code struct disk_stats} ({@code /proc/diskstats}) →
 *       {@link blksim.kernel.block.DiskCounters}</li>
 *   <li>{@code struct request} → {@link blksim.kernel.block.Request}; {@code struct
 *       request_queue} with one hardware context, its tags and its run →
 *       {@link blksim.kernel.block.RequestQueue} (one per device, shared by all CPUs); its
 *       parameters ({@code nr_requests}, {@code queue_depth}, {@code max_sectors_kb}) →
 *       {@link blksim.kernel.block.RequestQueueParams}; {@code struct blk_mq_ops} →
 *       {@link blksim.kernel.block.MqDriver}</li>
 *   <li>{@code struct blk_plug}, {@code blk_start_plug()}, {@code blk_finish_plug()},
 *       {@code blk_flush_plug()} → {@link blksim.kernel.block.Plug}; the version's limits
 *       ({@code BLK_MAX_REQUEST_COUNT}, {@code BLK_PLUG_FLUSH_SIZE}) →
 *       {@link blksim.kernel.block.BlkMqRules}</li>
 *   <li>elevators {@code none} and {@code mq-deadline} → {@code NoneElevator},
 *       {@code MqDeadline} ({@link blksim.kernel.block.MqDeadlineParams})</li>
 *   <li>{@code kblockd_mod_delayed_work_on()} → {@link blksim.kernel.block.Kblockd}</li>
 *   <li>errno values ({@code -EAGAIN}, {@code -EOPNOTSUPP}) → {@link blksim.kernel.block.Errno}</li>
 * </ul>
 */
package blksim.kernel.block;
