package blksim.workload.fio;

import java.util.Map;
import java.util.Set;

/**
 * The names of fio's job options: which ones fio knows, their aliases, and which ones blksim models.
 *
 * <p>Generated from fio's sources (axboe/fio f5344384f7c7, fio-3.42 era), names only: every
 * {@code .name} of the {@code fio_options[]} table in {@code options.c} ({@link #KNOWN}), every
 * {@code .alias} there ({@link #ALIASES}; fio's {@code o_match()} in {@code options.h} compares
 * name and alias exactly, case-sensitively), and every {@code .name} of the engine option tables in
 * {@code engines/*.c} ({@link #ENGINE}; fio accepts those only with their engine). An option fio
 * knows but blksim does not model is reported as "not modelled by blksim"; only a name in none of
 * these lists is an "unknown fio option". See {@link FioJobFile} for the modelled set.
 */
final class FioOptions {

  /** Every {@code fio_options[]} name ({@code o->name}), sorted. */
  private static final Set<String> KNOWN = Set.of("""
      allow_file_create allow_mounted_write atomic ba block_error_percentiles bs
      bs_is_seq_rand bs_unaligned bsrange bssplit buffer_compress_chunk
      buffer_compress_percentage buffer_pattern buffered bwavgtime cgroup cgroup_nodelete
      cgroup_weight clat_percentiles clocksource comm continue_on_error cpumask cpus_allowed
      cpus_allowed_policy create_fsync create_on_open create_only create_serialize
      dataplacement dedupe_global dedupe_mode dedupe_percentage dedupe_working_set_percentage
      description direct directory disable_bw_measurement disable_clat disable_lat
      disable_slat disk_util do_verify dp_scheme end_fsync end_syncfs error_dump exec_postrun
      exec_prerun exit_what exitall exitall_on_error experimental_verify fadvise_hint
      fallocate fdatasync fdp file_append file_service_type filename filename_format filesize
      filetype fill_device flow flow_id flow_sleep flow_watermark fsync fsync_on_close gid
      gpu_dev_id group_reporting gtod_cpu gtod_reduce hugepage-size ignore_error
      ignore_zone_limits invalidate io_size io_submit_mode iodepth iodepth_batch
      iodepth_batch_complete_max iodepth_batch_complete_min iodepth_low ioengine iomem_align
      iopsavgtime ioscheduler job_max_open_zones job_start_clock_id kb_base lat_percentiles
      latency_percentile latency_run latency_target latency_window lockfile lockmem
      log_alternate_epoch log_alternate_epoch_clock_id log_avg_msec log_compression
      log_compression_cpus log_entries log_hist_coarseness log_hist_msec log_issue_time
      log_offset log_prio log_store_compressed log_window_value loops max_latency
      max_open_zones mem merge_blktrace_file merge_blktrace_iters merge_blktrace_scalars name
      new_group nice norandommap nrfiles num_range numa_cpu_nodes numa_mem_policy number_ios
      numjobs offset offset_align offset_increment opendir openfiles overwrite per_job_logs
      percentage_random percentage_sequential percentile_list plid_select plids pre_read prio
      prioclass priohint profile ramp_size ramp_time random_distribution random_generator
      random_sequence_stride randrepeat randseed rate rate_cycle rate_ignore_thinktime
      rate_iops rate_iops_min rate_min rate_process read_beyond_wp read_iolog
      read_iolog_chunked recover_zbd_write_error refill_buffers replay_align replay_no_stall
      replay_redirect replay_scale replay_skip replay_time_scale runtime rw rw_sequencer
      rwmixcycle rwmixread rwmixwrite scramble_buffers serialize_overlap significant_figures
      size slat_percentiles softrandommap spr_cs spr_num_regions spr_op sprandom startdelay
      stats steadystate steadystate_check_interval steadystate_duration steadystate_ramp_time
      stonewall sync sync_file_range thinkcycles thinktime thinktime_blocks
      thinktime_blocks_type thinktime_iotime thinktime_spin thread time_based trim_backlog
      trim_backlog_batch trim_percentage trim_verify_zero uid unified_rw_reporting
      unique_filename unit_base unlink unlink_each_loop verify verify_async verify_async_cpus
      verify_backlog verify_backlog_batch verify_dump verify_fatal verify_header_seed
      verify_interval verify_offset verify_only verify_pattern verify_pattern_interval
      verify_policy verify_state_load verify_state_save verify_write_sequence verifysort
      verifysort_nr wait_for write_barrier write_bw_log write_hint write_hist_log write_iolog
      write_iops_log write_lat_log write_zone_remainder zero_buffers zone_reset_frequency
      zone_reset_threshold zonecapacity zonemode zonerange zonesize zoneskip
      """.strip().split("\\s+"));

