package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.IndexedReport;
import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.sched.CpuReport;
import blksim.kernel.sched.TaskReport;
import blksim.workload.shell.ShellReport;
import blksim.workload.shell.ShellTask;
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
 * {@code dirty-files.overwrite} on dm-zoned: files an earlier run left are mapped at t = 0
 * (random or sequential zones by {@code overwrite-random}), their writeback overwrites them (in
 * place, or through buffer zones), the unmount is deterministic, and bad shares exit 2.
 */
@Timeout(120)
class DmZonedOverwriteTest {
  @TempDir Path dir;

  Path scenario(String extra) throws IOException {
    return scenario(extra, "");
  }

  Path scenario(String extra, String top) throws IOException {
    Path p = dir.resolve("o.conf");
    Files.writeString(p, "blksim {\n" + top
        + "  machine { cores-per-llc = 4, threads-per-core = 1, memory = 2G }\n"
        + "  kernel { hz = 250, mode = V6_9 }\n"
        + "  devices = [ " + DmZonedRunTest.DISK + ", " + DmZonedRunTest.DMZ + " ]\n"
        + "  filesystems = [ { type = xfs, device = dmz, mount = /mnt/z } ]\n"
        + "  dirty-files { directory = /mnt/z, files = 12, file-size = 8M" + extra + " }\n"
        + "  max-time = 120s\n"
        + "  commands = [\"time umount /mnt/z\"]\n}\n");
    return p;
  }

  record Run(String report, long umountEndNs) {}

  Run run(String extra, int threads) throws IOException {
    Scenario s = ScenarioLoader.load(scenario(extra), List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        threads, ProgressListener.NONE);
    long end = -1;
    for (IndexedReport r : out.reports()) {
      if (r.report().kind().equals(CpuReport.KIND)) {
        for (TaskReport t : CpuReport.decode(r.report().payload()).tasks()) {
          if (t.kind().equals(ShellTask.KIND)) {
            end = ShellReport.decode(t.payload()).results().get(0).endNs();
          }
        }
      }
    }
    assertTrue(end > 0, "the unmount ended");
    return new Run(DmZonedRunTest.report(out), end);
  }

  static long[] prewritten(String report) {
    Matcher m = Pattern.compile("left by an earlier run: ([0-9]+) chunks mapped \\(([0-9]+) in"
        + " random zones\\)").matcher(report);
    assertTrue(m.find(), report);
    return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
  }

  @Test
  void randomZonesHeldByEarlierData_overwrittenInPlace_deterministic() throws IOException {
    Run a = run(", overwrite = 0.5, overwrite-random = 1", 1);
    long[] p = prewritten(a.report());
    // Six 8 MiB files of the twelve: at least six chunks, all in random zones (10 are free).
    assertTrue(p[0] >= 6, a.report());
    assertEquals(p[0], p[1], a.report());
    assertEquals(0, DmZonedRunTest.counter(a.report(), "buffered writes"),
        "random zones are overwritten in place: " + a.report());
    Run b = run(", overwrite = 0.5, overwrite-random = 1", 2);
    assertEquals(a, b, "the same run on two threads");
  }

  @Test
  void sequentialZonesHeldByEarlierData_overwritesGoThroughBufferZones() throws IOException {
    Run a = run(", overwrite = 0.5", 1);
    long[] p = prewritten(a.report());
    assertTrue(p[0] >= 6, a.report());
    assertEquals(0, p[1], "overwrite-random = 0: every chunk in a sequential zone");
    assertTrue(DmZonedRunTest.counter(a.report(), "buffered writes") > 0, a.report());
    Run none = run("", 1);
    assertFalse(none.report().contains("left by an earlier run"), none.report());
  }

  @Test
  void fioOnTheDeviceFromTheStart_refusedWithTheKeys() throws IOException {
    String onDev = "  fio.jobs = [\"[w]\\nfilename=/dev/dmz\\nrw=randwrite\\nbs=4k\\ndirect=1"
        + "\\nsize=4M\\noffset=512M\\n\"]\n";
    String inFs = "  fio.jobs = [\"[f]\\ndirectory=/mnt/z/other\\nrw=write\\nbs=64k"
        + "\\nsize=4M\\n\"]\n";
    for (String top : List.of(onDev, inFs)) {
      InputException e = assertThrows(InputException.class,
          () -> ScenarioLoader.load(scenario(", overwrite = 0.5", top), List.of(), Map.of()));
      assertTrue(e.getMessage().contains("dirty-files.overwrite")
          && e.getMessage().contains("fio.job-files") && e.getMessage().contains("o.conf:"),
          e.getMessage());
      // Without files left by an earlier run the same scenario loads.
      ScenarioLoader.load(scenario("", top), List.of(), Map.of());
    }
  }

  @Test
  void shareOutsideZeroToOne_exitsWithTheKey() throws IOException {
    for (String k : List.of("overwrite = 1.5", "overwrite-random = -0.1")) {
      InputException e = assertThrows(InputException.class,
          () -> ScenarioLoader.load(scenario(", " + k), List.of(), Map.of()));
      assertTrue(e.getMessage().contains("dirty-files." + k.substring(0, k.indexOf(' '))),
          e.getMessage());
    }
  }
}
