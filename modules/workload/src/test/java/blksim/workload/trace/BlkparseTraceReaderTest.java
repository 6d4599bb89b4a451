package blksim.workload.trace;

import static blksim.workload.trace.TraceTestFiles.readAll;
import static blksim.workload.trace.TraceTestFiles.resource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** blkparse default text: arrival choice, C latency matching, summary skipping. */
class BlkparseTraceReaderTest {
  private static final long NONE = TraceRecord.NO_LATENCY;

  private static TraceRecord rec(long timeNs, String dev, TraceOp op, long sector, long sectors,
      long latencyNs, long line) {
    return TraceRecord.block(timeNs, dev, op, sector * 512, sectors * 512, latencyNs, line);
  }

  @Test
  void fileWithQEvents_defaultsToQ_andSaysSo() {
    List<String> notices = new ArrayList<>();
    List<TraceRecord> rs = readAll(resource("blkparse-q.txt"), null,
        TraceOptions.defaults().withNotices(notices::add));
    assertTrue(notices.get(0).endsWith("blkparse arrival event Q (the trace has Q events)"),
        notices.toString());
    assertEquals(List.of(
        // Q W 2048+8 at 0, C at 0.000100000: latency 100 µs
        rec(0, "8,16", TraceOp.WRITE, 2048, 8, 100_000, 3),
        // Q R 4096+16: its request grew to 4096+24 by the merge; C R 4096+24 at 250 µs
        rec(10_000, "8,16", TraceOp.READ, 4096, 16, 240_000, 7),
        // Q R 4112+8 back-merged (M) into that request: its own Q to the same C
        rec(11_000, "8,16", TraceOp.READ, 4112, 8, 239_000, 8),
        // Q FWS with no sector: an empty preflush = FLUSH; C FN at 0.0003: 300 - 200 = 100 µs
        rec(200_000, "8,16", TraceOp.FLUSH, 0, 0, 100_000, 13),
        // Q DS 8192+2048 at 0.0004, C at 0.0009: 500 µs; 2048 sectors = 1 MiB
        rec(400_000, "8,16", TraceOp.TRIM, 8192, 2048, 500_000, 16)), rs);
    // the summary lines after line 19 (CPU0, CPU1, Total, Throughput, Events, Skips) were skipped
    // every Q found its C (the merged read's Q no longer goes unmatched)
    assertTrue(notices.stream().noneMatch(n -> n.contains("no matching C")), notices.toString());
  }

  @Test
  void fiveQsMergedIntoOneRequest_eachGetsItsOwnQToTheRequestsC(@TempDir Path dir)
      throws IOException {
    Path p = dir.resolve("merged.txt");
    Files.writeString(p, String.join("\n",
        "  8,16   0        1     0.000000000  100  Q   W 100 + 8 [fio]",
        "  8,16   0        2     0.000000500  100  G   W 100 + 8 [fio]",
        "  8,16   0        3     0.000001000  100  Q   W 108 + 8 [fio]",
        "  8,16   0        4     0.000001100  100  M   W 108 + 8 [fio]",
        "  8,16   0        5     0.000002000  100  Q   W 116 + 8 [fio]",
        "  8,16   0        6     0.000002100  100  M   W 116 + 8 [fio]",
        "  8,16   0        7     0.000003000  100  Q   W 124 + 8 [fio]",
        "  8,16   0        8     0.000003100  100  M   W 124 + 8 [fio]",
        "  8,16   0        9     0.000004000  100  Q   W 92 + 8 [fio]",
        "  8,16   0       10     0.000004100  100  F   W 92 + 8 [fio]",
        "  8,16   0       11     0.000005000  100  Q   W 84 + 8 [fio]",
        "  8,16   0       12     0.000005100  100  F   W 84 + 8 [fio]",
        "  8,16   0       13     0.000006000  100  I   W 84 + 48 [fio]",
        "  8,16   0       14     0.000007000  100  D   W 84 + 48 [fio]",
        // an unrelated request at the merged one's old start, completing later
        "  8,16   0       15     0.000008000  100  Q   W 300 + 8 [fio]",
        "  8,16   0       16     0.000100000    0  C   W 84 + 48 [0]",
        "  8,16   0       17     0.000200000    0  C   W 300 + 8 [0]", ""));
    List<String> notices = new ArrayList<>();
    List<TraceRecord> rs = readAll(p, null, TraceOptions.defaults().withNotices(notices::add));
    assertEquals(List.of(
        rec(0, "8,16", TraceOp.WRITE, 100, 8, 100_000, 1),
        rec(1_000, "8,16", TraceOp.WRITE, 108, 8, 99_000, 3),
        rec(2_000, "8,16", TraceOp.WRITE, 116, 8, 98_000, 5),
        rec(3_000, "8,16", TraceOp.WRITE, 124, 8, 97_000, 7),
        rec(4_000, "8,16", TraceOp.WRITE, 92, 8, 96_000, 9),
        rec(5_000, "8,16", TraceOp.WRITE, 84, 8, 95_000, 11),
        rec(8_000, "8,16", TraceOp.WRITE, 300, 8, 192_000, 15)), rs);
    assertTrue(notices.stream().noneMatch(n -> n.contains("no matching C")), notices.toString());
  }

