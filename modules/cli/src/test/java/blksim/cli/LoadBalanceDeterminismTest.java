package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code kernel.load-balance} (issue 15 items 3 and 8): balancing reads and moves between the
 * CPUs of an LLC directly, so a run must not depend on any partitioning that keeps each LLC
 * whole; the JSON carries each CPU's run-queue length and migrations over time.
 */
@Timeout(180)
class LoadBalanceDeterminismTest {
  static final String SCEN = "det/placement.conf";
  static final List<String> SAMPLED = List.of("trace.sample-interval=500us");

  static String json(List<String> sets, String partitioning) {
    return json(SCEN, sets, partitioning);
  }

  static String json(String scen, List<String> sets, String partitioning) {
    Scenario s = ScenarioLoader.load(MainTest.resource(scen), sets);
    Simulator.Outcome o = Simulator.runFull(s, Partitioning.parse(partitioning),
        Simulator.Host.LOCAL, ProgressListener.NONE);
    return Metrics.json(o);
  }

  @Test
  void loadBalancing_givesIdenticalJson_forPartitioningsThatKeepLlcsWhole() {
    String one = json(SAMPLED, "one");
    for (String p : new String[] {"node", "llc"}) {
      assertEquals(null, RunCommand.firstDifference(one, json(SAMPLED, p), "one", p),
          "partitioning " + p);
    }
    List<String> off = List.of("trace.sample-interval=500us", "kernel.load-balance=off");
    assertNotEquals(null, RunCommand.firstDifference(one, json(off, "one"), "on", "off"),
        "load balancing moved something in this scenario");
  }

  @Test
  void json_hasPerCpuRunQueueLengthAndMigrationsOverTime() {
    String j = json(SAMPLED, "one");
    assertTrue(j.contains("\"sched_samples\""), j);
    Matcher m = Pattern.compile("\"interval_ns\" : 500000").matcher(j);
    assertTrue(m.find(), "the interval");
    int i = j.indexOf("\"sched_samples\"");
    String sched = j.substring(i);
    // 8 CPUs, 10 whole intervals of 500 us in 5 ms each
    int nr = sched.indexOf("\"nr_running\"");
    int mig = sched.indexOf("\"migrations\"");
    String nrPart = sched.substring(nr, mig);
    assertEquals(8, countArrays(nrPart), nrPart);
    String migPart = sched.substring(mig);
    long total = 0;
    Matcher n = Pattern.compile("(?<![\\d.])(\\d+)(?![\\d.])").matcher(migPart);
    while (n.find()) {
      total += Long.parseLong(n.group(1));
    }
    assertTrue(total > 0, "tasks migrated: " + migPart);
    assertTrue(nrPart.matches("(?s).*[1-9]\\.\\d+.*"), "CPUs had runnable tasks: " + nrPart);
  }

  static final String NUMA = "det/numa-balance.conf";
  static final List<String> NUMA_SAMPLED = List.of("trace.sample-interval=2ms");

  /**
   * Balancing above the LLC: the two nodes' LLCs are in different partitions under llc and
   * node, and the summaries and migrations between them are messages: the JSON is the same for
   * one, node and llc.
   */
  @Test
  void crossNodeBalancing_givesIdenticalJson_forEveryPartitioning() {
    String one = json(NUMA, NUMA_SAMPLED, "one");
    for (String p : new String[] {"node", "llc"}) {
      assertEquals(null, RunCommand.firstDifference(one, json(NUMA, NUMA_SAMPLED, p), "one", p),
          "partitioning " + p);
    }
  }

  /**
   * Node 0 starts with 4 of the 6 tasks: with balancing on, the second half of the run has the
   * runnable tasks spread over the nodes (within 25 %), with it off node 0 keeps far more.
   */
  @Test
  void crossNodeBalancing_spreadsTheRunnableTasksOverTheNodes() {
    double[] on = nodeRunnable(json(NUMA, NUMA_SAMPLED, "one"));
    List<String> off = List.of("trace.sample-interval=2ms", "kernel.load-balance=off");
    double[] without = nodeRunnable(json(NUMA, off, "one"));
    assertTrue(Math.abs(on[0] - on[1]) < 0.25 * (on[0] + on[1]) / 2,
        "balanced: node 0 " + on[0] + ", node 1 " + on[1]);
    assertTrue(without[0] > 2 * without[1],
        "unbalanced without: node 0 " + without[0] + ", node 1 " + without[1]);
  }

  /**
   * The task object itself travels between LLCs, so the cluster host (a model built per
   * partition) refuses a split run with tasks that may leave their LLC, naming the key.
   */
  @Test
  void clusterHost_refusesTasksThatMayChangePartitions() {
    Scenario s = ScenarioLoader.load(MainTest.resource(NUMA), NUMA_SAMPLED);
    blksim.engine.InputException e = org.junit.jupiter.api.Assertions.assertThrows(
        blksim.engine.InputException.class, () -> Simulator.runFull(s,
            Partitioning.parse("llc"), Simulator.Host.CLUSTER, ProgressListener.NONE));
    assertTrue(e.getMessage().contains("kernel.load-balance"), e.getMessage());
  }

  /** Runnable tasks summed over the second half of the samples, node 0 (CPUs 0-1), node 1. */
  static double[] nodeRunnable(String j) {
    String sched = j.substring(j.indexOf("\"sched_samples\""));
    String nrPart = sched.substring(sched.indexOf("\"nr_running\""),
        sched.indexOf("\"migrations\""));
    List<double[]> rows = new java.util.ArrayList<>();
    Matcher row = Pattern.compile("\\[([^\\[\\]]*)\\]").matcher(nrPart);
    while (row.find()) {
      String[] f = row.group(1).trim().split("\\s*,\\s*");
      double[] v = new double[f.length];
      for (int i = 0; i < f.length; i++) {
        v[i] = Double.parseDouble(f[i]);
      }
      rows.add(v);
    }
    assertEquals(4, rows.size(), nrPart);
    double[] node = new double[2];
    for (int c = 0; c < 4; c++) {
      double[] v = rows.get(c);
      for (int i = v.length / 2; i < v.length; i++) {
        node[c / 2] += v[i];
      }
    }
    return node;
  }

  static int countArrays(String s) {
    int n = 0;
    for (int k = s.indexOf('[') + 1; k < s.length(); k++) {
      if (s.charAt(k) == '[') {
        n++;
      }
    }
    return n;
  }
}
