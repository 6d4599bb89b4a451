package blksim.workload.trace;

import static blksim.workload.trace.TraceTestFiles.readAll;
import static blksim.workload.trace.TraceTestFiles.resource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The line-per-record readers on hand-written samples; expected values worked out by hand. */
class TextTraceReadersTest {
  private static final long NONE = TraceRecord.NO_LATENCY;

  private static void assertRecord(TraceRecord r, long timeNs, String device, TraceOp op,
      long offsetBytes, long lengthBytes, long latencyNs, long line) {
    assertEquals(new TraceRecord(timeNs, device, op, r.fileName(), offsetBytes, lengthBytes,
        latencyNs, line), r);
  }

  @Test
  void fioIologV2_allActions_readInOrderWithoutTime() {
    List<TraceRecord> rs = readAll(resource("iolog-v2.log"));
    assertEquals(9, rs.size()); // 10 lines after the header, one blank
    TraceOp[] ops = {TraceOp.ADD, TraceOp.OPEN, TraceOp.WRITE, TraceOp.WAIT, TraceOp.READ,
        TraceOp.TRIM, TraceOp.SYNC, TraceOp.DATASYNC, TraceOp.CLOSE};
    for (int i = 0; i < ops.length; i++) {
      assertEquals(ops[i], rs.get(i).op());
      assertEquals(TraceRecord.NO_TIME, rs.get(i).timeNs());
      assertEquals("/dev/sdb", rs.get(i).device());
      assertEquals("/dev/sdb", rs.get(i).fileName());
    }
    assertEquals(4, rs.get(2).line());
    // "wait 1500 0": fio puts the offset column into ipo->delay (µs).
    assertEquals(1500, rs.get(3).offsetBytes());
    // line 7 (after the blank line 6): read 1048576 8192
    assertRecord(rs.get(4), TraceRecord.NO_TIME, "/dev/sdb", TraceOp.READ, 1_048_576, 8192,
        NONE, 7);
    assertRecord(rs.get(5), TraceRecord.NO_TIME, "/dev/sdb", TraceOp.TRIM, 2_097_152, 65_536,
        NONE, 8);
  }

  @Test
  void fioIologV3_timestampsInMicroseconds_becomeNanoseconds() {
    List<TraceRecord> rs = readAll(resource("iolog-v3.log"));
    assertEquals(6, rs.size());
    assertRecord(rs.get(0), 0, "/dev/nvme0n1", TraceOp.ADD, 0, 0, NONE, 2);
    assertRecord(rs.get(1), 2_000, "/dev/nvme0n1", TraceOp.OPEN, 0, 0, NONE, 3); // 2 µs
    assertRecord(rs.get(2), 15_000, "/dev/nvme0n1", TraceOp.READ, 4096, 4096, NONE, 4);
    assertRecord(rs.get(3), 250_000, "/dev/nvme0n1", TraceOp.WRITE, 12_288, 16_384, NONE, 5);
    // 249 < 250: a decreasing timestamp is kept as written (fio replays it with no delay)
    assertRecord(rs.get(4), 249_000, "/dev/nvme0n1", TraceOp.READ, 0, 512, NONE, 6);
    assertEquals(TraceOp.CLOSE, rs.get(5).op());
  }

  @Test
  void msr_filetimeAndResponseTime_convertedFrom100nsTicks() {
    List<TraceRecord> rs = readAll(resource("msr.csv"));
    assertEquals(3, rs.size());
    // (128166372003061629 - 116444736000000000) ticks = 11721636003061629 ticks of 100 ns
    // = 1172163600306162900 ns. 1172163600 s: 1970..2006 = 37 years, 9 leap days ->
    // 13514 days, + 31 (Jan) + 21 (Feb) = 13566 days * 86400 = 1172102400, + 17 h (61200)
    // = 2007-02-22 17:00:00 UTC, as formats.md says.
    assertEquals(1_172_102_400L + 61_200L, 1_172_163_600L);
    // ResponseTime 27150 ticks * 100 ns = 2715000 ns.
    assertRecord(rs.get(0), 1_172_163_600_306_162_900L, "hm_0", TraceOp.WRITE, 3_219_890_176L,
        4096, 2_715_000, 1);
    // 128166372016382155 - 116444736000000000 = 11721636016382155 ticks
    assertRecord(rs.get(1), 1_172_163_601_638_215_500L, "hm_0", TraceOp.READ, 2_901_716_992L,
        65_536, 131_148_800, 2);
    assertRecord(rs.get(2), 1_172_163_602_638_224_500L, "src1_2", TraceOp.WRITE,
        1_153_912_832L, 16_384, 309_000, 3); // "write" in lower case is accepted
    assertEquals(TraceFormat.TimeBase.UNIX_EPOCH, TraceFormat.MSR.timeBase());
  }

