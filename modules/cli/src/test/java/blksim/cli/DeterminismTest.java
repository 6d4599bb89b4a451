package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.engine.pekko.ClusterRunner;
import blksim.report.fio.FioJsonReporter;
import blksim.report.fio.FioTextReporter;
import blksim.workload.fio.stats.RunResult;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import blksim.workload.scenario.ScenarioModelFactory;
import blksim.workload.scenario.ScenarioResults;
import java.util.List;
import org.apache.pekko.actor.typed.ActorSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The same scenario and seed give byte-identical results (the JSON less its wall-clock fields)
 * with one partition, one per NUMA node, one per CPU, N partitions, on the local and the Pekko
 * cluster host, and with partitions spread over a two-node cluster in one JVM.
 */
@Timeout(180)
class DeterminismTest {
  static final long FIXED_WALL_CLOCK = 1_700_000_000_000L;

  static Scenario scenario(String... sets) {
    return ScenarioLoader.load(MainTest.resource("det/two-node.conf"), List.of(sets));
  }

  /**
   * The JSON results less the fields that describe the run rather than the simulated machine:
   * the wall-clock fields, and blksim's windows, partitions and coupling factor, which depend on
   * the partitioning by definition. Events and simulated time stay: they must not change.
   */
  static String json(RunOutcome o) {
    return FioJsonReporter.withoutWallClock(
            FioJsonReporter.render(ScenarioResults.toRunResult(o, FIXED_WALL_CLOCK)))
        .replaceAll("(?m)^\\s*\"(windows|partitions|coupling_factor)\" : [0-9.]+,?\\n", "");
  }

  static RunOutcome local(Scenario s, String partitioning, int threads) {
    return LocalRunner.run(new ScenarioModelFactory().build(s.spec()),
        Partitioning.parse(partitioning), threads, ProgressListener.NONE);
  }

  @Test
  void localHost_allPartitionings_giveIdenticalResults() {
    Scenario s = scenario();
    RunOutcome one = local(s, "one", 1);
    String reference = json(one);
    assertTrue(one.stats().events() > 10_000, "the scenario does real work");
    assertTrue(reference.contains("\"events\" : " + one.stats().events()), "events compared");
    for (String p : new String[] {"node", "llc", "cpu", "3"}) {
      RunOutcome o = local(s, p, 2);
      assertTrue(o.stats().partitions() > 1, p);
      assertEquals(reference, json(o), "partitioning " + p);
      assertEquals(one.stats().events(), o.stats().events(), p);
      assertEquals(one.stats().simulatedTimeNs(), o.stats().simulatedTimeNs(), p);
    }
  }

  @Test
  void localityGroups_localAndClusterHost_giveIdenticalResults() {
    String reference = json(local(scenario(), "one", 1));
    for (int g : new int[] {2, 5, 16}) {
      Scenario s = scenario("blksim.locality-groups=" + g);
      assertEquals(g, s.localityGroups());
      RunOutcome o = local(s, "one", 1);
      assertEquals(reference, json(o), "locality groups " + g);
    }
    Scenario s = scenario("blksim.locality-groups=4");
    RunOutcome o = ClusterRunner.run(ScenarioModelFactory.class.getName(), s.spec(),
        Partitioning.ONE, ProgressListener.NONE);
    assertEquals(reference, json(o), "cluster host, locality groups 4");
    // Several partitions, each running the groups of its own CPUs.
    o = ClusterRunner.run(ScenarioModelFactory.class.getName(), s.spec(),
        Partitioning.parse("node"), ProgressListener.NONE);
    assertEquals(reference, json(o), "cluster host, partitions node, locality groups 4");
    assertEquals(reference, json(local(s, "2", 2)), "local host, 2 partitions, groups 4");
  }

  @Test
  void clusterHost_oneNodeCpuPartitionings_matchTheLocalHost() {
    Scenario s = scenario();
    String reference = json(local(s, "one", 1));
    for (String p : new String[] {"one", "node", "cpu"}) {
      RunOutcome o = ClusterRunner.run(ScenarioModelFactory.class.getName(), s.spec(),
          Partitioning.parse(p), ProgressListener.NONE);
      assertEquals(reference, json(o), "cluster host, partitioning " + p);
    }
  }

