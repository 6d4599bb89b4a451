/**
 * Device mapper (kernel-model.md §8.1-8.5): mapped devices built from tables in
 * {@code dmsetup table} syntax, stacked on other devices of the same CPU, with the linear, zero,
 * delay and zoned targets.
 *
 * <p>Shape: a {@link blksim.kernel.dm.DmParams} (name, parsed {@link blksim.kernel.dm.DmTable},
 * dm-delay version, costs) builds one {@link blksim.kernel.dm.DmQueue} per CPU, which holds that
 * CPU's instances of the table's targets. Everything runs inside the CPU's handling of a message:
 * the submitter maps clones synchronously; dm-delay hands them to its kthread or, through its
 * timer and kdelayd, to a kworker of the same CPU.
 *
 * <p>Glossary (kernel identifier ↔ Java):
 * <ul>
 *   <li>{@code struct mapped_device}, {@code dm_submit_bio()}, {@code __split_and_process_bio()},
 *       {@code __send_empty_flush()}, {@code __map_bio()}, {@code dm_table_supports_nowait()} ↔
 *       {@link blksim.kernel.dm.DmQueue}</li>
 *   <li>{@code struct dm_table}, {@code dm_table_add_target()} ↔
 *       {@link blksim.kernel.dm.DmTable}, one line ↔ {@link blksim.kernel.dm.DmTableEntry},
 *       {@code ti->error} ↔ {@link blksim.kernel.dm.DmTableException}</li>
 *   <li>a target's {@code ctr} arguments ↔ {@link blksim.kernel.dm.DmTargetArgs}</li>
 *   <li>{@code struct dm_target} + {@code struct target_type} ↔
 *       {@link blksim.kernel.dm.DmTarget}; {@code DM_MAPIO_*} ↔
 *       {@link blksim.kernel.dm.DmMapio}</li>
 *   <li>{@code struct dm_io}, {@code dm_io_dec_pending()} ↔ {@code DmIo};
 *       {@code struct dm_target_io} and its clone, {@code dm_submit_bio_remap()},
 *       {@code clone_endio()} ↔ {@link blksim.kernel.dm.DmTargetIo}</li>
 *   <li>{@code linear_map()} ↔ {@link blksim.kernel.dm.LinearTarget};
 *       {@code zero_map()} ↔ {@link blksim.kernel.dm.ZeroTarget}</li>
 *   <li>{@code struct delay_c}, {@code delay_map()}, {@code delay_bio()},
 *       {@code queue_timeout()}, {@code handle_delayed_timer()} ↔
 *       {@link blksim.kernel.dm.DelayTarget}; {@code struct delay_class} ↔
 *       {@link blksim.kernel.dm.DelayClass}; {@code struct dm_delay_info} ↔ {@code DelayedBio};
 *       {@code flush_delayed_bios()} + {@code flush_bios()} ↔ {@code FlushDelayedBios};
 *       {@code flush_worker_fn()} ({@code dm-delay-flush-worker}) ↔
 *       {@link blksim.kernel.dm.DelayFlushWorker}; {@code flush_expired_bios()} on kdelayd ↔
 *       {@link blksim.kernel.dm.DelayKworker}; {@code delay_is_fast()} ↔
 *       {@link blksim.kernel.dm.DelayMode}; the 50 ms rule, {@code worker_sleep_us} ↔
 *       {@link blksim.kernel.dm.DelayVersion}</li>
 *   <li>dm-zoned ({@code drivers/md/dm-zoned-*.c}, §8.5, §15.1): {@code dmzadm --format}'s
 *       layout ↔ {@link blksim.kernel.dm.DmzFormat}; {@code zoned_target}, {@code dmz_map()} ↔
 *       {@link blksim.kernel.dm.DmzTarget} (per CPU) sharing {@code struct dmz_target} ↔
 *       {@link blksim.kernel.dm.DmzDevice} (chunk works, flush work, reclaim scheduling) through
 *       {@link blksim.kernel.dm.DmzContext}; {@code struct dmz_metadata} ↔ {@code DmzMetadata};
 *       {@code struct dm_zone} ↔ {@code DmzZone}; the validity bitmaps ↔ {@code DmzBitmap}
 *       (runs); {@code mblk_sem} ↔ {@code DmzRwSem}; {@code dmz_flush_metadata()} ↔
 *       {@code DmzMetaFlush}; {@code dmz_reclaim_work()} ↔ {@code DmzReclaimRun};
 *       {@code dm_kcopyd_copy()} and its throttle ↔ {@code DmzKcopyd}; the end-of-run dump ↔
 *       {@link blksim.kernel.dm.DmzReportTask}</li>
 *   <li>CPU costs ↔ {@link blksim.kernel.dm.DmCostParams}; the releasing task's CPU time ↔
 *       {@link blksim.kernel.dm.DelayWorkerReport}</li>
 * </ul>
 *
 * <p>Ownership: a {@link blksim.kernel.dm.DmQueue}, its targets, their lists, timers and tasks
 * belong to one {@link blksim.kernel.sched.CpuComponent}; nothing is shared between CPUs, so
 * dm-delay's per-target state exists once per CPU (exact on one CPU). dm-zoned is the exception:
 * its state is one {@link blksim.kernel.dm.DmzDevice} per target shared by every CPU, which is
 * deterministic because its zoned disk keeps the scenario in one partition.
 */
package blksim.kernel.dm;
