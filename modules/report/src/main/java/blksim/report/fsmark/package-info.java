/**
 * fs_mark's output: {@link blksim.report.fsmark.FsMarkTextReporter} prints what fs_mark 3.3 prints
 * on standard output ({@code print_run_info()}, {@code print_iteration_stats()}), and
 * {@link blksim.report.fsmark.FsMarkJsonReporter} a JSON form of the same run. Both take a
 * {@link blksim.workload.fsmark.FsMarkRunResult} and the date text from the caller.
 */
package blksim.report.fsmark;