  @Test
  void twoNodeClusterInOneJvm_matchesTheLocalHost() {
    Scenario s = scenario();
    String reference = json(local(s, "one", 1));
    List<ActorSystem<Void>> systems = ClusterRunner.startLocalCluster(2);
    try {
      for (String p : new String[] {"node", "cpu"}) {
        RunOutcome o = ClusterRunner.run(systems, ScenarioModelFactory.class.getName(), s.spec(),
            Partitioning.parse(p), ProgressListener.NONE);
        assertEquals(reference, json(o), "two nodes, partitioning " + p);
      }
    } finally {
      for (int i = systems.size() - 1; i >= 0; i--) {
        ClusterRunner.shutdown(systems.get(i));
      }
    }
  }

  @Test
  void ioUringWithIoWqWorkers_allPartitionings_giveIdenticalResults() {
    Scenario s = ScenarioLoader.load(MainTest.resource("det/nowait.conf"), List.of());
    String reference = json(local(s, "one", 1));
    assertTrue(reference.contains("\"jobname\" : \"zram\""), "both jobs ran");
    for (String p : new String[] {"node", "cpu"}) {
      assertEquals(reference, json(local(s, p, 2)), "local, partitioning " + p);
    }
    RunOutcome o = ClusterRunner.run(ScenarioModelFactory.class.getName(), s.spec(),
        Partitioning.parse("node"), ProgressListener.NONE);
    assertEquals(reference, json(o), "cluster host, node partitioning");
  }

  @Test
  void timersWorkqueuesAndDeviceMapper_allPartitionings_giveIdenticalResults() {
    Scenario s = ScenarioLoader.load(MainTest.resource("det/dm-delay.conf"), List.of());
    Simulator.Outcome one = Simulator.runFull(s, Partitioning.ONE, Simulator.Host.LOCAL,
        ProgressListener.NONE);
    assertTrue(one.wqSamples().size() >= 5, "wq_monitor sampled: " + one.wqSamples().size());
    assertTrue(one.wqFinal().rows().stream().anyMatch(r -> r.name().equals("kdelayd")
        && r.total() > 10), "kdelayd did the delayed bios' work");
    String reference = withoutRunFields(one);
    for (String p : new String[] {"node", "cpu"}) {
      for (Simulator.Host h : Simulator.Host.values()) {
        Simulator.Outcome o = Simulator.runFull(s, Partitioning.parse(p), h,
            ProgressListener.NONE);
        assertEquals(reference, withoutRunFields(o), "partitioning " + p + " on " + h);
        assertEquals(one.wqSamples(), o.wqSamples(), "wq_monitor samples, " + p + " on " + h);
      }
    }
  }

  private static String withoutRunFields(Simulator.Outcome o) {
    RunResult r = o.fio();
    RunResult fixed = new RunResult(r.jobs(), r.disks(), r.engine(), FIXED_WALL_CLOCK,
        r.blksimVersion(), r.globalOptions(), r.cpus());
    return FioJsonReporter.withoutWallClock(FioJsonReporter.render(fixed))
        .replaceAll("(?m)^\\s*\"(windows|partitions|coupling_factor)\" : [0-9.]+,?\\n", "");
  }

  @Test
  void differentSeed_changesTheResults() {
    String a = json(local(scenario(), "one", 1));
    String b = json(local(scenario("seed=43"), "one", 1));
    assertTrue(!a.equals(b), "the seed must matter for random offsets and mixes");
  }

  @Test
  void switchTraces_andThreadStatistics_doNotDependOnThePartitioning() {
    Scenario s = ScenarioLoader.load(MainTest.resource("det/nowait.conf"), List.of(
        "blksim.trace.timehist-cpus=\"0-7\"", "blksim.trace.timehist-to=2ms"));
    Simulator.Outcome one = Simulator.runFull(s, Partitioning.parse("one"), Simulator.Host.LOCAL,
        ProgressListener.NONE);
    assertTrue(one.timehist().size() > 100, "traced for 2 ms: " + one.timehist().size());
    assertEquals(8, one.timehist().stream().mapToInt(r -> r.cpu()).distinct().count(),
        "every CPU recorded");
    for (String p : new String[] {"cpu", "3"}) {
      Simulator.Outcome o = Simulator.runFull(s, Partitioning.parse(p), Simulator.Host.LOCAL,
          ProgressListener.NONE);
      assertEquals(one.timehist(), o.timehist(), "partitioning " + p);
      assertEquals(one.fio().threads(), o.fio().threads(), "partitioning " + p);
    }
  }

