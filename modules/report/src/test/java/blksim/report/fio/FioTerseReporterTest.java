package blksim.report.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** fio's terse version 3 lines (stat.c show_thread_status_terse_all(), HOWTO "Terse output"). */
class FioTerseReporterTest {

    /** Fields before the disk fields: 5 general, 41 per direction (read, write), 5 cpu, 7+10+12. */
    private static final int V3_FIELDS = 5 + 2 * 41 + 5 + 7 + 10 + 12;

    private static List<String[]> lines() {
        return FioTerseReporter.render(GoldenRun.twoGroups()).lines().map(l -> l.split(";", -1)).toList();
    }

    @Test
    void oneLinePerJob_withVersion3FieldsAndTheDiskFields() {
        List<String[]> lines = lines();
        assertEquals(2, lines.size());
        assertEquals(V3_FIELDS + 9, lines.get(0).length, "no description: 121 fields and one disk");
        assertEquals(V3_FIELDS + 9 + 1, lines.get(1).length, "the description comes last");
        assertEquals(List.of("3", "fio-3.36", "randread", "0", "0"), List.of(lines.get(0)).subList(0, 5));
        assertEquals(List.of("3", "fio-3.36", "seqwrite", "1", "0"), List.of(lines.get(1)).subList(0, 5));
        assertEquals("sequential writer", lines.get(1)[V3_FIELDS + 9]);
        assertEquals(List.of("vda", "6000", "300", "0", "12", "650", "5850", "6500", "97.50%"),
            List.of(lines.get(0)).subList(V3_FIELDS, V3_FIELDS + 9));
    }

    @Test
    void readFields_areKibKibPerSecondIopsRuntime_thenLatenciesInUsec() {
        String[] f = lines().get(0);
        // 6000 reads of 4 KiB in 2000 ms
        assertEquals(List.of("24000", "12000", "3000", "2000"), List.of(f).subList(5, 9));
        // slat 1500/2500 ns: min 1, max 2 usec (integer division), mean 2.000000
        assertEquals(List.of("1", "2", "2.000000"), List.of(f).subList(9, 12));
        // clat 50/150 us
        assertEquals(List.of("50", "150", "100.000000", "50.004167"), List.of(f).subList(13, 17));
        assertTrue(f[17].startsWith("1.000000%=50"), f[17]);
        assertTrue(f[33].equals("99.990000%=149") || f[33].equals("99.990000%=150"), f[33]);
        assertEquals(List.of("0%=0", "0%=0", "0%=0"), List.of(f).subList(34, 37),
            "17 default percentiles, padded to fio's 20");
        // lat = slat + clat: 51.5 / 152.5 us
        assertEquals(List.of("51", "152", "102.000000"), List.of(f).subList(37, 40));
        // bw samples (KiB/s) per 500 ms window: 8000, 8000, 16000, 16000
        assertEquals(List.of("8000", "16000", "100.000000%", "12000.000000"), List.of(f).subList(41, 45));
        // no writes: zeros, the percentile list still printed with value 0
        assertEquals(List.of("0", "0", "0", "0"), List.of(f).subList(46, 50));
        assertEquals("1.000000%=0", f[58]);
    }

    @Test
    void cpuDepthAndLatencyBuckets_followTheDirections() {
        String[] f = lines().get(0);
        int cpu = 5 + 2 * 41;
        assertEquals("5.000000%", f[cpu], "usr: 100 ms of 2 s");
        assertEquals("15.000000%", f[cpu + 1]);
        assertEquals("1234", f[cpu + 2]);
        int depth = cpu + 5;
        assertTrue(f[depth].endsWith("%") && f[depth + 6].endsWith("%"));
        int usec = depth + 7;
        // half the I/Os at 50 us (bucket 50), half at 150 us (bucket 250)
        assertEquals("50.00%", f[usec + 5]);
        assertEquals("50.00%", f[usec + 6]);
        String[] w = lines().get(1);
        int msec = usec + 10;
        // writes: 5 ms (bucket 10) 90%, 150 ms (bucket 250) 10%
        assertEquals("90.00%", w[msec + 2]);
        assertEquals("10.00%", w[msec + 6]);
    }
}
