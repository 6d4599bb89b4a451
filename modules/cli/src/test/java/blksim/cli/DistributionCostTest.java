package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10 item 9: a null_blk completion-nsec given as a distribution spreads fio's clat
 * percentiles, a constant does not, and a seed still fixes the run's JSON.
 */
@Timeout(120)
class DistributionCostTest {
  @TempDir Path tmp;

  private Path scenario(String completion) throws IOException {
    return scenario(completion, "");
  }

  private Path scenario(String completion, String extra) throws IOException {
    Path p = tmp.resolve("d.conf");
    Files.writeString(p, """
        blksim {
          seed = 5
          %s
          machine { cores-per-llc = 2, threads-per-core = 1 }
          devices = [ { type = null_blk, name = nullb0, size = 1G, irqmode = timer,
            completion-nsec = %s } ]
          fio.jobs = [\"\"\"
        [r]
        ioengine=psync
        filename=/dev/nullb0
        bs=4k
        rw=randread
        runtime=20ms
        time_based
        numjobs=2
        group_reporting
        \"\"\"]
        }
        """.formatted(extra, completion));
    return p;
  }

  /** The JSON of a run, without its wall-clock lines. */
  private String json(String completion) throws IOException {
    return json(completion, "");
  }

  private String json(String completion, String extra) throws IOException {
    MainTest.Result r = MainTest.cli("run", scenario(completion, extra).toString(), "--host",
        "local",
        "--output-format=json");
    assertEquals(0, r.code(), r.err());
    return r.out().lines().filter(l -> !l.contains("\"timestamp") && !l.contains("\"time\"")
        && !l.contains("wall")).collect(Collectors.joining("\n"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> percentiles(String json) {
    Map<String, Object> doc = (Map<String, Object>) blksim.report.json.JsonReader.parse(json);
    Map<String, Object> job = (Map<String, Object>) ((java.util.List<Object>) doc.get("jobs"))
        .get(0);
    Map<String, Object> clat = (Map<String, Object>) ((Map<String, Object>) job.get("read"))
        .get("clat_ns");
    return (Map<String, Object>) clat.get("percentile");
  }

  private static long p(Map<String, Object> pct, String key) {
    return ((Number) pct.get(key)).longValue();
  }

  @Test
  void lognormalCompletion_spreadsTheClatPercentiles_andASeedFixesTheRun() throws IOException {
    String dist = "\"lognormal(mean=20us, sd=6us)\"";
    String a = json(dist);
    assertEquals(a, json(dist), "same seed, same JSON");
    Map<String, Object> pct = percentiles(a);
    long p1 = p(pct, "1.000000");
    long p50 = p(pct, "50.000000");
    long p99 = p(pct, "99.000000");
    assertTrue(p1 < p50 && p50 < p99, "spread: p1 " + p1 + ", p50 " + p50 + ", p99 " + p99);
    assertTrue(p99 - p1 > 15_000, "a 6 us sd spreads p1..p99 by well over 15 us: " + p1 + ".."
        + p99);

    // A constant, with the hrtimer's expiry latency off too: min = max bins.
    Map<String, Object> flat = percentiles(json("20us", "costs.timer.hrtimer-expiry = 0"));
    assertEquals(p(flat, "1.000000"), p(flat, "99.000000"), "a constant: min = max bins");
  }

  @Test
  void brdPerPageRead_asADistribution_spreadsClat_andASeedFixesTheRun() throws IOException {
    Path p = tmp.resolve("brd.conf");
    Files.writeString(p, """
        blksim {
          seed = 9
          machine { cores-per-llc = 1, threads-per-core = 1 }
          costs.brd.per-page-read = "uniform(2us, 20us)"
          devices = [ { type = brd, name = ram0, size = 64M } ]
          fio.jobs = [\"\"\"
        [r]
        ioengine=psync
        filename=/dev/ram0
        direct=1
        bs=4k
        rw=randread
        runtime=20ms
        time_based
        \"\"\"]
        }
        """);
    MainTest.Result r1 = MainTest.cli("run", p.toString(), "--host", "local",
        "--output-format=json");
    MainTest.Result r2 = MainTest.cli("run", p.toString(), "--host", "local",
        "--output-format=json");
    assertEquals(0, r1.code(), r1.err());
    String a = r1.out().lines().filter(l -> !l.contains("\"timestamp") && !l.contains("\"time\"")
        && !l.contains("wall")).collect(Collectors.joining("\n"));
    String b = r2.out().lines().filter(l -> !l.contains("\"timestamp") && !l.contains("\"time\"")
        && !l.contains("wall")).collect(Collectors.joining("\n"));
    assertEquals(a, b, "same seed, same JSON");
    Map<String, Object> pct = percentiles(a);
    long p5 = p(pct, "5.000000");
    long p95 = p(pct, "95.000000");
    assertTrue(p95 - p5 > 12_000, "uniform 2..20 us per page spreads p5..p95: " + p5 + ".."
        + p95);
  }

  @Test
  void badDistribution_exits2_namingTheKeyAndRule() throws IOException {
    MainTest.Result r = MainTest.cli("run", scenario("\"lognormal(mean=20us)\"").toString(),
        "--host", "local");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("d.conf:6") && r.err().contains("completion-nsec")
        && r.err().contains("takes 2 arguments"), r.err());
  }
}
