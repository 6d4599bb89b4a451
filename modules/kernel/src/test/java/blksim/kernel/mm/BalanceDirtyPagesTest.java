package blksim.kernel.mm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** balance_dirty_pages() and its helpers against hand-computed fixed-point values. */
class BalanceDirtyPagesTest {

  // ---- helpers of include/linux/log2.h and the constants ----

  @Test
  void log2Helpers_andConstants() {
    assertEquals(9, BalanceDirtyPages.ilog2(1000));
    assertEquals(14, BalanceDirtyPages.ilog2(25_600));
    assertEquals(0, BalanceDirtyPages.ilog2(1));
    assertEquals(128, BalanceDirtyPages.roundupPowOfTwo(126));
    assertEquals(32, BalanceDirtyPages.roundupPowOfTwo(32));
    assertEquals(4096, BalanceDirtyPages.roundupPowOfTwo(3000));
    assertEquals(1, BalanceDirtyPages.roundupPowOfTwo(1));
    assertEquals(32, BalanceDirtyPages.DIRTY_POLL_THRESH, "128 >> (12 - 10)");
    assertEquals(8, BalanceDirtyPages.DIRTY_EXCEEDED_RATELIMIT, "32 >> (12 - 10)");
    assertEquals(200, BalanceDirtyPages.maxPause(1000));
    assertEquals(50, BalanceDirtyPages.maxPause(250));
    assertEquals(1, BalanceDirtyPages.maxPause(4), "max(HZ/5, 1)");
    assertEquals(32, TaskDirtyState.FORK.nrDirtiedPause(), "kernel/fork.c: 128 >> (12 - 10)");
    assertFalse(TaskDirtyState.FORK.hasPaused());
    // wb_stat_error = nr_cpu_ids * 8 * (1 + ilog2(nr_cpu_ids)): 4 * 8 * 3 = 96; 32 * 8 * 6 = 1536
    assertEquals(96, BalanceDirtyPages.wbStatError(4));
    assertEquals(1536, BalanceDirtyPages.wbStatError(32));
  }

  // ---- pos_ratio_polynom: setpoint 875, limit 1000 (thresh 1000, bg 500, freerun 750) ----

  @Test
  void posRatioPolynom_isTwoAtFreerun_oneAtSetpoint_zeroAtLimit() {
    // freerun 750: x = (125 << 10) / (125 | 1) = 1024; 1024 * 1024 >> 10 twice = 1024;
    // + 1024 = 2048 (2.0)
    assertEquals(2048, BalanceDirtyPages.posRatioPolynom(875, 750, 1000));
    assertEquals(1024, BalanceDirtyPages.posRatioPolynom(875, 875, 1000));
    // limit: x = -1024, cube -1024, + 1024 = 0
    assertEquals(0, BalanceDirtyPages.posRatioPolynom(875, 1000, 1000));
    // far below freerun: x = (275 << 10) / 125 = 2252; cube >> 20 is far above 1.0: clamp 2.0
    assertEquals(2048, BalanceDirtyPages.posRatioPolynom(875, 600, 1000));
  }

  @Test
  void posRatioPolynom_between_roundsAsTheKernel() {
    // dirty 800: x = (75 << 10) / 125 = 76,800 / 125 = 614.4 -> 614;
    // 614 * 614 = 376,996 >> 10 = 368; 368 * 614 = 225,952 >> 10 = 220; 1024 + 220 = 1244
    // (the real 1 + 0.6^3 = 1.216 would be 1245.2)
    assertEquals(1244, BalanceDirtyPages.posRatioPolynom(875, 800, 1000));
    // dirty 950: x = -76,800 / 125 = -614.4 -> -614 (truncation toward zero);
    // -614 * -614 >> 10 = 368; 368 * -614 = -225,952 >> 10 = -221 (arithmetic shift floors);
    // 1024 - 221 = 803, not the symmetric 804
    assertEquals(803, BalanceDirtyPages.posRatioPolynom(875, 950, 1000));
  }

