package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.pekko.ClusterRunner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.typed.Cluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** sweep --repeat's statistics, and a sweep farmed out to a cluster (in this JVM). */
class SweepTest {
  static final String SCENARIO = "../../scenarios/quickstart/nullblk-psync.conf";

  /** A short run whose figures depend on the seed (a housekeeping kworker at random times). */
  static final List<String> SHORT = List.of("--set", "max-time=4ms", "--set",
      "kernel.housekeeping-interval=300us", "--set", "costs.sched.housekeeping-work=40us");

  static List<String> args(String... more) {
    List<String> a = new ArrayList<>(List.of("sweep", SCENARIO));
    a.addAll(SHORT);
    a.addAll(List.of(more));
    return a;
  }

  static MainTest.Result sweep(List<String> args) {
    return MainTest.cli(args.toArray(new String[0]));
  }

  @Test
  @Timeout(240)
  void repeat_givesMeanSdMinMax_overRunsWithDerivedSeeds() {
    MainTest.Result r = sweep(args("--vary", "devices.0.irqmode=none,softirq", "--repeat", "3",
        "--metric", "iops=jobs.0.read.iops", "--metric", "usr=jobs.0.usr_cpu", "--format", "csv",
        "--host", "local"));
    assertEquals(0, r.code(), r.err());
    String[] lines = r.out().split("\n");
    assertEquals("devices.0.irqmode,iops_mean,iops_sd,iops_min,iops_max,usr_mean,usr_sd,"
        + "usr_min,usr_max", lines[0]);
    assertEquals(3, lines.length, r.out());
    assertTrue(r.err().contains("(devices.0.irqmode=softirq, repeat 3 of 3)"), r.err());

    // The same figures from three plain sweeps, one per derived seed of the second point.
    List<Double> iops = new ArrayList<>();
    for (int k = 0; k < 3; k++) {
      MainTest.Result one = sweep(args("--vary", "devices.0.irqmode=softirq", "--metric",
          "iops=jobs.0.read.iops", "--format", "csv", "--host", "local", "--set",
          "seed=" + SweepCommand.repeatSeed(1, k)));
      assertEquals(0, one.code(), one.err());
      iops.add(Double.parseDouble(one.out().split("\n")[1].split(",")[1]));
    }
    double mean = (iops.get(0) + iops.get(1) + iops.get(2)) / 3;
    double sq = 0;
    for (double x : iops) {
      sq += (x - mean) * (x - mean);
    }
    String[] row = lines[2].split(",");
    assertEquals("softirq", row[0]);
    assertEquals(mean, Double.parseDouble(row[1]), 1e-6 * mean);
    assertEquals(Math.sqrt(sq / 2), Double.parseDouble(row[2]), 1e-6 * mean + 1e-9);
    assertEquals(iops.stream().mapToDouble(d -> d).min().getAsDouble(),
        Double.parseDouble(row[3]));
    assertEquals(iops.stream().mapToDouble(d -> d).max().getAsDouble(),
        Double.parseDouble(row[4]));
    assertNotEquals(row[3], row[4], "the derived seeds give different runs: " + iops);

    // Deterministic: the same sweep again prints the same bytes.
    MainTest.Result again = sweep(args("--vary", "devices.0.irqmode=none,softirq", "--repeat",
        "3", "--metric", "iops=jobs.0.read.iops", "--metric", "usr=jobs.0.usr_cpu", "--format",
        "csv", "--host", "local"));
    assertEquals(r.out(), again.out());
  }

  @Test
  void repeatSeed_isTheRunSeedFirst_thenDistinctDerivedSeeds() {
    assertEquals(7, SweepCommand.repeatSeed(7, 0));
    assertNotEquals(SweepCommand.repeatSeed(7, 1), SweepCommand.repeatSeed(7, 2));
    assertNotEquals(SweepCommand.repeatSeed(7, 1), SweepCommand.repeatSeed(8, 1));
    assertTrue(SweepCommand.repeatSeed(7, 1) >= 0);
    List<List<Double>> rows = List.of(List.of(1.0), List.of(2.0), List.of(6.0));
    assertEquals(List.of(List.of(3.0, Math.sqrt(7), 1.0, 6.0)), SweepCommand.stats(rows, 3));
  }

  @Test
  @Timeout(240)
  void sweepJoinedToANode_printsTheLocalSweepsBytes() throws Exception {
    // A second cluster node in this JVM stands for 'blksim node' (MultiJvmTest and
    // SweepClusterTest use real JVMs): it hosts a sweep worker, the sweep JVM another.
    ActorSystem<Void> node = ClusterRunner.startClusterNode("127.0.0.1", 0, List.of());
    try {
      // with the warm-up run a 'blksim node' can make while it waits (5 ms here): results unchanged
      SweepWork.startWorker(node, Path.of("../../scenarios/" + SweepWork.WARM_UP_SCENARIO), "5ms")
          .get(120, java.util.concurrent.TimeUnit.SECONDS);
      int port = Cluster.get(node).selfMember().address().getPort().get();
      List<String> common = List.of("--vary", "devices.0.irqmode=none,softirq",
          "--vary", "kernel.preempt=none,full", "--format", "csv");
      List<String> local = args();
      local.addAll(common);
      MainTest.Result here = sweep(local);
      assertEquals(0, here.code(), here.err());
      List<String> joined = new ArrayList<>(local);
      joined.addAll(List.of("--join", "127.0.0.1:" + port));
      MainTest.Result there = sweep(joined);
      assertEquals(0, there.code(), there.err());
      assertEquals(here.out(), there.out());
      assertEquals(5, here.out().split("\n").length, here.out());
      assertTrue(there.err().contains("sweep: 4 of 4 runs done, 0 running, 0 failed, 2 nodes"),
          there.err());
    } finally {
      ClusterRunner.shutdown(node);
    }
  }
}
