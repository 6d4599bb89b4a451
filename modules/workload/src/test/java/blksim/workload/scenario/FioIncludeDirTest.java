package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job file of {@code fio.job-files} that {@code include}s a file next to it (Longhorn kbench's
 * jobs): as in fio, the include resolves against the job file's directory, not the scenario's.
 */
class FioIncludeDirTest {

  @TempDir Path dir;

  @Test
  void anInclude_resolvesNextToTheJobFile_notNextToTheScenario() throws IOException {
    Path jobs = Files.createDirectories(dir.resolve("jobs"));
    Files.writeString(jobs.resolve("common-include.fio"), "bs=16k\nsize=1m\n");
    Files.writeString(jobs.resolve("j.fio"),
        "[j]\nfilename=/dev/sdb\nrw=read\ndirect=1\ninclude common-include.fio\n");
    Path scenarioDir = Files.createDirectories(dir.resolve("scenarios"));
    Path p = scenarioDir.resolve("s.conf");
    Files.writeString(p, "blksim {\n  devices = [ { type = ssd, name = sdb, size = 4G } ]\n"
        + "  fio.job-files = [\"../jobs/j.fio\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    assertEquals(1, s.jobs().size());
    assertEquals(16384, s.jobs().get(0).bs()[0]);
    assertEquals(1L << 20, s.jobs().get(0).sizeBytes());
  }
}