  // ---- wb_position_ratio ----

  @Test
  void wbPositionRatio_singleWb_atItsSetpoint_isOne() {
    // thresh 1000, bg 500, limit 1000 -> setpoint 875. wb_thresh 1000, write_bw 100.
    // x = (1000 << 16) / (1000 | 1) = 65,536,000 / 1001 = 65,470
    // wb_setpoint = 875 * 65,470 >> 16 = 57,286,250 / 65,536 = 874
    // span = (1000 - 1000 + 8 * 100) * 65,470 >> 16 = 52,376,000 / 65,536 = 799
    // x_intercept = 874 + 799 = 1673
    // dirty 875 (global 1.0), wb_dirty 874: 1024 * (1673 - 874) / (799 | 1) = 1024
    assertEquals(1024, BalanceDirtyPages.wbPositionRatio(875, 1000, 500, 1000, 874, 1000, 100));
    // wb_dirty 875: 1024 * 798 / 799 = 1022.7 -> 1022
    assertEquals(1022, BalanceDirtyPages.wbPositionRatio(875, 1000, 500, 1000, 875, 1000, 100));
    // at freerun, wb_dirty 750: 2048 * (1673 - 750) / 799 = 1,890,304 / 799 = 2365.8 -> 2365
    assertEquals(2365, BalanceDirtyPages.wbPositionRatio(750, 1000, 500, 1000, 750, 1000, 100));
    // at or above the limit: 0
    assertEquals(0, BalanceDirtyPages.wbPositionRatio(1000, 1000, 500, 1000, 1000, 1000, 100));
  }

  @Test
  void wbPositionRatio_wbLine_isFlooredAtOneQuarter() {
    // dirty 875 (global 1024). A wb owning 200 of thresh 1000, write_bw 10:
    // wb_thresh = max(200, (1000 - 875) / 8 = 15) = 200
    // x = (200 << 16) / 1001 = 13,107,200 / 1001 = 13,094
    // wb_setpoint = 875 * 13,094 >> 16 = 11,457,250 / 65,536 = 174
    // span = (1000 - 200 + 80) * 13,094 >> 16 = 11,522,720 / 65,536 = 175
    // x_intercept = 349; the floor starts at 349 - 175 / 4 = 349 - 43 = 306
    // wb_dirty 300: 1024 * (349 - 300) / (175 | 1) = 50,176 / 175 = 286
    assertEquals(286, BalanceDirtyPages.wbPositionRatio(875, 1000, 500, 1000, 300, 200, 10));
    // wb_dirty 320 >= 306: 1024 / 4 = 256 (the line itself would give 1024 * 29 / 175 = 169)
    assertEquals(256, BalanceDirtyPages.wbPositionRatio(875, 1000, 500, 1000, 320, 200, 10));
    assertEquals(256, BalanceDirtyPages.wbPositionRatio(875, 1000, 500, 1000, 5000, 200, 10));
  }

  @Test
  void wbPositionRatio_reserveArea_raisesBelowHalfTheWbThresh() {
    // Same wb; reserve x_intercept = 200 / 2 = 100, its eighth 12.
    // wb_dirty 80: line 1024 * (349 - 80) / 175 = 275,456 / 175 = 1574;
    // 80 > 12: 1574 * 100 / 80 = 1967
    assertEquals(1967, BalanceDirtyPages.wbPositionRatio(875, 1000, 500, 1000, 80, 200, 10));
    // wb_dirty 10 <= 12: 1024 * 339 / 175 = 1983, times 8 = 15,864
    assertEquals(15_864, BalanceDirtyPages.wbPositionRatio(875, 1000, 500, 1000, 10, 200, 10));
  }

  // ---- wb_max_pause, wb_min_pause, dirty_poll_interval, ratelimits ----

