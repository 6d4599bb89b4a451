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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Binary blktrace per-CPU files, written here byte by byte from {@code struct blk_io_trace}
 * ({@code blktrace_api.h}): magic|version u32, sequence u32, time u64, sector u64, bytes u32,
 * action u32, pid u32, device u32, cpu u32, error u16, pdu_len u16, then the pdu.
 */
class BlktraceTraceReaderTest {
  // Categories (BLK_TC_*) and actions (__BLK_TA_*), from blktrace_api.h.
  private static final int TC_READ = 1;
  private static final int TC_WRITE = 1 << 1;
  private static final int TC_FLUSH = 1 << 2;
  private static final int TC_QUEUE = 1 << 4;
  private static final int TC_ISSUE = 1 << 6;
  private static final int TC_COMPLETE = 1 << 7;
  private static final int TC_NOTIFY = 1 << 10;
  private static final int TC_DISCARD = 1 << 13;
  private static final int Q = 1;
  private static final int D = 7;
  private static final int C = 8;
  private static final int DEV_8_16 = (8 << 20) | 16; // dev_t with a 20-bit minor

  /** One event in {@code order}. */
  private static byte[] event(ByteOrder order, int seq, long timeNs, long sector, int bytes,
      int action, int cpu, byte[] pdu) {
    ByteBuffer b = ByteBuffer.allocate(48 + pdu.length).order(order);
    b.putInt(0x65617400 | 7).putInt(seq).putLong(timeNs).putLong(sector).putInt(bytes)
        .putInt(action).putInt(4242).putInt(DEV_8_16).putInt(cpu).putShort((short) 0)
        .putShort((short) pdu.length).put(pdu);
    return b.array();
  }

  private static int act(int ta, int categories) {
    return ta | (categories << 16);
  }

