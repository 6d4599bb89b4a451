package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.kernel.device.DeviceParams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/**
 * The base of the device key tests: a scenario of 2 nodes x 2 cores x 2 threads = 8 CPUs, one
 * device ({@code device}, such as {@code "type = nvme, name = nvme0n1"}, plus the keys under
 * test) and one fio job file, written into a temporary folder and loaded.
 *
 * @param <P> the device's parameters
 */
abstract class OneDeviceScenario<P extends DeviceParams> {
  @TempDir Path dir;

  private final String device;
  private final String job;

  OneDeviceScenario(String device, String job) {
    this.device = device;
    this.job = job;
  }

  /** Writes the scenario with {@code keys} appended to the device and {@code body} to blksim. */
  Path scenario(String keys, String body) throws IOException {
    Files.writeString(dir.resolve("job.fio"), job);
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { sockets = 2, cores-per-llc = 2, threads-per-core = 2 }\n"
        + "  devices = [\n"
        + "    { " + device + keys + " }\n"
        + "  ]\n"
        + "  fio.job-files = [\"job.fio\"]\n"
        + body + "\n}\n");
    return p;
  }

  /** The device as loaded. */
  @SuppressWarnings("unchecked")
  P load(String keys, String body) throws IOException {
    return (P) ScenarioLoader.load(scenario(keys, body), List.of(), Map.of()).devices().get(0);
  }

  /** The error loading refuses the scenario with. */
  InputException fails(String keys, String body) throws IOException {
    Path p = scenario(keys, body);
    return assertThrows(InputException.class, () -> ScenarioLoader.load(p, List.of(), Map.of()));
  }

  /**
   * Each case ({@code keys}, the device key at fault, a part of the rule) fails naming the
   * scenario file and {@code blksim.devices.0.KEY}.
   */
  void badValuesFailNamingTheKey(String[][] cases) throws IOException {
    for (String[] c : cases) {
      InputException e = fails(c[0], "");
      assertEquals("blksim.devices.0." + c[1], e.key(), c[0] + ": " + e.getMessage());
      assertTrue(e.getMessage().contains(c[2]), c[0] + ": " + e.getMessage());
      assertTrue(e.file().endsWith("s.conf"), e.file());
    }
  }
}
