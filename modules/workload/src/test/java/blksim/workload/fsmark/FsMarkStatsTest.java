package blksim.workload.fsmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import blksim.workload.fsmark.FsMarkOp.Kind;
import blksim.workload.fsmark.FsMarkStats.SyscallTimes;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** do_run()'s timers, the log-file line, aggregate_thread_stats(), get_df_full() and main()'s sums. */
class FsMarkStatsTest {

  private static final SyscallTimes Z = SyscallTimes.NONE;

  /**
   * Runs "-n 2 -s 20000" (writes of 16384 and 3616 bytes, fsync per file, unlinks) with 1 us of
   * application time before every step and these step times: file 0 / file 1 mkdir 7/7, create
   * 20/30, writes 10+4 / 12+6, fsync 100/140, close 2/3, unlink 9/11.
   */
  private static FsMarkStats twoFileProcess() {
    FsMarkOptions o = FsMarkOptions.parse("-d /a -n 2 -s 20000 -w 16384", "t");
    FsMarkProcessStats stats = new FsMarkProcessStats(o);
    long[] now = {1_000_000_000L};
    Iterator<FsMarkOp> it = new FsMarkPlan(o).process(0, () -> now[0], new SplittableRandom(1));
    int write = 0;
    while (it.hasNext()) {
      FsMarkOp op = it.next();
      now[0] += 1;
      long d = switch (op.kind()) {
        case MKDIR, SETUP_MKDIR -> 7;
        case STATFS -> 3;
        case CREATE -> op.fileIndex() == 0 ? 20 : 30;
        case WRITE -> new long[] {10, 4, 12, 6}[write++];
        case FSYNC -> op.fileIndex() == 0 ? 100 : 140;
        case CLOSE -> op.fileIndex() == 0 ? 2 : 3;
        case UNLINK -> op.fileIndex() == 0 ? 9 : 11;
        default -> 0;
      };
      stats.record(op, now[0], now[0] + d);
      now[0] += d;
    }
    // Loop: 12 steps (2 x mkdir, create, 2 writes, fsync, close) and LOOP_END, each after 1 us:
    // 13 + (7+7) + (20+30) + (10+4+12+6) + (100+140) + (2+3) = 13 + 14 + 50 + 32 + 240 + 5 = 354.
    assertEquals(354, stats.loopUsec());
    return stats.toStats();
  }

  @Test
  void processLine_followsDoRun() {
    FsMarkStats s = twoFileProcess();
    assertEquals(2, s.fileCount());
    // 2 / (354 / 1e6) = 5649.717..., through "%.1f" and "%f": 5649.7f.
    assertEquals(5649.7f, s.filesPerSec());
    // app overhead = 354 - (creat 50 + write 32 + fsync 240 + sync 0 + close 5) = 27.
    assertEquals(27, s.appOverheadUsec());
    assertEquals(new SyscallTimes(20, 25, 30), s.creat());
    // write avg: per-file means (10+4)/2 = 7 and (12+6)/2 = 9, summed 16, over 2 files = 8.
    assertEquals(new SyscallTimes(4, 8, 12), s.write());
    assertEquals(new SyscallTimes(100, 120, 140), s.fsync());
    assertEquals(Z, s.sync());
    assertEquals(new SyscallTimes(2, 2, 3), s.close()); // 5 / 2 = 2 in integer division
    assertEquals(new SyscallTimes(9, 10, 11), s.unlink());
  }

  @Test
  void reopenPasses_countOpenFsyncCloseAsOneFsync() {
    FsMarkOptions o = FsMarkOptions.parse("-d /a -n 2 -s 1 -S 5 -k", "t");
    FsMarkProcessStats stats = new FsMarkProcessStats(o);
    long t = 0;
    for (FsMarkOp op : List.of(
        new FsMarkOp(Kind.LOOP_START, -1, "/a", null, 0),
        new FsMarkOp(Kind.REOPEN, 0, "/a", "x", 0),
        new FsMarkOp(Kind.REOPEN_FSYNC, 0, "/a", "x", 0),
        new FsMarkOp(Kind.REOPEN_CLOSE, 0, "/a", "x", 0),
        new FsMarkOp(Kind.REOPEN, 1, "/a", "y", 0),
        new FsMarkOp(Kind.REOPEN_FSYNC, 1, "/a", "y", 0),
        new FsMarkOp(Kind.REOPEN_CLOSE, 1, "/a", "y", 0),
        new FsMarkOp(Kind.LOOP_END, -1, "/a", null, 0))) {
      long d = op.fileIndex() == 0 ? 10 : op.fileIndex() == 1 ? 20 : 0;
      stats.record(op, t, t + d);
      t += d;
    }
    // file 0: 3 x 10 = 30 us, file 1: 3 x 20 = 60 us; avg 90 / 2 = 45.
    FsMarkStats s = stats.toStats();
    assertEquals(new SyscallTimes(30, 45, 60), s.fsync());
    assertEquals(0, s.appOverheadUsec());
  }

  @Test
  void firstFileFsync_addsToTheSumOnly() {
    FsMarkOptions o = FsMarkOptions.parse("-d /a -n 4 -s 1 -S 2 -k", "t");
    FsMarkProcessStats stats = new FsMarkProcessStats(o);
    stats.record(new FsMarkOp(Kind.LOOP_START, -1, "/a", null, 0), 0, 0);
    stats.record(new FsMarkOp(Kind.SYNC, -1, "/a", null, 0), 0, 500);
    stats.record(new FsMarkOp(Kind.REOPEN, 0, "/a", "x", 0), 500, 510);
    stats.record(new FsMarkOp(Kind.REOPEN_FSYNC, 0, "/a", "x", 0), 510, 590);
    stats.record(new FsMarkOp(Kind.REOPEN_CLOSE, 0, "/a", "x", 0), 590, 600);
    stats.record(new FsMarkOp(Kind.LOOP_END, -1, "/a", null, 0), 600, 600);
    FsMarkStats s = stats.toStats();
    // fsync_usec += stop(): 100 us, no min/max; avg 100 / 4 files = 25. sync() 500 is the avg.
    assertEquals(new SyscallTimes(0, 25, 0), s.fsync());
    assertEquals(new SyscallTimes(0, 500, 0), s.sync());
    // 4 files in 600 us: 4 / 0.0006 = 6666.67 -> "6666.7".
    assertEquals(6666.7f, s.filesPerSec());
  }

