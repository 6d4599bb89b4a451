package blksim.report.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

import org.junit.jupiter.api.Test;

import blksim.workload.fio.stats.JobInfo;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;

class FioTextReporterTest {

    private static String golden(String name) throws IOException {
        try (InputStream in = FioTextReporterTest.class.getResourceAsStream("/golden/" + name)) {
            assertNotNull(in, "missing golden file " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void render_twoGroups_matchesHandWrittenGolden() throws IOException {
        String expected = golden("fio-normal-two-groups.txt");
        String actual = FioTextReporter.render(GoldenRun.twoGroups());
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        for (int i = 0; i < Math.min(e.length, a.length); i++) {
            assertEquals(e[i], a[i], "line " + (i + 1));
        }
        assertEquals(e.length, a.length, "line count");
        assertEquals(expected, actual);
    }

    private static JobStats groupMember(String name, int index, long clatNs, long usrNs) {
        LinkedHashMap<String, String> opts = new LinkedHashMap<>();
        opts.put("group_reporting", "1");
        JobInfo info = new JobInfo(name, 0, index, opts, "randread", null, "libaio", 8, false, null, null);
        JobStats s = new JobStats(info);
        s.startMeasurement(0);
        for (int i = 0; i < 2000; i++) {
            s.recordIo(JobStats.DDIR_READ, 4096, 1000, clatNs, i * 500_000L);
            s.recordIssue(8);
            s.recordSubmitBatch(1);
            s.recordCompleteBatch(1);
        }
        s.setCpu(usrNs, 0, 10);
        s.finish(1_000_000_000L);
        return s;
    }

    @Test
    void render_groupReporting_mergesJobsIntoOneBlock() {
        RunResult r = new RunResult(List.of(groupMember("grp", 0, 100_000, 100_000_000),
            groupMember("grp", 1, 300_000, 300_000_000)), List.of(), null, GoldenRun.WALL_CLOCK_MS, "t");
        String out = FioTextReporter.render(r);
        assertTrue(out.startsWith("grp: (groupid=0, jobs=2): err= 0: pid=1000: "), out);
        assertEquals(1, out.split("\\(groupid=", -1).length - 1, "exactly one job block");
        // 4000 I/Os x 4 KiB in 1000 ms (runtime = max, not sum)
        assertTrue(out.contains("  read: IOPS=4000, BW=15.6MiB/s (16.4MB/s)(15.6MiB/1000msec)\n"), out);
        assertTrue(out.contains("    clat (usec): min=100, max=300, avg=200.00, stdev=100.01\n"), out);
        // bw samples are summed over members: 2 windows x 2 jobs, min 8000 + 8000
        assertTrue(out.contains("   bw (  KiB/s): min=16000, max=16000, per=100.00%, avg=16000.00, stdev= 0.00,"
            + " samples=4\n"), out);
        // usr = (100 + 300) ms / (1000 + 1000) ms
        assertTrue(out.contains("  cpu          : usr=20.00%, sys=0.00%, ctx=20, majf=0, minf=0\n"), out);
        assertTrue(out.contains("     issued rwts: total=4000,0,0,0 "), out);
        assertTrue(out.contains("   READ: bw=15.6MiB/s (16.4MB/s), 15.6MiB/s-15.6MiB/s (16.4MB/s-16.4MB/s),"
            + " io=15.6MiB (16.4MB), run=1000-1000msec\n"), out);
        assertFalse(out.contains("Disk stats"), "no disks, no disk section");
    }

    @Test
    void render_withoutGroupReporting_printsOneBlockPerJobAndGroupMinMax() {
        JobStats a = groupMember("a", 0, 100_000, 0);
        JobInfo bi = new JobInfo("b", 0, 1, null, "randread", null, "libaio", 8, false, null, null);
        JobStats b = new JobStats(bi);
        b.startMeasurement(0);
        for (int i = 0; i < 1000; i++) {
            b.recordIo(JobStats.DDIR_READ, 4096, 1000, 100_000, i * 1_000_000L);
        }
        b.finish(2_000_000_000L);
        String out = FioTextReporter.render(new RunResult(List.of(a, b), null, null, 0, "t"));
        assertTrue(out.contains("a: (groupid=0, jobs=1)"), out);
        assertTrue(out.contains("\nb: (groupid=0, jobs=1)"), out);
        // a: 8192000 B/s, b: 2048000 B/s; aggregate = 12288000 B * 1000 / 2000 ms (longest run)
        assertTrue(out.contains("   READ: bw=6000KiB/s (6144kB/s), 2000KiB/s-8000KiB/s (2048kB/s-8192kB/s),"
            + " io=11.7MiB (12.3MB), run=1000-2000msec\n"), out);
        // per: a's mean sample 8000 KiB/s of the 6000 KiB/s aggregate is capped at 100, b's 4000 is 66.67 %
        assertTrue(out.contains("   bw (  KiB/s): min= 8000, max= 8000, per=100.00%,"), out);
        assertTrue(out.contains("   bw (  KiB/s): min= 4000, max= 4000, per=66.67%,"), out);
    }

    @Test
    void render_latencyProfile_printsTargetWindowPercentileAndDepth_asFio336() {
        JobInfo info = new JobInfo("lp", 0, 0, null, "randread", null, "libaio", 128, false, null, null);
        JobStats s = new JobStats(info);
        s.recordIo(JobStats.DDIR_READ, 4096, 100, 500, 0);
        // latency_target=500000 (µs: 500 ms, kept in ns), latency_window=5000000 (µs).
        s.setLatencyProfile(500_000_000L, 5_000_000L, 99.9);
        s.setLatencyDepth(12);
        s.finish(1_000_000_000);
        String out = FioTextReporter.render(new RunResult(List.of(s), null, null, 0, "t"));
        assertTrue(out.contains("     latency   : target=500000000, window=5000000, percentile=99.90%,"
            + " depth=12\n"), out);
        String json = FioJsonReporter.render(new RunResult(List.of(s), null, null, 0, "t"));
        assertTrue(json.contains("\"latency_depth\" : 12"), json);
        assertTrue(json.contains("\"latency_target\" : 500000000"), json);
        assertTrue(json.contains("\"latency_window\" : 5000000"), json);
    }

    @Test
    void render_skipsJobsWithoutIo_andPrintsErrors() {
        JobInfo idle = new JobInfo("idle", 0, 0, null, "read", null, "sync", 1, true, null, null);
        JobStats i = new JobStats(idle);
        i.finish(1_000_000);
        JobInfo bad = new JobInfo("bad", 0, 1, null, "read", null, "sync", 1, true, null, null);
        JobStats b = new JobStats(bad);
        b.recordIo(JobStats.DDIR_READ, 4096, -1, 500, 0);
        b.setError(5);
        b.finish(1_000_000_000);
        String out = FioTextReporter.render(new RunResult(List.of(i, b), null, null, 0, "t"));
        assertFalse(out.contains("idle:"), out);
        assertTrue(out.startsWith("bad: (groupid=0, jobs=1): err= 5 (func=io_u error, error=Input/output error):"
            + " pid=1001: Thu Jan  1 00:00:00 1970\n"), out);
        // bucket labels are upper bounds: 500 ns is in 500..749, printed as "750="
        assertTrue(out.contains("  lat (nsec)   : 750=100.00%\n"), out);
        assertFalse(out.contains("slat"), "sync engine: no slat line");
    }

    @Test
    void render_latencyBuckets_wrapAfterFivePerLine() {
        JobInfo info = new JobInfo("spread", 0, 0, null, "read", null, "libaio", 2, false, null, null);
        JobStats s = new JobStats(info);
        long[] clat = {1_500, 3_000, 5_000, 15_000, 30_000, 70_000, 200_000, 1_500_000};
        for (long c : clat) {
            s.recordIo(JobStats.DDIR_READ, 4096, 100, c, 0);
        }
        s.finish(1_000_000_000L);
        String out = FioTextReporter.render(new RunResult(List.of(s), null, null, 0, "t"));
        assertTrue(out.contains("  lat (usec)   : 2=12.50%, 4=12.50%, 10=12.50%, 20=12.50%, 50=12.50%\n"
            + "  lat (usec)   : 100=12.50%, 250=12.50%\n"
            + "  lat (msec)   : 2=12.50%\n"
            + "  cpu          : "), out);
    }

    @Test
    void render_largeValues_widenPercentilesAndSwitchBwToMiB() {
        JobInfo info = new JobInfo("big", 0, 0, null, "read", null, "libaio", 64, false, null, null);
        JobStats s = new JobStats(info);
        s.startMeasurement(0);
        // 2 GiB/s of 1 MiB reads (1024 per 500 ms window), clat 1.2 s .. 9.6 s (msec scale)
        for (int i = 0; i < 4096; i++) {
            s.recordIo(JobStats.DDIR_READ, 1 << 20, 1000, 1_200_000_000L * (1 + i % 8),
                (i / 1024) * 500_000_000L + i % 1024);
        }
        s.finish(2_000_000_000L);
        String out = FioTextReporter.render(new RunResult(List.of(s), null, null, 0, "t"));
        assertTrue(out.contains("  read: IOPS=2048, BW=2048MiB/s (2147MB/s)(4096MiB/2000msec)\n"), out);
        // 1.2 s falls in the bucket [1199570944, 1200619519]: middle 1200095232 ns, rounded up to 1201 ms
        assertTrue(out.contains("    clat percentiles (msec):\n     |  1.00th=[ 1201],"), out);
        assertTrue(out.contains("| 99.99th=[ 9600]\n"), out);
        // 2097152 KiB/s per window: above 1024*1024 KiB/s the line switches to MiB
        assertTrue(out.contains("   bw (  MiB/s): min= 2048, max= 2048, per=100.00%, avg=2048.00, stdev= 0.00,"
            + " samples=4\n"), out);
        assertTrue(out.contains("  lat (msec)   : 2000=12.50%, >=2000=87.50%\n"), out);
        // 7-digit percentile values leave room for three per line
        JobInfo wide = new JobInfo("wide", 0, 1, null, "read", null, "libaio", 1, false, null, null);
        JobStats w = new JobStats(wide);
        for (int i = 0; i < 100; i++) {
            w.recordIo(JobStats.DDIR_READ, 512, -1, 3_000_000_000_000L, 0);
        }
        w.finish(1_000_000_000L);
        String wo = FioTextReporter.render(new RunResult(List.of(w), null, null, 0, "t"));
        List<String> pctLines = new ArrayList<>();
        for (String line : wo.split("\n")) {
            if (line.startsWith("     |")) {
                pctLines.add(line);
            }
        }
        assertEquals(" |  1.00th=[3000000],  5.00th=[3000000], 10.00th=[3000000],", pctLines.get(0).substring(4));
        assertEquals(6, pctLines.size(), "17 percentiles at 3 per line");
    }
}
