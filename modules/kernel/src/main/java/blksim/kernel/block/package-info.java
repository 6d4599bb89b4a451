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
 *   <li>errno values ({@code -EAGAIN}, {@code -EOPNOTSUPP}) → {@link blksim.kernel.block.Errno}</li>
 * </ul>
 */
package blksim.kernel.block;
