package blksim.report.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SortedMap;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** fio's io_u_plat buckets (stat.h: 29 groups of 64, FIO_IO_U_PLAT_BITS = 6). */
class FioLatencyBinsTest {

    @Test
    void valuesBelow128_areTheirOwnBucket() {
        for (long v = 0; v < 128; v++) {
            assertEquals(v, FioLatencyBins.index(v));
            assertEquals(v, FioLatencyBins.value((int) v));
        }
    }

    @Test
    void aBucketIs1_64OfItsPowerOfTwo_printedAsItsMiddle() {
        // 15400 ns: msb 13, 7 error bits, bucket 8*64 + (15400 >> 7) % 64 = 568 spanning [15360, 15488)
        assertEquals(568, FioLatencyBins.index(15_400));
        assertEquals(568, FioLatencyBins.index(15_360));
        assertEquals(569, FioLatencyBins.index(15_488));
        assertEquals(15_424, FioLatencyBins.value(568));
        assertEquals(129, FioLatencyBins.value(128), "[128, 130): middle 129");
        long last = -1;
        for (int i = 0; i < FioLatencyBins.PLAT_NR; i++) {
            long v = FioLatencyBins.value(i);
            assertTrue(v > last, "bucket values ascend at " + i);
            assertEquals(i, FioLatencyBins.index(v), "a bucket's middle is in the bucket");
            last = v;
        }
        assertEquals(FioLatencyBins.PLAT_NR - 1, FioLatencyBins.index(Long.MAX_VALUE / 2),
            "beyond the last group: the last bucket");
    }

    @Test
    void histogramCounts_foldIntoFioBuckets() {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(15_400, 10);
        h.recordValueWithCount(15_410, 5); // same fio bucket
        h.recordValueWithCount(100, 2);
        SortedMap<Long, Long> bins = FioLatencyBins.of(h);
        assertEquals(Map.of(100L, 2L, 15_424L, 15L), bins);
    }

    @Test
    void jsonPlus_addsBinsToClatOnly() {
        String plain = FioJsonReporter.render(GoldenRun.twoGroups());
        String plus = FioJsonReporter.render(GoldenRun.twoGroups(), true);
        assertTrue(!plain.contains("\"bins\""));
        // randread: clat 50 us and 150 us, 3000 each; seqwrite: 5 ms x 270, 150 ms x 30
        assertTrue(plus.contains("\"bins\" : {\n            \"49920\" : 3000,\n            \"150528\" : 3000\n"),
            plus);
        assertEquals(2, plus.split("\"bins\"", -1).length - 1, "one clat_ns per job with I/O");
        assertEquals(plain, plus.replaceAll(",\n\\s*\"bins\" : \\{[^}]*\\}", ""),
            "json+ is json with the bins");
    }
}
