package blksim.report.fio;

import blksim.workload.fio.FioEngine;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.thread.CpuioThread;
import blksim.workload.fio.thread.FileFioThread;
import java.util.List;

/**
 * The lines fio's normal output has before the job blocks, as fio 3.36 prints them.
 *
 * <ul>
 *   <li>Per job, from {@code add_job()} in fio's {@code init.c} when the normal format is on:
 *       {@code NAME: (g=G): rw=RW, bs=(R) MIN-MAX, (W) MIN-MAX, (T) MIN-MAX, ioengine=E,
 *       iodepth=D}; the sizes are {@code num2str(bs, sig_figs, 1, is_power_of_2(kb_base),
 *       N2S_BYTE)}, so {@code 4096B} or {@code 128KiB} (and {@code 131kB} with
 *       {@code kb_base=1000}). The clones of {@code numjobs=N} print nothing but a single
 *       {@code ...} line (fio prints it for the clone added with {@code job_add_num == 1}).
 *   <li>The version line {@code fio-3.36} ({@code parse_options()}, after all job files).
 *   <li>{@code Starting N process(es)} / {@code Starting N thread(s)} / both joined by
 *       {@code and} ({@code run_threads()} in {@code backend.c}), counting jobs with
 *       {@code thread} as threads.
 *   <li>For each job that writes files of a filesystem ({@code directory=}), fio's
 *       {@code setup_files()} line {@code NAME: Laying out IO file (1 file / 16MiB)}, as
 *       {@link FileFioThread#layoutLine} words it, in job order after the {@code Starting} line
 *       (fio prints it when the job's thread sets its files up).
 * </ul>
 *
 * <p>Simplified: fio's ETA lines ({@code Jobs: 1 (f=1): [r(1)]...}), which a terminal shows while
 * fio runs, are not printed; the layout lines assume the run starts with an empty filesystem
 * (no file of an earlier run, which fio would not lay out again); and
 * {@code significant_figures} is fio's default 4. A job of an engine with fio's {@code FIO_NOIO}
 * flag (cpuio) gets no {@code add_job()} line (its clones' {@code ...} line stays); its engine's init line ({@code burn (noop):
 * ioengine=cpuio, cpuload=50, cpucycle=50000}, {@link CpuioThread#initLine}) follows the
 * {@code Starting} line for each clone, as fio logs it when the job's thread starts.
 */
public final class FioPreamble {

    /** The fio release whose output blksim reproduces. */
    public static final String FIO_VERSION = "fio-3.36";

    private FioPreamble() {
    }

    /**
     * The preamble of a run of {@code jobs} (in job order, clones included).
     *
     * @param jobs the jobs as parsed, each {@code numjobs} clone its own entry
     * @return the lines, each ending with a newline; empty when there are no jobs
     */
    public static String render(List<FioJob> jobs) {
        return render(jobs, null);
    }

    /**
     * The preamble with the layout lines of file jobs.
     *
     * @param jobs the jobs as parsed, each {@code numjobs} clone its own entry
     * @param runSeed the run's seed (the file sizes of {@code filesize} ranges draw from it), or
     *     {@code null} to leave the layout lines out
     * @return the lines, each ending with a newline; empty when there are no jobs
     */
    public static String render(List<FioJob> jobs, Long runSeed) {
        if (jobs.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        int threads = 0;
        int processes = 0;
        for (FioJob j : jobs) {
            if (j.thread()) {
                threads++;
            } else {
                processes++;
            }
            if (j.jobIndex() == 0) {
                if (j.ioengine() != FioEngine.CPUIO) { // FIO_NOIO: add_job() prints no line
                    out.append(jobLine(j)).append('\n');
                }
            } else if (j.jobIndex() == 1) {
                out.append("...\n");
            }
        }
        out.append(FIO_VERSION).append('\n');
        out.append(starting(threads, processes)).append('\n');
        for (FioJob j : jobs) {
            if (j.ioengine() == FioEngine.CPUIO) {
                out.append(CpuioThread.initLine(j)).append('\n');
            }
        }
        for (int k = 0; runSeed != null && k < jobs.size(); k++) {
            FioJob j = jobs.get(k);
            if (j.filename() == null && j.directory() != null) { // a FileFioThread job
                String line = FileFioThread.layoutLine(j, k, runSeed);
                if (line != null) {
                    out.append(line).append('\n');
                }
            }
        }
        return out.toString();
    }

    /** The {@code add_job()} line of one job, without the newline. */
    static String jobLine(FioJob j) {
        boolean pow2 = Long.bitCount(j.kbBase()) == 1;
        long[] min = j.minBs();
        long[] max = j.maxBs();
        String[] dir = {"(R) ", ", (W) ", ", (T) "};
        StringBuilder b = new StringBuilder();
        b.append(j.name()).append(": (g=").append(j.groupId()).append("): rw=")
            .append(j.rw().fioName()).append(", bs=");
        for (int d = 0; d < 3; d++) {
            b.append(dir[d]).append(size(min[d], j.significantFigures(), pow2)).append('-')
                .append(size(max[d], j.significantFigures(), pow2));
        }
        b.append(", ioengine=").append(j.ioengine().fioName()).append(", iodepth=")
            .append(j.iodepth());
        return b.toString();
    }

    /** {@code run_threads()}: {@code Starting 2 threads and 1 process}. */
    static String starting(int threads, int processes) {
        StringBuilder b = new StringBuilder("Starting ");
        if (threads > 0) {
            b.append(threads).append(threads > 1 ? " threads" : " thread");
        }
        if (processes > 0) {
            if (threads > 0) {
                b.append(" and ");
            }
            b.append(processes).append(processes > 1 ? " processes" : " process");
        }
        return b.toString();
    }

    /** init.c's num2str(bs, o->sig_figs, 1, i2p, N2S_BYTE). */
    private static String size(long bytes, int sigFigs, boolean pow2) {
        return FioFormat.num2str(bytes, sigFigs, 1, pow2, FioFormat.Unit.BYTE);
    }
}
