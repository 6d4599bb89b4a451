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

/**
 * {@code locality-groups}: auto groups large machines one group per 64 CPUs where the scenario may
 * be split into that many partitions; an explicit N is checked against the same rules. And
 * {@code partitions = auto}, resolved by the same kind of trial.
 */
class LocalityGroupsScenarioTest {
  @TempDir Path dir;

  /** One socket of {@code cores} cores, a null_blk, two jobs ({@code direct} 1 or 0). */
  Path scenario(int cores, int direct, String body) throws IOException {
    Files.writeString(dir.resolve("job.fio"), "[global]\nioengine=psync\ndirect=" + direct
        + "\nfilename=/dev/nullb0\nbs=4k\nrw=randread\nruntime=1ms\ntime_based\n[j]\nnumjobs=2\n");
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { sockets = 1, cores-per-llc = " + cores + ", threads-per-core = 1 }\n"
        + "  devices = [ { type = null_blk, name = nullb0, size = 1G } ]\n"
        + "  fio.job-files = [\"job.fio\"]\n"
        + body + "\n}\n");
    return p;
  }

  int groups(int cores, int direct, String body) throws IOException {
    return ScenarioLoader.load(scenario(cores, direct, body), List.of(), Map.of())
        .localityGroups();
  }

  InputException fails(int cores, int direct, String body) throws IOException {
    Path p = scenario(cores, direct, body);
    return assertThrows(InputException.class, () -> ScenarioLoader.load(p, List.of(), Map.of()));
  }

  @Test
  void auto_groupsLargeMachinesOnePer64Cpus_onlyWhereTheyMayBeSplit() throws IOException {
    assertEquals(1, groups(8, 1, ""), "small machine");
    assertEquals(1, groups(ScenarioLoader.LOCALITY_GROUPS_FROM_CPUS - 1, 1, ""), "below");
    int from = ScenarioLoader.LOCALITY_GROUPS_FROM_CPUS;
    assertEquals(from / 64, groups(from, 1, ""));
    assertEquals(from / 64, ScenarioLoader.fromSpec(ScenarioLoader.load(scenario(from, 1, ""),
        List.of(), Map.of()).spec()).localityGroups(), "every partition resolves it alike");
    // Buffered reads go through the page cache every CPU shares: one partition, no groups.
    assertEquals(1, groups(from, 0, ""));
    // With several partitions each runs the groups of its own CPUs.
    assertEquals(from / 64, groups(from, 1, "partitions = 2"));
    assertEquals(1, groups(from, 1, "locality-groups = 1"));
  }

  @Test
  void explicitN_isCheckedAgainstThePartitioningRules() throws IOException {
    assertEquals(4, groups(8, 1, "locality-groups = 4"));
    assertEquals(8, groups(8, 1, "locality-groups = 8"));
    InputException e = fails(8, 0, "locality-groups = 4");
    assertEquals("blksim.locality-groups", e.key());
    assertTrue(e.getMessage().contains("page cache"), e.getMessage());
    assertTrue(e.file().endsWith("s.conf") && e.line() > 0, e.getMessage());
    e = fails(8, 1, "locality-groups = 9");
    assertTrue(e.getMessage().contains("from 1 to the CPU count (8), was 9"), e.getMessage());
    e = fails(8, 1, "locality-groups = many");
    assertTrue(e.getMessage().contains("auto or a whole number"), e.getMessage());
    assertEquals(4, groups(8, 1, "partitions = 2\nlocality-groups = 4"));
  }

  Scenario load(int cores, int direct, String body) throws IOException {
    return ScenarioLoader.load(scenario(cores, direct, body), List.of(), Map.of());
  }

  @Test
  void partitionsAuto_splitsLargeMachinesInTwo_onlyWhereTheyMayBeSplit() throws IOException {
    int from = ScenarioLoader.AUTO_PARTITIONS_FROM_CPUS;
    String two = Runtime.getRuntime().availableProcessors() >= 2 ? "2" : "one";
    Scenario s = load(from, 1, "");
    assertEquals(two, s.partitions(), "the default is auto");
    assertEquals("one", load(from - 1, 1, "").partitions(), "below");
    assertEquals("one", load(8, 1, "partitions = auto").partitions());
    // Buffered reads go through the page cache every CPU shares: one partition.
    assertEquals("one", load(from, 0, "").partitions());
    // An explicit choice is kept as it is.
    assertEquals("one", load(from, 1, "partitions = one").partitions());
    assertEquals("node", load(8, 1, "partitions = node").partitions());
    InputException e = fails(8, 1, "partitions = halves");
    assertEquals("blksim.partitions", e.key());
    assertTrue(e.getMessage().contains("auto, one, node, llc, cpu or a number"), e.getMessage());
  }
}