  /** Every option name of fio's I/O engines ({@code engines/*.c}) not in {@link #KNOWN}. */
  private static final Set<String> ENGINE = Set.of("""
      apptag apptag_mask arguments bindname busy_poll cdb_len chunk_size clientname
      clustername cmd_type conf cont cpuchunks cpuload cpumode cuda_io deac donorname dummy
      exit_on_io_done fixedbufs force_async gpu_dev_ids grace_time hdfs_use_direct
      hdfsdirectory hipri hipri_percentage hostname http_host http_mode http_object_mode
      http_pass http_s3_key http_s3_keyid http_s3_region http_s3_security_token
      http_s3_sse_customer_algorithm http_s3_sse_customer_key http_s3_storage_class
      http_swift_auth_token http_user http_verbose https initiator inplace interface
      libaio_vectored libblkio_driver libblkio_force_enable_completion_eventfd
      libblkio_num_entries libblkio_path libblkio_pre_connect_props libblkio_pre_start_props
      libblkio_queue_size libblkio_vectored libblkio_wait_mode libblkio_write_zeroes_on_trim
      listen md_per_io_size mss namenode nfs_url no_completion_thread nodelay nonvectored
      nowait object_class pi_act pi_chk pingpong pool port program protocol
      rbd_encryption_format rbd_encryption_passphrase rbdname read_mode readfua registerfiles
      rocm_io sg_write_mode single_instance skip_bad sqthread_poll sqthread_poll_cpu stat_type
      std_redirect stream_id svcl thp touch_objects ttl uncached uri userspace_reap verb
      verify_bytchk verify_mode window_size write_mode writefua xnvme_admin xnvme_async
      xnvme_be xnvme_dev_nsid xnvme_dev_subnqn xnvme_iovec xnvme_mem xnvme_sync
      """.strip().split("\\s+"));

  /** fio's aliases ({@code o->alias}) and the canonical names they stand for. */
  private static final Map<String, String> ALIASES = Map.ofEntries(
      Map.entry("allrandrepeat", "randrepeat"),
      Map.entry("blockalign", "ba"),
      Map.entry("blocksize", "bs"),
      Map.entry("blocksize_range", "bsrange"),
      Map.entry("blocksize_unaligned", "bs_unaligned"),
      Map.entry("data_placement", "dataplacement"),
      Map.entry("disable_bw", "disable_bw_measurement"),
      Map.entry("fdp_pli", "plids"),
      Map.entry("fdp_pli_select", "plid_select"),
      Map.entry("fileoffset", "offset"),
      Map.entry("fill_fs", "fill_device"),
      Map.entry("io_limit", "io_size"),
      Map.entry("iodepth_batch_complete", "iodepth_batch_complete_min"),
      Map.entry("iodepth_batch_submit", "iodepth_batch"),
      Map.entry("iomem", "mem"),
      Map.entry("log_max_value", "log_window_value"),
      Map.entry("log_unix_epoch", "log_alternate_epoch"),
      Map.entry("mem_align", "iomem_align"),
      Map.entry("nr_files", "nrfiles"),
      Map.entry("ratecycle", "rate_cycle"),
      Map.entry("ratemin", "rate_min"),
      Map.entry("readwrite", "rw"),
      Map.entry("ss", "steadystate"),
      Map.entry("ss_dur", "steadystate_duration"),
      Map.entry("ss_interval", "steadystate_check_interval"),
      Map.entry("ss_ramp", "steadystate_ramp_time"),
      Map.entry("timeout", "runtime"),
      Map.entry("wait_for_previous", "stonewall"),
      // engine tables: rados/rbd "chunck_size", net "proto"
      Map.entry("chunck_size", "chunk_size"),
      Map.entry("proto", "protocol"));

  /** The options blksim models or accepts (canonical names); the table is on {@link FioJobFile}. */
  private static final Set<String> MODELLED = Set.of("""
      name description filename directory rw rw_sequencer rwmixread rwmixwrite bs size offset io_size
      ioengine iodepth iodepth_batch iodepth_batch_complete_min iodepth_batch_complete_max
      direct buffered runtime time_based ramp_time startdelay loops numjobs
      group_reporting stonewall new_group wait_for exitall exit_what number_ios
      steadystate steadystate_duration steadystate_ramp_time steadystate_check_interval
      norandommap randrepeat randseed random_distribution random_generator percentage_random
      bsrange bssplit ba offset_increment zonemode zonerange zonesize zoneskip
      percentile_list thinktime thinktime_blocks thinktime_spin thread kb_base
      rate rate_iops rate_process gtod_reduce clat_percentiles lat_percentiles slat_percentiles invalidate
      hipri fixedbufs registerfiles sqthread_poll nonvectored
      cpus_allowed cpumask cpus_allowed_policy nice fsync fdatasync end_fsync
      write_lat_log write_bw_log write_iops_log log_avg_msec log_window_value log_offset
      log_prio log_issue_time per_job_logs
      filesize nrfiles openfiles file_service_type fallocate create_on_open unlink
      unlink_each_loop fsync_on_close overwrite filename_format
      read_iolog read_iolog_chunked replay_no_stall replay_time_scale replay_redirect
      replay_align replay_scale replay_skip
      """.strip().split("\\s+"));

  /**
   * blksim's own job options, which fio does not have: {@code read_iolog_format} (the trace
   * format, instead of detection) and {@code replay_start}/{@code replay_end} (a window of trace
   * time). They are modelled by definition.
   */
  private static final Set<String> EXTENSIONS = Set.of(
      "read_iolog_format", "replay_start", "replay_end");

  private FioOptions() {}

  /** The canonical name for a key as written, or {@code null} if fio has no such option. */
  static String canonical(String key) {
    String alias = ALIASES.get(key);
    if (alias != null) {
      return alias;
    }
    return KNOWN.contains(key) || ENGINE.contains(key) || EXTENSIONS.contains(key) ? key : null;
  }

  /** Whether blksim models (or harmlessly accepts) the canonical option. */
  static boolean modelled(String canonical) {
    return MODELLED.contains(canonical) || EXTENSIONS.contains(canonical);
  }

  /** Whether {@code name} is an option of one of fio's engines rather than of fio itself. */
  static boolean engineOption(String canonical) {
    return ENGINE.contains(canonical) && !KNOWN.contains(canonical);
  }
}
