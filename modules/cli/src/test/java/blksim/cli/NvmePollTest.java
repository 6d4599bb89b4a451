package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.device.NvmeParams;
import blksim.workload.scenario.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * nvme {@code poll-queues}: io_uring hipri at QD1 on a 2-CPU machine completes by polling, with
 * no interrupt time, one completion interrupt ({@code costs.nvme.complete}, 1000 ns) faster
 * than the same job without poll queues (unpolled, the job spinning on interrupt completions);
 * the key's bounds are refused naming it.
 */
@Timeout(300)
class NvmePollTest {
  @TempDir Path dir;

  static final String JOB = "[j]\nioengine=io_uring\nhipri=1\ndirect=1\nfilename=/dev/nvme0n1\n"
      + "bs=4k\nrw=randread\niodepth=1\nruntime=5ms\ntime_based\n";

  Path scenario(String mode, String keys) throws IOException {
    Files.writeString(dir.resolve("job.fio"), JOB);
    Path p = dir.resolve("s-" + mode + "-" + keys.hashCode() + ".conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { sockets = 1, cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  kernel.mode = " + mode + "\n"
        + "  devices = [ { type = nvme, name = nvme0n1" + keys + " } ]\n"
        + "  fio.job-files = [\"job.fio\"]\n}\n");
    return p;
  }

  MainTest.Result run(String mode, String keys, String... extra) throws IOException {
    String[] args = new String[2 + extra.length];
    args[0] = "run";
    args[1] = scenario(mode, keys).toString();
    System.arraycopy(extra, 0, args, 2, extra.length);
    return MainTest.cli(args);
  }

  static double number(String out, String regex) {
    Matcher m = Pattern.compile(regex).matcher(out);
    assertTrue(m.find(), regex + " in\n" + out);
    return Double.parseDouble(m.group(1));
  }

  static double clatNs(String out) {
    return number(out, "clat \\(nsec\\): min=[0-9]+, max=[0-9]+, avg=([0-9.]+)");
  }

  /** Every CPU's irq share in the JSON report, summed. */
  static double irq(String json) {
    Matcher m = Pattern.compile("\"irq\" : ([0-9.]+)").matcher(json);
    double sum = 0;
    int n = 0;
    while (m.find()) {
      sum += Double.parseDouble(m.group(1));
      n++;
    }
    assertTrue(n > 0, json);
    return sum;
  }

  @Test
  void hipri_withPollQueues_completesWithoutInterrupts_oneCompletionFaster() throws IOException {
    MainTest.Result polled = run("V6_9", ", poll-queues = 1", "--output-format=json");
    MainTest.Result unpolled = run("V6_9", "", "--output-format=json");
    assertEquals(0, polled.code(), polled.err());
    assertEquals(0, unpolled.code(), unpolled.err());
    assertEquals(0.0, irq(polled.out()), 0.0, polled.out());
    assertTrue(irq(unpolled.out()) > 0, "unpolled completions are interrupts\n" + unpolled.out());
    MainTest.Result p = run("V6_9", ", poll-queues = 1");
    MainTest.Result u = run("V6_9", "");
    double gain = clatNs(u.out()) - clatNs(p.out());
    assertEquals(1000, gain, 200, "QD1 clat gain of polling\n" + p.out() + u.out());
    assertTrue(number(p.out(), "ctx=([0-9]+)") == 0, p.out());
  }

  @Test
  void v6_13_runsWithPollQueues_andNamesTheKeyWithout() throws IOException {
    MainTest.Result ok = run("V6_13", ", poll-queues = 2");
    assertEquals(0, ok.code(), ok.err());
    MainTest.Result r = run("V6_13", "");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("nvme device poll-queues = 1"), r.err());
    assertFalse(r.err().contains("Exception"), r.err());
  }

  @Test
  void pollQueues_takeTheirQueuesFromTheDefaultMap() throws IOException {
    NvmeParams n = (NvmeParams) ScenarioLoader.load(
        scenario("V6_9", ", io-queues = 8, poll-queues = 2"), List.of()).devices().get(0);
    assertEquals(2, n.pollQueues());
    assertEquals(6, n.hwQueues(64), "io-queues 8 less 2 poll queues");
    assertEquals(2, n.hwQueues(2), "a queue per CPU while the controller has enough");
  }

  @Test
  void pollQueues_notBelowIoQueues_orAboveTheCpus_isRefusedNamingTheKey() throws IOException {
    MainTest.Result r = run("V6_9", ", io-queues = 4, poll-queues = 4");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("poll-queues") && r.err().contains("below io-queues (4)"),
        r.err());
    assertFalse(r.err().contains("Exception"), r.err());
    MainTest.Result c = run("V6_9", ", poll-queues = 3");
    assertEquals(2, c.code(), c.err());
    assertTrue(c.err().contains("poll-queues cannot exceed the CPUs (2)"), c.err());
    assertFalse(c.err().contains("Exception"), c.err());
  }

  @Test
  void polledRun_twice_givesTheSameJson() throws IOException {
    String a = run("V6_9", ", poll-queues = 1", "--output-format=json").out();
    String b = run("V6_9", ", poll-queues = 1", "--output-format=json").out();
    String strip = "(?m)^.*\"(time|timestamp|timestamp_ms|wall_time_ns"
        + "|events_per_wall_second)\".*$";
    assertTrue(a.contains("\"nvme0n1\""), a);
    assertEquals(a.replaceAll(strip, ""), b.replaceAll(strip, ""));
  }
}
