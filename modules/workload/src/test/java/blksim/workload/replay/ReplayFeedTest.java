package blksim.workload.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.block.ReqOp;
import blksim.workload.trace.TraceFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The records a replay issues: fio's delays, skip, scale, align, wrap, window, file actions. */
class ReplayFeedTest {
  @TempDir Path dir;

  static final long DEV = 1L << 20; // 1 MiB device

  record Io(ReplayFeed.Kind kind, ReqOp op, long offset, int len, long delayNs) {}

  static ReplayOptions opts(Path log, boolean noStall, int scale, long align, long div, int skip,
      long start, long end) {
    return new ReplayOptions(List.of(log.toString()), null, noStall, scale, null, align, div,
        skip, start, end);
  }

  static List<Io> drain(ReplayFeed f) {
    List<Io> out = new ArrayList<>();
    while (f.peek()) {
      out.add(new Io(f.kind(), f.op(), f.offset(), f.length(), f.delayNs()));
      f.consume();
    }
    return out;
  }

  Path v3(String... body) throws IOException {
    Path p = dir.resolve("t" + System.nanoTime() + ".log");
    Files.writeString(p, "fio version 3 iolog\n" + String.join("\n", body) + "\n");
    return p;
  }

  @Test
  void v3Delays_areTheTimeSinceThePreviousRecord_butNoneAfterARecordAtTimeZero()
      throws IOException {
    Path log = v3("0 /dev/sdb add", "0 /dev/sdb open", "1000 /dev/sdb read 0 4096",
        "3000 /dev/sdb write 8192 4096", "2500 /dev/sdb read 0 512", "7500 /dev/sdb close");
    List<Io> io = drain(new ReplayFeed(opts(log, false, 100, 0, 0, 0, 0, Long.MAX_VALUE), 0,
        "ram0", DEV, true));
    assertEquals(6, io.size());
    assertEquals(ReplayFeed.Kind.ACTION, io.get(0).kind());
    // fio's delay_since_ttime(): last_ttime 0 means no delay, so the read at 1 ms has none.
    assertEquals(0, io.get(2).delayNs());
    assertEquals(2_000_000, io.get(3).delayNs());
    assertEquals(ReqOp.WRITE, io.get(3).op());
    assertEquals(0, io.get(4).delayNs(), "time went backwards: no delay");
    assertEquals(5_000_000, io.get(5).delayNs(), "from the previous record, 2500 us");
  }

  @Test
  void timeScale_dividesEveryDelay_andNoStallRemovesThem() throws IOException {
    Path log = v3("100 f read 0 4096", "1100 f read 0 4096", "4100 f read 0 4096");
    List<Io> fast = drain(new ReplayFeed(opts(log, false, 200, 0, 0, 0, 0, Long.MAX_VALUE), 0,
        "d", DEV, true));
    assertEquals(List.of(0L, 500_000L, 1_500_000L), fast.stream().map(Io::delayNs).toList());
    List<Io> slow = drain(new ReplayFeed(opts(log, false, 50, 0, 0, 0, 0, Long.MAX_VALUE), 0,
        "d", DEV, true));
    assertEquals(List.of(0L, 2_000_000L, 6_000_000L), slow.stream().map(Io::delayNs).toList());
    List<Io> none = drain(new ReplayFeed(opts(log, true, 100, 0, 0, 0, 0, Long.MAX_VALUE), 0,
        "d", DEV, true));
    assertEquals(List.of(0L, 0L, 0L), none.stream().map(Io::delayNs).toList());
  }

