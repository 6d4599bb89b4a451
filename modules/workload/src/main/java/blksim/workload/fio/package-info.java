/**
 * fio job files as workload descriptions: the reader and the typed jobs it produces.
 *
 * <p>Glossary (fio identifier ↔ Java type):
 * <ul>
 *   <li>{@code parse_jobs_ini()}, {@code add_job()} ({@code init.c}) ↔ {@link
 *       blksim.workload.fio.FioJobFile}
 *   <li>{@code struct thread_data} / {@code struct thread_options} after {@code fixup_options()}
 *       ↔ {@link blksim.workload.fio.FioJob}
 *   <li>{@code td_ddir} / the {@code rw} option ↔ {@link blksim.workload.fio.FioRw}
 *   <li>{@code struct ioengine_ops} name ({@code ioengine=}) ↔ {@link
 *       blksim.workload.fio.FioEngine}
 *   <li>{@code fio_keywords[]} ({@code $ncpus}, {@code $mb_memory}, {@code $pagesize}) ↔ {@link
 *       blksim.workload.fio.FioEnvironment}
 *   <li>{@code str_to_decimal()}, {@code exp/expression-parser.y} ↔ {@code FioValues}
 *   <li>{@code fio_options[]} names and aliases ↔ {@code FioOptions}
 * </ul>
 *
 * <p>Everything here is plain, deterministic Java owned by the caller's thread; nothing reads the
 * host (CPU count, memory, environment) except the {@code parse(Path, FioEnvironment)} overload,
 * which takes {@code ${VAR}} from {@link java.lang.System#getenv()}.
 */
package blksim.workload.fio;