  @Test
  void wbMaxPause_isAnEighthOfTheDirtyPool_cappedAt200ms() {
    // HZ 1000: roundup_pow_of_two(1 + 125) = 128; 1 + 25,600 / 128 = 201.
    // 10,000 / 201 = 49, + 1 = 50 jiffies (50 ms); 100,000 / 201 = 497 + 1 = 498 -> 200
    assertEquals(50, BalanceDirtyPages.wbMaxPause(25_600, 10_000, 1000));
    assertEquals(200, BalanceDirtyPages.wbMaxPause(25_600, 100_000, 1000));
    // HZ 250: roundup_pow_of_two(1 + 31) = 32; 1 + 25,600 / 32 = 801.
    // 10,000 / 801 = 12, + 1 = 13 jiffies (52 ms); 100,000 / 801 = 124 + 1 = 125 -> 50 (200 ms)
    assertEquals(13, BalanceDirtyPages.wbMaxPause(25_600, 10_000, 250));
    assertEquals(50, BalanceDirtyPages.wbMaxPause(25_600, 100_000, 250));
    // HZ 100: roundup_pow_of_two(13) = 16; 1 + 1600 = 1601; 10,000 / 1601 = 6, + 1 = 7
    assertEquals(7, BalanceDirtyPages.wbMaxPause(25_600, 10_000, 100));
    assertEquals(1, BalanceDirtyPages.wbMaxPause(25_600, 0, 1000));
  }

  @Test
  void wbMinPause_targetScalesWithConcurrency() {
    // HZ 1000, avg bw 25,600 (ilog2 14), dirty_ratelimit 6400 (ilog2 12): t = 10 + 2 * 10,000 /
    // 1024 = 10 + 19 = 29; min(29, 1 + 200/2) = 29; pages = 6400 * 29 / 1024 = 181;
    // pause at task_ratelimit 6400: 1000 * 181 / 6401 = 28 <= 200. min_pause = 1 + 29/2 = 15.
    assertEquals(new BalanceDirtyPages.MinPause(15, 181),
        BalanceDirtyPages.wbMinPause(25_600, 6_400, 6_400, 200, 1000));
    // HZ 250: t = max(1, 2) + 2 * 2500 / 1024 = 2 + 4 = 6; min(6, 1 + 25) = 6;
    // pages = 6400 * 6 / 256 = 150; pause = 250 * 150 / 6401 = 5 <= 50; min_pause = 1 + 3 = 4
    assertEquals(new BalanceDirtyPages.MinPause(4, 150),
        BalanceDirtyPages.wbMinPause(25_600, 6_400, 6_400, 50, 250));
  }

  @Test
  void wbMinPause_stretchesTowardMaxPauseToReachDirtyPollThresh() {
    // avg bw 1000 (ilog2 9), dirty_ratelimit 250 (ilog2 7): t = 10 + 19 = 29;
    // pages = 250 * 29 / 1024 = 7 < 32: t = max_pause 200, pages = 250 * 200 / 1024 = 48 > 32:
    // pages = 32, t = 1000 * 32 / 250 = 128. pause = 32,000 / 251 = 127 <= 200.
    // min_pause = 1 + 128 / 2 = 65.
    assertEquals(new BalanceDirtyPages.MinPause(65, 32),
        BalanceDirtyPages.wbMinPause(1_000, 250, 250, 200, 1000));
    // avg bw 100 = dirty_ratelimit 100: t = 10; min(10, 1 + 50/2) = 10; pages = 1000/1024 = 0:
    // t = 50, pages = 5000 / 1024 = 4, still < 32; pause = 4000 / 101 = 39 <= 50.
    // min_pause = t = 50 (pages < DIRTY_POLL_THRESH)
    assertEquals(new BalanceDirtyPages.MinPause(50, 4),
        BalanceDirtyPages.wbMinPause(100, 100, 100, 50, 1000));
  }

