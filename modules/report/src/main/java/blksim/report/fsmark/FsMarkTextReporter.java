package blksim.report.fsmark;

import blksim.workload.fsmark.FsMarkDirPolicy;
import blksim.workload.fsmark.FsMarkIteration;
import blksim.workload.fsmark.FsMarkOptions;
import blksim.workload.fsmark.FsMarkRunResult;
import blksim.workload.fsmark.FsMarkStats;
import blksim.workload.fsmark.FsMarkStats.SyscallTimes;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDateTime;
import java.time.format.TextStyle;
import java.util.Locale;

/**
 * fs_mark's standard output, as fs_mark 3.3 prints it ({@code print_run_info()} and
 * {@code print_iteration_stats()} in {@code fs_mark.c}, called with {@code stdout}): a header
 * that starts with an empty line and echoes the command line, then one line per iteration with
 * {@code "%6u %12u %12u %12.1f %16llu\n"} (FSUse%, Count, Size, Files/sec, App Overhead), and with
 * {@code -v} eighteen more {@code " %8llu"} columns (min/avg/max of creat, write, fsync, sync,
 * close, unlink).
 *
 * <p>{@code %12.1f} rounds the exact value of the C {@code float} half to even, as glibc does, and
 * prints {@code inf}/{@code nan} for non-finite values. The date is the caller's (blksim's simulated
 * start, in {@code ctime()}'s layout, see {@link #ctime(LocalDateTime)}), never the host's clock.
 * Optionally the closing lines that later versions of fs_mark (josefbacik/fs_mark, after 3.3) add:
 * "Average Files/sec" and p50/p90/p99.
 *
 * <p>Example: {@code String text = FsMarkTextReporter.render(run, "Tue Sep 22 10:00:00 2015", false);}
 */
public final class FsMarkTextReporter {

    /** The version string fs_mark prints ({@code fs_mark_version}). */
    public static final String VERSION = "3.3";

    private FsMarkTextReporter() {
    }

    /**
     * The whole output of a run: header, then one line per iteration, then, if
     * {@code closingSummary}, the later versions' summary lines.
     *
     * @param run the run
     * @param date the start date as {@code ctime()} writes it (a trailing newline is optional)
     * @param closingSummary whether to add "Average Files/sec" and p50/p90/p99 (not in 3.3 as
     *     released; needs at least one iteration)
     * @return the text, ending with a newline
     */
    public static String render(FsMarkRunResult run, String date, boolean closingSummary) {
        StringBuilder out = new StringBuilder(1024 + 200 * run.iterations().size());
        out.append(header(run.options(), date));
        for (FsMarkIteration it : run.iterations()) {
            out.append(iterationLine(it, run.options().verbose()));
        }
        if (closingSummary) {
            out.append(summary(run));
        }
        return out.toString();
    }

    /**
     * {@code print_run_info(stdout, ...)}: the header and the table's column titles.
     *
     * @param o the command line
     * @param date the start date as {@code ctime()} writes it (a trailing newline is optional)
     */
    public static String header(FsMarkOptions o, String date) {
        StringBuilder out = new StringBuilder(1024);
        out.append("\n# ").append(o.echo());
        out.append("\n#\tVersion ").append(VERSION).append(", ").append(o.threads())
            .append(" thread(s) starting at ").append(date);
        if (!date.endsWith("\n")) {
            out.append('\n');
        }
        out.append("#\tSync method: ").append(o.syncMethod().description()).append('\n');
        FsMarkOptions.Subdirs sd = o.subdirs();
        if (sd.count() > 1) {
            boolean rr = sd.policy() == FsMarkDirPolicy.ROUND_ROBIN;
            out.append("#\tDirectories:  ").append(sd.policy().description()).append(" across ")
                .append(sd.count()).append(" subdirectories with ")
                .append(rr ? sd.filesPerSubdir() : FsMarkOptions.SECS_PER_DIRECTORY).append(' ')
                .append(rr ? "files per subdirectory" : "seconds per subdirectory").append(".\n");
        } else {
            out.append("#\tDirectories:  no subdirectories used\n");
        }
        FsMarkOptions.Names n = o.names();
        out.append("#\tFile names: ").append(n.lengthChars()).append(" bytes long, (")
            .append(n.timeStampChars()).append(" initial bytes of time stamp with ")
            .append(n.randomChars()).append(" random bytes at end of name)\n");
        out.append("#\tFiles info: size ").append(o.fileSizeBytes())
            .append(" bytes, written with an IO size of ").append(o.writeSizeBytes())
            .append(" bytes per write\n");
        out.append("#\tApp overhead is time in microseconds spent in the test not doing file writing"
            + " related system calls.\n");
        if (o.verbose()) {
            out.append("#\tAll system call times are reported in microseconds.\n\n");
            out.append(pad("FSUse%", 6)).append(' ').append(pad("Count", 12)).append(' ')
                .append(pad("Size", 12)).append(' ').append(pad("Files/sec", 12)).append(' ')
                .append(pad("App Overhead", 16));
            for (String s : new String[] {"CREAT (Min/Avg/Max)", "WRITE (Min/Avg/Max)",
                "FSYNC (Min/Avg/Max)", "SYNC (Min/Avg/Max)", "CLOSE (Min/Avg/Max)",
                "UNLINK (Min/Avg/Max)"}) {
                out.append(' ').append(pad(s, 26));
            }
            out.append('\n');
        } else {
            out.append('\n');
            out.append(pad("FSUse%", 6)).append(' ').append(pad("Count", 12)).append(' ')
                .append(pad("Size", 12)).append(' ').append(pad("Files/sec", 12)).append(' ')
                .append(pad("App Overhead", 16)).append('\n');
        }
        return out.toString();
    }

