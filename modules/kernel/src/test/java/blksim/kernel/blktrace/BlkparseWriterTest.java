package blksim.kernel.blktrace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.block.Bio;
import blksim.kernel.block.DriverCpu;
import blksim.kernel.block.ReqOp;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binary layout against blktrace_api.h and the text against blkparse's default format
 * ({@code blkparse_fmt.c process_default()}), checked on lines written out by hand.
 */
class BlkparseWriterTest {
  @TempDir Path dir;

  /** A CPU whose clock the test sets; no task is current, so the pid is 0 (idle). */
  private static final class Cpu implements DriverCpu {
    final int id;
    long now;

    Cpu(int id) {
      this.id = id;
    }

    @Override
    public int cpuId() {
      return id;
    }

    @Override
    public long now() {
      return now;
    }

    @Override
    public void interrupt(long costNs, Runnable handler) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void callAfter(long delayNs, Runnable callback) {
      throw new UnsupportedOperationException();
    }
  }

  private BlkTrace traceEveryKind() {
    BlkTrace t = new BlkTrace("sdb", BlkTrace.mkdev(8, 16), dir, 2);
    Cpu c0 = new Cpu(0);
    Cpu c1 = new Cpu(1);
    c0.now = 1000;
    t.plug(c0);
    t.queue(c0, new Bio(ReqOp.WRITE, 2048, 4096, Bio.REQ_SYNC));
    c0.now = 1500;
    t.merge(c0, new Bio(ReqOp.WRITE, 2056, 4096, Bio.REQ_SYNC), true);
    c0.now = 2000;
    t.unplug(c0, 1, true);
    t.unplug(c0, 3, false);
    c1.now = 2500;
    t.queue(c1, new Bio(ReqOp.READ, 100, 512, 0));
    t.merge(c1, new Bio(ReqOp.READ, 99, 512, 0), false);
    c1.now = 3000;
    t.split(c1, new Bio(ReqOp.WRITE, 0, 8192, 0), 16);
    t.remap(c1, new Bio(ReqOp.READ, 4096, 4096, 0), BlkTrace.mkdev(253, 0), 8);
    Bio refused = new Bio(ReqOp.READ, 7, 512, 0);
    t.queue(c1, refused);
    t.retry(c1, refused);
    t.queue(c1, refused); // the retry of a traced submission: not traced again
    c1.now = 4000;
    t.bioComplete(c1, new Bio(ReqOp.READ, 4096, 4096, 0), -11);
    t.queue(c1, new Bio(ReqOp.FLUSH, 0, 0, Bio.REQ_PREFLUSH));
    t.close(0);
    t.close(1);
    return t;
  }

  @Test
  void theText_isBlkparsesDefaultLayout_fieldByField() throws IOException {
    BlkTrace t = traceEveryKind();
    StringWriter out = new StringWriter();
    long lines = BlkparseWriter.write(List.of(t.file(0), t.file(1)), out, "sdb", false);
    // Written by hand from "%3d,%-3d %2d %8d %5d.%09lu %5u %2s %3s " and each action's tail.
    String expected = String.join("\n",
        "  8,16   0        1     0.000000000     0  P   N [swapper/0]",
        "  8,16   0        2     0.000000000     0  Q  WS 2048 + 8 [swapper/0]",
        "  8,16   0        3     0.000000500     0  M  WS 2056 + 8 [swapper/0]",
        "  8,16   0        4     0.000001000     0  U   N [swapper/0] 1",
        "  8,16   0        5     0.000001000     0 UT   N [swapper/0] 3",
        "  8,16   1        1     0.000001500     0  Q   R 100 + 1 [swapper/1]",
        "  8,16   1        2     0.000001500     0  F   R 99 + 1 [swapper/1]",
        "  8,16   1        3     0.000002000     0  X   W 0 / 16 [swapper/1]",
        "  8,16   1        4     0.000002000     0  A   R 4096 + 8 <- (253,0) 8",
        "  8,16   1        5     0.000002000     0  Q   R 7 + 1 [swapper/1]",
        "  8,16   1        6     0.000003000     0  C   R 4096 + 8 [65525]",
        "  8,16   1        7     0.000003000     0  Q  FN [swapper/1]", "");
    assertEquals(expected, out.toString());
    assertEquals(12, lines);
  }

