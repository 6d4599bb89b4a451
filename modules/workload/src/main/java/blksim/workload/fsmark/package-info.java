/**
 * fs_mark 3.3 (Ric Wheeler's file-creation benchmark; source read at josefbacik/fs_mark,
 * {@code fs_mark.c}, {@code fs_mark.h}, {@code lib_timing.c}) as a workload: its command line, what
 * each of its processes does per iteration, and the figures it prints.
 *
 * <p>Glossary (fs_mark identifier ↔ Java type):
 * <ul>
 *   <li>{@code process_args()} and its globals ({@code num_threads}, {@code num_files},
 *       {@code file_size}, {@code io_buffer_size}, {@code keep_files}, ...) ↔ {@link
 *       blksim.workload.fsmark.FsMarkOptions}
 *   <li>{@code sync_method} / {@code SYNC_TEST_*} / {@code FSYNC_*} ↔ {@link
 *       blksim.workload.fsmark.FsMarkSyncMethod}
 *   <li>{@code dir_policy} / {@code DIR_*} ↔ {@link blksim.workload.fsmark.FsMarkDirPolicy}
 *   <li>{@code setup()}, {@code do_run()}, {@code setup_file_name()}, {@code write_file()} ↔ {@link
 *       blksim.workload.fsmark.FsMarkPlan} handing out {@link blksim.workload.fsmark.FsMarkOp}s
 *   <li>the timers of {@code do_run()} and the per-process log line ↔ {@link
 *       blksim.workload.fsmark.FsMarkProcessStats}
 *   <li>{@code fs_mark_stat_t} and {@code aggregate_thread_stats()} ↔ {@link
 *       blksim.workload.fsmark.FsMarkStats}
 *   <li>{@code print_iteration_stats()}'s line, {@code get_df_full()} ↔ {@link
 *       blksim.workload.fsmark.FsMarkIteration}
 *   <li>a run ({@code main()}'s loop) ↔ {@link blksim.workload.fsmark.FsMarkRunResult}
 * </ul>
 *
 * <p>How the simulator drives a run (as {@code main()} does): while {@link
 * blksim.workload.fsmark.FsMarkOptions#anotherIteration(int)}, start {@code threads} processes, each
 * walking {@link blksim.workload.fsmark.FsMarkPlan#process} and reporting every step to its own
 * {@link blksim.workload.fsmark.FsMarkProcessStats}; when all have exited, {@link
 * blksim.workload.fsmark.FsMarkIteration#after} gives the table's line. Everything here is plain,
 * deterministic Java: no clock but the one passed in, randomness only from the
 * {@link java.util.SplittableRandom} passed in.
 */
package blksim.workload.fsmark;
