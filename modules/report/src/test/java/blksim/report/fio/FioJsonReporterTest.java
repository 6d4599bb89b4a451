package blksim.report.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import blksim.report.json.JsonReader;
import blksim.workload.fio.stats.EngineStats;
import blksim.workload.fio.stats.JobInfo;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;

class FioJsonReporterTest {

    @SuppressWarnings("unchecked")
    private static Map<String, Object> obj(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> arr(Object o) {
        return (List<Object>) o;
    }

    @Test
    void render_isParseableAndUsesFioFieldNames() {
        String json = FioJsonReporter.render(GoldenRun.twoGroups());
        assertTrue(json.endsWith("}\n"));
        Map<String, Object> root = JsonReader.parseObject(json);
        assertEquals(List.of("fio version", "timestamp", "timestamp_ms", "time", "global options", "jobs",
            "disk_util", "blksim"), new ArrayList<>(root.keySet()));
        assertEquals("fio-3.36", root.get("fio version"));
        assertEquals(1_700_000_000.0, root.get("timestamp"));
        assertEquals("Tue Nov 14 22:13:20 2023", root.get("time"));
        assertEquals("/dev/vda", obj(root.get("global options")).get("filename"));

        List<Object> jobs = arr(root.get("jobs"));
        assertEquals(2, jobs.size());
        Map<String, Object> job = obj(jobs.get(0));
        assertEquals(List.of("jobname", "groupid", "error", "eta", "elapsed", "job options", "read", "write", "trim",
            "sync", "job_runtime", "usr_cpu", "sys_cpu", "ctx", "majf", "minf", "iodepth_level", "iodepth_submit",
            "iodepth_complete", "latency_ns", "latency_us", "latency_ms", "latency_depth", "latency_target",
            "latency_percentile", "latency_window"), new ArrayList<>(job.keySet()));
        Map<String, Object> read = obj(job.get("read"));
        assertEquals(List.of("io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime", "total_ios", "short_ios",
            "drop_ios", "slat_ns", "clat_ns", "lat_ns", "bw_min", "bw_max", "bw_agg", "bw_mean", "bw_dev",
            "bw_samples", "iops_min", "iops_max", "iops_mean", "iops_stddev", "iops_samples"),
            new ArrayList<>(read.keySet()));
        assertEquals(24_576_000.0, read.get("io_bytes"));
        assertEquals(24_000.0, read.get("io_kbytes"));
        assertEquals(12_288_000.0, read.get("bw_bytes"));
        assertEquals(12_000.0, read.get("bw"));
        assertEquals(3000.0, read.get("iops"));
        assertEquals(2000.0, read.get("runtime"));
        Map<String, Object> clat = obj(read.get("clat_ns"));
        assertEquals(List.of("min", "max", "mean", "stddev", "N", "percentile"), new ArrayList<>(clat.keySet()));
        assertEquals(50_000.0, clat.get("min"));
        assertEquals(6000.0, clat.get("N"));
        Map<String, Object> pct = obj(clat.get("percentile"));
        assertEquals(17, pct.size());
        assertEquals(50_000.0, pct.get("50.000000"));
        assertEquals(149_952.0, pct.get("99.990000"));
        assertFalse(obj(read.get("slat_ns")).containsKey("percentile"), "slat percentiles are off by default");
        assertEquals(4.0, read.get("bw_samples"));
        assertEquals(100.0, read.get("bw_agg"));
        assertEquals(0.0, obj(job.get("write")).get("runtime"));
        assertEquals(2000.0, job.get("job_runtime"));
        assertEquals(5.0, job.get("usr_cpu"));
        assertEquals(List.of("1", "2", "4", "8", "16", "32", ">=64"),
            new ArrayList<>(obj(job.get("iodepth_level")).keySet()));
        assertEquals(List.of("0", "4", "8", "16", "32", "64", ">=64"),
            new ArrayList<>(obj(job.get("iodepth_complete")).keySet()));
        assertEquals(80.0, obj(job.get("iodepth_complete")).get("4"));
        assertEquals(50.0, obj(job.get("latency_us")).get("100"));
        assertEquals(12, obj(job.get("latency_ms")).size());
        assertEquals(12.0, job.get("elapsed"), "11.5 s of virtual time, rounded up");

        Map<String, Object> w = obj(jobs.get(1));
        assertEquals("sequential writer", w.get("desc"));
        assertFalse(obj(w.get("job options")).containsKey("stonewall"), "empty option values are dropped");
        assertEquals(0.0, obj(obj(w.get("write")).get("slat_ns")).get("N"), "sync engine: no slat samples");

        Map<String, Object> disk = obj(arr(root.get("disk_util")).get(0));
        assertEquals(List.of("name", "read_ios", "write_ios", "read_sectors", "write_sectors", "read_merges",
            "write_merges", "read_ticks", "write_ticks", "in_queue", "util"), new ArrayList<>(disk.keySet()));
        Map<String, Object> blksim = obj(root.get("blksim"));
        assertEquals(List.of("events", "windows", "partitions", "coupling_factor", "simulated_time_ns",
            "wall_time_ns", "events_per_wall_second", "version", "queues"), new ArrayList<>(blksim.keySet()));
        Map<String, Object> q = obj(obj(blksim.get("queues")).get(disk.get("name")));
        assertEquals(List.of("tag_waits", "tag_wait_ns", "sched_lock_spins", "sched_lock_spin_ns"),
            new ArrayList<>(q.keySet()));
        assertEquals("0.1.0-test", blksim.get("version"));
    }

    @Test
    void render_printsLikeFiosJsonPrinter() {
        String json = FioJsonReporter.render(GoldenRun.twoGroups());
        assertTrue(json.startsWith("{\n  \"fio version\" : \"fio-3.36\",\n  \"timestamp\" : 1700000000,\n"));
        assertTrue(json.contains("\n  \"jobs\" : [\n    {\n      \"jobname\" : \"randread\",\n"));
        assertTrue(json.contains("\n        \"iops\" : 3000.000000,\n"));
        assertTrue(json.contains("\n          \"stddev\" : 50004.167188,\n"));
        assertTrue(json.contains("\n            \"99.990000\" : 149952\n          }\n"));
        assertTrue(json.contains("\n    }\n  ],\n  \"disk_util\" : [\n"));
    }

    @Test
    void render_groupReporting_mergesJobsIntoOneEntry() {
        LinkedHashMap<String, String> opts = new LinkedHashMap<>();
        opts.put("group_reporting", "1");
        List<JobStats> jobs = new ArrayList<>();
        for (int j = 0; j < 3; j++) {
            JobStats s = new JobStats(new JobInfo("grp", 0, j, opts, "write", null, "libaio", 4, false, null, null));
            s.startMeasurement(0);
            for (int i = 0; i < 100 * (j + 1); i++) {
                s.recordIo(JobStats.DDIR_WRITE, 4096, 10, 1000, i);
            }
            s.finish(1_000_000_000L + j * 1_000_000L);
            jobs.add(s);
        }
        Map<String, Object> root = JsonReader.parseObject(FioJsonReporter.render(
            new RunResult(jobs, List.of(), null, 0, "t")));
        List<Object> arr = arr(root.get("jobs"));
        assertEquals(1, arr.size());
        Map<String, Object> job = obj(arr.get(0));
        assertEquals("grp", job.get("jobname"));
        Map<String, Object> write = obj(job.get("write"));
        assertEquals(600.0, write.get("total_ios"));
        assertEquals(1002.0, write.get("runtime"), "max of the members' runtimes");
        assertEquals(3003.0, job.get("job_runtime"), "sum of the members' runtimes");
        assertFalse(root.containsKey("disk_util"), "no disks: no disk_util");
    }

    @Test
    void withoutWallClock_removesExactlyTheWallClockFields() {
        String json = FioJsonReporter.render(GoldenRun.twoGroups());
        String det = FioJsonReporter.withoutWallClock(json);
        Set<String> before = paths(JsonReader.parse(json), "");
        Set<String> after = paths(JsonReader.parse(det), "");
        Set<String> removed = new TreeSet<>(before);
        removed.removeAll(after);
        assertEquals(new TreeSet<>(Set.of("/timestamp", "/timestamp_ms", "/time", "/blksim/wall_time_ns",
            "/blksim/events_per_wall_second")), removed);
        assertTrue(before.containsAll(after));
        assertEquals(json.split("\n").length - 5, det.split("\n").length);

        // two runs that differ only in wall-clock values compare equal once stripped
        RunResult a = GoldenRun.twoGroups();
        RunResult b = new RunResult(a.jobs(), a.disks(), new EngineStats(123456, 789, 2, 0.125, 11_500_000_000L,
            5, 9e9), 42, a.blksimVersion(), a.globalOptions());
        assertNotEquals(FioJsonReporter.render(a), FioJsonReporter.render(b));
        assertEquals(FioJsonReporter.renderDeterministic(a), FioJsonReporter.renderDeterministic(b));
    }

    @Test
    void withoutWallClock_keepsJsonValidWhenARemovedFieldIsLast() {
        String json = "{\n  \"a\" : 1,\n  \"time\" : \"x\"\n}\n";
        assertEquals("{\n  \"a\" : 1\n}\n", FioJsonReporter.withoutWallClock(json));
        String nested = "{\n  \"jobs\" : [\n    {\n      \"time\" : 1\n    }\n  ]\n}";
        assertEquals(nested, FioJsonReporter.withoutWallClock(nested), "only the root's time is wall-clock");
    }

    @SuppressWarnings("unchecked")
    private static Set<String> paths(Object v, String prefix) {
        Set<String> out = new TreeSet<>();
        if (v instanceof Map<?, ?> m) {
            for (Map.Entry<String, Object> e : ((Map<String, Object>) m).entrySet()) {
                String p = prefix + "/" + e.getKey();
                out.add(p);
                out.addAll(paths(e.getValue(), p));
            }
        } else if (v instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                out.addAll(paths(l.get(i), prefix + "[" + i + "]"));
            }
        }
        return out;
    }
}
