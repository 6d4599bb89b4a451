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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** SCSI hosts shared by request-based drives, and the spinlock keys. */
@Timeout(30)
class ScsiHostScenarioTest {
  @TempDir Path dir;

  Path scenario(String a, String b, String body) throws IOException {
    Files.writeString(dir.resolve("job.fio"), "[global]\nioengine=psync\ndirect=1\nbs=4k\n"
        + "rw=randread\nruntime=1ms\ntime_based\n[a]\nfilename=/dev/sda\n[b]\nfilename=/dev/sdb\n");
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2 }\n  devices = [\n"
        + "    { type = ssd, name = sda, size = 1G" + a + " }\n"
        + "    { type = ssd, name = sdb, size = 1G" + b + " }\n  ]\n"
        + "  fio.job-files = [\"job.fio\"]\n" + body + "\n}\n");
    return p;
  }

  @Test
  void drivesOfOneHost_mustAgreeOnItsDepth() throws IOException {
    ScenarioLoader.load(scenario(", host = h0, host-queue-depth = 16",
        ", host = h0, host-queue-depth = 16", ""), List.of(), Map.of());
    ScenarioLoader.load(scenario(", host = h0, host-queue-depth = 16",
        ", host = h1, host-queue-depth = 8", ""), List.of(), Map.of());
    Path bad = scenario(", host = h0, host-queue-depth = 16", ", host = h0, host-queue-depth = 8",
        "");
    InputException e = assertThrows(InputException.class,
        () -> ScenarioLoader.load(bad, List.of(), Map.of()));
    assertEquals("blksim.devices.1.host-queue-depth", e.key());
    assertTrue(e.getMessage().contains("h0"), e.getMessage());
  }

  @Test
  void spinlockContention_isOnOrOff() throws IOException {
    ScenarioLoader.load(scenario("", "", "kernel.spinlock-contention = on"), List.of(), Map.of());
    Path bad = scenario("", "", "kernel.spinlock-contention = maybe");
    InputException e = assertThrows(InputException.class,
        () -> ScenarioLoader.load(bad, List.of(), Map.of()));
    assertEquals("blksim.kernel.spinlock-contention", e.key());
  }
}