  @Test
  void wbMinPause_shrinksPagesWhenThePauseWouldExceedMaxPause() {
    // As the first case but task_ratelimit 500: pause = 181,000 / 501 = 361 > 200:
    // t = 200, pages = 500 * 200 / 1024 = 97; min_pause = 1 + 100 = 101
    assertEquals(new BalanceDirtyPages.MinPause(101, 97),
        BalanceDirtyPages.wbMinPause(25_600, 6_400, 500, 200, 1000));
  }

  @Test
  void dirtyPollInterval_isAboutTheSquareRootOfTheHeadroom() {
    // 1000 - 0: ilog2 9 >> 1 = 4 -> 16; 1,000,000: ilog2 19 >> 1 = 9 -> 512
    assertEquals(16, BalanceDirtyPages.dirtyPollInterval(0, 1000));
    assertEquals(512, BalanceDirtyPages.dirtyPollInterval(0, 1_000_000));
    assertEquals(1, BalanceDirtyPages.dirtyPollInterval(1000, 1000));
    assertEquals(1, BalanceDirtyPages.dirtyPollInterval(2000, 1000));
  }

  @Test
  void ratelimitPages_perCpuShareOfThresh_atLeast16() {
    // 786,432 pages (3 GiB) / (32 * 32) = 768; 200,000 / (4 * 32) = 1562;
    // 1000 / (4 * 32) = 7 -> 16
    assertEquals(768, BalanceDirtyPages.ratelimitPages(786_432, 32));
    assertEquals(1562, BalanceDirtyPages.ratelimitPages(200_000, 4));
    assertEquals(16, BalanceDirtyPages.ratelimitPages(1000, 4));
    assertThrows(IllegalArgumentException.class, () -> BalanceDirtyPages.ratelimitPages(1000, 0));
  }

  @Test
  void ratelimited_checksAtNrDirtiedPause_every8PagesWhenExceeded_orWhenTheCpuIsFull() {
    assertFalse(BalanceDirtyPages.balanceDirtyPagesRatelimited(31, 32, false, 10, 768));
    assertTrue(BalanceDirtyPages.balanceDirtyPagesRatelimited(32, 32, false, 10, 768));
    // dirty_exceeded: min(32, 8) = 8
    assertFalse(BalanceDirtyPages.balanceDirtyPagesRatelimited(7, 32, true, 10, 768));
    assertTrue(BalanceDirtyPages.balanceDirtyPagesRatelimited(8, 32, true, 10, 768));
    // a smaller nr_dirtied_pause stays: min(4, 8) = 4
    assertTrue(BalanceDirtyPages.balanceDirtyPagesRatelimited(4, 4, true, 10, 768));
    // the CPU's bdp_ratelimits reached ratelimit_pages: check now, whatever the task's count
    assertTrue(BalanceDirtyPages.balanceDirtyPagesRatelimited(1, 32, false, 768, 768));
  }

  @Test
  void wbCalcThresh_isTheCompletionShare() {
    assertEquals(1000, BalanceDirtyPages.wbCalcThresh(1000, 5, 5));
    assertEquals(250, BalanceDirtyPages.wbCalcThresh(1000, 1, 4));
    assertEquals(0, BalanceDirtyPages.wbCalcThresh(1000, 0, 0), "no completions yet");
    assertEquals(1000, BalanceDirtyPages.wbCalcThresh(1000, 7, 5), "numerator capped");
  }

  @Test
  void wbOverBgThresh_globalReclaimableOrTheWbsShareOfThresh() {
    DirtyLimits lim = new DirtyLimits(50_000, 100_000);
    assertTrue(BalanceDirtyPages.wbOverBgThresh(50_001, 0, lim, 100_000), "above bg_thresh");
    assertFalse(BalanceDirtyPages.wbOverBgThresh(50_000, 50_000, lim, 100_000));
    // a wb over its share of thresh (25,000 of 100,000) keeps writing below bg_thresh
    assertTrue(BalanceDirtyPages.wbOverBgThresh(30_000, 25_001, lim, 25_000));
  }