  @Test
  void aggregate_sumsAndTakesMinMaxInProcessOrder() {
    FsMarkStats a = twoFileProcess();
    FsMarkStats b = new FsMarkStats(2, 1000.5f, 10, new SyscallTimes(15, 22, 40),
        new SyscallTimes(5, 6, 9), Z, new SyscallTimes(0, 7, 0), new SyscallTimes(1, 1, 1), Z);
    FsMarkStats ab = FsMarkStats.aggregate(List.of(a, b));
    assertEquals(4, ab.fileCount());
    assertEquals(37, ab.appOverheadUsec()); // 27 + 10
    assertEquals(5649.7f + 1000.5f, ab.filesPerSec());
    // creat: min(20, 15) = 15, avg (25 + 22) / 2 = 23, max(30, 40) = 40.
    assertEquals(new SyscallTimes(15, 23, 40), ab.creat());
    assertEquals(new SyscallTimes(4, 7, 12), ab.write()); // (8 + 6) / 2 = 7
    // fsync: a then b; b's 0 minimum replaces 100 (0 < 100); b then a: 0 is "unset", a sets 100.
    assertEquals(new SyscallTimes(0, 60, 140), ab.fsync()); // (120 + 0) / 2 = 60
    assertEquals(100, FsMarkStats.aggregate(List.of(b, a)).fsync().minUsec());
    // sync: only the averages are read back: (0 + 7) / 2 = 3; min and max stay 0.
    assertEquals(new SyscallTimes(0, 3, 0), ab.sync());
    // one process: averages are not divided
    assertEquals(a.creat(), FsMarkStats.aggregate(List.of(a)).creat());
  }

  @Test
  void iterations_carryTheCountForward() {
    FsMarkOptions o = FsMarkOptions.parse("-d /a -d /b -n 2 -s 20000 -L 2", "t");
    FsMarkStats p = twoFileProcess();
    FsMarkIteration first = FsMarkIteration.after(null, List.of(p, p), 3, o);
    FsMarkIteration second = FsMarkIteration.after(first, List.of(p, p), 4, o);
    assertEquals(4, first.count());
    assertEquals(8, second.count());
    assertEquals(20000, second.sizeBytes());
  }

  @Test
  void dfFull_usesFloatArithmeticAndTruncates() {
    // (1000 - 333) / 1000 = 0.667 -> 66.7 -> 66
    assertEquals(66, FsMarkIteration.dfFullPercent(1000, 333));
    // 29 / 100 in float is 0.28999999165534973; 100 times that rounds to the float 29.0, so 29
    // (in double it would be 28.999999165... and truncate to 28).
    assertEquals(29, FsMarkIteration.dfFullPercent(100, 71));
    assertEquals(0, FsMarkIteration.dfFullPercent(10, 10));
    assertEquals(100, FsMarkIteration.dfFullPercent(10, 0));
    assertThrows(IllegalArgumentException.class, () -> FsMarkIteration.dfFullPercent(0, 0));
  }

  private static FsMarkRunResult run(float... fps) {
    FsMarkOptions o = FsMarkOptions.parse("-d /a -L " + fps.length, "t");
    List<FsMarkIteration> its = new java.util.ArrayList<>();
    for (int k = 0; k < fps.length; k++) {
      its.add(new FsMarkIteration(1, 1000L * (k + 1), 51200,
          new FsMarkStats(1000, fps[k], 0, Z, Z, Z, Z, Z, Z)));
    }
    return new FsMarkRunResult(o, its);
  }

  @Test
  void filesPerSecSpread_isThePopulationOrSampleStdDev() {
    FsMarkRunResult r = run(2f, 4f, 4f, 4f, 5f, 5f, 7f, 9f);
    // mean 40 / 8 = 5; squared deviations 9+1+1+1+0+0+4+16 = 32; population sqrt(32/8) = 2,
    // sample sqrt(32/7) = 2.138...
    assertEquals(5.0, r.filesPerSecMean(), 1e-12);
    assertEquals(2.0, r.filesPerSecStdDev(false), 1e-12);
    assertEquals(Math.sqrt(32.0 / 7), r.filesPerSecStdDev(true), 1e-12);
    assertEquals(0.0, run(3f).filesPerSecStdDev(true));
  }

  @Test
  void laterVersionsSummary_sortsFastestFirst() {
    // values truncated: 100, 250, 175, 300 (sum 825); descending 300 250 175 100:
    // p50 = [4/2 = 2] = 175, p90 = [36/10 = 3] = 100, p99 = [396/100 = 3] = 100; avg 825/4.
    FsMarkRunResult.Summary s = run(100.9f, 250.2f, 175.5f, 300.0f).summary();
    assertEquals(175, s.p50());
    assertEquals(100, s.p90());
    assertEquals(100, s.p99());
    // the sum adds the floats and truncates each time: 100.9 -> 100, 350.2 -> 350,
    // 525.5 -> 525, 825.0 -> 825; 825 / 4 = 206.25
    assertEquals(206.25f, s.averageFilesPerSec());
  }
}
