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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio's sync statistics: the fsync=N syncs in "issued rwts"' fourth field and JSON
 * {@code sync.total_ios}, and every sync (end_fsync's too) timed into the
 * "fsync/fdatasync/sync_file_range:" block between the latency buckets and the cpu line, and
 * into {@code sync.lat_ns}, as fio-3.36 prints them. They were missing: the JSON said 0.
 */
@Timeout(180)
class FioSyncStatsTest {
  @TempDir Path tmp;

  private Path scenario(String job) throws IOException {
    Files.writeString(tmp.resolve("j.fio"), job);
    Path p = tmp.resolve("s.conf");
    Files.writeString(p, "blksim {\n  seed = 1\n"
        + "  machine { sockets = 1, cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = ssd, name = sdb, size = 10G },"
        + " { type = null_blk, name = nullb0, size = 1G } ]\n"
        + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/t } ]\n"
        + "  fio.job-files = [\"j.fio\"]\n}\n");
    return p;
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "directory=/mnt/t\nioengine=psync", // files, synchronous
      "directory=/mnt/t\nioengine=libaio\niodepth=4", // files, asynchronous
      "filename=/dev/nullb0\nioengine=psync\ndirect=1"}) // the device
  @SuppressWarnings("unchecked")
  void fsyncN_isCountedAndTimed_endFsyncTimedOnly(String where) throws IOException {
    Path s = scenario("[w]\n" + where + "\nrw=write\nbs=4k\nsize=1m\nfsync=64\nend_fsync=1\n");
    MainTest.Result r = MainTest.cli("run", s.toString());
    assertEquals(0, r.code(), r.err());
    String out = r.out();
    Matcher m = Pattern.compile("issued rwts: total=0,256,0,(\\d+) ").matcher(out);
    assertTrue(m.find(), out);
    assertEquals(4, Long.parseLong(m.group(1)), "256 writes, a sync after every 64: " + out);
    int lat = out.indexOf("  lat (");
    int sync = out.indexOf("  fsync/fdatasync/sync_file_range:\n    sync (");
    int cpu = out.indexOf("  cpu          :");
    assertTrue(lat > 0 && lat < sync && sync < cpu, out);
    assertTrue(out.contains("    sync percentiles ("), out);

    MainTest.Result j = MainTest.cli("run", s.toString(), "--output-format=json");
    assertEquals(0, j.code(), j.err());
    Map<String, Object> doc = (Map<String, Object>) blksim.report.json.JsonReader.parse(j.out());
    Map<String, Object> syncJson = (Map<String, Object>)
        ((List<Map<String, Object>>) doc.get("jobs")).get(0).get("sync");
    assertEquals(4L, ((Number) syncJson.get("total_ios")).longValue(), syncJson.toString());
    Map<String, Object> latNs = (Map<String, Object>) syncJson.get("lat_ns");
    assertEquals(5L, ((Number) latNs.get("N")).longValue(), "4 fsyncs and end_fsync's: " + latNs);
    assertTrue(((Number) latNs.get("max")).longValue() >= ((Number) latNs.get("min")).longValue());
    assertTrue(latNs.containsKey("percentile"), latNs.toString());
  }
}