  // ---- one iteration of balance_dirty_pages(), HZ 1000, 4 CPUs ----
  // thresh 100,000, bg 50,000: freerun 75,000; hard limit 100,000; setpoint 87,500.
  // The wb: avg bw 25,600, dirty_ratelimit 6400, stamp 0 (no re-estimate before jiffy 201).
  // Its position ratio at dirty = wb_dirty = 87,500, wb_thresh 100,000:
  //   global 1024 (at the setpoint);
  //   x = (100,000 << 16) / 100,001 = 65,535; wb_setpoint = 87,500 * 65,535 >> 16 = 87,498;
  //   span = 204,800 * 65,535 >> 16 = 204,796; x_intercept = 292,294;
  //   1024 * (292,294 - 87,500) / (204,796 | 1) = 209,709,056 / 204,797 = 1023.
  // task_ratelimit = 6400 * 1023 >> 10 = 6393; max_pause = 87,500 / 201 + 1 = 436 -> 200;
  // wb_min_pause: t = 29, pages = 181, pause = 181,000 / 6394 = 28: min_pause 15.

  static final DirtyLimits LIM = new DirtyLimits(50_000, 100_000);

  static DirtySnapshot atSetpoint(boolean writebackInProgress) {
    return new DirtySnapshot(80_000, 87_500, LIM, 87_500, 100_000, 0, 0, writebackInProgress);
  }

  static WbBandwidth warmWb() {
    return WbBandwidth.of(1000, 4, 0, 0, 0, 25_600, 25_600, 6_400, 6_400);
  }

  static BdpDecision iterate(DirtySnapshot s, long pagesDirtied, TaskDirtyState task,
      WbBandwidth wb, long now) {
    return BalanceDirtyPages.balanceDirtyPagesIteration(s, pagesDirtied, task,
        new WbDomain(1000, 0, 100_000), wb, now, now);
  }

  @Test
  void freerun_noPause_nextCheckAfterPollInterval() {
    // dirty 70,000 <= 75,000. Headroom 100,000 - 70,000 = 30,000: ilog2 14 >> 1 = 7 -> 128.
    WbBandwidth wb = warmWb();
    wb.setDirtyExceeded(true);
    DirtySnapshot s = new DirtySnapshot(60_000, 70_000, LIM, 70_000, 100_000, 0, 0, false);
    BdpDecision d = iterate(s, 32, new TaskDirtyState(32, 32, 10), wb, 100);
    assertTrue(d.freerun());
    assertFalse(d.sleep());
    assertEquals(new TaskDirtyState(0, 128, 100), d.task());
    assertTrue(d.kickBackgroundWriteback(), "reclaimable 60,000 > bg 50,000, no writeback");
    assertFalse(wb.dirtyExceeded(), "cleared at the end of the loop");
    // below bg, or with the flusher running: no kick
    DirtySnapshot low = new DirtySnapshot(40_000, 70_000, LIM, 70_000, 100_000, 0, 0, false);
    assertFalse(iterate(low, 32, TaskDirtyState.FORK, warmWb(), 100).kickBackgroundWriteback());
    DirtySnapshot busy = new DirtySnapshot(60_000, 70_000, LIM, 70_000, 100_000, 0, 0, true);
    assertFalse(iterate(busy, 32, TaskDirtyState.FORK, warmWb(), 100).kickBackgroundWriteback());
  }

  @Test
  void aboveFreerun_sleepsPeriodMinusTimeSinceLastPause() {
    // period = 1000 * 181 / 6393 = 28; paused 10 jiffies ago: pause = 28 - 10 = 18 >= 15.
    BdpDecision d = iterate(atSetpoint(false), 181, new TaskDirtyState(181, 32, 90), warmWb(),
        100);
    assertFalse(d.freerun());
    assertEquals(1023, d.posRatio());
    assertEquals(6393, d.taskRatelimit());
    assertEquals(200, d.maxPauseJiffies());
    assertEquals(15, d.minPauseJiffies());
    assertEquals(28, d.periodJiffies());
    assertTrue(d.sleep());
    assertEquals(18, d.pauseJiffies());
    assertEquals(18_000_000L, d.pauseNs(1000));
    // dirty_paused_when = 100 + 18; next check after wb_min_pause's 181 pages
    assertEquals(new TaskDirtyState(0, 181, 118), d.task());
    assertTrue(d.kickBackgroundWriteback(), "above freerun and no writeback running");
    assertFalse(d.dirtyExceeded());
    assertFalse(d.loopAgain());
    assertFalse(iterate(atSetpoint(true), 181, new TaskDirtyState(181, 32, 90), warmWb(), 100)
        .kickBackgroundWriteback());
  }

