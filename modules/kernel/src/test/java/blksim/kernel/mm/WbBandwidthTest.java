package blksim.kernel.mm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The write-bandwidth and dirty-ratelimit estimates of __wb_update_bandwidth(), by hand. At HZ 1000
 * the averaging period is roundup_pow_of_two(3 * 1000) = 4096 jiffies (shift 12); at HZ 250 it is
 * roundup_pow_of_two(750) = 1024 (shift 10).
 */
class WbBandwidthTest {

  @Test
  void init_isOneHundredMegabytesPerSecondInPages() {
    // INIT_BW = 100 << (20 - 12) = 25,600 pages/s
    WbBandwidth wb = new WbBandwidth(1000, 4, 7);
    assertEquals(25_600, WbBandwidth.INIT_BW);
    assertEquals(25_600, wb.writeBandwidth());
    assertEquals(25_600, wb.avgWriteBandwidth());
    assertEquals(25_600, wb.dirtyRatelimit());
    assertEquals(25_600, wb.balancedDirtyRatelimit());
    assertEquals(7, wb.bwTimeStamp());
    assertFalse(wb.dirtyExceeded());
  }

  @Test
  void writeBandwidth_afterOneAndTwoIntervals_hz1000() {
    WbBandwidth wb = new WbBandwidth(1000, 4, 0);
    // The device completes 51,200 pages/s (200 MB/s): 10,240 pages per 200 ms.
    assertFalse(wb.update(199, 0, 10_000, 0), "199 < BANDWIDTH_INTERVAL = 200");
    assertEquals(0, wb.bwTimeStamp());
    assertTrue(wb.update(200, 0, 10_240, 0));
    // bw = 10,240 * 1000 + 25,600 * (4096 - 200) = 10,240,000 + 99,737,600 = 109,977,600;
    // >> 12 = 26,850 (exact). avg: neither "avg > old" nor "avg < old" (both 25,600): unchanged.
    assertEquals(26_850, wb.writeBandwidth());
    assertEquals(25_600, wb.avgWriteBandwidth());
    assertEquals(200, wb.bwTimeStamp());
    assertEquals(10_240, wb.writtenStamp());
    assertTrue(wb.update(400, 0, 20_480, 0));
    // bw = 10,240,000 + 26,850 * 3896 = 10,240,000 + 104,607,600 = 114,847,600;
    // >> 12 = 28,038.96 -> 28,038. avg 25,600 < old 26,850 <= bw: avg += 1250 >> 3 = 156.
    assertEquals(28_038, wb.writeBandwidth());
    assertEquals(25_756, wb.avgWriteBandwidth());
  }

  @Test
  void writeBandwidth_hz250_sameRateSameEstimate() {
    // BANDWIDTH_INTERVAL = 50 jiffies. bw = 10,240 * 250 + 25,600 * (1024 - 50)
    // = 2,560,000 + 24,934,400 = 27,494,400; >> 10 = 26,850 (exact), as at HZ 1000.
    WbBandwidth wb = new WbBandwidth(250, 4, 0);
    assertFalse(wb.update(49, 0, 10_240, 0));
    assertTrue(wb.update(50, 0, 10_240, 0));
    assertEquals(26_850, wb.writeBandwidth());
  }

  @Test
  void writeBandwidth_spikeFilter_movesAvgDownAnEighth() {
    // old 30,000, avg 32,000, nothing written in 200 jiffies:
    // bw = 0 + 30,000 * 3896 = 116,880,000 >> 12 = 28,535.16 -> 28,535.
    // avg 32,000 > old 30,000 >= bw: avg -= 2000 >> 3 = 250 -> 31,750.
    WbBandwidth wb = WbBandwidth.of(1000, 4, 0, 0, 0, 30_000, 32_000, 6400, 6400);
    assertTrue(wb.update(200, 0, 0, 0));
    assertEquals(28_535, wb.writeBandwidth());
    assertEquals(31_750, wb.avgWriteBandwidth());
  }

  @Test
  void writeBandwidth_afterMoreThanAPeriod_isTheRawRate() {
    // elapsed 5000 > 4096: bw = 100,000 * 1000 / 5000 = 20,000, and avg = bw.
    WbBandwidth wb = new WbBandwidth(1000, 4, 0);
    assertTrue(wb.update(5000, 0, 100_000, 0));
    assertEquals(20_000, wb.writeBandwidth());
    assertEquals(20_000, wb.avgWriteBandwidth());
  }

  @Test
  void quietPeriod_onlyRestamps() {
    // elapsed 1500 > HZ and the stamp (0) is before the work's start (500): skip the estimate.
    WbBandwidth quiet = new WbBandwidth(1000, 4, 0);
    assertTrue(quiet.update(1500, 77, 0, 500));
    assertEquals(25_600, quiet.writeBandwidth());
    assertEquals(1500, quiet.bwTimeStamp());
    assertEquals(77, quiet.dirtiedStamp());
    // The same with the work started at the stamp is estimated:
    // bw = 0 + 25,600 * (4096 - 1500) = 66,457,600 >> 12 = 16,225 (exact).
    WbBandwidth busy = new WbBandwidth(1000, 4, 0);
    assertTrue(busy.update(1500, 77, 0, 0));
    assertEquals(16_225, busy.writeBandwidth());
  }

