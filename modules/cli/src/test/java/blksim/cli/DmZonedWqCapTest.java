package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.report.json.JsonReader;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Thread 1's mechanism (kernel-model.md §12.1): in 6.9-rc2 ({@code V6_9_RC}) the chunk works of
 * dm-zoned's unbound {@code dmz_cwq} on node-less pools ({@code kernel.wq-node-bound-pools =
 * false}) count against the default counter, capped at min_active = 8; node-bound pools, or the
 * fix ({@code V6_9}), let more run. Read from the run's {@code wq_monitor_summary}.
 */
@Timeout(300)
class DmZonedWqCapTest {
  private static long inflMax(String mode, boolean nodeBound) {
    Path s = Path.of("../../scenarios/dm-zoned/umount-small.conf");
    MainTest.Result r = MainTest.cli("run", s.toString(), "--host", "local",
        "--output-format=json", "--set", "kernel.mode=" + mode,
        "--set", "kernel.wq-monitor-interval=100ms",
        "--set", "kernel.wq-node-bound-pools=" + nodeBound);
    assertEquals(0, r.code(), r.err());
    @SuppressWarnings("unchecked")
    Map<String, Object> json = (Map<String, Object>) JsonReader.parse(r.out());
    @SuppressWarnings("unchecked")
    Map<String, Object> sum = (Map<String, Object>) json.get("wq_monitor_summary");
    @SuppressWarnings("unchecked")
    Map<String, Object> cwq = (Map<String, Object>) sum.get("dmz_cwq_dmz-sdb");
    return ((Number) cwq.get("infl_max")).longValue();
  }

  @Test
  void v69rc_nodelessPools_capChunkWorksAt8_theFixDoesNot() {
    assertEquals(8, inflMax("V6_9_RC", false), "the default counter's min_active");
    assertTrue(inflMax("V6_9", false) > 8, "d40f92020c7a: the default cap is max_active");
    assertTrue(inflMax("V6_9_RC", true) > 8, "a node-bound pool counts per node");
  }

  @Test
  @SuppressWarnings("unchecked")
  void json_hasTheZoneStatesOverTime_oneSamplePerSecondWithActivity() {
    MainTest.Result r = MainTest.cli("run", "../../scenarios/dm-zoned/umount-small.conf",
        "--host", "local", "--output-format=json");
    assertEquals(0, r.code(), r.err());
    Map<String, Object> json = (Map<String, Object>) JsonReader.parse(r.out());
    Map<String, Object> dev = (Map<String, Object>) ((Map<String, Object>) json.get("dm_zoned"))
        .get("dmz-sdb");
    java.util.List<Map<String, Object>> samples =
        (java.util.List<Map<String, Object>>) dev.get("samples");
    assertTrue(samples.size() >= 2, samples.toString());
    long lastSecond = -1;
    for (Map<String, Object> s : samples) {
      long sec = ((Number) s.get("t_ns")).longValue() / 1_000_000_000L;
      assertTrue(sec > lastSecond, "at most one sample per second: " + samples);
      lastSecond = sec;
    }
    long firstFree = ((Number) samples.get(0).get("free_rnd_zones")).longValue();
    long lastFree = ((Number) samples.get(samples.size() - 1).get("free_rnd_zones")).longValue();
    assertTrue(lastFree < firstFree, "the unmount's data took random zones: " + samples);
  }
}
