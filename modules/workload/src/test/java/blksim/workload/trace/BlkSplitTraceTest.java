package blksim.workload.trace;

import static blksim.workload.trace.TraceTestFiles.readAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Split bios ({@code X}) in blkparse text and binary blktrace: a split Q's recorded latency runs
 * to the C of its last part; each part's C is matched by its start sector. The traces are written
 * here by hand in blkparse's default layout ({@code blkparse_fmt.c}: X prints
 * {@code sector / new_sector [process]}).
 */
class BlkSplitTraceTest {
  private static final long NONE = TraceRecord.NO_LATENCY;

  private static TraceRecord rec(long timeNs, TraceOp op, long sector, long sectors,
      long latencyNs, long line) {
    return TraceRecord.block(timeNs, "8,16", op, sector * 512, sectors * 512, latencyNs, line);
  }

  /** blkparse's default line for the event, times in µs. */
  private static String line(int seq, long us, String act, String rwbs, String tail) {
    return String.format("  8,16   0 %8d %5d.%09d  4162 %2s %3s %s", seq, us / 1_000_000,
        us % 1_000_000 * 1000, act, rwbs, tail);
  }

  private static Path write(Path dir, String name, String... lines) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, String.join("\n", lines) + "\n");
    return p;
  }

  private static List<TraceRecord> read(Path p, List<String> notices) {
    return readAll(p, null, TraceOptions.defaults().withNotices(notices::add));
  }

  /**
   * A 512-sector write split at 256: its second part completes first (150 µs), its first part
   * last (300 µs); a read queued after it completes in between.
   */
  private static String[] splitWrite(boolean withX) {
    List<String> l = new ArrayList<>(List.of(
        line(1, 0, "Q", "W", "1000 + 512 [fio]"),
        line(2, 1, "X", "W", "1000 / 1256 [fio]"),
        line(3, 2, "G", "W", "1000 + 256 [fio]"),
        line(4, 3, "D", "W", "1000 + 256 [fio]"),
        line(5, 4, "G", "W", "1256 + 256 [fio]"),
        line(6, 5, "D", "W", "1256 + 256 [fio]"),
        line(7, 10, "Q", "R", "9000 + 8 [fio]"),
        line(8, 11, "D", "R", "9000 + 8 [fio]"),
        line(9, 150, "C", "W", "1256 + 256 [0]"),
        line(10, 200, "C", "R", "9000 + 8 [0]"),
        line(11, 300, "C", "W", "1000 + 256 [0]")));
    if (!withX) {
      l.remove(1);
    }
    return l.toArray(new String[0]);
  }

  @Test
  void splitQ_partsCompleteAtDifferentTimes_latencyRunsToTheLaterC(@TempDir Path dir)
      throws IOException {
    List<String> notices = new ArrayList<>();
    List<TraceRecord> rs = read(write(dir, "split.txt", splitWrite(true)), notices);
    assertEquals(List.of(
        rec(0, TraceOp.WRITE, 1000, 512, 300_000, 1), // the first part's C at 300 µs, the later
        rec(10_000, TraceOp.READ, 9000, 8, 190_000, 7)), rs);
    assertTrue(notices.stream().noneMatch(n -> n.contains("no matching C")), notices.toString());
    assertTrue(notices.stream().anyMatch(n -> n.endsWith("split.txt: 1 split (X) event followed"
        + " (a split Q's recorded latency runs to the C of its last part)")), notices.toString());
  }

  @Test
  void frontPartLast_orRestLast_bothGiveTheLastC(@TempDir Path dir) throws IOException {
    Path p = write(dir, "rest-last.txt",
        line(1, 0, "Q", "R", "64 + 16 [fio]"),
        line(2, 1, "X", "R", "64 / 72 [fio]"),
        line(3, 40, "C", "R", "64 + 8 [0]"),
        line(4, 90, "C", "R", "72 + 8 [0]"));
    assertEquals(List.of(rec(0, TraceOp.READ, 64, 16, 90_000, 1)), read(p, new ArrayList<>()));
  }

  @Test
  void traceWithoutX_isReadAsBefore(@TempDir Path dir) throws IOException {
    List<String> notices = new ArrayList<>();
    List<TraceRecord> rs = read(write(dir, "nox.txt", splitWrite(false)), notices);
    // Without the X nothing says the bio was split: the C at its start sector is its C (no
    // request starts at 1256, so that C finds no Q), and no split notice is given.
    assertEquals(List.of(
        rec(0, TraceOp.WRITE, 1000, 512, 300_000, 1),
        rec(10_000, TraceOp.READ, 9000, 8, 190_000, 6)), rs);
    assertTrue(notices.stream().noneMatch(n -> n.contains("split")), notices.toString());
    // The old behaviour the X now corrects: the first part completing first took the Q.
    Path early = write(dir, "early.txt",
        line(1, 0, "Q", "W", "1000 + 512 [fio]"),
        line(2, 100, "C", "W", "1000 + 256 [0]"),
        line(3, 300, "C", "W", "1256 + 256 [0]"));
    assertEquals(List.of(rec(0, TraceOp.WRITE, 1000, 512, 100_000, 1)),
        read(early, new ArrayList<>()));
  }

  @Test
  void nestedSplits_aPartSplitAgain_waitsForAllThreeParts(@TempDir Path dir)
      throws IOException {
    Path p = write(dir, "nested.txt",
        line(1, 0, "Q", "W", "0 + 768 [fio]"),
        line(2, 1, "X", "W", "0 / 256 [fio]"),
        line(3, 2, "X", "W", "256 / 512 [fio]"),
        line(4, 5, "Q", "W", "4096 + 8 [fio]"),
        line(5, 100, "C", "W", "0 + 256 [0]"),
        line(6, 150, "C", "W", "4096 + 8 [0]"),
        line(7, 200, "C", "W", "256 + 256 [0]"),
        line(8, 300, "C", "W", "512 + 256 [0]"));
    List<String> notices = new ArrayList<>();
    assertEquals(List.of(
        rec(0, TraceOp.WRITE, 0, 768, 300_000, 1),
        rec(5_000, TraceOp.WRITE, 4096, 8, 145_000, 4)), read(p, notices));
    assertTrue(notices.stream().anyMatch(n -> n.contains("2 split (X) events followed")),
        notices.toString());
    assertTrue(notices.stream().noneMatch(n -> n.contains("no matching C")), notices.toString());
  }

  @Test
  void splitPartFrontMerged_itsQsGetTheMergedRequestsC(@TempDir Path dir) throws IOException {
    // B's request starts where A's second part ends; that part front-merges into it.
    Path p = write(dir, "partmerge.txt",
        line(1, 0, "Q", "W", "1512 + 8 [fio]"),
        line(2, 1, "Q", "W", "1000 + 512 [fio]"),
        line(3, 2, "X", "W", "1000 / 1256 [fio]"),
        line(4, 3, "F", "W", "1256 + 256 [fio]"),
        line(5, 50, "C", "W", "1256 + 264 [0]"),
        line(6, 80, "C", "W", "1000 + 256 [0]"));
    assertEquals(List.of(
        rec(0, TraceOp.WRITE, 1512, 8, 50_000, 1),
        rec(1_000, TraceOp.WRITE, 1000, 512, 79_000, 2)), read(p, new ArrayList<>()));
  }

  @Test
  void splitPartMergedIntoARequestFromBeforeTheTrace_leavesTheQWithoutLatency(@TempDir Path dir)
      throws IOException {
    Path p = write(dir, "partlost.txt",
        line(1, 0, "Q", "W", "1000 + 512 [fio]"),
        line(2, 1, "X", "W", "1000 / 1256 [fio]"),
        line(3, 2, "F", "W", "1256 + 256 [fio]"), // no request of the trace starts at 1512
        line(4, 50, "C", "W", "1000 + 256 [0]"),
        line(5, 60, "C", "W", "1256 + 264 [0]"));
    assertEquals(List.of(rec(0, TraceOp.WRITE, 1000, 512, NONE, 1)), read(p, new ArrayList<>()));
  }

  @Test
  void splitOfABioQueuedBeforeTheTrace_isCountedAndIgnored(@TempDir Path dir)
      throws IOException {
    Path p = write(dir, "early-x.txt",
        line(1, 0, "X", "W", "1000 / 1256 [fio]"),
        line(2, 5, "Q", "W", "50 + 8 [fio]"),
        line(3, 60, "C", "W", "1000 + 256 [0]"),
        line(4, 70, "C", "W", "50 + 8 [0]"));
    List<String> notices = new ArrayList<>();
    assertEquals(List.of(rec(5_000, TraceOp.WRITE, 50, 8, 65_000, 2)), read(p, notices));
    assertTrue(notices.stream().anyMatch(n -> n.contains("0 split (X) events followed")
        && n.contains("1 found no queued bio at their sector")), notices.toString());
  }

  @Test
  void newSectorPrintedModulo2To32_beyond2TiB_isFollowed(@TempDir Path dir) throws IOException {
    long s = 5_000_000_000L; // sector beyond 2^32
    long rest = s + 256;
    Path p = write(dir, "big.txt",
        line(1, 0, "Q", "W", s + " + 512 [fio]"),
        line(2, 1, "X", "W", s + " / " + (rest & 0xffffffffL) + " [fio]"),
        line(3, 20, "C", "W", s + " + 256 [0]"),
        line(4, 70, "C", "W", rest + " + 256 [0]"));
    assertEquals(List.of(rec(0, TraceOp.WRITE, s, 512, 70_000, 1)), read(p, new ArrayList<>()));
  }

  @Test
  void malformedX_oneLineErrorNamingFileLineKeyAndRule(@TempDir Path dir) throws IOException {
    Path noSlash = write(dir, "noslash.txt",
        line(1, 0, "Q", "W", "1000 + 512 [fio]"),
        line(2, 1, "X", "W", "1000 + 256 [fio]"));
    InputException e = assertThrows(InputException.class,
        () -> read(noSlash, new ArrayList<>()));
    assertEquals(noSlash + ":2: new_sector: a split (X) must read 'sector / new_sector"
        + " [process]', was '" + line(2, 1, "X", "W", "1000 + 256 [fio]").strip() + "'",
        e.getMessage());
    assertEquals(2, e.line());

    Path backwards = write(dir, "backwards.txt",
        line(1, 0, "Q", "W", "1000 + 512 [fio]"),
        line(2, 1, "X", "W", "1000 / 900 [fio]"));
    e = assertThrows(InputException.class, () -> read(backwards, new ArrayList<>()));
    assertTrue(e.getMessage().startsWith(backwards + ":2: new_sector: a split (X) must name the"
        + " sector where its second part starts"), e.getMessage());
    assertTrue(e.getMessage().endsWith("was '1000 / 900'"), e.getMessage());
    assertTrue(!e.getMessage().contains("\n"), e.getMessage());

    Path notNumber = write(dir, "nan.txt",
        line(1, 0, "Q", "W", "1000 + 512 [fio]"),
        line(2, 1, "X", "W", "1000 / x12 [fio]"));
    e = assertThrows(InputException.class, () -> read(notNumber, new ArrayList<>()));
    assertEquals(notNumber + ":2: new_sector must be a non-negative integer, was 'x12'",
        e.getMessage());
  }

  @Test
  void splitSector_rules() {
    assertEquals(1256, BlkEvent.splitSector(1000, 1256));
    assertEquals(-1, BlkEvent.splitSector(1000, 1000)); // no second part
    assertEquals(-1, BlkEvent.splitSector(1000, 999));
    assertEquals(-1, BlkEvent.splitSector(0, BlkEvent.MAX_BIO_SECTORS)); // past a bio's size
    assertEquals(BlkEvent.MAX_BIO_SECTORS - 1, BlkEvent.splitSector(0,
        BlkEvent.MAX_BIO_SECTORS - 1));
    long s = (1L << 32) - 8; // a split across the 2^32 boundary, printed wrapped
    assertEquals(s + 16, BlkEvent.splitSector(s, 8));
  }

  // ---- binary blktrace ----

  private static final int TC_WRITE = 1 << 1;
  private static final int TC_QUEUE = 1 << 4;
  private static final int TC_COMPLETE = 1 << 7;
  private static final int TA_CGROUP = 1 << 8;
  private static final int DEV_8_16 = (8 << 20) | 16;

  private static byte[] event(int seq, long timeNs, long sector, int bytes, int action,
      byte[] pdu) {
    ByteBuffer b = ByteBuffer.allocate(48 + pdu.length).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0x65617400 | 7).putInt(seq).putLong(timeNs).putLong(sector).putInt(bytes)
        .putInt(action).putInt(4242).putInt(DEV_8_16).putInt(0).putShort((short) 0)
        .putShort((short) pdu.length).put(pdu);
    return b.array();
  }

  /** An X payload: optionally an 8-byte cgroup id, then the new sector as a big-endian u64. */
  private static byte[] splitPdu(boolean cgroup, long newSector) {
    ByteBuffer b = ByteBuffer.allocate(cgroup ? 16 : 8);
    if (cgroup) {
      b.order(ByteOrder.LITTLE_ENDIAN).putInt(77).putInt(1); // ino, gen
    }
    return b.order(ByteOrder.BIG_ENDIAN).putLong(newSector).array();
  }

  private static Path binary(Path dir, String name, boolean cgroup, long newSector)
      throws IOException {
    byte[] none = new byte[0];
    // BLK_TA_SPLIT has no category of its own: the bio's (a write)
    int x = 13 | (cgroup ? TA_CGROUP : 0) | TC_WRITE << 16;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(event(1, 1_000_000, 1000, 512 * 512, 1 | (TC_WRITE | TC_QUEUE) << 16, none));
    out.write(event(2, 1_001_000, 1000, 256 * 512, x, splitPdu(cgroup, newSector)));
    out.write(event(3, 1_150_000, 1256, 256 * 512, 8 | (TC_WRITE | TC_COMPLETE) << 16, none));
    out.write(event(4, 1_300_000, 1000, 256 * 512, 8 | (TC_WRITE | TC_COMPLETE) << 16, none));
    Path p = dir.resolve(name);
    Files.write(p, out.toByteArray());
    return p;
  }

  @Test
  void binary_splitFollowed_withAndWithoutCgroupId(@TempDir Path dir) throws IOException {
    for (boolean cgroup : new boolean[] {false, true}) {
      List<String> notices = new ArrayList<>();
      List<TraceRecord> rs = readAll(binary(dir, "b" + cgroup + ".bin", cgroup, 1256),
          TraceFormat.BLKTRACE, TraceOptions.defaults().withNotices(notices::add));
      assertEquals(List.of(rec(0, TraceOp.WRITE, 1000, 512, 300_000, 1)), rs);
      assertTrue(notices.stream().anyMatch(n -> n.contains("1 split (X) event followed")),
          notices.toString());
    }
  }

  @Test
  void binary_malformedSplitPayload_namesFileEventAndRule(@TempDir Path dir)
      throws IOException {
    Path p = binary(dir, "bad.bin", false, 1000); // the new sector is the bio's own start
    InputException e = assertThrows(InputException.class,
        () -> readAll(p, TraceFormat.BLKTRACE, TraceOptions.defaults()));
    assertTrue(e.getMessage().startsWith(p + ": pdu: event 2 (byte offset 48): a split (X) must"
        + " name the sector where its second part starts"), e.getMessage());
    assertTrue(e.getMessage().endsWith("was sector 1000 / 1000"), e.getMessage());
  }
}