  @Test
  void dirtyRatelimit_movesTowardWriteBwOverN_inDampedSteps() {
    // Four dirtiers, write_bw 25,600 pages/s (kept exact: 5,120 pages written per 200 ms gives
    // bw = 5,120,000 + 25,600 * 3896 = 104,857,600 >> 12 = 25,600). Dirty 90,000 is above the
    // setpoint (50,000 + 100,000) / 2 = 75,000 -> (75,000 + 100,000) / 2 = 87,500, and the caller
    // passes pos_ratio 0.5 (512).
    WbDomain dom = new WbDomain(1000, 0, 100_000);
    DirtyLimits lim = new DirtyLimits(50_000, 100_000);
    WbBandwidth wb = new WbBandwidth(1000, 4, 0);

    // Interval 1: each task ran at 25,600 * 512 >> 10 = 12,800 pages/s: 4 * 12,800 * 0.2 = 10,240
    // dirtied; dirty_rate = 10,240 * 1000 / 200 = 51,200. task_ratelimit = 12,800 + 1 = 12,801.
    // balanced = 12,801 * 25,600 / (51,200 | 1) = 327,705,600 / 51,201 = 6400.37 -> 6400.
    // dirty >= setpoint: x = max(25,600 (old balanced), 6400, 12,801) = 25,600, not below
    // dirty_ratelimit 25,600: step 0.
    assertTrue(wb.update(200, 10_240, 5_120, 0, dom, 90_000, lim, 512));
    assertEquals(25_600, wb.avgWriteBandwidth());
    assertEquals(6_400, wb.balancedDirtyRatelimit());
    assertEquals(25_600, wb.dirtyRatelimit());

    // Interval 2: the same rates. x = max(6400, 6400, 12,801) = 12,801; step = 25,600 - 12,801
    // = 12,799; >>= 25,600 / (2 * 12,799 + 1) = 1 -> 6399; (6399 + 7) / 8 = 800 -> 24,800.
    assertTrue(wb.update(400, 20_480, 10_240, 0, dom, 90_000, lim, 512));
    assertEquals(24_800, wb.dirtyRatelimit());

    // Interval 3: tasks at 24,800 * 512 >> 10 = 12,400: 4 * 12,400 * 0.2 = 9,920 dirtied,
    // dirty_rate 49,600; task_ratelimit 12,401; balanced = 12,401 * 25,600 / 49,601
    // = 317,465,600 / 49,601 = 6400.39 -> 6400. x = 12,401; step = 24,800 - 12,401 = 12,399;
    // >>= 24,800 / 24,799 = 1 -> 6199; (6199 + 7) / 8 = 775 -> 24,025.
    assertTrue(wb.update(600, 30_400, 15_360, 0, dom, 90_000, lim, 512));
    assertEquals(24_025, wb.dirtyRatelimit());
    assertEquals(6_400, wb.balancedDirtyRatelimit());
    assertEquals(100_000, dom.dirtyLimit(), "target max(thresh, dirty) = limit: unchanged");
  }

  @Test
  void dirtyRatelimit_rampsUpBelowSetpoint() {
    // One dirtier at dirty_ratelimit 1000 and pos_ratio 2.0 ran at 2000 pages/s: 400 pages in
    // 200 ms, dirty_rate 2000. task_ratelimit = (1000 * 2048 >> 10) + 1 = 2001;
    // balanced = 2001 * 25,600 / (2000 | 1) = 25,600 (<= write_bw). Below the setpoint:
    // x = min(25,600, 25,600, 2001) = 2001; step = 1001; >>= 1000 / 2003 = 0;
    // (1001 + 7) / 8 = 126 -> 1126.
    WbBandwidth wb = WbBandwidth.of(1000, 4, 0, 0, 0, 25_600, 25_600, 1000, 25_600);
    wb.updateDirtyRatelimit(70_000, 87_500, 2048, 400, 200);
    assertEquals(25_600, wb.balancedDirtyRatelimit());
    assertEquals(1_126, wb.dirtyRatelimit());
    // If the old balanced estimate disagrees (1000), x = 1000: no step.
    WbBandwidth doubt = WbBandwidth.of(1000, 4, 0, 0, 0, 25_600, 25_600, 1000, 1000);
    doubt.updateDirtyRatelimit(70_000, 87_500, 2048, 400, 200);
    assertEquals(1_000, doubt.dirtyRatelimit());
  }

  @Test
  void state_outsideKernelInvariants_isRefused() {
    assertThrows(IllegalArgumentException.class, () -> new WbBandwidth(0, 4, 0));
    assertThrows(IllegalArgumentException.class, () -> new WbBandwidth(1000, 0, 0));
    assertThrows(IllegalArgumentException.class,
        () -> WbBandwidth.of(1000, 4, 0, 0, 0, 1, 0, 1, 1));
  }
}
