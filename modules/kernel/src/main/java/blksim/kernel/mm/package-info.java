/**
 * Memory management for buffered writes: the dirty limits and the I/O-less dirty throttling of
 * Linux 4.3's mm/page-writeback.c (kernel-model.md §9.1-9.2, §15.4.2), as plain deterministic
 * arithmetic for the writeback model to call; and the buffered-read path: for files of a
 * filesystem, {@code filemap_read()} with Linux 6.6's readahead windows
 * ({@link blksim.kernel.mm.FilemapRead}, {@link blksim.kernel.mm.Readahead}: pages kept in the
 * cache, sync and async readahead, the PG_readahead marker, fadvise), with the costs of
 * {@link blksim.kernel.mm.PageCacheParams}; for a block device opened without O_DIRECT,
 * {@link blksim.kernel.fs.BlockDeviceFile}'s own miss path, which keeps no page (every buffered
 * read misses and reads only the requested range: the figures of the experiments that use it
 * were made that way, and moving it onto {@code FilemapRead} would move them).
 * And the page-fault path of memory mappings (mm/memory.c, mm/filemap.c, 6.6):
 * {@link blksim.kernel.mm.MmapAccess} through a {@link blksim.kernel.mm.FileMapping}
 * ({@code filemap_fault()}, mmap readahead and read-around, fault-around,
 * {@code ->page_mkwrite()} dirtying pages through the same accounting), and anonymous mappings
 * ({@link blksim.kernel.mm.AnonMapping}); the PTEs are a {@link blksim.kernel.mm.PageTable}, the
 * costs {@link blksim.kernel.mm.FaultCosts}.
 *
 * <p>Read against the source of Linux 4.3.3 (mm/page-writeback.c, mm/backing-dev.c
 * {@code wb_init()}, kernel/fork.c {@code copy_process()}, kernel/sysctl.c for the sysctl limits);
 * its page-writeback.c is 4.3's, where 4.2 had moved the throttling from the bdi to the
 * {@code bdi_writeback} and introduced {@code struct dirty_throttle_control} with the same
 * arithmetic.
 *
 * <h2>How the writeback model uses it</h2>
 *
 * <pre>{@code
 * DirtyLimits lim = DirtyLimits.domainDirtyLimits(params, dirtyablePages);
 * WbDomain dom = new WbDomain(hz, jiffies, lim.threshPages());        // boot
 * WbBandwidth wb = new WbBandwidth(hz, nrCpuIds, jiffies);             // per bdi_writeback
 * long ratelimitPages = BalanceDirtyPages.ratelimitPages(lim.threshPages(), nrCpus);
 * TaskDirtyState task = TaskDirtyState.FORK;                           // per task
 * // each dirtied page: task = task.dirtied(1); cpuDirtied++;
 * if (BalanceDirtyPages.balanceDirtyPagesRatelimited(task.nrDirtied(), task.nrDirtiedPause(),
 *     wb.dirtyExceeded(), cpuDirtied, ratelimitPages)) {
 *   cpuDirtied = 0;
 *   BdpDecision d = BalanceDirtyPages.balanceDirtyPagesIteration(snapshot, task.nrDirtied(),
 *       task, dom, wb, jiffies, jiffies);
 *   task = d.task();  // kick the flusher if d.kickBackgroundWriteback(); sleep d.pauseNs(hz)
 * }
 * // flusher, after each pass of wb_writeback(): wb.update(jiffies, dirtied, written, wbStart);
 * }</pre>
 *
 * <h2>Units</h2>
 * Pages are 4 KiB ({@link blksim.kernel.mm.BalanceDirtyPages#PAGE_SHIFT}); rates are pages per
 * second; times are jiffies of an explicit HZ, converted to virtual ns only at the edge
 * ({@link blksim.kernel.mm.BdpDecision#pauseNs}); ratios are fixed point with
 * {@code 1 << RATELIMIT_CALC_SHIFT} = 1.0.
 *
 * <h2>Ownership</h2>
 * {@link blksim.kernel.mm.WbDomain} and {@link blksim.kernel.mm.WbBandwidth} are mutable and
 * belong to the component that owns the page cache's dirty accounting; everything else is
 * immutable or static.
 *
 * <h2>Glossary (kernel identifier ↔ Java)</h2>
 * <ul>
 *   <li>{@code dirty_background_ratio}, {@code dirty_background_bytes}, {@code vm_dirty_ratio},
 *       {@code vm_dirty_bytes}, {@code dirty_writeback_interval}, {@code dirty_expire_interval}
 *       ↔ {@link blksim.kernel.mm.DirtyParams}
 *   <li>{@code domain_dirty_limits()}, {@code global_dirty_limits()},
 *       {@code global_dirtyable_memory()}, {@code dirty_freerun_ceiling()},
 *       {@code dtc->thresh}, {@code dtc->bg_thresh} ↔ {@link blksim.kernel.mm.DirtyLimits}
 *   <li>{@code struct wb_domain} ({@code dirty_limit}, {@code dirty_limit_tstamp}),
 *       {@code hard_dirty_limit()}, {@code update_dirty_limit()},
 *       {@code domain_update_bandwidth()} ↔ {@link blksim.kernel.mm.WbDomain}
 *   <li>{@code struct bdi_writeback}'s estimates ({@code write_bandwidth},
 *       {@code avg_write_bandwidth}, {@code dirty_ratelimit}, {@code balanced_dirty_ratelimit},
 *       {@code bw_time_stamp}, {@code dirtied_stamp}, {@code written_stamp},
 *       {@code dirty_exceeded}), {@code INIT_BW}, {@code wb_update_bandwidth()},
 *       {@code __wb_update_bandwidth()}, {@code wb_update_write_bandwidth()},
 *       {@code wb_update_dirty_ratelimit()} ↔ {@link blksim.kernel.mm.WbBandwidth}
 *   <li>{@code task_struct}'s {@code nr_dirtied}, {@code nr_dirtied_pause},
 *       {@code dirty_paused_when} ↔ {@link blksim.kernel.mm.TaskDirtyState}
 *   <li>{@code struct dirty_throttle_control} as read by one loop iteration
 *       ({@code dirty}, {@code wb_dirty}, {@code wb_thresh}), {@code nr_reclaimable},
 *       {@code WB_DIRTIED}, {@code WB_WRITTEN}, {@code writeback_in_progress()} ↔
 *       {@link blksim.kernel.mm.DirtySnapshot}
 *   <li>{@code balance_dirty_pages()} (one loop iteration), {@code pos_ratio_polynom()},
 *       {@code wb_position_ratio()}, {@code wb_max_pause()}, {@code wb_min_pause()},
 *       {@code dirty_poll_interval()}, {@code __wb_calc_thresh()},
 *       {@code wb_over_bg_thresh()}, {@code wb_stat_error()},
 *       {@code writeback_set_ratelimit()} / {@code ratelimit_pages},
 *       {@code balance_dirty_pages_ratelimited()}, {@code MAX_PAUSE},
 *       {@code BANDWIDTH_INTERVAL}, {@code DIRTY_POLL_THRESH}, {@code RATELIMIT_CALC_SHIFT} ↔
 *       {@link blksim.kernel.mm.BalanceDirtyPages}
 *   <li>{@code trace_balance_dirty_pages} fields and the task's new state ↔
 *       {@link blksim.kernel.mm.BdpDecision}
 * </ul>
 *
 * <h2>What is simplified</h2>
 * <ul>
 *   <li>One global domain: no memcg domain ({@code CONFIG_CGROUP_WRITEBACK} off), so no
 *       {@code mdtc}; no highmem; no {@code bdi->tot_write_bandwidth}.
 *   <li>No strictlimit ({@code BDI_CAP_STRICTLIMIT}), no laptop mode, no {@code PF_LESS_THROTTLE}
 *       except as a flag of {@link blksim.kernel.mm.DirtyLimits#domainDirtyLimits(
 *       blksim.kernel.mm.DirtyParams, long, boolean)}; {@code bdi->min_ratio} 0 and
 *       {@code max_ratio} 100.
 *   <li>The writeout-completion proportions ({@code fprop}) that share {@code thresh} among wbs
 *       are not kept; the caller passes {@code wb_thresh} (all of {@code thresh} for one wb).
 *   <li>Counters are exact (the kernel reads per-CPU approximations); a {@code WB_DIRTIED} that
 *       went backwards counts as no dirtying instead of wrapping.
 *   <li>"Never paused" is a sentinel time in the past instead of the kernel's 0
 *       ({@link blksim.kernel.mm.TaskDirtyState#NEVER_PAUSED}).
 *   <li>Dirty pages of exited tasks ({@code dirty_throttle_leaks}) are not charged to survivors;
 *       a fatal signal does not end the loop; a freerun iteration after a zero-rate sleep reports
 *       {@code dirty_exceeded} false where the kernel keeps the previous iteration's value.
 * </ul>
 */
package blksim.kernel.mm;