  /**
   * null_blk on the blk-mq layer: with mq-deadline on per-CPU hardware queues (kblockd runs,
   * queue merging) every partitioning gives the same result; with one queue per node (CPUs
   * sharing a queue) the partitionings that keep a node whole do.
   */
  @Test
  void nullBlkHardwareQueues_giveIdenticalResults_forPartitioningsThatKeepEachQueueWhole() {
    Scenario s = scenario("devices.0.scheduler=mq-deadline", "devices.1.scheduler=mq-deadline");
    RunOutcome one = local(s, "one", 1);
    String reference = json(one);
    assertTrue(reference.contains("\"read_merges\""), "disk statistics compared");
    for (String p : new String[] {"node", "cpu"}) {
      RunOutcome o = local(s, p, 2);
      assertTrue(o.stats().partitions() > 1, p);
      assertEquals(reference, json(o), "mq-deadline per CPU, partitioning " + p);
    }
    Scenario perNode = scenario("devices.0.submit-queues=2", "devices.1.submit-queues=2");
    String shared = json(local(perNode, "one", 1));
    RunOutcome byNode = local(perNode, "node", 2);
    assertTrue(byNode.stats().partitions() > 1);
    assertEquals(shared, json(byNode), "a queue per node, one partition per node");
  }

  /**
   * null_blk's shared_tags with one hardware queue per CPU: tags[i] is shared by the two
   * devices' queue i, touched by CPU i alone, so every partitioning gives the same result,
   * tag waits included.
   */
  @Test
  void nullBlkSharedTags_perCpuQueues_giveIdenticalResults_inEveryPartitioning() {
    Scenario s = scenario("devices.0.shared-tags=on", "devices.1.shared-tags=on",
        "devices.0.hw-queue-depth=1", "devices.1.hw-queue-depth=1");
    RunOutcome one = local(s, "one", 1);
    String reference = json(one);
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"tag_waits\" : ([0-9]+)")
        .matcher(reference);
    long waits = 0;
    while (m.find()) {
      waits += Long.parseLong(m.group(1));
    }
    assertTrue(waits > 0, "the shared tags made submitters wait: " + waits);
    assertTrue(!reference.equals(json(local(scenario(), "one", 1))), "sharing changed the run");
    RunOutcome o = local(s, "cpu", 2);
    assertTrue(o.stats().partitions() > 1);
    assertEquals(reference, json(o), "shared tags, one partition per CPU");
  }

  @Test
  void wakePlacementInTheLlc_givesIdenticalResults_forPartitioningsThatKeepLlcsWhole() {
    Scenario s = ScenarioLoader.load(MainTest.resource("det/placement.conf"), List.of());
    RunOutcome one = local(s, "one", 1);
    RunResult r = ScenarioResults.toRunResult(one, FIXED_WALL_CLOCK);
    long moves = r.threads().stream().mapToLong(t -> t.migrations()).sum();
    assertTrue(moves > 100, "tasks did move between CPUs: " + moves);
    String reference = json(one);
    for (String p : new String[] {"node", "llc"}) {
      RunOutcome o = local(s, p, 2);
      assertTrue(o.stats().partitions() > 1, p);
      assertEquals(reference, json(o), "partitioning " + p);
    }
  }

  @Test
  void aMovedTask_submitsToTheQueueOfTheCpuItRunsOn() {
    Scenario s = ScenarioLoader.load(MainTest.resource("det/mover.conf"), List.of());
    RunResult r = ScenarioResults.toRunResult(local(s, "one", 1), FIXED_WALL_CLOCK);
    assertTrue(r.threads().stream().filter(t -> t.tid() >= 1000).mapToLong(t -> t.migrations())
        .sum() > 0, "the jobs moved");
    // CPUs 2 and 3 host no job at the start; once a job runs there, its I/Os go to their
    // hardware queues, whose completion timers fire there (blk_mq_map_queue() of the submitting
    // CPU). With the home CPU's queue they would show no interrupt time at all.
    for (int cpu = 2; cpu <= 3; cpu++) {
      var u = r.cpus().get(cpu);
      assertEquals(cpu, u.cpu());
      assertTrue(u.sysNs() > 0, "a job ran on CPU " + cpu);
      assertTrue(u.irqNs() > 0, "its completions fired on CPU " + cpu + ": " + u);
    }
  }

  @Test
  void textOutput_isIdenticalAcrossPartitionings() {
    Scenario s = scenario();
    RunResult one = ScenarioResults.toRunResult(local(s, "one", 1), FIXED_WALL_CLOCK);
    RunResult cpu = ScenarioResults.toRunResult(local(s, "cpu", 2), FIXED_WALL_CLOCK);
    assertEquals(FioTextReporter.render(one), FioTextReporter.render(cpu));
  }
}
