/**
 * Shell commands a scenario runs after its workloads ({@code commands = [...]}): {@code sync},
 * {@code sync -f PATH}, {@code umount PATH}, {@code sleep N}, each optionally under bash's
 * {@code time}; run by one task ({@link blksim.workload.shell.ShellTask}) once every fio job and
 * fs_mark instance has exited, as a script's commands after {@code wait}.
 */
package blksim.workload.shell;
