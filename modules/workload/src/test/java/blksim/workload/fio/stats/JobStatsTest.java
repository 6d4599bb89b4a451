package blksim.workload.fio.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class JobStatsTest {

    private static JobInfo info(String name, int group, int index, boolean sync) {
        return new JobInfo(name, group, index, new LinkedHashMap<>(), "randrw", null, sync ? "psync" : "libaio",
            sync ? 1 : 32, sync, null, null);
    }

    private static JobStats job(String name, int index) {
        return new JobStats(info(name, 0, index, false));
    }

    @Test
    void recordIo_latencyStatistics_areExact() {
        JobStats s = job("exact", 0);
        s.startMeasurement(0);
        Random rnd = new Random(42);
        long[] clat = new long[20_000];
        for (int i = 0; i < clat.length; i++) {
            clat[i] = 1 + (long) (rnd.nextDouble() * 5_000_000L) + (i % 7 == 0 ? 900_000_000L : 0);
            s.recordIo(JobStats.DDIR_READ, 4096, 1000 + i % 3, clat[i], i * 1000L);
        }
        s.finish(clat.length * 1000L);

        long sum = 0;
        for (long v : clat) {
            sum += v;
        }
        double mean = (double) sum / clat.length;
        double ss = 0;
        for (long v : clat) {
            ss += (v - mean) * (v - mean);
        }
        double stdev = Math.sqrt(ss / (clat.length - 1));
        StatSummary c = s.clat(JobStats.DDIR_READ);
        assertEquals(clat.length, c.samples());
        assertEquals(Arrays.stream(clat).min().getAsLong(), c.min());
        assertEquals(Arrays.stream(clat).max().getAsLong(), c.max());
        assertEquals(mean, c.mean(), 0.0, "mean must be the exact sum / n");
        assertEquals(stdev, c.stddev(), stdev * 1e-12);

        StatSummary sl = s.slat(JobStats.DDIR_READ);
        assertEquals(1000, sl.min());
        assertEquals(1002, sl.max());
        StatSummary l = s.lat(JobStats.DDIR_READ);
        assertEquals(c.min() + 1000, l.min(), 2.0);
        assertEquals(StatSummary.EMPTY, s.clat(JobStats.DDIR_WRITE));
    }

    @Test
    void percentile_isWithinHdrHistogramPrecision() {
        JobStats s = job("pct", 0);
        long[] values = new long[100_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = 1_000 + 37L * i;     // 1 us .. 3.7 ms, uniform
        }
        long[] shuffled = values.clone();
        Random rnd = new Random(7);
        for (int i = shuffled.length - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            long t = shuffled[i];
            shuffled[i] = shuffled[j];
            shuffled[j] = t;
        }
        for (long v : shuffled) {
            s.recordIo(JobStats.DDIR_WRITE, 512, -1, v, 0);
        }
        for (double p : new double[] {1, 50, 90, 99, 99.9, 99.99}) {
            long rank = (long) Math.ceil(p / 100.0 * values.length);
            long exact = values[(int) rank - 1];
            long got = s.percentile(JobStats.Latency.CLAT, JobStats.DDIR_WRITE, p);
            assertEquals(exact, got, exact * 0.001 + 1, "p" + p);
        }
        long[] list = s.clatPercentiles(JobStats.DDIR_WRITE);
        assertEquals(JobInfo.DEFAULT_PERCENTILES.length, list.length);
        for (int i = 1; i < list.length; i++) {
            assertTrue(list[i] >= list[i - 1], "percentiles must be monotone");
        }
        assertEquals(0, s.percentile(JobStats.Latency.CLAT, JobStats.DDIR_READ, 50));
    }

    @Test
    void percentile_isClampedToExactMinAndMax() {
        JobStats s = job("clamp", 0);
        s.recordIo(JobStats.DDIR_READ, 4096, -1, 150_000_000L, 0);
        assertEquals(150_000_000L, s.percentile(JobStats.Latency.CLAT, JobStats.DDIR_READ, 99.99));
        assertEquals(150_000_000L, s.percentile(JobStats.Latency.CLAT, JobStats.DDIR_READ, 1));
    }

    @Test
    void merge_sumsCountsAndMergesHistograms() {
        JobStats a = job("first", 0);
        JobStats b = job("second", 1);
        a.startMeasurement(0);
        b.startMeasurement(0);
        for (int i = 0; i < 1000; i++) {
            a.recordIo(JobStats.DDIR_READ, 4096, 100, 10_000 + i, i * 1_000_000L);
            a.recordIssue(4);
        }
        for (int i = 0; i < 3000; i++) {
            b.recordIo(JobStats.DDIR_READ, 8192, 200, 1_000_000 + i, i * 500_000L);
            b.recordIo(JobStats.DDIR_WRITE, 512, 200, 2_000_000, i * 500_000L);
            b.recordIssue(40);
        }
        a.setCpu(100_000_000, 50_000_000, 10);
        b.setCpu(300_000_000, 150_000_000, 32);
        b.setError(5);
        a.finish(1_000_000_000L);
        b.finish(1_500_000_000L);

        JobStats m = JobStats.merge(List.of(a, b));
        assertEquals("first", m.info().jobname());
        assertEquals(2, m.members());
        assertEquals(4000, m.totalIos(JobStats.DDIR_READ));
        assertEquals(3000, m.totalIos(JobStats.DDIR_WRITE));
        assertEquals(1000L * 4096 + 3000L * 8192, m.ioBytes(JobStats.DDIR_READ));
        assertEquals(4000, m.histogram(JobStats.Latency.CLAT, JobStats.DDIR_READ).getTotalCount());
        assertEquals(10_000, m.clat(JobStats.DDIR_READ).min());
        assertEquals(1_002_999, m.clat(JobStats.DDIR_READ).max());
        double expectedMean = (1000 * (10_000 + 999 / 2.0) + 3000 * (1_000_000 + 2999 / 2.0)) / 4000;
        assertEquals(expectedMean, m.clat(JobStats.DDIR_READ).mean(), 1e-6);
        // p10 lies in job a's values, p90 in job b's: the histograms were merged
        assertTrue(m.percentile(JobStats.Latency.CLAT, JobStats.DDIR_READ, 10) < 12_000);
        assertTrue(m.percentile(JobStats.Latency.CLAT, JobStats.DDIR_READ, 90) > 1_000_000);
        // runtime = max, job_runtime = sum, cpu = sum(usr) / sum(runtime)
        assertEquals(1500, m.runtimeMs(JobStats.DDIR_READ));
        assertEquals(1500, m.runtimeMs(JobStats.DDIR_WRITE));
        assertEquals(2500, m.jobRuntimeMs());
        assertEquals(400.0 / 2500 * 100, m.usrCpuPercent(), 1e-9);
        assertEquals(200.0 / 2500 * 100, m.sysCpuPercent(), 1e-9);
        assertEquals(42, m.ctx());
        assertEquals(5, m.error());
        assertArrayEquals(new long[] {0, 0, 1000, 0, 0, 3000, 0}, m.ioDepthCounts());
        // bw under group_reporting: the members' sample statistics are added (fio's pure sum)
        StatSummary bwA = a.bw(JobStats.DDIR_READ);
        StatSummary bwB = b.bw(JobStats.DDIR_READ);
        StatSummary bwM = m.bw(JobStats.DDIR_READ);
        assertEquals(bwA.samples() + bwB.samples(), bwM.samples());
        assertEquals(bwA.min() + bwB.min(), bwM.min());
        assertEquals(bwA.mean() + bwB.mean(), bwM.mean(), 1e-9);
    }

    @Test
    void merge_rejectsEmptyList() {
        assertThrows(IllegalArgumentException.class, () -> JobStats.merge(List.of()));
    }

    @Test
    void encodeDecode_roundTripIsByteIdentical() {
        LinkedHashMap<String, String> opts = new LinkedHashMap<>();
        opts.put("rw", "randread");
        opts.put("group_reporting", "");
        JobInfo info = new JobInfo("rt", 3, 7, opts, "randread", new long[] {4096, 8192, 512}, "io_uring", 16,
            false, new double[] {50, 99.5}, "desc \u00e9");
        JobStats s = new JobStats(info);
        s.startMeasurement(1_000);
        Random rnd = new Random(1);
        for (int i = 0; i < 5000; i++) {
            int d = i % 3;
            s.recordIo(d, 4096, rnd.nextInt(5000), rnd.nextInt(50_000_000), 1_000 + i * 400_000L);
            s.recordIssue(1 + rnd.nextInt(80));
            s.recordSubmitBatch(rnd.nextInt(70));
            s.recordCompleteBatch(rnd.nextInt(70));
        }
        s.setCpu(12_345, 67_890, 11);
        s.setError(110);

        byte[] unfinished = s.encode();
        JobStats u = JobStats.decode(unfinished);
        assertArrayEquals(unfinished, u.encode(), "unfinished stats (bw windows pending)");

        s.finish(2_100_000_000L);
        u.finish(2_100_000_000L);
        assertArrayEquals(s.encode(), u.encode(), "windows survive the round trip");

        byte[] x = s.encode();
        JobStats d = JobStats.decode(x);
        assertArrayEquals(x, d.encode());
        assertEquals(info, d.info());
        assertTrue(d.info().groupReporting());
        assertEquals(s.clat(1), d.clat(1));
        assertEquals(s.bw(2), d.bw(2));
        assertArrayEquals(s.clatPercentiles(0), d.clatPercentiles(0));
        assertEquals(s.histogram(JobStats.Latency.SLAT, 2), d.histogram(JobStats.Latency.SLAT, 2));

        JobStats merged = JobStats.merge(List.of(s, d));
        byte[] mx = merged.encode();
        assertArrayEquals(mx, JobStats.decode(mx).encode());
        assertEquals(2, JobStats.decode(mx).members());
    }

    @Test
    void ioError_keepsTheFirst_countsTheFailedIoAsIssued_andSurvivesEncodeAndMerge() {
        JobStats s = new JobStats(new JobInfo("e", 0, 0, null, "read", null, "io_uring", 4,
            false, null, null));
        s.recordFailedIo(0);
        s.setIoError(11, "file:io_u.c:1896, func=io_u error", "/dev/nullb0", "read", 8192, 4096);
        s.setIoError(95, "other", "/dev/x", "write", 0, 512);
        assertEquals(1, s.totalIos(0));
        assertEquals(0, s.ioBytes(0));
        assertEquals(11, s.error());
        assertEquals("read offset=8192, buflen=4096", s.errorIo());
        JobStats d = JobStats.decode(s.encode());
        assertEquals("file:io_u.c:1896, func=io_u error", d.errorWhere());
        assertEquals("/dev/nullb0", d.errorFile());
        JobStats ok = new JobStats(new JobInfo("e", 0, 1, null, "read", null, "io_uring", 4,
            false, null, null));
        JobStats m = JobStats.merge(List.of(ok, d));
        assertEquals(11, m.error());
        assertEquals("read offset=8192, buflen=4096", m.errorIo(), "the erring member's io_u");
    }

    @Test
    void decode_rejectsGarbage() {
        assertThrows(IllegalArgumentException.class, () -> JobStats.decode(new byte[] {1, 2, 3, 4, 5}));
        byte[] ok = job("x", 0).encode();
        assertThrows(IllegalArgumentException.class, () -> JobStats.decode(Arrays.copyOf(ok, ok.length - 3)));
    }

    @Test
    void bwSamples_areTakenPer500msWindow() {
        JobStats s = job("bw", 0);
        s.startMeasurement(10_000_000_000L);
        long t0 = 10_000_000_000L;
        // window 0: 100 x 4 KiB, window 1: none, window 2: 300 x 4 KiB, window 3 (partial): 50
        for (int i = 0; i < 100; i++) {
            s.recordIo(JobStats.DDIR_READ, 4096, -1, 1000, t0 + i * 1_000_000L);
        }
        for (int i = 0; i < 300; i++) {
            s.recordIo(JobStats.DDIR_READ, 4096, -1, 1000, t0 + 1_000_000_000L + i * 1_000_000L);
        }
        for (int i = 0; i < 50; i++) {
            s.recordIo(JobStats.DDIR_READ, 4096, -1, 1000, t0 + 1_500_000_000L + i);
        }
        s.finish(t0 + 1_700_000_000L);
        StatSummary bw = s.bw(JobStats.DDIR_READ);
        assertEquals(2, bw.samples(), "empty window 1 and partial window 3 give no sample");
        assertEquals(100 * 4096 * 1000 / 500 / 1024, bw.min());
        assertEquals(300 * 4096 * 1000 / 500 / 1024, bw.max());
        StatSummary iops = s.iops(JobStats.DDIR_READ);
        assertEquals(200, iops.min());
        assertEquals(600, iops.max());
        assertEquals(400.0, iops.mean(), 0.0);
        assertEquals(1700, s.runtimeMs(JobStats.DDIR_READ));
        assertEquals(0, s.runtimeMs(JobStats.DDIR_WRITE), "no data in that direction");
        assertFalse(s.bw(JobStats.DDIR_WRITE).present());
    }

    @Test
    void sampleWindows_areSeparateForBwAndIops_andSurviveEncoding() {
        JobStats s = job("win", 0);
        s.setSampleWindows(100, 250);
        s.setReportOptions(JobStats.UNIFIED_BOTH, 6, 1);
        long t0 = 1_000_000_000L;
        s.startMeasurement(t0);
        // one 4 KiB read every ms for 1 s: 10 bw windows of 100 ms, 4 iops windows of 250 ms
        for (int i = 0; i < 1000; i++) {
            s.recordIo(JobStats.DDIR_READ, 4096, -1, 1000, t0 + i * 1_000_000L + 1);
        }
        // encoded mid-run (partition transfer): the windows and options go with it
        JobStats d = JobStats.decode(s.encode());
        assertEquals(6, d.sigFigs());
        assertEquals(1, d.unitBase());
        assertEquals(JobStats.UNIFIED_BOTH, d.unifiedRw());
        d.finish(t0 + 1_050_000_000L);
        assertEquals(10, d.bw(JobStats.DDIR_READ).samples());
        assertEquals(100L * 4096 * 1000 / 100 / 1024, d.bw(JobStats.DDIR_READ).min());
        assertEquals(4, d.iops(JobStats.DDIR_READ).samples());
        assertEquals(1000, d.iops(JobStats.DDIR_READ).min(), "250 I/Os per 250 ms");
        assertArrayEquals(d.encode(), JobStats.decode(d.encode()).encode());
        assertThrows(IllegalStateException.class, () -> s.setSampleWindows(500, 500),
            "windows are fixed once recording started");
    }

    @Test
    void mixed_sumsEveryDirectionIntoReadAsFiosUnifiedMixed() {
        JobStats a = job("m", 0);
        JobStats b = job("m", 1);
        for (JobStats s : List.of(a, b)) {
            s.startMeasurement(0);
            s.recordIo(JobStats.DDIR_READ, 4096, -1, 1000, 1_000);
            s.recordIo(JobStats.DDIR_WRITE, 8192, -1, 3000, 2_000);
            s.recordIo(JobStats.DDIR_TRIM, 512, -1, 5000, 3_000);
            s.finish(2_000_000L);
        }
        JobStats m = JobStats.mixed(List.of(a, b));
        assertEquals(JobStats.UNIFIED_MIXED, m.unifiedRw());
        assertEquals(2 * (4096 + 8192 + 512), m.ioBytes(JobStats.DDIR_READ));
        assertEquals(6, m.totalIos(JobStats.DDIR_READ));
        assertEquals(0, m.ioBytes(JobStats.DDIR_WRITE) + m.totalIos(JobStats.DDIR_TRIM));
        assertEquals(6, m.clat(JobStats.DDIR_READ).samples());
        assertEquals(1000, m.clat(JobStats.DDIR_READ).min());
        assertEquals(5000, m.clat(JobStats.DDIR_READ).max());
        assertEquals(3000.0, m.clat(JobStats.DDIR_READ).mean(), 1e-9);
        assertEquals(2, m.members());
        assertEquals(2, m.runtimeMs(JobStats.DDIR_READ));
    }

    @Test
    void startMeasurement_discardsRampRecords() {
        JobStats s = job("ramp", 0);
        s.recordIo(JobStats.DDIR_READ, 4096, 10, 10, 0);
        s.recordIssue(1);
        s.recordSubmitBatch(1);
        s.startMeasurement(5_000);
        assertEquals(0, s.totalIos(JobStats.DDIR_READ));
        assertEquals(0, s.totalSubmit());
        assertArrayEquals(new long[7], s.ioDepthCounts());
        assertEquals(5_000, s.startNs());
    }

    @Test
    void recordIo_marksFioLatencyBuckets() {
        JobStats s = job("buckets", 0);
        long[] clat = {0, 1, 2, 999, 1000, 1999, 2000, 999_999, 1_000_000, 1_999_999, 2_000_000,
            999_999_999, 1_000_000_000, 1_999_999_999, 2_000_000_000, 50_000_000_000L};
        for (long c : clat) {
            s.recordIo(JobStats.DDIR_READ, 1, -1, c, 0);
        }
        assertArrayEquals(new long[] {2, 1, 0, 0, 0, 0, 0, 0, 0, 1}, s.latNsecCounts());
        assertArrayEquals(new long[] {2, 1, 0, 0, 0, 0, 0, 0, 0, 1}, s.latUsecCounts());
        assertArrayEquals(new long[] {2, 1, 0, 0, 0, 0, 0, 0, 0, 1, 2, 2}, s.latMsecCounts());
        double[] pct = s.latMsecPercent();
        assertEquals(200.0 / 16, pct[11], 1e-12);
    }

    @Test
    void latPercent_showsTinyNonZeroSharesAsOneHundredth() {
        JobStats s = job("tiny", 0);
        for (int i = 0; i < 99_999; i++) {
            s.recordIo(JobStats.DDIR_READ, 1, -1, 5_000, 0);
        }
        s.recordIo(JobStats.DDIR_READ, 1, -1, 500, 0);
        assertEquals(0.01, s.latNsecPercent()[8], 0.0);
    }

    @Test
    void depthAndBatchDistributions_useFioBuckets() {
        JobStats s = job("depth", 0);
        int[] depths = {1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 200};
        for (int d : depths) {
            s.recordIssue(d);
        }
        assertArrayEquals(new long[] {1, 2, 2, 2, 2, 2, 2}, s.ioDepthCounts());
        int[] batches = {0, 1, 4, 5, 8, 9, 16, 17, 32, 33, 64, 65};
        for (int b : batches) {
            s.recordSubmitBatch(b);
            s.recordCompleteBatch(b);
        }
        assertArrayEquals(new long[] {1, 2, 2, 2, 2, 2, 1}, s.submitCounts());
        assertArrayEquals(s.submitCounts(), s.completeCounts());
        assertEquals(12, s.totalSubmit());
        double[] dist = s.submitDistribution();
        assertEquals(100.0 / 12, dist[0], 1e-12);
        // 1000 I/Os, one issued at depth 1: 0.1 % exactly; a single one of 2000 shows as 0.1
        JobStats t = job("dist", 1);
        for (int i = 0; i < 2000; i++) {
            t.recordIo(JobStats.DDIR_READ, 1, -1, 1, 0);
            t.recordIssue(i == 0 ? 1 : 8);
        }
        assertEquals(0.1, t.ioDepthDistribution()[0], 0.0);
        assertEquals(1999 / 2000.0 * 100, t.ioDepthDistribution()[3], 1e-12);
    }

    @Test
    void ioDepths_afterRampTime_sumTo100_asFiosIssueCountsDo() {
        JobStats s = job("ramped", 32);
        for (int i = 0; i < 32; i++) {
            s.recordIssue(i + 1); // the ramp: these are discarded with it
        }
        s.startMeasurement(1_000);
        for (int i = 0; i < 32; i++) {
            s.recordIo(JobStats.DDIR_READ, 4096, 100, 1_000, 2_000); // issued in the ramp
        }
        for (int i = 0; i < 96; i++) {
            s.recordIssue(32);
            s.recordIo(JobStats.DDIR_READ, 4096, 100, 1_000, 3_000);
        }
        double[] d = s.ioDepthDistribution();
        assertEquals(100.0, d[5], 1e-12, java.util.Arrays.toString(d));
        assertEquals(100.0, java.util.Arrays.stream(d).sum(), 1e-9);
    }

    @Test
    void syncs_areTimedCountedMergedAndEncoded_andResetWithTheRamp() {
        JobStats a = job("a", 0);
        a.recordSync(5_000, true); // in the ramp: discarded
        a.startMeasurement(0);
        a.recordSync(10_000, true);
        a.recordSync(30_000, false); // end_fsync: timed, not counted
        assertEquals(1, a.syncIos());
        assertEquals(2, a.syncLatency().samples());
        assertEquals(10_000, a.syncLatency().min());
        assertEquals(30_000, a.syncLatency().max());
        long[] p = a.syncPercentiles();
        assertEquals(10_000, p[0], 100, "1st percentile");
        assertEquals(30_000, p[p.length - 1], 100, "99.99th percentile");
        JobStats round = JobStats.decode(a.encode());
        assertArrayEquals(a.encode(), round.encode());
        assertEquals(1, round.syncIos());
        JobStats b = job("a", 1);
        b.startMeasurement(0);
        b.recordSync(20_000, true);
        JobStats m = JobStats.merge(java.util.List.of(a, b));
        assertEquals(2, m.syncIos());
        assertEquals(3, m.syncLatency().samples());
        assertEquals(20_000.0, m.syncLatency().mean(), 1e-9);
    }

    @Test
    void syncEngine_doesNotRecordSlat() {
        JobStats s = new JobStats(info("sync", 0, 0, true));
        s.recordIo(JobStats.DDIR_WRITE, 4096, 700, 10_000, 0);
        assertFalse(s.slat(JobStats.DDIR_WRITE).present());
        assertEquals(10_700, s.lat(JobStats.DDIR_WRITE).min(), "lat still covers the submission time");
        JobStats a = job("async", 1);
        a.recordIo(JobStats.DDIR_WRITE, 4096, -1, 10_000, 0);
        assertFalse(a.slat(JobStats.DDIR_WRITE).present(), "negative slat means not measured");
        assertEquals(10_000, a.lat(JobStats.DDIR_WRITE).min());
    }

    @Test
    void finish_ignoresLaterIosAndRejectsSecondCall() {
        JobStats s = job("late", 0);
        s.recordIo(JobStats.DDIR_READ, 4096, 1, 1, 0);
        s.finish(1_000_000);
        s.recordIo(JobStats.DDIR_READ, 4096, 1, 1, 2_000_000);
        assertEquals(1, s.totalIos(JobStats.DDIR_READ));
        assertThrows(IllegalStateException.class, () -> s.finish(3_000_000));
        assertThrows(IllegalArgumentException.class, () -> s.recordIo(3, 1, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> s.recordIo(0, 1, 1, -1, 1));
    }

    @Test
    void jobInfo_validatesAndDerivesGroupReporting() {
        LinkedHashMap<String, String> opts = new LinkedHashMap<>();
        opts.put("group_reporting", "1");
        assertTrue(new JobInfo("a", 0, 0, opts, "read", null, "sync", 1, true, null, null).groupReporting());
        opts.put("group_reporting", "0");
        assertFalse(new JobInfo("a", 0, 0, opts, "read", null, "sync", 1, true, null, null).groupReporting());
        assertFalse(new JobInfo("a", 0, 0, null, "read", null, "sync", 1, true, null, null).groupReporting());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new JobInfo("a", 0, 0, null, "read", null, "sync", 0, true, null, null));
        assertTrue(e.getMessage().contains("iodepth must be >= 1, was 0"));
        assertArrayEquals(new double[] {1, 50, 99}, new JobInfo("a", 0, 0, null, "read", null, "sync", 1, true,
            new double[] {99, 1, 50}, null).effectivePercentiles());
        assertEquals(1003, new JobInfo("a", 0, 3, null, "read", null, "sync", 1, true, null, null).pid());
    }
}
