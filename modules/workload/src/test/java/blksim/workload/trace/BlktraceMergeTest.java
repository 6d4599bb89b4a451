package blksim.workload.trace;

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

/** fio's merge_blktrace_file, scalars and iters ({@code blktrace.c merge_blktrace_iologs()}). */
class BlktraceMergeTest {
  @TempDir Path dir;

  private static final int TC_READ = 1;
  private static final int TC_WRITE = 1 << 1;
  private static final int TC_QUEUE = 1 << 4;
  private static final int TC_COMPLETE = 1 << 7;
  private static final int TC_NOTIFY = 1 << 10;

  private static byte[] event(ByteOrder order, long timeNs, long sector, int action, byte[] pdu) {
    ByteBuffer b = ByteBuffer.allocate(48 + pdu.length).order(order);
    b.putInt(0x65617400 | 7).putInt(1).putLong(timeNs).putLong(sector).putInt(4096)
        .putInt(action).putInt(7).putInt((8 << 20) | 16).putInt(0).putShort((short) 0)
        .putShort((short) pdu.length).put(pdu);
    return b.array();
  }

  private static int q(int cat) {
    return 1 | ((TC_QUEUE | cat) << 16);
  }

  private Path file(String name, byte[]... events) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] e : events) {
      out.write(e);
    }
    Path p = dir.resolve(name);
    Files.write(p, out.toByteArray());
    return p;
  }

  /** (time, sector) of each record of a merged file, which has no payloads. */
  private static List<long[]> read(Path merged) throws IOException {
    byte[] all = Files.readAllBytes(merged);
    assertEquals(0, all.length % 48, "bare 48-byte records");
    ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
    List<long[]> out = new ArrayList<>();
    for (int off = 0; off < all.length; off += 48) {
      assertEquals(0, b.getShort(off + 46), "pdu_len is 0");
      assertEquals(0x65617407, b.getInt(off));
      out.add(new long[] {b.getLong(off + 8), b.getLong(off + 16)});
    }
    return out;
  }

  @Test
  void mergesByScaledTime_keepsQueueEventsOnly_stripsPayloads_inEitherByteOrder()
      throws IOException {
    byte[] none = new byte[0];
    Path a = file("a.bin",
        event(ByteOrder.LITTLE_ENDIAN, 0, 0, 0 | (TC_NOTIFY << 16), "fio\0".getBytes()),
        event(ByteOrder.LITTLE_ENDIAN, 100, 1, q(TC_READ), new byte[] {9, 9}),
        event(ByteOrder.LITTLE_ENDIAN, 300, 2, q(TC_WRITE), none),
        event(ByteOrder.LITTLE_ENDIAN, 350, 2, 8 | ((TC_COMPLETE | TC_WRITE) << 16), none));
    Path b = file("b.bin",
        event(ByteOrder.BIG_ENDIAN, 100, 11, q(TC_WRITE), none),
        event(ByteOrder.BIG_ENDIAN, 400, 12, q(TC_READ), none));
    Path out = dir.resolve("merged.bin");
    // a at 50 %: 50, 150; b at 100 %: 100, 400.
    long n = BlktraceMerge.merge(List.of(a, b), new int[] {50, 100}, new int[] {1, 1}, out);
    assertEquals(4, n);
    List<long[]> r = read(out);
    assertEquals(List.of("50/1", "100/11", "150/2", "400/12"),
        r.stream().map(x -> x[0] + "/" + x[1]).toList());
    assertEquals(TraceFormat.BLKTRACE, TraceFormat.detect(out));
  }

  @Test
  void iterations_repeatAFile_shiftedByItsLength() throws IOException {
    byte[] none = new byte[0];
    Path a = file("a.bin",
        event(ByteOrder.LITTLE_ENDIAN, 10, 1, q(TC_READ), none),
        event(ByteOrder.LITTLE_ENDIAN, 40, 2, q(TC_READ), none));
    Path b = file("b.bin", event(ByteOrder.LITTLE_ENDIAN, 60, 9, q(TC_WRITE), none));
    Path out = dir.resolve("m.bin");
    BlktraceMerge.merge(List.of(a, b), new int[] {100, 100}, new int[] {3, 1}, out);
    // a's length is the time of its last event, 40: iterations at +0, +40, +80.
    assertEquals(List.of("10/1", "40/2", "50/1", "60/9", "80/2", "90/1", "120/2"),
        read(out).stream().map(x -> x[0] + "/" + x[1]).toList());
  }

  @Test
  void aFileThatIsNotABlktrace_isRefused() throws IOException {
    Path txt = dir.resolve("x.log");
    Files.writeString(txt, "fio version 2 iolog\n/dev/sdb add\n");
    InputException e = assertThrows(InputException.class, () -> BlktraceMerge.merge(
        List.of(txt), new int[] {100}, new int[] {1}, dir.resolve("o.bin")));
    assertTrue(e.getMessage().contains("not a blktrace"), e.getMessage());
    assertTrue(!Files.exists(dir.resolve("o.bin")), "nothing half-written");
  }
}
