package blksim.kernel.mm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Thresholds of domain_dirty_limits() and the hard limit of update_dirty_limit(), by hand. */
class DirtyLimitsTest {

  @Test
  void ratios_ofDirtyableMemory_roundDown() {
    // thresh = 20 * 1,000,001 / 100 = 200,000.2 -> 200,000; bg = 10 * 1,000,001 / 100 -> 100,000
    DirtyLimits l = DirtyLimits.domainDirtyLimits(DirtyParams.DEFAULTS, 1_000_001);
    assertEquals(200_000, l.threshPages());
    assertEquals(100_000, l.backgroundThreshPages());
    // freerun = (200,000 + 100,000) / 2 = 150,000; setpoint with limit = thresh:
    // (150,000 + 200,000) / 2 = 175,000
    assertEquals(150_000, l.freerunPages());
    assertEquals(175_000, l.setpointPages(200_000));
    // with a hard limit still at 260,000: (150,000 + 260,000) / 2 = 205,000
    assertEquals(205_000, l.setpointPages(260_000));
  }

  @Test
  void bytes_winOverRatios_andRoundUpToPages() {
    // Chris Mason's 1.5 GB / 3 GB: ceil(3e9 / 4096) = ceil(732,421.875) = 732,422;
    // ceil(1.5e9 / 4096) = ceil(366,210.9375) = 366,211. The ratios (10 %, 20 %) are ignored.
    DirtyParams p = DirtyParams.DEFAULTS.withBytes(1_500_000_000L, 3_000_000_000L);
    DirtyLimits l = DirtyLimits.domainDirtyLimits(p, 1_000_001);
    assertEquals(732_422, l.threshPages());
    assertEquals(366_211, l.backgroundThreshPages());
  }

  @Test
  void backgroundAtOrAboveThresh_becomesHalfOfThresh() {
    // dirty_bytes = 409,600 = 100 pages; background ratio 10 % of 1,000 pages = 100 >= 100
    // -> bg = 100 / 2 = 50.
    DirtyParams mixed = new DirtyParams(10, 0, 20, 409_600, 500, 3000);
    DirtyLimits l = DirtyLimits.domainDirtyLimits(mixed, 1_000);
    assertEquals(100, l.threshPages());
    assertEquals(50, l.backgroundThreshPages());
    // Equal ratios 20 / 20 over 1,000,001 pages: 200,000 >= 200,000 -> bg = 100,000.
    DirtyLimits eq = DirtyLimits.domainDirtyLimits(DirtyParams.DEFAULTS.withRatios(20, 20),
        1_000_001);
    assertEquals(100_000, eq.backgroundThreshPages());
    // Background bytes (2e9 -> ceil(488,281.25) = 488,282 pages) above a 20 % ratio of
    // 1,000,000 pages (200,000): bg = 100,000.
    DirtyLimits big = DirtyLimits.domainDirtyLimits(
        new DirtyParams(10, 2_000_000_000L, 20, 0, 500, 3000), 1_000_000);
    assertEquals(200_000, big.threshPages());
    assertEquals(100_000, big.backgroundThreshPages());
  }

  @Test
  void lessThrottleTask_getsAQuarterMore() {
    // 100,000 + 100,000/4 = 125,000; 200,000 + 200,000/4 = 250,000
    DirtyLimits l = DirtyLimits.domainDirtyLimits(DirtyParams.DEFAULTS, 1_000_001, true);
    assertEquals(125_000, l.backgroundThreshPages());
    assertEquals(250_000, l.threshPages());
  }

  @Test
  void globalDirtyableMemory_subtractsReserve_addsOne() {
    // 1000 - min(1000, 200) + 500 + 1 = 1301; a reserve above free leaves 0 + 500 + 1 = 501
    assertEquals(1301, DirtyLimits.globalDirtyableMemory(1000, 200, 500));
    assertEquals(501, DirtyLimits.globalDirtyableMemory(100, 200, 500));
  }

