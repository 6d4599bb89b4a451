package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10 item 9: cache-cold first touches ({@code kernel.cache-cold}, off by default). A zipf
 * read job on a brd or zram device finds its popular pages in the CPU's cache and the rest cold:
 * the clat spreads (stdev > 0, low and high percentiles differ), a seed fixes the run, and off is
 * the run of before, byte for byte.
 */
@Timeout(120)
class CacheColdTest {
  @TempDir Path tmp;

  private Path scenario(String device, String extra) throws IOException {
    Path p = tmp.resolve("s.conf");
    Files.writeString(p, """
        blksim {
          seed = 5
          %s
          machine { cores-per-llc = 2, threads-per-core = 1 }
          devices = [ { type = %s, name = dev0, size = 64M } ]
          fio.jobs = [\"\"\"
        [r]
        ioengine=psync
        direct=1
        filename=/dev/dev0
        bs=4k
        rw=randread
        random_distribution=zipf:1.1
        runtime=10ms
        time_based
        \"\"\"]
        }
        """.formatted(extra, device));
    return p;
  }

  private static String json(Path scenario) {
    MainTest.Result r = MainTest.cli("run", scenario.toString(), "--host", "local",
        "--output-format=json");
    assertEquals(0, r.code(), r.err());
    return r.out().lines().filter(l -> !l.contains("\"timestamp") && !l.contains("\"time\"")
        && !l.contains("wall")).collect(Collectors.joining("\n"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> clat(String json) {
    Map<String, Object> doc = (Map<String, Object>) blksim.report.json.JsonReader.parse(json);
    Map<String, Object> job = (Map<String, Object>) ((List<Object>) doc.get("jobs")).get(0);
    return (Map<String, Object>) ((Map<String, Object>) job.get("read")).get("clat_ns");
  }

  @SuppressWarnings("unchecked")
  private static long pct(Map<String, Object> clat, String p) {
    return ((Number) ((Map<String, Object>) clat.get("percentile")).get(p)).longValue();
  }

  private static double num(Map<String, Object> clat, String key) {
    return ((Number) clat.get(key)).doubleValue();
  }

  @Test
  void brd_offIsTheRunOfBefore_onSpreadsTheClat_andASeedFixesIt() throws IOException {
    String plain = json(scenario("brd", ""));
    assertEquals(plain, json(scenario("brd", "kernel.cache-cold = off")), "off is the default");
    Map<String, Object> off = clat(plain);
    assertEquals(0.0, num(off, "stddev"), "constant costs: one bin");
    String on = json(scenario("brd", "kernel.cache-cold = on"));
    assertEquals(on, json(scenario("brd", "kernel.cache-cold = on")), "same seed, same JSON");
    Map<String, Object> c = clat(on);
    assertTrue(num(c, "stddev") > 50, "a spread: stdev " + num(c, "stddev"));
    long p10 = pct(c, "10.000000");
    long p90 = pct(c, "90.000000");
    assertTrue(p90 - p10 >= 400, "warm p10 " + p10 + " against cold p90 " + p90);
    // The first I/O runs the driver's cold path (5 us by default) and touches a cold page.
    assertTrue(num(c, "max") - num(c, "min") >= 5_000, "max " + num(c, "max"));
    assertTrue(num(c, "mean") > num(off, "mean") && num(c, "mean") < num(off, "mean") + 500,
        "a share of the I/Os pays the 500 ns cold page: " + num(c, "mean"));
  }

  @Test
  void zram_coldPageDistribution_spreadsTooAndMovesWithTheSeed() throws IOException {
    String cold = "kernel.cache-cold = on\n costs.cache.cold-page = \"lognormal(mean=600ns,"
        + " sd=200ns)\"\n costs.cache.size = 256K";
    Map<String, Object> a = clat(json(scenario("zram", cold)));
    assertTrue(num(a, "stddev") > 100, "stdev " + num(a, "stddev"));
    assertTrue(pct(a, "99.000000") > pct(a, "50.000000"));
    Path p = scenario("zram", cold);
    Files.writeString(p, Files.readString(p).replace("seed = 5", "seed = 6"));
    assertTrue(!clat(json(p)).equals(a), "another seed, other draws");
  }
}
