package blksim.report.fsmark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import blksim.report.json.JsonReader;
import blksim.workload.fsmark.FsMarkIteration;
import blksim.workload.fsmark.FsMarkOptions;
import blksim.workload.fsmark.FsMarkRunResult;
import blksim.workload.fsmark.FsMarkStats;
import blksim.workload.fsmark.FsMarkStats.SyscallTimes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON form of an fs_mark run, read back with JsonReader. */
class FsMarkJsonReporterTest {

    private static final SyscallTimes Z = SyscallTimes.NONE;

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @Test
    void run_roundTripsThroughJsonReader() {
        FsMarkOptions o = FsMarkOptions.parse(
            "fs_mark -d /mnt/a -t 2 -n 500 -s 4096 -S 0 -L 3", "t");
        FsMarkStats first = new FsMarkStats(1000, 1000f, 11, new SyscallTimes(1, 2, 3), Z, Z, Z, Z, Z);
        FsMarkRunResult run = new FsMarkRunResult(o, List.of(
            new FsMarkIteration(5, 1000, 4096, first),
            new FsMarkIteration(6, 2000, 4096, new FsMarkStats(1000, 2000f, 22, Z, Z, Z, Z, Z, Z)),
            new FsMarkIteration(7, 3000, 4096, new FsMarkStats(1000, 3000.5f, 33, Z, Z, Z, Z, Z, Z))));

        Map<String, Object> root = JsonReader.parseObject(
            FsMarkJsonReporter.render(run, "Tue Sep 22 10:00:00 2015"));

        assertEquals("3.3", root.get("fs_mark_version"));
        assertEquals("fs_mark -d /mnt/a -t 2 -n 500 -s 4096 -S 0 -L 3", root.get("command_line"));
        assertEquals("Tue Sep 22 10:00:00 2015", root.get("date"));
        Map<String, Object> opts = map(root.get("options"));
        assertEquals(List.of("/mnt/a"), opts.get("directories"));
        assertEquals(2.0, opts.get("threads"));
        assertEquals(500.0, opts.get("files_per_iteration"));
        assertEquals(4096.0, opts.get("file_size"));
        assertEquals(16384.0, opts.get("write_size"));
        assertEquals(0.0, opts.get("sync_method"));
        assertEquals(3.0, opts.get("loop_count"));
        assertEquals(true, opts.get("keep_files"));
        assertEquals("no_subdirs", opts.get("subdir_policy"));

        List<?> its = (List<?>) root.get("iterations");
        assertEquals(3, its.size());
        Map<String, Object> it0 = map(its.get(0));
        assertEquals(List.of("fs_use_pct", "count", "size", "files_per_sec", "app_overhead_usec",
            "creat", "write", "fsync", "sync", "close", "unlink"), List.copyOf(it0.keySet()));
        assertEquals(5.0, it0.get("fs_use_pct"));
        assertEquals(1000.0, it0.get("count"));
        assertEquals(4096.0, it0.get("size"));
        assertEquals(1000.0, it0.get("files_per_sec"));
        assertEquals(11.0, it0.get("app_overhead_usec"));
        assertEquals(Map.of("min_usec", 1.0, "avg_usec", 2.0, "max_usec", 3.0), it0.get("creat"));
        assertEquals(3000.5, map(its.get(2)).get("files_per_sec"));

        // mean (1000 + 2000 + 3000.5) / 3 = 2000.1666...; deviations -1000.1667, -0.1667, 1000.3333;
        // squares 1000333.36 + 0.0278 + 1000666.78 = 2001000.1667; population /3 -> sqrt = 816.7177,
        // sample /2 -> sqrt(1000500.08) = 1000.2500
        assertEquals(2000.166667, (Double) root.get("files_per_sec_mean"), 1e-6);
        assertEquals(Math.sqrt(2001000.1666667 / 3), (Double) root.get("files_per_sec_stddev"), 1e-5);
        assertEquals(Math.sqrt(2001000.1666667 / 2), (Double) root.get("files_per_sec_stddev_sample"),
            1e-5);
    }
}
