package blksim.cli;

import static blksim.cli.DeterminismTest.json;
import static blksim.cli.DeterminismTest.local;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.RunOutcome;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The check the request-count determinism tests share: a scenario whose I/Os each become a known
 * number of requests, run with one partition, then one per node, per LLC and per CPU (two
 * threads), must print the same JSON every time.
 */
final class DeterminismCheck {
  private DeterminismCheck() {}

  /**
   * Runs {@code resource} (under {@code src/test/resources}) with one partition and asserts that
   * it did more than {@code minIos} I/Os of {@code requestsPerIo} requests each ({@code why}
   * says why that many); then in every partitioning, asserting that each splits the machine and
   * gives the same JSON. Returns that JSON.
   */
  static String requestsPerIo_identicalAcrossPartitionings(String resource, long minIos,
      int requestsPerIo, String why) {
    Scenario s = ScenarioLoader.load(MainTest.resource(resource), List.of());
    String reference = json(local(s, "one", 1));
    long ios = sum(reference, "total_ios");
    assertTrue(ios > minIos, reference);
    assertEquals(requestsPerIo * ios, sum(reference, "read_ios") + sum(reference, "write_ios"),
        why);
    for (String p : new String[] {"node", "llc", "cpu"}) {
      RunOutcome o = local(s, p, 2);
      assertTrue(o.stats().partitions() > 1, p);
      assertEquals(reference, json(o), "partitioning " + p);
    }
    return reference;
  }

  /** The sum of every integer {@code "key" : N} in {@code json}. */
  static long sum(String json, String key) {
    Matcher m = Pattern.compile("\"" + key + "\" : ([0-9]+)").matcher(json);
    long n = 0;
    while (m.find()) {
      n += Long.parseLong(m.group(1));
    }
    return n;
  }
}
