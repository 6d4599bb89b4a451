package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.report.json.JsonReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./blksim run job.fio} with read_iolog: fio's report, the replay summary, the JSON. */
@Timeout(120)
class ReplayCliTest {
  @TempDir Path tmp;

  /** The project's sample replay job (scenarios/replay), its iolog next to it. */
  static Path sampleJob() {
    Path p = Path.of("../../scenarios/replay/replay-nullb.fio");
    assertTrue(Files.isRegularFile(p), "run from modules/cli: " + p.toAbsolutePath());
    return p;
  }

  @Test
  void aJobFileAlone_replaysTheSampleIolog_andSummarisesAfterFiosReport() {
    MainTest.Result r = MainTest.cli("run", sampleJob().toString(), "--host", "local");
    assertEquals(0, r.code(), r.err());
    String out = r.out();
    assertTrue(out.contains("issued rwts: total=133,67,0,0"), out);
    int report = out.indexOf("Disk stats (read/write):");
    int summary = out.indexOf("Replay (read_iolog):");
    assertTrue(report > 0 && summary > report, "the summary follows fio's report");
    assertTrue(out.contains("records: read=203, issued=200, skipped=0"), out);
    assertTrue(out.contains("device /dev/sdb: read=203, issued=200"), out);
    assertTrue(r.err().contains("/dev/nullb0 = { type = null_blk"), r.err());
  }