  @Test
  void scaleDividesOffsets_alignRoundsThemDown_andBeyondTheEndWraps() throws IOException {
    Path log = v3("1 f read 40960 4096", "2 f read 12800 4096", "3 f write 1052672 8192",
        "4 f read 1048064 1024");
    ReplayFeed f = new ReplayFeed(opts(log, true, 100, 0, 10, 0, 0, Long.MAX_VALUE), 0, "d",
        DEV, true);
    List<Io> io = drain(f);
    assertEquals(4096, io.get(0).offset(), "replay_scale=10 divides the offset");
    assertEquals(4096, io.get(0).len(), "not the length");
    assertEquals(1280, io.get(1).offset());
    assertEquals(0, f.stats().wrapped(), "scaled down, everything fits");
    ReplayFeed g = new ReplayFeed(opts(log, true, 100, 4096, 0, 0, 0, Long.MAX_VALUE), 0, "d",
        DEV, true);
    io = drain(g);
    assertEquals(40960, io.get(0).offset());
    assertEquals(12288, io.get(1).offset(), "replay_align=4096 rounds down");
    // 1 MiB + 4 KiB is beyond the 1 MiB device: wrapped modulo its size.
    assertEquals(4096, io.get(2).offset());
    assertEquals(1044480, io.get(3).offset(), "aligned first, then it fits");
    assertEquals(1, g.stats().wrapped());
    ReplayFeed h = new ReplayFeed(opts(log, true, 100, 0, 0, 0, 0, Long.MAX_VALUE), 0, "d",
        DEV, true);
    io = drain(h);
    // 1048064 + 1024 crosses the end; 1048064 mod 1 MiB still does not fit: it ends there.
    assertEquals(DEV - 1024, io.get(3).offset());
    assertEquals(2, h.stats().wrapped());
    assertEquals(2, h.stats().devices().get("f")[ReplayStats.DEV_WRAPPED]);
  }

  @Test
  void anOffsetNearLongMax_wrapsInsteadOfOverflowingPastTheEndCheck() throws IOException {
    // 2^63 - 4096 + 4096 overflows a long: the record must still be wrapped onto the device.
    Path log = v3("1 f read 9223372036854771712 4096", "2 f read 9223372036854775807 1");
    ReplayFeed f = new ReplayFeed(opts(log, true, 100, 0, 0, 0, 0, Long.MAX_VALUE), 0, "d",
        DEV, true);
    List<Io> io = drain(f);
    assertEquals(2, io.size(), io.toString());
    for (Io i : io) {
      assertTrue(i.offset() >= 0 && i.offset() <= DEV - i.len(), "on the device: " + i);
    }
    assertEquals(2, f.stats().wrapped());
  }

  @Test
  void replaySkip_dropsTheNamedKinds_andTrimsAreUnsupported() throws IOException {
    Path log = v3("1 f read 0 4096", "2 f write 0 4096", "3 f trim 0 4096", "4 f sync 0 0",
        "5 f datasync 0 0", "6 f write 4096 4096");
    ReplayFeed f = new ReplayFeed(new ReplayOptions(List.of(log.toString()), null, true, 100,
        null, 0, 0, ReplayOptions.skipMask("write,sync"), 0, Long.MAX_VALUE), 0, "d", DEV, true);
    List<Io> io = drain(f);
    assertEquals(2, io.size(), io.toString());
    assertEquals(ReqOp.READ, io.get(0).op());
    assertEquals(ReplayFeed.Kind.SYNC, io.get(1).kind(), "datasync cannot be skipped in fio");
    assertEquals(3, f.stats().skipped());
    assertEquals(1, f.stats().unsupported());
    assertEquals(6, f.stats().recordsRead());
    assertEquals(2, f.stats().issued());
    ReplayFeed noSync = new ReplayFeed(opts(log, true, 100, 0, 0, 0, 0, Long.MAX_VALUE), 0, "d",
        DEV, false);
    assertEquals(3, drain(noSync).size(), "without sync support only the data records");
    assertEquals(3, noSync.stats().unsupported());
  }

