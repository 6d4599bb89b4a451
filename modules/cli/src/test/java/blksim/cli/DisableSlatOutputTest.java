package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * fio's {@code disable_slat}: {@code io_u_queued()} adds no slat sample, so fio's text report
 * has no slat line ({@code calc_lat()} finds no samples) and its JSON {@code slat_ns} is all
 * zero; clat and lat are still printed.
 */
@Timeout(120)
class DisableSlatOutputTest {
  @TempDir Path dir;

  MainTest.Result run(String engine, boolean disable, String... extra) throws IOException {
    Path job = dir.resolve("j.fio");
    Files.writeString(job, "[j]\nioengine=" + engine + "\ndirect=1\nrw=randread\nbs=4k\n"
        + "iodepth=4\nfilename=/dev/nullb0\ntime_based=1\nruntime=2ms\n"
        + (disable ? "disable_slat=1\n" : ""));
    String[] args = new String[2 + extra.length];
    args[0] = "run";
    args[1] = job.toString();
    System.arraycopy(extra, 0, args, 2, extra.length);
    MainTest.Result r = MainTest.cli(args);
    assertEquals(0, r.code(), r.err());
    return r;
  }

  @ParameterizedTest
  @ValueSource(strings = {"libaio", "io_uring"})
  void disableSlat_dropsTheSlatLine_keepsClatAndLat(String engine) throws IOException {
    String on = run(engine, false).out();
    String off = run(engine, true).out();
    assertTrue(on.contains("    slat ("), on);
    assertFalse(off.contains("slat ("), off);
    assertTrue(off.contains("    clat (") && off.contains("     lat ("), off);
    String json = run(engine, true, "--output-format=json").out();
    int at = json.indexOf("\"slat_ns\"");
    assertTrue(at > 0, json);
    String slat = json.substring(at, json.indexOf('}', at));
    assertTrue(slat.contains("\"N\" : 0") || slat.contains("\"N\":0"), slat);
  }
}
