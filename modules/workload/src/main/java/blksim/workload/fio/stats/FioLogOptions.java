package blksim.workload.fio.stats;

/**
 * A job's fio per-I/O log options ({@code init.c} add_job(), {@code iolog.c} setup_log()).
 *
 * @param latPrefix {@code write_lat_log} prefix (the job name when given without one), or null:
 *     writes {@code PREFIX_lat.N.log}, {@code PREFIX_slat.N.log} and {@code PREFIX_clat.N.log}
 * @param bwPrefix {@code write_bw_log} prefix, or null: {@code PREFIX_bw.N.log}
 * @param iopsPrefix {@code write_iops_log} prefix, or null: {@code PREFIX_iops.N.log}
 * @param avgMsec {@code log_avg_msec}: 0 logs every I/O, else window averages
 * @param windowValue {@code log_window_value}: 0 avg, 1 max, 2 both
 * @param offset {@code log_offset}: print the I/O's offset
 * @param prio {@code log_prio}: print the priority as fio's hex class/level
 * @param issueTime {@code log_issue_time}: print the issue time (ns since the epoch)
 * @param perJob {@code per_job_logs}: the job number in the file name
 */
public record FioLogOptions(String latPrefix, String bwPrefix, String iopsPrefix, int avgMsec,
    int windowValue, boolean offset, boolean prio, boolean issueTime, boolean perJob) {

  /** Whether any log is written. */
  public boolean any() {
    return latPrefix != null || bwPrefix != null || iopsPrefix != null;
  }
}