  @Test
  void window_keepsTheRecordsBetweenStartAndEnd_andStopsReadingAfterIt() throws IOException {
    Path log = v3("1000 f read 0 4096", "2000 f read 4096 4096", "3000 f read 8192 4096",
        "4000 f read 12288 4096", "5000 f read 16384 4096");
    ReplayFeed f = new ReplayFeed(opts(log, false, 100, 0, 0, 0, 1_000_000, 3_000_000), 0, "d",
        DEV, true);
    List<Io> io = drain(f);
    assertEquals(List.of(4096L, 8192L), io.stream().map(Io::offset).toList());
    assertEquals(0, io.get(0).delayNs(), "the first record in the window starts at once");
    assertEquals(1_000_000, io.get(1).delayNs());
    assertEquals(4, f.stats().recordsRead(), "reading stopped at the first record after it");
    assertEquals(2, f.stats().outsideWindow());
  }

  @Test
  void clones_takeTheLogsInTurn() throws IOException {
    Path a = v3("1 a read 0 4096");
    Path b = v3("1 b write 0 4096", "2 b write 0 4096");
    ReplayOptions o = new ReplayOptions(List.of(a.toString(), b.toString()), null, true, 100,
        null, 0, 0, 0, 0, Long.MAX_VALUE);
    assertEquals(a.toString(), o.logFor(0));
    assertEquals(b.toString(), o.logFor(1));
    assertEquals(a.toString(), o.logFor(2));
    assertEquals(2, drain(new ReplayFeed(o, 1, "d", DEV, true)).size());
  }

  @Test
  void otherFormats_areReadLazily_withTheirRecordedLatencies() throws IOException {
    Path p = dir.resolve("sdb.txt");
    Files.writeString(p, String.join("\n",
        "  8,16   0        1     0.000000000  4162  Q   W 2048 + 8 [fio]",
        "  8,16   0        2     0.000003000  4162  D   W 2048 + 8 [fio]",
        "  8,16   0        3     0.000100000     0  C   W 2048 + 8 [0]",
        "  8,16   0        4     0.000500000  4162  Q   R 4096 + 8 [fio]",
        "  8,16   0        5     0.000700000     0  C   R 4096 + 8 [0]", ""));
    assertEquals(TraceFormat.BLKPARSE, TraceFormat.detect(p));
    ReplayFeed f = new ReplayFeed(opts(p, false, 100, 0, 0, 0, 0, Long.MAX_VALUE), 0, "d",
        1L << 30, true);
    assertTrue(f.peek());
    assertEquals(2048 * 512, f.offset());
    assertEquals(100_000, f.recordedLatencyNs());
    assertEquals(0, f.delayNs(), "the first record of a trace has no delay");
    f.consume();
    assertTrue(f.peek());
    assertEquals(500_000, f.delayNs());
    assertEquals(200_000, f.recordedLatencyNs());
    f.consume();
    assertFalse(f.peek());
    assertEquals("blkparse", f.stats().format());
    assertFalse(f.stats().notes().isEmpty(), "the arrival event chosen is noted");
    assertEquals(1, f.stats().devices().size());
    assertTrue(f.stats().devices().containsKey("8,16"));
  }

  @Test
  void everyTextFormatsSample_replays() throws Exception {
    for (String name : List.of("iolog-v2.log", "iolog-v3.log", "blkparse-q.txt", "msr.csv",
        "spc.spc", "alibaba.csv", "tencent.csv", "systor.csv", "disksim.trace")) {
      Path p = Path.of(getClass().getResource("/trace/" + name).toURI());
      ReplayFeed f = new ReplayFeed(opts(p, false, 100, 0, 0, 0, 0, Long.MAX_VALUE), 0, "d",
          1L << 40, true);
      List<Io> io = drain(f);
      assertTrue(f.stats().recordsRead() > 0 && f.stats().issued() > 0, name);
      assertTrue(io.stream().allMatch(x -> x.delayNs() >= 0 && x.delayNs() % 1000 == 0), name);
      assertTrue(io.stream().anyMatch(x -> x.kind() == ReplayFeed.Kind.IO), name);
    }
  }
}