  @Test
  void theSummary_isShowDeviceAndCpuStats() throws IOException {
    BlkTrace t = traceEveryKind();
    StringWriter out = new StringWriter();
    BlkparseWriter.write(List.of(t.file(0), t.file(1)), out, "sdb");
    String text = out.toString();
    String summary = text.substring(text.indexOf("CPU0 (sdb):"));
    // By hand from blkparse.c dump_io_stats() ("%'8Lu" counts, KiB with size_cnv()'s K): CPU 0
    // queued and merged one 4 KiB write and unplugged twice; CPU 1 queued two 512-byte reads and
    // an empty flush (a read to blkparse), front-merged one, completed one 4 KiB read.
    String expected = String.join("\n",
        "CPU0 (sdb):",
        " Reads Queued:           0,        0KiB\t Writes Queued:           1,        4KiB",
        " Read Dispatches:        0,        0KiB\t Write Dispatches:        0,        0KiB",
        " Reads Requeued:         0\t\t Writes Requeued:         0",
        " Reads Completed:        0,        0KiB\t Writes Completed:        0,        0KiB",
        " Read Merges:            0,        0KiB\t Write Merges:            1,        4KiB",
        " Read depth:             0        \t Write depth:             0",
        " IO unplugs:             1        \t Timer unplugs:           1",
        "CPU1 (sdb):",
        " Reads Queued:           3,        0KiB\t Writes Queued:           0,        0KiB",
        " Read Dispatches:        0,        0KiB\t Write Dispatches:        0,        0KiB",
        " Reads Requeued:         0\t\t Writes Requeued:         0",
        " Reads Completed:        1,        4KiB\t Writes Completed:        0,        0KiB",
        " Read Merges:            1,        0KiB\t Write Merges:            0,        0KiB",
        " Read depth:             0        \t Write depth:             0",
        " IO unplugs:             0        \t Timer unplugs:           0",
        "",
        "Total (sdb):",
        " Reads Queued:           3,        0KiB\t Writes Queued:           1,        4KiB",
        " Read Dispatches:        0,        0KiB\t Write Dispatches:        0,        0KiB",
        " Reads Requeued:         0\t\t Writes Requeued:         0",
        " Reads Completed:        1,        4KiB\t Writes Completed:        0,        0KiB",
        " Read Merges:            1,        0KiB\t Write Merges:            1,        4KiB",
        " IO unplugs:             1        \t Timer unplugs:           1",
        "",
        "Throughput (R/W): 0KiB/s / 0KiB/s",
        "Events (sdb): 12 entries",
        "Skips: 0 forward (0 -   0.0%)", "");
    assertEquals(expected, summary);
    assertTrue(text.contains("  8,16   1        7     0.000003000     0  Q  FN [swapper/1]\n"
        + "CPU0 (sdb):\n"), "the summary follows the last event line");
  }

  @Test
  void sizeCnv_groupsThousands_andScalesPastAMillion() {
    assertEquals("   1,234", BlkparseWriter.sizeCnv(1234, false));
    assertEquals("   2,025M", BlkparseWriter.sizeCnv(2_025_344, true));
    assertEquals("1,000,000", BlkparseWriter.sizeCnv(1_000_000, false));
  }

  @Test
  void theBinary_isStructBlkIoTrace_withAProcessNoteBeforeAPidsFirstEvent() throws IOException {
    BlkTrace t = traceEveryKind();
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(t.file(0))).order(ByteOrder.LITTLE_ENDIAN);
    // The note: BLK_TN_PROCESS | BLK_TC_ACT(BLK_TC_NOTIFY), sequence 0, the 16-byte comm.
    assertEquals(0x65617407, b.getInt(0), "BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION");
    assertEquals(0, b.getInt(4));
    assertEquals(1000L, b.getLong(8));
    assertEquals(0x0400_0000, b.getInt(28));
    assertEquals(16, b.getShort(46));
    assertEquals("swapper/0",
        new String(b.array(), 48, 9, java.nio.charset.StandardCharsets.UTF_8));
    // P: __BLK_TA_PLUG | BLK_TC_ACT(BLK_TC_QUEUE), no payload.
    int p = 48 + 16;
    assertEquals(1, b.getInt(p + 4), "sequence");
    assertEquals(9 | 0x10 << 16, b.getInt(p + 28));
    assertEquals(0, b.getShort(p + 46));
    // Q of a sync write: QUEUE | (QUEUE | WRITE | SYNC) << 16, sector 2048, 4096 bytes.
    int q = p + 48;
    assertEquals(2048L, b.getLong(q + 16));
    assertEquals(4096, b.getInt(q + 24));
    assertEquals(1 | (0x10 | 0x2 | 0x8) << 16, b.getInt(q + 28));
    assertEquals(BlkTrace.mkdev(8, 16), b.getInt(q + 36));
    assertEquals(8 << 20 | 16, b.getInt(q + 36), "dev_t with 20 minor bits");
    assertEquals(0, b.getInt(q + 40), "cpu");
    // U: __BLK_TA_UNPLUG_IO with the depth as a big-endian u64 payload.
    int u = q + 48 + 48;
    assertEquals(10 | 0x10 << 16, b.getInt(u + 28));
    assertEquals(8, b.getShort(u + 46));
    assertEquals(1L, ByteBuffer.wrap(b.array(), u + 48, 8).order(ByteOrder.BIG_ENDIAN)
        .getLong());
    ByteBuffer c1 = ByteBuffer.wrap(Files.readAllBytes(t.file(1)))
        .order(ByteOrder.LITTLE_ENDIAN);
    // cpu 1's A event: struct blk_io_trace_remap, big-endian: from, to, sector_from.
    int a = 48 + 16 + 3 * 48 + 8; // note, Q, F, X (+ its 8-byte payload)
    assertEquals(15 | (0x10 | 0x1) << 16, c1.getInt(a + 28), "REMAP | QUEUE | READ");
    ByteBuffer r = ByteBuffer.wrap(c1.array(), a + 48, 16).order(ByteOrder.BIG_ENDIAN);
    assertEquals(BlkTrace.mkdev(253, 0), r.getInt());
    assertEquals(BlkTrace.mkdev(8, 16), r.getInt());
    assertEquals(8L, r.getLong());
  }
}
