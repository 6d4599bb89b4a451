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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * O_DIRECT bios of at most BIO_MAX_VECS pages ({@link blksim.kernel.fs.BlkdevDio}): 4 MiB reads
 * and writes on null_blk (max_sectors 255) with psync, libaio and io_uring are four 1 MiB bios
 * each, so 36 requests per I/O (one 4 MiB bio would be 33), with tag waits in the middle of a
 * dio (2 tags); the results are identical for every partitioning.
 */
@Timeout(240)
class BlkdevDioDeterminismTest {

  private static long sum(String json, String key) {
    Matcher m = Pattern.compile("\"" + key + "\" : ([0-9]+)").matcher(json);
    long n = 0;
    while (m.find()) {
      n += Long.parseLong(m.group(1));
    }
    return n;
  }

  @Test
  void fourMibDirectIoIs36RequestsAndIdenticalAcrossPartitionings() {
    Scenario s = ScenarioLoader.load(MainTest.resource("det/maxvecs.conf"), List.of());
    RunOutcome one = local(s, "one", 1);
    String reference = json(one);
    long ios = sum(reference, "total_ios");
    long requests = sum(reference, "read_ios") + sum(reference, "write_ios");
    assertTrue(ios > 20, reference);
    assertEquals(36 * ios, requests, "four 1 MiB bios of nine requests per 4 MiB I/O");
    assertEquals(4L * (1 << 20) * ios, sum(reference, "io_bytes"), "each I/O reported once");
    for (String p : new String[] {"node", "llc", "cpu"}) {
      RunOutcome o = local(s, p, 2);
      assertTrue(o.stats().partitions() > 1, p);
      assertEquals(reference, json(o), "partitioning " + p);
    }
  }
}