  @Test
  void params_outsideSysctlRanges_areRefusedNamingTheField() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new DirtyParams(10, 0, 101, 0, 500, 3000));
    assertTrue(e.getMessage().startsWith("dirtyRatio must be in [0, 100]"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new DirtyParams(-1, 0, 20, 0, 500, 3000));
    assertTrue(e.getMessage().startsWith("dirtyBackgroundRatio"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new DirtyParams(10, 0, 20, 4096, 500, 3000));
    assertTrue(e.getMessage().contains("8192"), "dirty_bytes_min is two pages: " + e.getMessage());
    new DirtyParams(10, 1, 20, 8192, 0, 0);
    e = assertThrows(IllegalArgumentException.class,
        () -> new DirtyParams(10, -1, 20, 0, 500, 3000));
    assertTrue(e.getMessage().startsWith("dirtyBackgroundBytes"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new DirtyParams(10, 0, 20, 0, -1, 3000));
    assertTrue(e.getMessage().startsWith("dirtyWritebackCentisecs"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new DirtyParams(10, 0, 20, 0, 500, -5));
    assertTrue(e.getMessage().startsWith("dirtyExpireCentisecs"), e.getMessage());
  }

  @Test
  void params_backgroundAboveLimitInSameUnit_areRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DirtyParams.DEFAULTS.withRatios(30, 20));
    assertEquals("dirtyBackgroundRatio must be <= dirtyRatio, was 30 > 20", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> DirtyParams.DEFAULTS.withBytes(4_000_000_000L, 3_000_000_000L));
    assertTrue(e.getMessage().startsWith("dirtyBackgroundBytes must be <= dirtyBytes"));
    // A ratio background above a ratio limit that bytes override is not compared.
    new DirtyParams(30, 0, 20, 3_000_000_000L, 500, 3000);
  }

  @Test
  void defaults_areTheKernels() {
    DirtyParams d = DirtyParams.DEFAULTS;
    assertEquals(10, d.dirtyBackgroundRatio());
    assertEquals(20, d.dirtyRatio());
    assertEquals(0, d.dirtyBytes());
    assertEquals(0, d.dirtyBackgroundBytes());
    assertEquals(5_000, d.dirtyWritebackIntervalMs());
    assertEquals(30_000, d.dirtyExpireIntervalMs());
  }

  @Test
  void limits_backgroundAboveThresh_isRefused() {
    assertThrows(IllegalArgumentException.class, () -> new DirtyLimits(11, 10));
    assertThrows(IllegalArgumentException.class, () -> new DirtyLimits(-1, 10));
  }

  @Test
  void hardLimit_followsUpAtOnce_andDownByOneThirtySecond() {
    WbDomain dom = new WbDomain(1000, 0, 1000);
    assertEquals(1000, dom.hardDirtyLimit(500), "max(thresh 500, dirty_limit 1000)");
    // thresh 500, dirty 600: target max(500, 600) = 600; 1000 - (400 >> 5 = 12) = 988
    dom.updateDirtyLimit(500, 600);
    assertEquals(988, dom.dirtyLimit());
    // dirty above the limit: target 1200 > 988 is not "follow up" (thresh 500 < 988): unchanged
    dom.updateDirtyLimit(500, 1200);
    assertEquals(988, dom.dirtyLimit());
    // thresh rises to 1200: in one step
    dom.updateDirtyLimit(1200, 0);
    assertEquals(1200, dom.dirtyLimit());
  }

  @Test
  void domainUpdateBandwidth_runsOncePerBandwidthInterval() {
    // HZ 250: BANDWIDTH_INTERVAL = max(250/5, 1) = 50 jiffies; stamp 10
    WbDomain dom = new WbDomain(250, 10, 1000);
    assertFalse(dom.updateBandwidth(59, 500, 0), "49 jiffies after the stamp");
    assertEquals(1000, dom.dirtyLimit());
    assertTrue(dom.updateBandwidth(60, 500, 0), "time_after_eq: exactly 50 jiffies");
    // target max(500, 0) = 500: 1000 - (500 >> 5 = 15) = 985
    assertEquals(985, dom.dirtyLimit());
    assertEquals(60, dom.dirtyLimitTstamp());
    assertFalse(dom.updateBandwidth(100, 500, 0));
  }
}