    /** {@code print_iteration_stats()}: one line of the table. */
    public static String iterationLine(FsMarkIteration it, boolean verbose) {
        FsMarkStats s = it.stats();
        StringBuilder out = new StringBuilder(verbose ? 220 : 64);
        out.append(pad(Integer.toString(it.fsUsePercent()), 6)).append(' ')
            .append(pad(Long.toString(it.count()), 12)).append(' ')
            .append(pad(Long.toString(it.sizeBytes()), 12)).append(' ')
            .append(pad(fixed(s.filesPerSec(), 1), 12)).append(' ')
            .append(pad(Long.toString(s.appOverheadUsec()), 16));
        if (verbose) {
            for (SyscallTimes t : new SyscallTimes[] {s.creat(), s.write(), s.fsync(), s.sync(),
                s.close(), s.unlink()}) {
                out.append(' ').append(pad(Long.toString(t.minUsec()), 8))
                    .append(' ').append(pad(Long.toString(t.avgUsec()), 8))
                    .append(' ').append(pad(Long.toString(t.maxUsec()), 8));
            }
        }
        return out.append('\n').toString();
    }

    /**
     * The closing lines of later fs_mark versions: {@code "Average Files/sec: %12.1f\n"},
     * {@code "p50 Files/sec: %llu\n"}, p90 and p99 likewise.
     */
    public static String summary(FsMarkRunResult run) {
        FsMarkRunResult.Summary s = run.summary();
        return "Average Files/sec: " + pad(fixed(s.averageFilesPerSec(), 1), 12) + "\n"
            + "p50 Files/sec: " + s.p50() + "\n"
            + "p90 Files/sec: " + s.p90() + "\n"
            + "p99 Files/sec: " + s.p99() + "\n";
    }

    /**
     * {@code ctime()}'s layout without its newline: {@code "Www Mmm dd hh:mm:ss yyyy"}, the day of
     * the month padded with a space ({@code "Tue Sep  1 09:05:03 2015"}).
     */
    public static String ctime(LocalDateTime t) {
        String dow = t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ROOT);
        String mon = t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ROOT);
        return String.format(Locale.ROOT, "%s %s %2d %02d:%02d:%02d %d", dow, mon,
            t.getDayOfMonth(), t.getHour(), t.getMinute(), t.getSecond(), t.getYear());
    }

    /** C's {@code %.Nf} of a value: the exact binary value rounded half to even. */
    static String fixed(double v, int decimals) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        String s = new BigDecimal(v).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        if (v < 0 && !s.startsWith("-")) {
            s = "-" + s; // -0.04 prints as -0.0 in C
        }
        return s;
    }

    /** Right-aligns {@code s} in {@code width} columns ({@code %Ns}); longer text is kept whole. */
    static String pad(String s, int width) {
        if (s.length() >= width) {
            return s;
        }
        return " ".repeat(width - s.length()) + s;
    }
}
