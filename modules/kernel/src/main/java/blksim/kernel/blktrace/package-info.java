/**
 * blktrace: the block layer's trace points recorded as {@code blktrace} records them
 * ({@code kernel/trace/blktrace.c}, {@code include/uapi/linux/blktrace_api.h}) and printed as
 * {@code blkparse} prints them.
 *
 * <p>Glossary (kernel or tool identifier → Java):
 * <ul>
 *   <li>{@code struct blk_trace} ({@code q->blk_trace}), {@code __blk_add_trace()},
 *       {@code blk_add_trace_bio()/_rq()/_plug()/_unplug()/_split()/_bio_remap()},
 *       {@code trace_note_tsk()} → {@link blksim.kernel.blktrace.BlkTrace}</li>
 *   <li>{@code blktrace -d DEV} on every device, stopping the per-CPU relay channels →
 *       {@link blksim.kernel.blktrace.BlkTraces}, {@link blksim.kernel.blktrace.BlkTraceCloser}</li>
 *   <li>blkparse's {@code process_default()}, {@code fill_rwbs()},
 *       {@code show_device_and_cpu_stats()} → {@link blksim.kernel.blktrace.BlkparseWriter}</li>
 * </ul>
 */
package blksim.kernel.blktrace;
