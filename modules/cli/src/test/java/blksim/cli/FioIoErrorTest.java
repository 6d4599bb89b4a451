package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job that ends with an I/O error prints what fio prints: its block (with the io_us issued
 * before and including the failed one), the header's {@code td_verror()} text, the
 * {@code "fio: io_u error on file ..."} line on stderr and the JSON {@code error}.
 */
@Timeout(180)
class FioIoErrorTest {
  @TempDir Path tmp;

  private Path scenario(String devices, String jobs) throws IOException {
    Files.writeString(tmp.resolve("j.fio"), jobs);
    Path p = tmp.resolve("s.conf");
    Files.writeString(p, "blksim {\n  seed = 1\n"
        + "  machine { sockets = 1, cores-per-llc = 4, threads-per-core = 1 }\n"
        + "  devices = [ " + devices + " ]\n  fio.job-files = [\"j.fio\"]\n}\n");
    return p;
  }

  private static long issued(String text, int ddir) {
    Matcher m = Pattern.compile("issued rwts: total=(\\d+),(\\d+),").matcher(text);
    assertTrue(m.find(), text);
    return Long.parseLong(m.group(1 + ddir));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> json(Path s) {
    MainTest.Result r = MainTest.cli("run", s.toString(), "--output-format=json");
    assertEquals(0, r.code(), r.err());
    Map<String, Object> doc = (Map<String, Object>) blksim.report.json.JsonReader.parse(r.out());
    return ((List<Map<String, Object>>) doc.get("jobs")).get(0);
  }

  @Test
  void nowaitWithoutDeviceSupport_failsTheFirstIo_andStillPrintsTheJobBlock() throws IOException {
    Path s = scenario("{ type = brd, name = ram0, size = 1G, nowait = false }",
        "[nw]\nfilename=/dev/ram0\ndirect=1\nrw=randread\nsize=4m\nioengine=io_uring\n"
        + "iodepth=1\nnowait=1\n");
    MainTest.Result r = MainTest.cli("run", s.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("nw: (groupid=0, jobs=1): err=95 (file:io_u.c:1896, func=io_u error,"
        + " error=Operation not supported): pid="), r.out());
    assertEquals(1, issued(r.out(), 0), "the failed io_u is counted as issued");
    assertTrue(r.err().matches("(?s).*fio: io_u error on file /dev/ram0: Operation not supported:"
        + " read offset=\\d+, buflen=4096\n.*"), r.err());
    Map<String, Object> j = json(s);
    assertEquals(95, ((Number) j.get("error")).intValue());
    assertEquals(1, ((Number) ((Map<?, ?>) j.get("read")).get("total_ios")).intValue());
    assertEquals(0, ((Number) ((Map<?, ?>) j.get("read")).get("io_bytes")).intValue());
  }

  @Test
  void nowaitWithNoFreeTag_endsWithEagain_countingWhatCompletedBefore() throws IOException {
    Path s = scenario("{ type = null_blk, name = nullb0, size = 1G, irqmode = timer,"
        + " completion-nsec = 10us, submit-queues = 1, hw-queue-depth = 4 }",
        "[tags]\nfilename=/dev/nullb0\ndirect=1\nrw=randread\nsize=4m\nioengine=io_uring\n"
        + "iodepth=16\nnowait=1\n");
    MainTest.Result r = MainTest.cli("run", s.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("tags: (groupid=0, jobs=1): err=11 (file:io_u.c:1896,"
        + " func=io_u error, error=Resource temporarily unavailable): pid="), r.out());
    assertTrue(issued(r.out(), 0) >= 1 && issued(r.out(), 0) < 1024, r.out());
    assertTrue(r.err().matches("(?s).*fio: io_u error on file /dev/nullb0: Resource temporarily"
        + " unavailable: read offset=\\d+, buflen=4096\n.*"), r.err());
    assertEquals(1, r.err().split("fio: io_u error", -1).length - 1, "one line: the first error");
  }

  @Test
  void zonedDiskEio_printsTheWriteThatFailed() throws IOException {
    Path s = scenario("{ type = zoned-disk, name = sdb, size = 512M, zone-size = 4M,"
        + " conventional-zones = 4, max-open-zones = 8, surfaces = 1 }",
        "[w]\nfilename=/dev/sdb\ndirect=1\nrw=randwrite\nbs=64k\nioengine=psync\noffset=16M\n"
        + "time_based\nruntime=100ms\n");
    MainTest.Result r = MainTest.cli("run", s.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("w: (groupid=0, jobs=1): err= 5 (file:io_u.c:1896, func=io_u error,"
        + " error=Input/output error): pid="), r.out());
    assertTrue(issued(r.out(), 1) >= 1, r.out());
    assertTrue(r.err().matches("(?s).*fio: io_u error on file /dev/sdb: Input/output error:"
        + " write offset=\\d+, buflen=65536\n.*"), r.err());
    assertEquals(5, ((Number) json(s).get("error")).intValue());
    // td_io_queue(): the sync engine's failed first write is in the depth, submit and
    // complete maps too, and fio hints at zonemode=zbd.
    assertTrue(r.out().contains("IO depths    : 1=100.0%,"), r.out());
    assertTrue(r.out().contains("submit    : 0=0.0%, 4=100.0%,"), r.out());
    assertTrue(r.err().contains("fio: first I/O failed. If /dev/sdb is a zoned block device,"
        + " consider --zonemode=zbd\n"), r.err());
  }
}
