package blksim.workload.fio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.workload.fio.stats.SteadyStateResult;
import org.junit.jupiter.api.Test;

/** fio's steadystate criteria (steadystate.c) on hand-made sample series. */
class SteadyStateTest {
  private static final long S = 1_000_000_000L;

  private static SteadyState ss(String opts) {
    return SteadyState.of(FioJobFileTest.only("[j]\n" + opts));
  }

  @Test
  void iopsDeviation_attainedOnceTheWindowIsSteady() {
    // ss=iops:10%, ss_dur=3s, interval 1 s: IOPS per second 100, 200, 210, 205, ... The window
    // (200, 210, 205) has mean 205 and max deviation 5 = 2.4% < 10%: attained at 4 s; with
    // (100, 200, 210) at 3 s the deviation is 71.7 = 42% of 170 — not yet.
    SteadyState s = ss("steadystate=iops:10%\nss_dur=3\n");
    long ios = 0;
    long[] perSecond = {100, 200, 210, 205};
    for (int t = 0; t < 3; t++) {
      ios += perSecond[t];
      assertFalse(s.check((t + 1) * S, ios, ios * 4096));
    }
    ios += perSecond[3];
    assertTrue(s.check(4 * S, ios, ios * 4096));
    SteadyStateResult r = s.result();
    assertTrue(r.attained());
    assertEquals("iops:10.000000%", r.ss());
    assertEquals(3, r.durationSec());
    assertArrayEquals(new long[] {200, 210, 205}, r.iops());
    assertArrayEquals(new long[] {200 * 4096, 210 * 4096, 205 * 4096}, r.bw());
    assertEquals(205, r.iopsMean());
    assertEquals(5.0, r.maxDeviation(), 1e-9);
    // criterion 100·5/205 = 2.439024%
    assertEquals("2.439024%", r.criterion());
  }

  @Test
  void bwSlope_isTheLeastSquaresSlopeOfTheWindow() {
    // bw_slope:1000 (bytes/s per interval), ss_dur=4s. Window (1000, 3000, 5000, 7000): slope
    // 2000, not attained. Then (3000, 5000, 7000, 7000): ȳ = 5500, Σ(x-1.5)(y-ȳ) =
    // -1.5·-2500 - 0.5·-500 + 0.5·1500 + 1.5·1500 = 7000, /Σ(x-1.5)² = 5 → 1400, not yet.
    // Then (5000, 7000, 7000, 7000): ȳ = 6500, (2250 - 250 + 250 + 750)/5 = 600 < 1000: attained
    // at 6 s.
    SteadyState s = ss("steadystate=bw_slope:1000\nss_dur=4\n");
    long bytes = 0;
    long[] bw = {1000, 3000, 5000, 7000, 7000, 7000};
    double[] slope = {0, 0, 0, 2000, 1400, 600};
    for (int t = 0; t < bw.length; t++) {
      bytes += bw[t];
      boolean got = s.check((t + 1) * S, t + 1, bytes);
      assertEquals(t == 5, got, "second " + (t + 1));
      if (t >= 3) {
        assertEquals(slope[t], s.result().slope(), 1e-9, "second " + (t + 1));
      }
    }
  }

  @Test
  void latDeviation_samplesEachIntervalsMeanCompletionLatency() {
    // examples/example_latency_steadystate.fio's criterion: lat:5% over ss_dur. Per second the
    // I/Os completed in it and their latency sum: (100 at 50 us), (100 at 100 us),
    // (200 at 102 us), (100 at 98 us). Window (100, 102, 98) us: mean 100 us, max deviation
    // 2 us = 2% < 5% at 4 s; (50, 100, 102) at 3 s deviates 34 us of 84: not yet.
    SteadyState s = ss("steadystate=lat:5%\nss_dur=3\n");
    long[] n = {100, 100, 200, 100};
    long[] latNs = {50_000, 100_000, 102_000, 98_000};
    double sum = 0;
    long samples = 0;
    for (int t = 0; t < 4; t++) {
      sum += n[t] * latNs[t];
      samples += n[t];
      assertEquals(t == 3, s.check((t + 1) * S, samples, samples * 4096, sum, samples),
          "second " + (t + 1));
    }
    SteadyStateResult r = s.result();
    assertEquals("lat:5.000000%", r.ss());
    assertArrayEquals(new long[] {100_000, 102_000, 98_000}, r.latNs());
    assertEquals(100_000, r.latMean());
    assertEquals("2.000000%", r.criterion());
    assertNull(ss("steadystate=iops:5%\nss_dur=3\n").result().latNs(), "iops: no lat data");
  }

  @Test
  void ramp_startsRecordingOneIntervalAfterIt() {
    // ss_ramp=2s: samples are recorded from the check at 3 s on (steadystate_check()).
    SteadyState s = ss("steadystate=iops:1\nss_dur=2\nss_ramp=2\n");
    long ios = 0;
    long[] perSecond = {5, 500, 100, 100, 100};
    for (int t = 0; t < perSecond.length; t++) {
      ios += perSecond[t];
      boolean got = s.check((t + 1) * S, ios, 0);
      // window full at 4 s with (100, 100): deviation 0 < 1; attained stays attained.
      assertEquals(t >= 3, got, "second " + (t + 1));
    }
  }

  @Test
  void optionsAndErrors() {
    assertNull(ss("rw=read\n"));
    FioJob j = FioJobFileTest.only("[j]\nss=bw:10m\nss_dur=2s\nsteadystate_check_interval=500ms\n");
    assertEquals(10L << 20, (long) j.steadyState().criterion().limit());
    assertEquals(500_000_000L, j.steadyState().intervalNs());
    assertEquals(10_000_000.0, FioJobFileTest.only("[j]\nss=lat:10ms\nss_dur=2\n")
        .steadyState().criterion().limit(), "a lat limit is a time, kept in ns");
    InputException e = assertThrows(InputException.class,
        () -> FioJobFileTest.only("[j]\nss=latency:10ms\n"));
    assertTrue(e.getMessage().contains("lat or lat_slope"), e.getMessage());
    e = assertThrows(InputException.class, () -> FioJobFileTest.only("[j]\nss_dur=10\n"));
    assertEquals(2, e.line());
  }
}
