/**
 * fio-compatible reporters: {@link blksim.report.fio.FioTextReporter} (fio's normal output,
 * stat.c {@code show_thread_status_normal()}, {@code show_group_stats()},
 * {@code show_disk_util()}) and {@link blksim.report.fio.FioJsonReporter} ({@code
 * --output-format=json}, stat.c {@code show_thread_status_json()}), both fed a
 * {@link blksim.workload.fio.stats.RunResult}.
 *
 * <p>Glossary (fio identifier &harr; Java): {@code struct group_run_stats} &harr;
 * {@code FioReportModel.GroupRunStats}; {@code num2str()} &harr; {@code FioFormat.num2str};
 * {@code display_lat()}, {@code show_clat_percentiles()}, {@code show_lat()} &harr; private
 * methods of {@code FioTextReporter} with the same names in Java case.
 */
package blksim.report.fio;
