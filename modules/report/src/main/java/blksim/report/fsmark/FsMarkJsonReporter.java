package blksim.report.fsmark;

import blksim.report.json.JsonWriter;
import blksim.workload.fsmark.FsMarkIteration;
import blksim.workload.fsmark.FsMarkOptions;
import blksim.workload.fsmark.FsMarkRunResult;
import blksim.workload.fsmark.FsMarkStats;
import blksim.workload.fsmark.FsMarkStats.SyscallTimes;

/**
 * A JSON form of an fs_mark run (fs_mark itself has none): the command line, its options after
 * processing, one object per iteration with the table's columns and the per-system-call times of
 * {@code -v}, then the mean and standard deviation of Files/sec over the iterations (population and
 * sample forms). Layout and number formats are {@link JsonWriter}'s (fio's).
 *
 * <p>Keys: {@code fs_mark_version}, {@code command_line}, {@code date}, {@code options} {...},
 * {@code iterations} [{@code fs_use_pct}, {@code count}, {@code size}, {@code files_per_sec},
 * {@code app_overhead_usec}, {@code creat}/{@code write}/{@code fsync}/{@code sync}/{@code close}/
 * {@code unlink} {@code {min_usec, avg_usec, max_usec}}], {@code files_per_sec_mean},
 * {@code files_per_sec_stddev}, {@code files_per_sec_stddev_sample}.
 *
 * <p>Example: {@code String json = FsMarkJsonReporter.render(run, date);}
 */
public final class FsMarkJsonReporter {

    private FsMarkJsonReporter() {
    }

    /**
     * Renders the run.
     *
     * @param run the run
     * @param date the start date as the text report shows it (no trailing newline)
     * @return the JSON text, without a trailing newline
     */
    public static String render(FsMarkRunResult run, String date) {
        FsMarkOptions o = run.options();
        JsonWriter w = new JsonWriter().beginObject();
        w.name("fs_mark_version").value(FsMarkTextReporter.VERSION);
        w.name("command_line").value(String.join(" ", o.argv()));
        w.name("date").value(date.strip());
        options(w, o);
        w.name("iterations").beginArray();
        for (FsMarkIteration it : run.iterations()) {
            FsMarkStats s = it.stats();
            w.beginObject();
            w.name("fs_use_pct").value(it.fsUsePercent());
            w.name("count").value(it.count());
            w.name("size").value(it.sizeBytes());
            w.name("files_per_sec").value((double) s.filesPerSec());
            w.name("app_overhead_usec").value(s.appOverheadUsec());
            times(w, "creat", s.creat());
            times(w, "write", s.write());
            times(w, "fsync", s.fsync());
            times(w, "sync", s.sync());
            times(w, "close", s.close());
            times(w, "unlink", s.unlink());
            w.endObject();
        }
        w.endArray();
        w.name("files_per_sec_mean").value(run.filesPerSecMean());
        w.name("files_per_sec_stddev").value(run.filesPerSecStdDev(false));
        w.name("files_per_sec_stddev_sample").value(run.filesPerSecStdDev(true));
        return w.endObject().toString();
    }

    private static void options(JsonWriter w, FsMarkOptions o) {
        w.name("options").beginObject();
        w.name("directories").beginArray();
        for (String d : o.directories()) {
            w.value(d);
        }
        w.endArray();
        w.name("threads").value(o.threads());
        w.name("files_per_iteration").value(o.filesPerIteration());
        w.name("file_size").value(o.fileSizeBytes());
        w.name("write_size").value(o.writeSizeBytes());
        w.name("sync_method").value(o.syncMethod().number());
        w.name("sync_method_text").value(o.syncMethod().description());
        w.name("loop_count").value(o.loopCount());
        w.name("keep_files").value(o.keepFiles());
        w.name("fill_fs").value(o.fillFilesystem());
        w.name("subdir_policy").value(o.subdirs().policy().name().toLowerCase(java.util.Locale.ROOT));
        w.name("subdirs").value(o.subdirs().count());
        w.name("files_per_subdir").value(o.subdirs().filesPerSubdir());
        w.name("name_length").value(o.names().lengthChars());
        w.name("random_name_length").value(o.names().randomChars());
        w.name("verbose").value(o.verbose());
        w.name("log_file").value(o.logFileName());
        w.endObject();
    }

    private static void times(JsonWriter w, String name, SyscallTimes t) {
        w.name(name).beginObject();
        w.name("min_usec").value(t.minUsec());
        w.name("avg_usec").value(t.avgUsec());
        w.name("max_usec").value(t.maxUsec());
        w.endObject();
    }
}