  private static void write(Path p, byte[]... events) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] e : events) {
      out.write(e);
    }
    Files.write(p, out.toByteArray());
  }

  /** Two CPUs: the write queued on CPU 0 completes on CPU 1 and vice versa. */
  private static Path twoCpus(Path dir, ByteOrder order) throws IOException {
    byte[] none = new byte[0];
    Path cpu0 = dir.resolve("sdb.blktrace.0");
    write(cpu0,
        // BLK_TN_PROCESS notify with the command name as pdu: skipped, pdu skipped
        event(order, 1, 1_000_500, 0, 0, act(0, TC_NOTIFY), 0,
            "fio\0".getBytes(StandardCharsets.US_ASCII)),
        event(order, 2, 1_001_000, 100, 4096, act(Q, TC_QUEUE | TC_WRITE), 0, none),
        event(order, 3, 1_003_000, 100, 4096, act(D, TC_ISSUE | TC_WRITE), 0, none),
        event(order, 4, 1_006_000, 500, 8192, act(C, TC_COMPLETE | TC_READ), 0, none),
        event(order, 5, 1_020_000, 0, 0, act(Q, TC_QUEUE | TC_WRITE | TC_FLUSH), 0, none));
    write(dir.resolve("sdb.blktrace.1"),
        event(order, 1, 1_000_000, 7, 512, act(D, TC_ISSUE | TC_READ), 1, none), // no Q
        event(order, 2, 1_002_000, 500, 8192, act(Q, TC_QUEUE | TC_READ), 1, none),
        event(order, 3, 1_004_000, 500, 8192, act(D, TC_ISSUE | TC_READ), 1, none),
        event(order, 4, 1_009_000, 100, 4096, act(C, TC_COMPLETE | TC_WRITE), 1, none),
        event(order, 5, 1_030_000, 64, 1 << 20, act(Q, TC_QUEUE | TC_DISCARD), 1,
            new byte[] {1, 2, 3}),
        event(order, 6, 1_031_000, 0, 0, act(C, TC_COMPLETE | TC_WRITE | TC_FLUSH), 1, none));
    Files.write(dir.resolve("sdb.blktrace.2"), new byte[0]); // an idle CPU: an empty file
    return cpu0;
  }

  @ParameterizedTest
  @ValueSource(strings = {"LITTLE_ENDIAN", "BIG_ENDIAN"})
  void perCpuFiles_mergedByTime_inEitherByteOrder(String orderName, @TempDir Path dir)
      throws IOException {
    ByteOrder order = orderName.equals("BIG_ENDIAN") ? ByteOrder.BIG_ENDIAN
        : ByteOrder.LITTLE_ENDIAN;
    Path cpu0 = twoCpus(dir, order);
    assertEquals(TraceFormat.BLKTRACE, TraceFormat.detect(cpu0));
    assertEquals(TraceFormat.BLKTRACE, TraceFormat.detect(dir.resolve("sdb.blktrace.2")));
    List<String> notices = new ArrayList<>();
    List<TraceRecord> rs = readAll(dir.resolve("sdb.blktrace.1"), null,
        TraceOptions.defaults().withNotices(notices::add));
    assertTrue(notices.get(0).contains("arrival event Q (the trace has Q events), 3 files"),
        notices.toString());
    // Genesis = the earliest event, 1,000,000 ns (CPU 1's D). Q events only, by time:
    assertEquals(List.of(
        // CPU0 Q W at 1,001,000 -> 1,000; sector 100 * 512 = 51200; its C on CPU1 at 1,009,000
        TraceRecord.block(1_000, "8,16", TraceOp.WRITE, 51_200, 4096, 8_000, 2),
        // CPU1 Q R at 1,002,000 -> 2,000; sector 500 * 512 = 256000; C on CPU0 at 1,006,000
        TraceRecord.block(2_000, "8,16", TraceOp.READ, 256_000, 8192, 4_000, 2),
        // CPU0 empty preflush write -> FLUSH at 20,000; its C (bytes 0) on CPU1 at 1,031,000
        TraceRecord.block(20_000, "8,16", TraceOp.FLUSH, 0, 0, 11_000, 5),
        // CPU1 discard of 1 MiB at sector 64 (pdu of 3 bytes skipped): never completed
        TraceRecord.block(30_000, "8,16", TraceOp.TRIM, 32_768, 1 << 20,
            TraceRecord.NO_LATENCY, 5)), rs);
  }

  @Test
  void arrivalD_readsIssuesWithTheirCompletions(@TempDir Path dir) throws IOException {
    Path cpu0 = twoCpus(dir, ByteOrder.LITTLE_ENDIAN);
    List<TraceRecord> rs = readAll(cpu0, TraceFormat.BLKTRACE,
        TraceOptions.defaults().withArrival(BlkArrival.D));
    assertEquals(List.of(
        TraceRecord.block(0, "8,16", TraceOp.READ, 3_584, 512, TraceRecord.NO_LATENCY, 1),
        TraceRecord.block(3_000, "8,16", TraceOp.WRITE, 51_200, 4096, 6_000, 3), // 1009-1003 µs
        TraceRecord.block(4_000, "8,16", TraceOp.READ, 256_000, 8192, 2_000, 3)), rs);
  }

  @Test
  void gzippedPerCpuFile_isReadByItsMagic(@TempDir Path dir) throws IOException {
    Path cpu0 = twoCpus(dir, ByteOrder.BIG_ENDIAN);
    Path gz = Files.createDirectory(dir.resolve("gz")).resolve("merged.bin");
    TraceTestFiles.gzip(cpu0, gz);
    assertEquals(TraceFormat.BLKTRACE, TraceFormat.detect(gz));
    List<TraceRecord> rs = readAll(gz); // CPU 0 alone: the write has no C here
    assertEquals(2, rs.size());
    assertEquals(TraceOp.WRITE, rs.get(0).op());
    // Genesis is CPU 0's earliest event, the notify at 1,000,500 (blkparse find_genesis() takes
    // every event): the Q at 1,001,000 is 500 ns later.
    assertEquals(500, rs.get(0).timeNs());
  }

  @Test
  void wrongVersion_isRejectedNamingEventAndField(@TempDir Path dir) throws IOException {
    Path p = dir.resolve("x.blktrace.0");
    byte[] e = event(ByteOrder.LITTLE_ENDIAN, 1, 5, 0, 512, act(Q, TC_QUEUE | TC_READ), 0,
        new byte[0]);
    e[0] = 6; // magic low byte = version 6
    write(p, e);
    InputException ex = assertThrows(InputException.class,
        () -> readAll(p, TraceFormat.BLKTRACE, TraceOptions.defaults().withArrival(BlkArrival.Q)));
    assertEquals(p + ": version of event 1 (byte offset 0) must be 7 (the blk_io_trace "
        + "layout read here), was 6", ex.getMessage());
    assertEquals("version", ex.key());
  }

  @Test
  void truncatedEvent_isRejected(@TempDir Path dir) throws IOException {
    Path p = dir.resolve("x.blktrace.0");
    byte[] e = event(ByteOrder.LITTLE_ENDIAN, 1, 5, 0, 512, act(Q, TC_QUEUE | TC_READ), 0,
        new byte[0]);
    write(p, e, java.util.Arrays.copyOf(e, 20));
    InputException ex = assertThrows(InputException.class, () -> readAll(p));
    assertTrue(ex.getMessage().contains("event 2 (byte offset 48): is truncated: 20 of 48 bytes"),
        ex.getMessage());
  }
}
