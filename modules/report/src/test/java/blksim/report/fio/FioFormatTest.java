package blksim.report.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import blksim.report.fio.FioFormat.ScaledLat;
import blksim.report.fio.FioFormat.Unit;

class FioFormatTest {

    @Test
    void num2str_iops_usesFourSignificantFigures() {
        assertEquals("79.6k", FioFormat.num2str(79_612, 4, 1, false, Unit.NONE));
        assertEquals("10.8k", FioFormat.num2str(10_843, 4, 1, false, Unit.NONE));
        assertEquals("3604", FioFormat.num2str(3604, 4, 1, false, Unit.NONE));
        assertEquals("324k", FioFormat.num2str(323_999, 4, 1, false, Unit.NONE));
        assertEquals("0", FioFormat.num2str(0, 4, 1, false, Unit.NONE));
    }

    @Test
    void num2str_bandwidth_printsPow2AndPow10Pairs() {
        // values of a real fio-3.42 run: BW=14.1MiB/s (14.8MB/s)(141MiB/10004msec)
        assertEquals("14.1MiB/s", FioFormat.num2str(14_793_340, 4, 1, true, Unit.BYTEPERSEC));
        assertEquals("14.8MB/s", FioFormat.num2str(14_793_340, 4, 1, false, Unit.BYTEPERSEC));
        assertEquals("141MiB", FioFormat.num2str(147_992_576, 4, 1, true, Unit.BYTE));
        assertEquals("148MB", FioFormat.num2str(147_992_576, 4, 1, false, Unit.BYTE));
        // 311MiB/s (326MB/s) from formats.md
        assertEquals("311MiB/s", FioFormat.num2str(326_107_136, 4, 1, true, Unit.BYTEPERSEC));
        assertEquals("326MB/s", FioFormat.num2str(326_107_136, 4, 1, false, Unit.BYTEPERSEC));
        assertEquals("1132KiB/s", FioFormat.num2str(1_159_168, 4, 1, true, Unit.BYTEPERSEC));
        assertEquals("1159kB/s", FioFormat.num2str(1_159_168, 4, 1, false, Unit.BYTEPERSEC));
        assertEquals("0B/s", FioFormat.num2str(0, 4, 1, true, Unit.BYTEPERSEC));
        assertEquals("64.0MiB", FioFormat.num2str(64L << 20, 4, 1, true, Unit.BYTE));
        assertEquals("8bit", FioFormat.num2str(1, 4, 1, false, Unit.BIT));
        assertEquals("1Ki", FioFormat.num2str(1, 4, 1024, true, Unit.NONE));
    }

    @Test
    void num2str_latencyWidthSix_andCarryRules() {
        assertEquals("4581.0k", FioFormat.num2str(4_581_034, 6, 1, false, Unit.NONE));
        assertEquals("287148k", FioFormat.num2str(287_148_123, 6, 1, false, Unit.NONE));
        assertEquals("1877.7k", FioFormat.num2str(1_877_700, 6, 1, false, Unit.NONE));
        // no room for decimals: the remainder's carry rounds the integer up
        assertEquals("2000k", FioFormat.num2str(1_999_999, 4, 1, false, Unit.NONE));
        // decimals that round to 1.0 carry into the integer part
        assertEquals("2.0k", FioFormat.num2str(1999, 3, 1, false, Unit.NONE));
        assertThrows(IllegalArgumentException.class, () -> FioFormat.num2str(-1, 4, 1, false, Unit.NONE));
    }

    @Test
    void fixed_roundsTheExactBinaryValueHalfToEven() {
        assertEquals("0.12", FioFormat.fixed(0.125, 2));     // exact tie: even
        assertEquals("0.38", FioFormat.fixed(0.375, 2));
        assertEquals("2.67", FioFormat.fixed(2.675, 2));     // 2.67499999... in binary
        assertEquals(" 0.00", FioFormat.fixed(0.0, 5, 2));
        assertEquals("100.00", FioFormat.fixed(100.0, 3, 2));
        assertEquals("99.8", FioFormat.fixed(5990 / 6000.0 * 100, 3, 1));
        assertEquals("-0.00", FioFormat.fixed(-0.001, 2));
    }