  @Test
  void neverPaused_sleepsTheWholePeriod() {
    BdpDecision d = iterate(atSetpoint(false), 181, TaskDirtyState.FORK.dirtied(181), warmWb(),
        100);
    assertTrue(d.sleep());
    assertEquals(28, d.pauseJiffies());
    assertEquals(128, d.task().dirtyPausedWhen());
  }

  @Test
  void pauseAboveMaxPause_sleepsMaxPause_andAccountsTheExcess() {
    // 2000 pages: period = 2,000,000 / 6393 = 312 > 200: now += min(112, 200) -> 212;
    // sleep 200; dirty_paused_when = 212 + 200 = 412
    BdpDecision d = iterate(atSetpoint(false), 2000, TaskDirtyState.FORK.dirtied(2000), warmWb(),
        100);
    assertEquals(312, d.periodJiffies());
    assertTrue(d.sleep());
    assertEquals(200, d.pauseJiffies());
    assertEquals(412, d.task().dirtyPausedWhen());
  }

  @Test
  void pauseBelowMinPause_carriesTheDebt() {
    // paused 15 jiffies ago: pause = 28 - 15 = 13 < 15: no sleep; dirty_paused_when += 28
    BdpDecision d = iterate(atSetpoint(false), 181, new TaskDirtyState(181, 32, 85), warmWb(),
        100);
    assertFalse(d.sleep());
    assertEquals(13, d.pauseJiffies());
    assertEquals(new TaskDirtyState(0, 32, 113), d.task());
    // more than a second behind: pause = 28 - 2000 < -HZ: forget, restart from now
    BdpDecision late = iterate(atSetpoint(false), 181, new TaskDirtyState(181, 32, -1900),
        warmWb(), 100);
    assertFalse(late.sleep());
    assertEquals(new TaskDirtyState(0, 32, 100), late.task());
    // period 0 (1 page: 1000 / 6393 = 0): pause = -5; nr_dirtied_pause 1 <= 1 -> 1 + 1 = 2,
    // nr_dirtied kept
    BdpDecision tiny = iterate(atSetpoint(false), 1, new TaskDirtyState(1, 1, 95), warmWb(), 100);
    assertFalse(tiny.sleep());
    assertEquals(new TaskDirtyState(1, 2, 95), tiny.task());
    TaskDirtyState bigPause = new TaskDirtyState(1, 64, 95);
    assertSame(bigPause, iterate(atSetpoint(false), 1, bigPause, warmWb(), 100).task());
  }

  @Test
  void neverPaused_debtPathPushesThePauseTimeToThePast() {
    // 32 pages: period = 32,000 / 6393 = 5 < 15: dirty_paused_when = "never" + 5, and the next
    // iteration finds it more than a second behind and restarts from now, as the kernel's 0 does.
    BdpDecision d = iterate(atSetpoint(false), 32, TaskDirtyState.FORK.dirtied(32), warmWb(),
        100);
    assertFalse(d.sleep());
    assertEquals(TaskDirtyState.NEVER_PAUSED + 5, d.task().dirtyPausedWhen());
    assertTrue(d.task().hasPaused());
    BdpDecision next = iterate(atSetpoint(false), 32, d.task().dirtied(32), warmWb(), 150);
    assertEquals(new TaskDirtyState(0, 32, 150), next.task());
  }