  @Test
  void arrivalD_requested_matchesCompletionsOfIssuedRequests() {
    List<TraceRecord> rs = readAll(resource("blkparse-q.txt"), null,
        TraceOptions.defaults().withArrival(BlkArrival.D));
    assertEquals(List.of(
        rec(3_000, "8,16", TraceOp.WRITE, 2048, 8, 97_000, 6), // C at 100 µs - D at 3 µs
        rec(12_000, "8,16", TraceOp.READ, 4096, 24, 238_000, 10), // 250 - 12 µs
        rec(500_000, "8,16", TraceOp.TRIM, 8192, 2048, 400_000, 18)), rs); // 900 - 500 µs
  }

  @Test
  void fileWithoutQ_defaultsToD() {
    List<String> notices = new ArrayList<>();
    List<TraceRecord> rs = readAll(resource("blkparse-dc.txt"), null,
        TraceOptions.defaults().withNotices(notices::add));
    assertTrue(notices.get(0).contains("arrival event D (the trace has no Q events)"));
    // 2.000000000 s; C 40 µs later. RA = readahead read of 256 sectors, C 300 µs later.
    assertEquals(List.of(
        rec(2_000_000_000L, "259,0", TraceOp.WRITE, 100, 8, 40_000, 1),
        rec(2_500_000_000L, "259,0", TraceOp.READ, 7000, 256, 300_000, 3)), rs);
    try (TraceReader r = TraceFormat.open(resource("blkparse-dc.txt"), null)) {
      assertEquals(BlkArrival.D, ((BlkparseTraceReader) r).arrival());
    }
  }

  @Test
  void fileWithOnlyC_defaultsToC_withoutLatency() {
    List<TraceRecord> rs = readAll(resource("blkparse-c.txt"));
    assertEquals(List.of(rec(50_000, "8,0", TraceOp.READ, 64, 8, NONE, 1),
        rec(90_000, "8,0", TraceOp.WRITE, 128, 16, NONE, 2)), rs);
  }

  @Test
  void inFlightWindowFull_oldestGivenUpWithoutLatency(@TempDir Path dir) throws IOException {
    Path p = dir.resolve("t.txt");
    Files.writeString(p, String.join("\n",
        "  8,0    0        1     0.000001000   10  Q   R 0 + 8 [a]",
        "  8,0    0        2     0.000002000   10  Q   R 8 + 8 [a]",
        "  8,0    0        3     0.000003000   10  Q   R 16 + 8 [a]",
        "  8,0    0        4     0.000010000    0  C   R 0 + 8 [0]",
        "  8,0    0        5     0.000011000    0  C   R 16 + 8 [0]", ""));
    List<TraceRecord> rs = readAll(p, null, TraceOptions.defaults().withMaxInFlight(2));
    // With room for 2, the third Q pushes out the first before its C arrives.
    assertEquals(NONE, rs.get(0).latencyNs());
    assertEquals(NONE, rs.get(1).latencyNs()); // 8+8 never completes
    assertEquals(8_000, rs.get(2).latencyNs()); // 11 - 3 µs
    List<TraceRecord> wide = readAll(p, null, TraceOptions.defaults());
    assertEquals(9_000, wide.get(0).latencyNs()); // 10 - 1 µs when the window is wide enough
  }

  @Test
  void elapsedColumnOfDashT_andPassthroughLines_areHandled(@TempDir Path dir)
      throws IOException {
    Path p = dir.resolve("t.txt");
    Files.writeString(p, String.join("\n",
        "  8,0    0        1     0.000001000   10  Q   W 40 + 8 (       5) [a]",
        "  8,0    0        2     0.000002000   10  D   R 512 (12 34 56) [sg_inq]",
        "  8,0    0        3     0.000004000    0  C   W 40 + 8 (    3000) [0]", ""));
    List<TraceRecord> rs = readAll(p);
    assertEquals(List.of(rec(1_000, "8,0", TraceOp.WRITE, 40, 8, 3_000, 1)), rs);
  }

  @Test
  void junkBetweenEvents_isRejectedWithLine(@TempDir Path dir) throws IOException {
    Path p = dir.resolve("bad.txt");
    Files.writeString(p, "  8,0    0        1     0.000001000   10  Q   W 40 + 8 [a]\n"
        + "hello there\n");
    InputException e = assertThrows(InputException.class, () -> readAll(p, TraceFormat.BLKPARSE,
        TraceOptions.defaults()));
    assertEquals(2, e.line());
    assertTrue(e.getMessage().startsWith(p + ":2: not a blkparse event line"), e.getMessage());
  }

  @Test
  void badSector_isRejectedNamingTheField(@TempDir Path dir) throws IOException {
    Path p = dir.resolve("bad.txt");
    Files.writeString(p, "  8,0    0        1     0.000001000   10  Q   W 4x0 + 8 [a]\n");
    InputException e = assertThrows(InputException.class, () -> readAll(p, TraceFormat.BLKPARSE,
        TraceOptions.defaults().withArrival(BlkArrival.Q)));
    assertEquals(p + ":1: sector must be a non-negative integer, was '4x0'",
        e.getMessage());
    assertEquals("sector", e.key());
  }
}
