/**
 * Trace readers: recorded block and file I/O, from fio iologs, blkparse text, blktrace binary
 * files and the public trace sets, as a stream of normalised {@link
 * blksim.workload.trace.TraceRecord}s.
 *
 * <p>Entry points: {@link blksim.workload.trace.TraceFormat#detect(java.nio.file.Path)} and
 * {@link blksim.workload.trace.TraceFormat#open(java.nio.file.Path,
 * blksim.workload.trace.TraceFormat, blksim.workload.trace.TraceOptions)}. Every reader streams
 * (bounded lines, bounded look-ahead), reads gzip by its magic, and reports a malformed record as
 * an {@link blksim.engine.InputException} naming file, line, field and rule.
 *
 * <p>Glossary (tool identifier ↔ Java type):
 * <ul>
 *   <li>fio {@code iolog.c read_iolog()}, {@code iolog_ver2}/{@code iolog_ver3} ↔ {@code
 *       FioIologTraceReader}
 *   <li>fio {@code enum fio_ddir}, {@code enum file_log_act} ↔ {@link
 *       blksim.workload.trace.TraceOp}
 *   <li>{@code struct blk_io_trace} ({@code blktrace_api.h}), blkparse's per-CPU merge ↔ {@link
 *       blksim.workload.trace.BlktraceTraceReader}
 *   <li>{@code blkparse_fmt.c process_default()} output ↔ {@link
 *       blksim.workload.trace.BlkparseTraceReader}
 *   <li>{@code __BLK_TA_QUEUE}/{@code __BLK_TA_ISSUE}/{@code __BLK_TA_COMPLETE} as the arrival ↔
 *       {@link blksim.workload.trace.BlkArrival}
 *   <li>{@code fill_rwbs()} ↔ {@code BlkEvent.op()}
 * </ul>
 *
 * <p>All state is owned by the reader's single caller thread; nothing here reads the clock.
 */
package blksim.workload.trace;