  @Test
  void jsonMode_putsTheReplayObjectInTheJsonOnly() throws IOException {
    Path log = tmp.resolve("t.log");
    Files.writeString(log, "fio version 2 iolog\n/dev/sdx add\n/dev/sdx read 0 4096\n"
        + "/dev/sdx write 1099511627776 4096\n/dev/sdx trim 0 4096\n");
    Path job = tmp.resolve("r.fio");
    Files.writeString(job, "[r]\nread_iolog=" + log + "\nreplay_redirect=/dev/nullb0\n"
        + "ioengine=libaio\ndirect=1\niodepth=4\n");
    MainTest.Result r = MainTest.cli("run", job.toString(), "--host", "local",
        "--output-format=json");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().trim().startsWith("{") && !r.out().contains("Replay (read_iolog)"),
        "stdout holds only the JSON document");
    @SuppressWarnings("unchecked")
    Map<String, Object> json = (Map<String, Object>) JsonReader.parse(r.out());
    @SuppressWarnings("unchecked")
    Map<String, Object> replay = (Map<String, Object>) json.get("replay");
    assertEquals(4L, ((Number) replay.get("records_read")).longValue(), replay.toString());
    assertEquals(2L, ((Number) replay.get("issued")).longValue());
    assertEquals(1L, ((Number) replay.get("wrapped")).longValue(), "1 TiB is beyond nullb0");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> jobs = (List<Map<String, Object>>) replay.get("jobs");
    assertEquals(1L, ((Number) jobs.get(0).get("unsupported")).longValue(), "the trim");
    assertTrue(((Map<?, ?>) jobs.get(0).get("devices")).containsKey("/dev/sdx"));
    assertTrue(r.err().contains("were wrapped modulo its size"), r.err());
  }

  @Test
  void theSummary_namesEachUncountedRecordAsTheTotalsDo_andATooLongRecordIsSaidOnce()
      throws IOException {
    Path log = tmp.resolve("long.log");
    // null_blk's default 250 GiB: two 300 GiB records are longer than the whole device.
    Files.writeString(log, "fio version 2 iolog\n/dev/sdx add\n/dev/sdx read 0 4096\n"
        + "/dev/sdx read 0 322122547200\n/dev/sdx write 0 322122547200\n"
        + "/dev/sdx write 8192 4096\n");
    Path job = tmp.resolve("l.fio");
    Files.writeString(job, "[l]\nread_iolog=" + log + "\nreplay_redirect=/dev/nullb0\n"
        + "direct=1\nreplay_skip=write\n");
    MainTest.Result r = MainTest.cli("run", job.toString(), "--host", "local");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("skipped=2, outside window=0, unsupported=1"), r.out());
    assertTrue(r.out().contains("device /dev/sdx: read=5, issued=1, skipped=2, outside window=0,"
        + " unsupported=1, wrapped=0"), r.out());
    assertEquals(1, r.err().split("longer than the whole device", -1).length - 1, r.err());
    assertTrue(r.err().contains(log + ":4: a 322122547200-byte record"), r.err());
    MainTest.Result j = MainTest.cli("run", job.toString(), "--host", "local",
        "--output-format=json");
    @SuppressWarnings("unchecked")
    Map<String, Object> replay = (Map<String, Object>)
        ((Map<String, Object>) JsonReader.parse(j.out())).get("replay");
    assertEquals(2L, ((Number) replay.get("skipped")).longValue(), replay.toString());
    assertEquals(1L, ((Number) replay.get("unsupported")).longValue(), replay.toString());
    assertEquals(3L, ((Number) replay.get("not_issued")).longValue(), replay.toString());
  }

  @Test
  void aBlkparseTrace_showsRecordedAndSimulatedLatencySideBySide() throws IOException {
    Path trace = tmp.resolve("sdb.txt");
    Files.writeString(trace, String.join("\n",
        "  8,16   0        1     0.000000000  4162  Q   W 2048 + 8 [fio]",
        "  8,16   0        2     0.000100000     0  C   W 2048 + 8 [0]",
        "  8,16   0        3     0.000500000  4162  Q   R 4096 + 8 [fio]",
        "  8,16   0        4     0.000700000     0  C   R 4096 + 8 [0]", ""));
    Path job = tmp.resolve("b.fio");
    Files.writeString(job, "[b]\nread_iolog=" + trace + "\nreplay_redirect=/dev/ram0\n"
        + "direct=1\n");
    MainTest.Result r = MainTest.cli("run", job.toString(), "--host", "local");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("(blkparse) on /dev/ram0"), r.out());
    assertTrue(r.out().contains("latency (usec), 2 I/Os with a recorded latency:"), r.out());
    assertTrue(r.out().matches("(?s).*mean\\s+150\\.\\d\\d\\s+\\d+\\.\\d\\d.*"), r.out());
    assertTrue(r.err().contains("blkparse arrival event Q"), r.err());
  }

  @Test
  void aTraceReplayedOntoTwoDevices_givesItsReaderNoticeOnce() {
    // One replay job per simulated device reads the same trace: one notice, not one per job.
    MainTest.Result r = MainTest.cli("run", "../../scenarios/replay/two-devices.conf", "--host",
        "local");
    assertEquals(0, r.code(), r.err());
    assertEquals(1, r.err().split("blkparse arrival event Q", -1).length - 1, r.err());
  }

  @Test
  void badReplayInput_exitsWith2NamingTheKey() throws IOException {
    Path notATrace = tmp.resolve("n.txt");
    Files.writeString(notATrace, "just words\n");
    Path job = tmp.resolve("bad.fio");
    Files.writeString(job, "[r]\nread_iolog=" + notATrace + "\nreplay_redirect=/dev/nullb0\n");
    MainTest.Result r = MainTest.cli("run", job.toString(), "--host", "local");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("bad.fio:2: read_iolog:") && r.err().contains("not a trace"),
        r.err());
    assertFalse(r.err().contains("Exception"), r.err());
    Path bad = tmp.resolve("badrec.log");
    Files.writeString(bad, "fio version 2 iolog\n/dev/sdx read 0 4096\n/dev/sdx frob 0 1\n");
    Files.writeString(job, "[r]\nread_iolog=" + bad + "\nreplay_redirect=/dev/nullb0\n");
    r = MainTest.cli("run", job.toString(), "--host", "local");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("badrec.log:3") && r.err().contains("action"), r.err());
  }

  /** A blktrace binary of {@code n} 4 KiB queued reads, one every {@code gapNs}. */
  private Path blktrace(String name, int n, long gapNs, long firstSector) throws IOException {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(48 * n)
        .order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      b.putInt(0x65617407).putInt(i + 1).putLong(i * gapNs).putLong(firstSector + 8L * i)
          .putInt(4096).putInt(1 | ((1 | (1 << 4)) << 16)).putInt(1).putInt((8 << 20) | 16)
          .putInt(0).putShort((short) 0).putShort((short) 0);
    }
    Path p = tmp.resolve(name);
    Files.write(p, b.array());
    return p;
  }

  @Test
  void mergeBlktraceFile_mergesTheInputs_writesTheMergedFile_andReplaysIt() throws IOException {
    Path a = blktrace("a.bin", 50, 100_000, 0);
    Path b = blktrace("b.bin", 30, 100_000, 1 << 20);
    Path merged = tmp.resolve("merged.bin");
    Path job = tmp.resolve("m.fio");
    Files.writeString(job, "[m]\nread_iolog=" + a + ":" + b + "\nmerge_blktrace_file=" + merged
        + "\nmerge_blktrace_iters=2:1\nmerge_blktrace_scalars=100:50\n"
        + "replay_redirect=/dev/nullb0\nioengine=libaio\ndirect=1\niodepth=4\n");
    MainTest.Result r = MainTest.cli("run", job.toString(), "--host", "local");
    assertEquals(0, r.code(), r.err());
    assertEquals((50 * 2 + 30) * 48L, Files.size(merged), "every queue event, bare");
    assertTrue(r.out().contains("issued rwts: total=130,0,0,0"), r.out());
    Files.writeString(job, "[m]\nread_iolog=" + a + ":" + b + "\nmerge_blktrace_file=" + merged
        + "\nmerge_blktrace_iters=2\nreplay_redirect=/dev/nullb0\n");
    MainTest.Result bad = MainTest.cli("run", job.toString(), "--host", "local");
    assertEquals(2, bad.code(), bad.err());
    assertTrue(bad.err().contains("merge_blktrace_iters(1) != nr_logs(2)"), bad.err());
  }

  @Test
  void skipMalformed_skipsAndCountsBadLines_withoutItTheFirstStopsTheRun() throws IOException {
    Path log = tmp.resolve("bad.log");
    Files.writeString(log, "fio version 2 iolog\n/dev/sdx add\n/dev/sdx read 0 4096\n"
        + "/dev/sdx read abc 4096\n/dev/sdx write 8192 4096\n/dev/sdx read 4096\n"
        + "/dev/sdx read 12288 4096\n");
    Path job = tmp.resolve("s.fio");
    Files.writeString(job, "[s]\nread_iolog=" + log + "\nreplay_redirect=/dev/nullb0\n"
        + "replay_no_stall=1\n");
    MainTest.Result stop = MainTest.cli("run", job.toString(), "--host", "local");
    assertEquals(2, stop.code(), stop.err());
    assertTrue(stop.err().contains("bad.log:4"), stop.err());
    Files.writeString(job, "[s]\nread_iolog=" + log + "\nreplay_redirect=/dev/nullb0\n"
        + "replay_no_stall=1\nreplay_skip_malformed=1\n");
    MainTest.Result skip = MainTest.cli("run", job.toString(), "--host", "local");
    assertEquals(0, skip.code(), skip.err());
    assertTrue(skip.out().contains("issued rwts: total=2,1,0,0"), skip.out());
    assertTrue(skip.err().contains("2 malformed record(s) skipped"), skip.err());
    assertTrue(skip.err().contains("bad.log:4"), "the first are named: " + skip.err());
  }
}
