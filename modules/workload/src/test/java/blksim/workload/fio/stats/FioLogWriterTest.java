package blksim.workload.fio.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** fio's per-I/O log rows (iolog.c flush_samples(), stat.c add_*_sample()), hand-computed. */
class FioLogWriterTest {
  static final long MS = 1_000_000L;

  static FioLogOptions opts(int avg, int window, boolean offset, boolean prio, boolean issue) {
    return new FioLogOptions("", "", "", avg, window, offset, prio, issue, true);
  }

  @Test
  void perIo_rowsOfEveryLog() {
    IoSamples s = new IoSamples();
    // A read of 4 KiB at 8192: submitted 20 us after its start, completed 100 us after issue,
    // at 1.5 ms after the epoch (10 ms).
    s.add(11_500_000L, 0, 4096, 20_000, 100_000, 8192);
    FioLogOptions o = opts(0, 0, false, false, false);
    long epoch = 10 * MS;
    assertEquals("1, 120000, 0, 4096, 0\n", FioLogWriter.render("lat", o, s, epoch, 20 * MS));
    assertEquals("1, 100000, 0, 4096, 0\n", FioLogWriter.render("clat", o, s, epoch, 20 * MS));
    assertEquals("1, 20000, 0, 4096, 0\n", FioLogWriter.render("slat", o, s, epoch, 20 * MS));
    // add_bw_sample(): bytes * 1000000 / clat in ns.
    assertEquals("1, 40960, 0, 4096, 0\n", FioLogWriter.render("bw", o, s, epoch, 20 * MS));
    assertEquals("1, 1, 0, 4096, 0\n", FioLogWriter.render("iops", o, s, epoch, 20 * MS));
    FioLogOptions full = opts(0, 0, true, true, true);
    assertEquals("1, 120000, 0, 4096, 8192, 0x0000, 0\n",
        FioLogWriter.render("lat", full, s, epoch, 20 * MS));
    // clat and slat carry the issue time in ns since the epoch (lat's is 0, as in fio).
    assertEquals("1, 100000, 0, 4096, 8192, 0x0000, 1400000\n",
        FioLogWriter.render("clat", full, s, epoch, 20 * MS));
  }

  @Test
  void syncEngine_hasAnEmptySlatLog_andSlatRowsAreInIssueOrder() {
    IoSamples s = new IoSamples();
    s.add(5 * MS, 1, 4096, -1, 1000, 0);
    assertEquals("", FioLogWriter.render("slat", opts(0, 0, false, false, false), s, 0, 9 * MS));
    IoSamples a = new IoSamples();
    a.add(9 * MS, 0, 4096, 1000, 8 * MS, 0); // issued at 1 ms, completes last
    a.add(3 * MS, 0, 4096, 2000, 1 * MS, 0); // issued at 2 ms
    assertEquals("1, 1000, 0, 4096, 0\n2, 2000, 0, 4096, 0\n",
        FioLogWriter.render("slat", opts(0, 0, false, false, false), a, 0, 10 * MS));
  }

  @Test
  void averagedLatency_windowsCloseOnTheFirstIoPastThem_andTheRestAtTheEnd() {
    IoSamples s = new IoSamples();
    s.add(2 * MS, 0, 4096, -1, 100, 0);
    s.add(5 * MS, 0, 4096, -1, 201, 0);
    s.add(12 * MS, 0, 4096, -1, 300, 0);
    s.add(25 * MS, 0, 4096, -1, 50, 0);
    s.add(26 * MS, 1, 4096, -1, 70, 0);
    // Mean of 100, 201, 300 is 200.33 -> 200, at 12 ms; the window restarts at 10 ms, so 25 ms
    // closes it (50); the write's window started at 0 (avg_last is 0), so its first I/O, past
    // 10 ms, closes it at once.
    assertEquals("12, 200, 0, 0, 0\n25, 50, 0, 0, 0\n26, 70, 1, 0, 0\n",
        FioLogWriter.render("clat", opts(10, 0, false, false, false), s, 0, 27 * MS));
    assertEquals("12, 200, 300, 0, 0, 0\n25, 50, 50, 0, 0, 0\n26, 70, 70, 1, 0, 0\n",
        FioLogWriter.render("clat", opts(10, 2, false, false, false), s, 0, 27 * MS));
    assertEquals("12, 300, 0, 0, 0\n25, 50, 0, 0, 0\n26, 70, 1, 0, 0\n",
        FioLogWriter.render("clat", opts(10, 1, false, false, false), s, 0, 27 * MS));
    // finalize_logs(): a window still open at the end is written at the job's end.
    IoSamples t = new IoSamples();
    t.add(12 * MS, 0, 4096, -1, 100, 0);
    t.add(14 * MS, 0, 4096, -1, 300, 0);
    assertEquals("12, 100, 0, 0, 0\n17, 300, 0, 0, 0\n",
        FioLogWriter.render("clat", opts(10, 0, false, false, false), t, 0, 17 * MS));
  }

  @Test
  void averagedBwAndIops_areTheRatesOfEachInterval() {
    IoSamples s = new IoSamples();
    s.add(3 * MS, 1, 4096, -1, 10, 0);
    s.add(7 * MS, 1, 4096, -1, 10, 0);
    s.add(15 * MS, 1, 4096, -1, 10, 0);
    FioLogOptions o = opts(10, 0, false, false, false);
    // 8 KiB in 10 ms: 8192 * 1000 / 10 / 1024 = 800 KiB/s; then 400.
    assertEquals("10, 800, 1, 0, 0\n20, 400, 1, 0, 0\n",
        FioLogWriter.render("bw", o, s, 0, 25 * MS));
    assertEquals("10, 200, 1, 0, 0\n20, 100, 1, 0, 0\n",
        FioLogWriter.render("iops", o, s, 0, 25 * MS));
  }

  @Test
  void fileNames_followGenLogName() {
    FioLogOptions o = new FioLogOptions("", "bwp", null, 0, 0, false, false, false, true);
    assertEquals(List.of("j_lat.3.log", "j_slat.3.log", "j_clat.3.log", "bwp_bw.3.log"),
        FioLogWriter.fileNames(o, "j", 3));
    FioLogOptions shared = new FioLogOptions(null, null, "x", 0, 0, false, false, false, false);
    assertEquals(List.of("x_iops.log"), FioLogWriter.fileNames(shared, "j", 3));
  }
}
