package blksim.cli;

import static blksim.cli.DeterminismTest.json;
import static blksim.cli.DeterminismTest.local;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.RunOutcome;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bio splitting at the queue limits: 1 MiB bios on null_blk (max_sectors 255) become the
 * kernel's nine requests each, with tag waits in the middle of a split (2 tags), and the results
 * are identical for every partitioning.
 */
@Timeout(240)
class BioSplitDeterminismTest {

  private static long sum(String json, String key) {
    Matcher m = Pattern.compile("\"" + key + "\" : ([0-9]+)").matcher(json);
    long n = 0;
    while (m.find()) {
      n += Long.parseLong(m.group(1));
    }
    return n;
  }

  @Test
  void splitRequests_identicalAcrossPartitionings() {
    Scenario s = ScenarioLoader.load(MainTest.resource("det/split.conf"), List.of());
    RunOutcome one = local(s, "one", 1);
    String reference = json(one);
    // get_max_io_size(): 255 sectors, so 1 MiB = 8 x 255 + 8 sectors, nine requests per I/O.
    long ios = sum(reference, "total_ios");
    long requests = sum(reference, "read_ios") + sum(reference, "write_ios");
    assertTrue(ios > 100, reference);
    assertEquals(9 * ios, requests, "nine requests per 1 MiB I/O");
    for (String p : new String[] {"node", "llc", "cpu"}) {
      RunOutcome o = local(s, p, 2);
      assertTrue(o.stats().partitions() > 1, p);
      assertEquals(reference, json(o), "partitioning " + p);
    }
  }
}
