package blksim.workload.fio;

import java.util.Map;
import java.util.Set;

/**
 * The names of fio's job options: which ones fio knows, their aliases, and which ones blksim models.
 *
 * <p>Mirrors the {@code fio_options[]} table of fio's {@code options.c} (names and {@code .alias}
 * entries as listed by {@code fio --cmdhelp} of fio 3.33) plus the engine options of the libaio,
 * io_uring and pvsync2 engines ({@code fio --enghelp=ENGINE}). Options of other engines and options
 * added after fio 3.33 are reported as unknown. See {@link FioJobFile} for the modelled set.
 */
final class FioOptions {

  /** Every option name fio 3.33 knows, canonical spelling ({@code o->name}). */
  private static final Set<String> KNOWN = Set.of("""
      allow_file_create allow_mounted_write allrandrepeat atomic ba block_error_percentiles bs
      bs_is_seq_rand bs_unaligned bsrange bssplit buffer_compress_chunk buffer_compress_percentage
      buffer_pattern buffered bwavgtime cgroup cgroup_nodelete cgroup_weight clat_percentiles
      clocksource cmd_type cmdprio cmdprio_bssplit cmdprio_class cmdprio_percentage continue_on_error
      cpumask cpus_allowed cpus_allowed_policy create_fsync create_on_open create_only
      create_serialize dedupe_global dedupe_mode dedupe_percentage dedupe_working_set_percentage
      description direct directory disable_bw_measurement disable_clat disable_lat disable_slat
      disk_util do_verify end_fsync error_dump exec_postrun exec_prerun exit_what exitall
      exitall_on_error experimental_verify fadvise_hint fallocate fdatasync file_append
      file_service_type filename filename_format filesize fill_device fixedbufs flow flow_id
      flow_sleep force_async fsync fsync_on_close gid group_reporting gtod_cpu gtod_reduce
      hipri hipri_percentage hugepage-size ignore_error ignore_zone_limits invalidate io_size
      io_submit_mode iodepth iodepth_batch iodepth_batch_complete_max iodepth_batch_complete_min
      iodepth_low ioengine iomem_align iopsavgtime ioscheduler job_max_open_zones kb_base
      lat_percentiles latency_percentile latency_run latency_target latency_window lockfile
      lockmem log_alternate_epoch log_alternate_epoch_clock_id log_avg_msec log_compression
      log_compression_cpus log_entries log_hist_coarseness log_hist_msec log_max_value
      log_offset log_prio log_store_compressed log_unix_epoch loops max_latency max_open_zones
      mem merge_blktrace_file merge_blktrace_iters merge_blktrace_scalars name new_group nice
      nonvectored norandommap nowait nrfiles numa_cpu_nodes numa_mem_policy number_ios numjobs
      offset offset_align offset_increment opendir openfiles overwrite per_job_logs percentage_random
      percentile_list pre_read prio prioclass profile ramp_time random_distribution random_generator
      randrepeat randseed rate rate_cycle rate_ignore_thinktime rate_iops rate_iops_min rate_min
      rate_process read_beyond_wp read_iolog read_iolog_chunked refill_buffers registerfiles
      replay_align replay_no_stall replay_redirect replay_scale replay_skip replay_time_scale runtime
      rw rw_sequencer rwmixread rwmixwrite scramble_buffers serialize_overlap significant_figures
      size slat_percentiles softrandommap sqthread_poll sqthread_poll_cpu startdelay stats
      steadystate steadystate_duration steadystate_ramp_time stonewall sync sync_file_range
      thinktime thinktime_blocks thinktime_blocks_type thinktime_iotime thinktime_spin thread
      time_based trim_backlog trim_backlog_batch trim_percentage trim_verify_zero uid uncached
      unified_rw_reporting unique_filename unit_base unlink unlink_each_loop userspace_reap verify
      verify_async verify_async_cpus verify_backlog verify_backlog_batch verify_dump verify_fatal
      verify_interval verify_offset verify_only verify_pattern verify_state_load verify_state_save
      wait_for write_barrier write_bw_log write_hint write_hist_log write_iolog write_iops_log
      write_lat_log zero_buffers zone_reset_frequency zone_reset_threshold zonecapacity zonemode
      zonerange zonesize zoneskip
      """.strip().split("\\s+"));

  /** fio's aliases ({@code o->alias}) and the canonical names they stand for. */
  private static final Map<String, String> ALIASES = Map.ofEntries(
      Map.entry("blockalign", "ba"),
      Map.entry("blocksize", "bs"),
      Map.entry("blocksize_range", "bsrange"),
      Map.entry("blocksize_unaligned", "bs_unaligned"),
      Map.entry("disable_bw", "disable_bw_measurement"),
      Map.entry("fileoffset", "offset"),
      Map.entry("fill_fs", "fill_device"),
      Map.entry("io_limit", "io_size"),
      Map.entry("iodepth_batch_complete", "iodepth_batch_complete_min"),
      Map.entry("iodepth_batch_submit", "iodepth_batch"),
      Map.entry("iomem", "mem"),
      Map.entry("mem_align", "iomem_align"),
      Map.entry("nr_files", "nrfiles"),
      Map.entry("ratecycle", "rate_cycle"),
      Map.entry("ratemin", "rate_min"),
      Map.entry("readwrite", "rw"),
      Map.entry("ss", "steadystate"),
      Map.entry("ss_dur", "steadystate_duration"),
      Map.entry("ss_ramp", "steadystate_ramp_time"),
      Map.entry("timeout", "runtime"),
      Map.entry("wait_for_previous", "stonewall"));

  /** The options blksim models or accepts (canonical names); the table is on {@link FioJobFile}. */
  private static final Set<String> MODELLED = Set.of("""
      name description filename rw rw_sequencer rwmixread rwmixwrite bs size offset io_size
      ioengine iodepth iodepth_batch iodepth_batch_complete_min iodepth_batch_complete_max
      direct buffered runtime time_based ramp_time startdelay loops numjobs
      group_reporting stonewall new_group norandommap randrepeat allrandrepeat randseed
      random_distribution percentile_list thinktime thinktime_blocks thinktime_spin thread kb_base
      gtod_reduce clat_percentiles lat_percentiles slat_percentiles exitall invalidate
      hipri fixedbufs registerfiles sqthread_poll nonvectored
      cpus_allowed cpumask cpus_allowed_policy nice fsync fdatasync end_fsync
      """.strip().split("\\s+"));

  private FioOptions() {}

  /** The canonical name for a key as written, or {@code null} if fio has no such option. */
  static String canonical(String key) {
    String alias = ALIASES.get(key);
    if (alias != null) {
      return alias;
    }
    return KNOWN.contains(key) ? key : null;
  }

  /** Whether blksim models (or harmlessly accepts) the canonical option. */
  static boolean modelled(String canonical) {
    return MODELLED.contains(canonical);
  }
}