  @Test
  void spc_lbaIn512ByteBlocks_blanksAndTrailingFieldsAllowed() {
    List<TraceRecord> rs = readAll(resource("spc.spc"));
    assertEquals(2, rs.size());
    // LBA 20941264 * 512 = 10721927168; 0.551706 s = 551706000 ns
    assertRecord(rs.get(0), 551_706_000, "0", TraceOp.WRITE, 10_721_927_168L, 8192, NONE, 1);
    // LBA 3436288 * 512 = 1759379456; lower-case r is a read
    assertRecord(rs.get(1), 554_041_000, "1", TraceOp.READ, 1_759_379_456L, 15_872, NONE, 2);
  }

  @Test
  void alibaba_microsecondEpoch_headerSkipped() {
    List<TraceRecord> rs = readAll(resource("alibaba.csv"));
    assertEquals(2, rs.size());
    // 1577808000000626 µs * 1000 = 1577808000000626000 ns
    assertRecord(rs.get(0), 1_577_808_000_000_626_000L, "3", TraceOp.WRITE, 8_589_934_592L,
        4096, NONE, 2);
    assertRecord(rs.get(1), 1_577_808_000_001_000_000L, "17", TraceOp.READ, 0, 65_536, NONE, 3);
  }

  @Test
  void tencent_sectorsAndSeconds_unsortedSecondsKeptInFileOrder() {
    List<TraceRecord> rs = readAll(resource("tencent.csv"));
    assertEquals(3, rs.size());
    // offset 105352008 * 512 = 53940228096; size 16 * 512 = 8192; 1538323199 s in ns
    assertRecord(rs.get(0), 1_538_323_199_000_000_000L, "1283", TraceOp.WRITE,
        53_940_228_096L, 8192, NONE, 1);
    assertRecord(rs.get(1), 1_538_323_199_000_000_000L, "1283", TraceOp.READ, 4_198_400, 4096,
        NONE, 2); // 8200 * 512 = 4198400
    assertEquals(1_538_323_198_000_000_000L, rs.get(2).timeNs()); // earlier second, kept
    assertEquals(512, rs.get(2).lengthBytes());
  }

  @Test
  void systor_decimalSecondsExact_emptyResponseHasNoLatency() {
    List<TraceRecord> rs = readAll(resource("systor.csv"));
    assertEquals(2, rs.size());
    // 1487894400.042654001 s = 1487894400042654001 ns exactly; 0.000427 s = 427000 ns
    assertRecord(rs.get(0), 1_487_894_400_042_654_001L, "2", TraceOp.WRITE, 3_526_524_928L,
        4096, 427_000, 2);
    assertRecord(rs.get(1), 1_487_894_400_040_001_000L, "0", TraceOp.READ, 1_073_741_824L,
        65_536, NONE, 3);
  }

  @Test
  void disksim_millisecondsByDefault_nanosecondsWhenAsked() {
    List<TraceRecord> rs = readAll(resource("disksim.trace"));
    // 12.5 ms = 12500000 ns; blkno 2048 * 512 = 1048576; bcount 16 * 512 = 8192; flags 0 write
    assertRecord(rs.get(0), 0, "0", TraceOp.READ, 524_288, 4096, NONE, 1);
    assertRecord(rs.get(1), 12_500_000, "0", TraceOp.WRITE, 1_048_576, 8192, NONE, 2);
    List<TraceRecord> ns = readAll(resource("disksim.trace"), TraceFormat.DISKSIM,
        TraceOptions.defaults().withDisksimTimeUnitNs(1));
    assertEquals(12, ns.get(1).timeNs()); // 12.5 ns truncated to whole ns
  }

  @Test
  void reader_afterEnd_keepsReturningNull() {
    try (TraceReader r = TraceFormat.open(resource("spc.spc"), null)) {
      r.next();
      r.next();
      assertNull(r.next());
      assertNull(r.next());
      assertEquals(TraceFormat.SPC, r.format());
    }
  }
}
