package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
 * Issue 10 item 9: the kernel's own sources of latency spread. The hrtimer expiry latency
 * ({@code costs.timer.hrtimer-expiry}, on by default) spreads a null_blk timer-mode run's clat;
 * off it is the constant it always was; a seed fixes the run; one device's draws do not shift
 * another's; a completion interrupt's delivery latency ({@code costs.irq.delivery}, off by
 * default) delays a disk's completions.
 */
@Timeout(120)
class KernelSpreadTest {
  @TempDir Path tmp;

  private static final String JOB = """
      [r]
      ioengine=psync
      filename=/dev/nullb0
      bs=4k
      rw=randread
      runtime=20ms
      time_based
      """;

  /** Two null_blk devices in timer mode, one psync job on each, on CPUs 0 and 1. */
  private Path scenario(String extra, String nullb0Completion) throws IOException {
    Path p = tmp.resolve("s.conf");
    Files.writeString(p, """
        blksim {
          seed = 7
          %s
          machine { cores-per-llc = 2, threads-per-core = 1 }
          devices = [
            { type = null_blk, name = nullb0, size = 1G, irqmode = timer,
              completion-nsec = %s }
            { type = null_blk, name = nullb1, size = 1G, irqmode = timer }
          ]
          fio.jobs = [\"\"\"
        %s
        [s]
        ioengine=psync
        filename=/dev/nullb1
        bs=4k
        rw=randread
        runtime=20ms
        time_based
        \"\"\"]
        }
        """.formatted(extra, nullb0Completion, JOB));
    return p;
  }

  /** The JSON of a run, without its wall-clock lines. */
  private static String json(Path scenario) {
    MainTest.Result r = MainTest.cli("run", scenario.toString(), "--host", "local",
        "--output-format=json");
    assertEquals(0, r.code(), r.err());
    return r.out().lines().filter(l -> !l.contains("\"timestamp") && !l.contains("\"time\"")
        && !l.contains("wall")).collect(Collectors.joining("\n"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> job(String json, int k) {
    Map<String, Object> doc = (Map<String, Object>) blksim.report.json.JsonReader.parse(json);
    return (Map<String, Object>) ((List<Object>) doc.get("jobs")).get(k);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> clat(String json, int k) {
    return (Map<String, Object>) ((Map<String, Object>) job(json, k).get("read")).get("clat_ns");
  }

  @SuppressWarnings("unchecked")
  private static long pct(Map<String, Object> clat, String p) {
    return ((Number) ((Map<String, Object>) clat.get("percentile")).get(p)).longValue();
  }

  private static double num(Map<String, Object> clat, String key) {
    return ((Number) clat.get(key)).doubleValue();
  }

  @Test
  void hrtimerExpiry_onByDefault_spreadsTimerModeClat_andASeedFixesTheRun() throws IOException {
    Path s = scenario("", "10us");
    String a = json(s);
    assertEquals(a, json(s), "same seed, same JSON");
    Map<String, Object> c = clat(a, 0);
    assertTrue(num(c, "stddev") > 100, "a spread: stdev " + num(c, "stddev"));
    long p1 = pct(c, "1.000000");
    long p50 = pct(c, "50.000000");
    long p999 = pct(c, "99.900000");
    assertTrue(p1 < p50 && p50 < p999, "distinct percentiles: " + p1 + ", " + p50 + ", "
        + p999);
    assertTrue(num(c, "max") > num(c, "min"), "min < max");
  }

  @Test
  void hrtimerExpiryOff_isTheConstantOfBefore() throws IOException {
    Map<String, Object> off = clat(json(scenario("costs.timer.hrtimer-expiry = 0", "10us")), 0);
    assertEquals(num(off, "min"), num(off, "max"), "off: min = max");
    assertEquals(0.0, num(off, "stddev"));
    Map<String, Object> on = clat(json(scenario("", "10us")), 0);
    // The default histogram's mean is about 1 us (rtla timerlat's IRQ latency).
    double shift = num(on, "mean") - num(off, "mean");
    assertTrue(shift > 500 && shift < 1_500, "mean shift of the expiry latency: " + shift);
    assertEquals(num(off, "min"), num(on, "min"), 1_000, "on: never less than off");
  }

  @Test
  void aSpreadOnOneDevice_leavesTheOtherDevicesDrawsAlone() throws IOException {
    String plain = json(scenario("", "10us"));
    String spread = json(scenario("", "\"lognormal(mean=10us, sd=3us)\""));
    assertNotEquals(clat(plain, 0), clat(spread, 0), "nullb0's job changed");
    assertEquals(clat(plain, 1), clat(spread, 1), "nullb1's job: the same draws, the same clat");
    // And nullb0's completion draws do not shift its own hrtimer expiry stream: with the
    // expiry off, the completion spread alone gives a different run than with it on.
    String spreadNoExpiry = json(scenario("costs.timer.hrtimer-expiry = 0",
        "\"lognormal(mean=10us, sd=3us)\""));
    assertNotEquals(clat(spread, 0), clat(spreadNoExpiry, 0));
  }

  @Test
  void irqDelivery_delaysADisksCompletions_offByDefault() throws IOException {
    Path p = tmp.resolve("ssd.conf");
    String body = """
        blksim {
          seed = 3
          %s
          machine { cores-per-llc = 1, threads-per-core = 1 }
          devices = [ { type = ssd, name = sdb, size = 8G } ]
          fio.jobs = [\"\"\"
        [r]
        ioengine=psync
        direct=1
        filename=/dev/sdb
        bs=4k
        rw=randread
        runtime=20ms
        time_based
        \"\"\"]
        }
        """;
    Files.writeString(p, body.formatted(""));
    String off = json(p);
    Files.writeString(p, body.formatted("costs.irq.delivery = 0"));
    assertEquals(off, json(p), "0 is the default");
    Files.writeString(p, body.formatted("costs.irq.delivery = \"uniform(20us, 40us)\""));
    String on = json(p);
    assertEquals(on, json(p), "same seed, same JSON");
    double shift = num(clat(on, 0), "mean") - num(clat(off, 0), "mean");
    assertTrue(shift > 25_000 && shift < 35_000, "about 30 us later on average: " + shift);
  }
}
