/**
 * Per-job I/O statistics of simulated fio jobs, in the shape of fio's {@code struct thread_stat}.
 *
 * <p>A simulated fio job thread owns one {@link blksim.workload.fio.stats.JobStats} and feeds it
 * every completed I/O in virtual nanoseconds; reporters (module {@code report}) turn a
 * {@link blksim.workload.fio.stats.RunResult} into fio's normal and JSON output. All state is
 * plain Java, single-owner (the job that records into it), deterministic and serialisable to a
 * byte array so that it can cross JVMs.
 *
 * <p>Glossary (fio identifier &harr; Java):
 * <ul>
 *   <li>{@code struct thread_stat} &harr; {@link blksim.workload.fio.stats.JobStats}</li>
 *   <li>{@code struct io_stat} (min, max, mean, S, samples) &harr; {@code RunningStat}, exported
 *       as {@link blksim.workload.fio.stats.StatSummary}</li>
 *   <li>{@code io_u_plat[FIO_SLAT|FIO_CLAT|FIO_LAT][ddir]} (fio's log-linear histogram) &harr;
 *       an HdrHistogram {@code Histogram} (3 significant digits) per latency kind and direction</li>
 *   <li>{@code io_u_map}, {@code io_u_submit}, {@code io_u_complete} &harr;
 *       {@link blksim.workload.fio.stats.JobStats#ioDepthCounts()},
 *       {@link blksim.workload.fio.stats.JobStats#submitCounts()},
 *       {@link blksim.workload.fio.stats.JobStats#completeCounts()}</li>
 *   <li>{@code io_u_lat_n/u/m} &harr; {@link blksim.workload.fio.stats.JobStats#latNsecCounts()} and
 *       friends</li>
 *   <li>{@code bw_stat}, {@code iops_stat} (samples every {@code bw_avg_time}/{@code iops_avg_time}
 *       = 500 ms) &harr; {@link blksim.workload.fio.stats.JobStats#bw(int)},
 *       {@link blksim.workload.fio.stats.JobStats#iops(int)}</li>
 *   <li>{@code sum_thread_stats()} (group_reporting) &harr;
 *       {@link blksim.workload.fio.stats.JobStats#merge(java.util.List)}</li>
 *   <li>{@code struct disk_util_stat} &harr; {@link blksim.workload.fio.stats.DiskStats}</li>
 *   <li>{@code enum fio_ddir} DDIR_READ/WRITE/TRIM &harr; {@code JobStats.DDIR_READ/WRITE/TRIM}
 *       (0, 1, 2)</li>
 * </ul>
 */
package blksim.workload.fio.stats;
