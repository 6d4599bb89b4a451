package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio's {@code disable_lat}, {@code disable_clat} and {@code gtod_reduce}:
 * {@code account_io_completion()} adds no lat (or clat) sample, so the text report has no such
 * line ({@code calc_lat()} finds no samples), no clat percentiles, and the JSON object has
 * {@code N} 0 and no {@code percentile}; {@code gtod_reduce=1} does all of it and
 * {@code disable_slat} too, leaving bandwidth and IOPS.
 */
@Timeout(120)
class DisableLatOutputTest {
  @TempDir Path dir;

  MainTest.Result run(String options, String... extra) throws IOException {
    Path job = dir.resolve("j.fio");
    Files.writeString(job, "[j]\nioengine=libaio\ndirect=1\nrw=randread\nbs=4k\n"
        + "iodepth=4\nfilename=/dev/nullb0\ntime_based=1\nruntime=2ms\n" + options);
    String[] args = new String[2 + extra.length];
    args[0] = "run";
    args[1] = job.toString();
    System.arraycopy(extra, 0, args, 2, extra.length);
    MainTest.Result r = MainTest.cli(args);
    assertEquals(0, r.code(), r.err());
    return r;
  }

  /** The JSON object {@code name} of the read direction, up to its closing brace. */
  static String object(String json, String name) {
    int at = json.indexOf("\"" + name + "\"");
    assertTrue(at > 0, json);
    int depth = 0;
    for (int i = json.indexOf('{', at); i < json.length(); i++) {
      char c = json.charAt(i);
      depth += c == '{' ? 1 : c == '}' ? -1 : 0;
      if (depth == 0) {
        return json.substring(at, i + 1);
      }
    }
    throw new AssertionError(json);
  }

  static boolean noSamples(String object) {
    return object.contains("\"N\" : 0") || object.contains("\"N\":0");
  }

  @Test
  void disableLat_dropsTheLatLine_keepsClat() throws IOException {
    String on = run("").out();
    assertTrue(on.contains("     lat (") && on.contains("    clat (")
        && on.contains("clat percentiles"), on);
    String off = run("disable_lat=1\n").out();
    assertFalse(off.contains("     lat ("), off);
    assertTrue(off.contains("    clat (") && off.contains("clat percentiles"), off);
    String json = run("disable_lat=1\n", "--output-format=json").out();
    assertTrue(noSamples(object(json, "lat_ns")), json);
    assertFalse(noSamples(object(json, "clat_ns")), json);
  }

  @Test
  void disableClat_dropsClatAndItsPercentiles_keepsLat() throws IOException {
    String off = run("disable_clat=1\n").out();
    assertFalse(off.contains("    clat (") || off.contains("clat percentiles"), off);
    assertTrue(off.contains("     lat ("), off);
    String clat = object(run("disable_clat=1\n", "--output-format=json").out(), "clat_ns");
    assertTrue(noSamples(clat) && !clat.contains("percentile"), clat);
  }

  @Test
  void gtodReduce_leavesNoLatencyAtAll_butTheBandwidth() throws IOException {
    String off = run("gtod_reduce=1\n").out();
    assertFalse(off.contains("slat (") || off.contains("clat (") || off.contains(" lat (")
        || off.contains("percentiles"), off);
    assertTrue(off.contains("read: IOPS="), off);
    String json = run("gtod_reduce=1\n", "--output-format=json").out();
    for (String o : new String[] {"slat_ns", "clat_ns", "lat_ns"}) {
      assertTrue(noSamples(object(json, o)), o + ": " + json);
    }
  }

  @Test
  void gtodReduceWithALatLog_isRefusedNamingIt() throws IOException {
    Path job = dir.resolve("l.fio");
    Files.writeString(job, "[j]\nioengine=libaio\ndirect=1\nrw=randread\nbs=4k\n"
        + "filename=/dev/nullb0\nruntime=2ms\ntime_based\ngtod_reduce=1\nwrite_lat_log=x\n");
    MainTest.Result r = MainTest.cli("run", job.toString());
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("gtod_reduce") && r.err().contains("write_lat_log"), r.err());
  }
}
