package blksim.report.fio;

import java.util.LinkedHashMap;
import java.util.List;

import blksim.workload.fio.stats.DiskStats;
import blksim.workload.fio.stats.EngineStats;
import blksim.workload.fio.stats.JobInfo;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;

/**
 * Hand-built, fully deterministic runs whose fio output was worked out by hand (see
 * src/test/resources/golden/README.md for the derivation of every number).
 */
final class GoldenRun {

    /** 2023-11-14 22:13:20 UTC. */
    static final long WALL_CLOCK_MS = 1_700_000_000_123L;

    private GoldenRun() {
    }

    /**
     * Job 0 "randread" (group 0, libaio, iodepth 4): 6000 reads of 4 KiB in 2 s, alternating
     * (slat 1500 ns, clat 50 us) and (slat 2500 ns, clat 150 us); 1000 I/Os in each of the first
     * two 500 ms windows and 2000 in each of the last two.
     */
    static JobStats randread() {
        LinkedHashMap<String, String> opts = new LinkedHashMap<>();
        opts.put("name", "randread");
        opts.put("rw", "randread");
        opts.put("ioengine", "libaio");
        opts.put("iodepth", "4");
        JobInfo info = new JobInfo("randread", 0, 0, opts, "randread", new long[] {4096, 4096, 4096}, "libaio", 4,
            false, null, null);
        JobStats s = new JobStats(info);
        s.recordIo(JobStats.DDIR_READ, 4096, 999, 999, 0);   // ramp: discarded by startMeasurement
        s.startMeasurement(0);
        int[] perWindow = {1000, 1000, 2000, 2000};
        int io = 0;
        for (int w = 0; w < perWindow.length; w++) {
            long t0 = w * 500_000_000L;
            for (int k = 0; k < perWindow[w]; k++) {
                boolean even = io % 2 == 0;
                s.recordIo(JobStats.DDIR_READ, 4096, even ? 1500 : 2500, even ? 50_000 : 150_000, t0 + 1000L * k);
                io++;
            }
        }
        for (int k = 0; k < 6000; k++) {
            s.recordIssue(k < 4 ? 1 : (k < 10 ? 2 : 4));
        }
        for (int k = 0; k < 5000; k++) {
            s.recordSubmitBatch(1);
        }
        for (int k = 0; k < 250; k++) {
            s.recordSubmitBatch(4);
        }
        for (int k = 0; k < 2000; k++) {
            s.recordCompleteBatch(1);
        }
        for (int k = 0; k < 500; k++) {
            s.recordCompleteBatch(8);
        }
        s.setCpu(100_000_000L, 300_000_000L, 1234);
        s.finish(2_000_000_000L);
        return s;
    }

    /**
     * Job 1 "seqwrite" (group 1, psync, iodepth 1, description set): 300 writes of 128 KiB in
     * 1.5 s, 100 per window; every tenth has clat 150 ms, the others 5 ms; no slat (sync engine).
     */
    static JobStats seqwrite() {
        LinkedHashMap<String, String> opts = new LinkedHashMap<>();
        opts.put("name", "seqwrite");
        opts.put("rw", "write");
        opts.put("bs", "128k");
        opts.put("stonewall", "");
        JobInfo info = new JobInfo("seqwrite", 1, 1, opts, "write", new long[] {131072, 131072, 131072}, "psync", 1,
            true, null, "sequential writer");
        JobStats s = new JobStats(info);
        s.startMeasurement(10_000_000_000L);
        for (int i = 0; i < 300; i++) {
            long t = 10_000_000_000L + (i / 100) * 500_000_000L + (i % 100) * 1_000_000L;
            s.recordIo(JobStats.DDIR_WRITE, 131072, 700, i % 10 == 9 ? 150_000_000 : 5_000_000, t);
            s.recordIssue(1);
            s.recordSubmitBatch(1);
            s.recordCompleteBatch(1);
        }
        s.setCpu(30_000_000L, 45_000_000L, 300);
        s.finish(11_500_000_000L);
        return s;
    }

    static RunResult twoGroups() {
        LinkedHashMap<String, String> global = new LinkedHashMap<>();
        global.put("filename", "/dev/vda");
        global.put("direct", "1");
        return new RunResult(List.of(randread(), seqwrite()),
            List.of(new DiskStats("vda", 6000, 300, 48000, 76800, 0, 12, 650, 5850, 6500, 97.5)),
            new EngineStats(123456, 789, 2, 0.125, 11_500_000_000L, 987_654_321L, 125_000.5), WALL_CLOCK_MS,
            "0.1.0-test", global);
    }
}