  @Test
  void overTheLimit_sleepsMaxPause_setsDirtyExceeded_andLoops() {
    // dirty 100,500 >= limit: pos_ratio 0, task_ratelimit 0. max_pause: 100,500 / 201 + 1 = 501
    // -> 200. wb_min_pause: pages 181, pause = 181,000 / 1 > 200: t = 200, pages = 0 * 200 /
    // 1024 = 0 -> min_pause = t = 200, nr_dirtied_pause 0.
    WbBandwidth wb = warmWb();
    DirtySnapshot s = new DirtySnapshot(90_000, 100_500, LIM, 100_500, 100_000, 0, 0, false);
    BdpDecision d = iterate(s, 181, new TaskDirtyState(181, 32, 90), wb, 100);
    assertEquals(0, d.posRatio());
    assertEquals(0, d.taskRatelimit());
    assertTrue(d.sleep());
    assertEquals(200, d.pauseJiffies());
    assertEquals(200, d.periodJiffies());
    assertEquals(new TaskDirtyState(0, 0, 300), d.task());
    assertTrue(d.dirtyExceeded(), "wb_dirty 100,500 > 100,000 and dirty 100,500 > 100,000");
    assertTrue(wb.dirtyExceeded());
    assertTrue(d.loopAgain(), "wb_dirty 100,500 > wb_stat_error 96");
    // back at the setpoint: not exceeded, and the loop's end clears the wb's flag
    iterate(atSetpoint(false), 181, new TaskDirtyState(181, 32, 90), wb, 100);
    assertFalse(wb.dirtyExceeded());
  }

  @Test
  void afterBandwidthInterval_reestimatesBeforeThrottling() {
    // A fresh wb (all rates 25,600, stamp 0). At jiffy 200 no re-estimate (not strictly after
    // 0 + 200); at 201 one runs: pos_ratio with write_bw 25,600 is 1023 as above; dirty_rate 0:
    // balanced = (25,600 * 1023 >> 10 = 25,575, + 1) * 25,600 / 1 -> capped at 25,600; dirty is
    // not below the setpoint and x = max(25,600, 25,600, 25,576) is not below 25,600: step 0.
    // write_bw: nothing written, bw = 25,600 * (4096 - 201) >> 12 = 99,712,000 / 4096 = 24,343.
    WbBandwidth wb = new WbBandwidth(1000, 4, 0);
    WbDomain dom = new WbDomain(1000, 0, 100_000);
    BalanceDirtyPages.balanceDirtyPagesIteration(atSetpoint(false), 32, TaskDirtyState.FORK
        .dirtied(32), dom, wb, 200, 200);
    assertEquals(0, wb.bwTimeStamp());
    BdpDecision d = BalanceDirtyPages.balanceDirtyPagesIteration(atSetpoint(false), 32,
        TaskDirtyState.FORK.dirtied(32), dom, wb, 201, 201);
    assertEquals(201, wb.bwTimeStamp());
    assertEquals(201, dom.dirtyLimitTstamp());
    assertEquals(24_343, wb.writeBandwidth());
    assertEquals(25_600, wb.avgWriteBandwidth());
    assertEquals(25_600, wb.dirtyRatelimit());
    // task_ratelimit 25,575; hi = lo = 14: t = 10, pages = 25,600 * 10 / 1024 = 250,
    // pause = 250,000 / 25,576 = 9 -> min_pause = 1 + 5 = 6; period = 32,000 / 25,575 = 1 < 6
    assertEquals(25_575, d.taskRatelimit());
    assertEquals(6, d.minPauseJiffies());
    assertFalse(d.sleep());
  }

  @Test
  void domainAndWb_withDifferentHz_areRefused() {
    assertThrows(IllegalArgumentException.class, () -> BalanceDirtyPages
        .balanceDirtyPagesIteration(atSetpoint(false), 32, TaskDirtyState.FORK,
            new WbDomain(250, 0, 100_000), warmWb(), 100, 100));
  }
}