    @Test
    void fixed_fastPathGivesTheExactRoundingEverywhere() {
        // Against BigDecimal's rounding of the exact binary value (glibc's %.Nf), on values
        // of every magnitude, near ties, exact ties, integers and the edges of the fast path.
        java.util.SplittableRandom r = new java.util.SplittableRandom(7);
        java.util.List<Double> values = new java.util.ArrayList<>(java.util.List.of(0.0, -0.0,
            0.5, 1.5, 2.5, 0.125, 0.375, 2.675, 1.005, 999_999_999.5, 1e9, 1e9 - 0.25, 123456.785,
            0.045, 1e-7, 5e-7, 99.995, 100.0, -2.5, -0.001));
        for (int i = 0; i < 40_000; i++) {
            double magnitude = Math.pow(10, r.nextInt(-6, 12));
            values.add((r.nextBoolean() ? -1 : 1) * r.nextDouble() * magnitude);
            // a decimal with a 5 just past the printed digits, as fio's ratios often give
            values.add((r.nextLong(1_000_000_000L) + 0.5) / Math.pow(10, r.nextInt(7)));
        }
        for (double v : values) {
            for (int prec = 0; prec <= 8; prec++) {
                String exact = new java.math.BigDecimal(v)
                    .setScale(prec, java.math.RoundingMode.HALF_EVEN).toPlainString();
                if (v < 0 || (v == 0.0 && 1.0 / v < 0)) {
                    exact = exact.startsWith("-") ? exact : "-" + exact;
                }
                assertEquals(exact, FioFormat.fixed(v, prec), v + " at " + prec + " digits");
            }
        }
    }

    @Test
    void scaleLatency_switchesUnitsOnFioThresholds() {
        assertEquals("nsec", FioFormat.scaleLatency(1500, 2500, 2000, 500).unit());
        ScaledLat us = FioFormat.scaleLatency(50_000, 150_000, 100_000, 50_004.17);
        assertEquals("usec", us.unit());
        assertEquals(50, us.min());
        assertEquals(150, us.max());
        assertEquals(100.0, us.mean(), 1e-12);
        assertEquals(50.00417, us.dev(), 1e-12);
        // each of the three conditions is needed, and each is strict
        assertEquals("nsec", FioFormat.scaleLatency(2000, 150_000, 50_000, 5_000).unit());
        assertEquals("nsec", FioFormat.scaleLatency(2001, 99_999, 50_000, 5_000).unit());
        assertEquals("nsec", FioFormat.scaleLatency(2001, 150_000, 50_000, 1000.0).unit());
        assertEquals("usec", FioFormat.scaleLatency(2001, 100_000, 50_000, 1000.5).unit());
        ScaledLat ms = FioFormat.scaleLatency(5_000_000, 150_000_000, 19_500_000, 43_572_681.75);
        assertEquals("msec", ms.unit());
        assertEquals(5, ms.min());
        assertEquals(150, ms.max());
        assertEquals("usec", FioFormat.scaleLatency(5_000_000, 99_999_999, 19_500_000, 4e7).unit());
        assertEquals("usec", FioFormat.scaleLatency(2_000_000, 150_000_000, 19_500_000, 4e7).unit());
        assertEquals("usec", FioFormat.scaleLatency(5_000_000, 150_000_000, 19_500_000, 1e6).unit());
    }

    @Test
    void ctime_matchesCtimeLayoutInUtc() {
        assertEquals("Tue Nov 14 22:13:20 2023", FioFormat.ctime(1_700_000_000_123L));
        // a real fio-3.42 JSON has "timestamp_ms" : 1783516459963 with "time" : "Wed Jul  8 09:14:19 2026"
        // in its host's zone (UTC-4); blksim prints UTC. The day of month is space-padded.
        assertEquals("Wed Jul  8 13:14:19 2026", FioFormat.ctime(1_783_516_459_963L));
        assertEquals("Thu Jan  1 00:00:00 1970", FioFormat.ctime(0));
    }
}
