package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.engine.pekko.ClusterRunner;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import blksim.workload.scenario.ScenarioModelFactory;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * scenarios/dm-zoned/smoke.conf, shortened, gives byte-identical JSON run twice and on the
 * cluster host; the zoned disk's shared queue allows one partition only, and the loader says so.
 */
@Timeout(180)
class DmZonedDeterminismTest {

  static Scenario smoke(String... sets) {
    Path p = Path.of(System.getProperty("user.dir")).resolve("../../scenarios/dm-zoned/smoke.conf")
        .normalize();
    return ScenarioLoader.load(p, List.of(sets));
  }

  static RunOutcome local(Scenario s, int threads) {
    return LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE, threads,
        ProgressListener.NONE);
  }

  @Test
  void smoke_runTwiceAndOnTheClusterHost_givesIdenticalJson() {
    Scenario s = smoke();
    RunOutcome a = local(s, 1);
    String ref = DeterminismTest.json(a);
    assertTrue(a.stats().events() > 1_000, "the scenario does real work");
    assertEquals(ref, DeterminismTest.json(local(s, 2)), "second local run");
    RunOutcome c = ClusterRunner.run(ScenarioModelFactory.class.getName(), s.spec(),
        Partitioning.ONE, ProgressListener.NONE);
    assertEquals(ref, DeterminismTest.json(c), "cluster host");
  }

  @Test
  void smoke_refusesASplitPartitioning() {
    InputException e = assertThrows(InputException.class,
        () -> smoke("partitions=cpu"));
    assertTrue(e.getMessage().contains("partitions"), e.getMessage());
  }
}
