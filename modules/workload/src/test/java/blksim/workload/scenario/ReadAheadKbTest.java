package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kernel.read-ahead-kb}: its default, a value, and its refusals. */
class ReadAheadKbTest {
  @TempDir Path dir;

  private Path scenario(String extra) throws IOException {
    Files.writeString(dir.resolve("job.fio"), ScenarioLoaderTest.JOB);
    return Files.writeString(dir.resolve("s.conf"), "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = null_blk, name = nullb0, size = 1G },\n"
        + "              { type = null_blk, name = sdb, size = 64G } ]\n"
        + "  fio.job-files = [\"job.fio\"]\n"
        + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/test } ]\n"
        + extra + "\n}\n");
  }

  @Test
  void defaultIs128KiB() throws IOException {
    Scenario s = ScenarioLoader.load(scenario(""), List.of(), Map.of());
    assertEquals(128, s.mm().readAheadKb());
  }

  @Test
  void aValueIsTaken() throws IOException {
    Scenario s = ScenarioLoader.load(scenario("kernel.read-ahead-kb = 512"), List.of(), Map.of());
    assertEquals(512, s.mm().readAheadKb());
    Scenario off = ScenarioLoader.load(scenario("kernel { read-ahead-kb = 0 }"), List.of(),
        Map.of());
    assertEquals(0, off.mm().readAheadKb());
  }

  @Test
  void aNegativeValueIsRefusedNamingTheKey() throws IOException {
    Path p = scenario("kernel.read-ahead-kb = -4");
    InputException e = assertThrows(InputException.class,
        () -> ScenarioLoader.load(p, List.of(), Map.of()));
    assertTrue(e.getMessage().contains("kernel.read-ahead-kb"), e.getMessage());
  }
}
