package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Recovery with real JVMs on loopback: a node killed (SIGKILL) in the middle of a distributed
 * sweep has its runs re-run elsewhere and the sweep prints the local sweep's bytes; the
 * survivor downs the dead member and takes the next sweep; it stops soon after SIGTERM.
 */
class SweepClusterTest {
  /** Where each node's output goes (a file: a pipe read while the child exits loses its end). */
  private static final java.util.Map<Process, Path> OUTPUT =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** A {@code blksim node} child JVM, once it says it is up. */
  static Process node(int port, String... more) throws Exception {
    return node(port, List.of(), more);
  }

  /** A node with extra JVM options (e.g. {@code -Dblksim.sweep.trace=true}). */
  static Process node(int port, List<String> jvm, String... more) throws Exception {
    Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> cmd = new ArrayList<>(List.of(javaBin.toString(), "-Xmx384m",
        // No warm-up run: the kill test needs every member to take a run at once, and a node
        // still warming up (seconds on a loaded machine) leaves its share to the others.
        "-Dblksim.node.warm-up=0"));
    cmd.addAll(jvm);
    cmd.addAll(List.of("-cp",
        System.getProperty("java.class.path"), Main.class.getName(), "node", "--port",
        Integer.toString(port)));
    cmd.addAll(List.of(more));
    Path log = java.nio.file.Files.createTempFile("blksim-node-", ".log");
    log.toFile().deleteOnExit();
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
        .start();
    OUTPUT.put(p, log);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (true) {
      String text = java.nio.file.Files.readString(log, StandardCharsets.UTF_8);
      int at = text.indexOf("blksim node up at");
      if (at >= 0) {
        int eol = text.indexOf('\n', at);
        String line = eol < 0 ? text.substring(at) : text.substring(at, eol);
        assertTrue(line.contains("blksim node up at pekko://blksim@127.0.0.1:" + port), line);
        return p;
      }
      if (!p.isAlive() || System.nanoTime() > deadline) {
        p.destroyForcibly();
        throw new AssertionError("node did not come up: " + text);
      }
      Thread.sleep(50);
    }
  }

  /** Whether a traced node's log shows a run started and not ended. */
  static boolean holdsRun(Path log) throws java.io.IOException {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("worker: run (\\d+) (start|end)")
        .matcher(java.nio.file.Files.readString(log, StandardCharsets.UTF_8));
    java.util.Set<String> open = new java.util.HashSet<>();
    while (m.find()) {
      if (m.group(2).equals("start")) {
        open.add(m.group(1));
      } else {
        open.remove(m.group(1));
      }
    }
    return !open.isEmpty();
  }

  @Test
  @Timeout(420)
  void nodeKilledMidSweep_itsRunsAreRerun_andTheSurvivorTakesTheNextSweep() throws Exception {
    int port = MultiJvmTest.freePort();
    int port2 = MultiJvmTest.freePort();
    Process survivor = node(port);
    Process victim = null;
    try {
      // The victim traces its runs, so the test kills it while it holds one (and not, as when it
      // watched the progress lines, at a moment that depends on the machine's load).
      victim = node(port2, List.of("-Dblksim.sweep.trace=true"), "--seed", "127.0.0.1:" + port);
      // Runs long enough (about a second of wall time each) that the victim still holds its run
      // when killed a poll (50 ms) after it started it.
      List<String> args = SweepTest.args("--vary", "devices.0.irqmode=none,softirq,timer",
          "--vary", "kernel.preempt=none,full", "--format", "csv", "--set", "max-time=300ms");
      MainTest.Result local = SweepTest.sweep(args);
      assertEquals(0, local.code(), local.err());

      List<String> joined = new ArrayList<>(args);
      joined.addAll(List.of("--join", "127.0.0.1:" + port, "--nodes", "3"));
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      CompletableFuture<Integer> code = CompletableFuture.supplyAsync(() -> Main.execute(
          joined.toArray(new String[0]), new PrintWriter(out), new PrintWriter(err)));
      // Kill the second node while it holds a run: its trace shows a run started, not ended.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
      while (!holdsRun(OUTPUT.get(victim)) && !code.isDone() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      victim.destroyForcibly();
      assertTrue(!code.isDone(), "the sweep ended before the victim held a run: " + err);
      assertEquals(0, code.get(300, TimeUnit.SECONDS), err.toString());
      assertEquals(local.out(), out.toString());
      String e = err.toString();
      assertTrue(e.contains("127.0.0.1:" + port2 + ", which became unreachable")
          || e.contains("127.0.0.1:" + port2 + ", which left"), e);
      assertTrue(e.contains("re-run on pekko://blksim@127.0.0.1:"), e);
      assertTrue(e.contains("run(s) re-run after their node left"), e);

      // The survivor has downed the dead member: the next sweep joins it and runs.
      List<String> next = SweepTest.args("--vary", "devices.0.irqmode=none", "--vary",
          "kernel.preempt=none", "--format", "csv", "--set", "max-time=300ms", "--join",
          "127.0.0.1:" + port);
      MainTest.Result again = SweepTest.sweep(next);
      assertEquals(0, again.code(), again.err());
      assertEquals(local.out().split("\n")[1], again.out().split("\n")[1]);

      // SIGTERM: the node leaves and its JVM exits promptly (README target: 2 s).
      long t0 = System.nanoTime();
      survivor.destroy();
      assertTrue(survivor.waitFor(5, TimeUnit.SECONDS), "node still running 5 s after SIGTERM");
      double s = (System.nanoTime() - t0) / 1e9;
      System.out.printf("node stopped %.2f s after SIGTERM%n", s);
      // A node has no result file: it says it stopped, not that a result was not written.
      String said = java.nio.file.Files.readString(OUTPUT.get(survivor), StandardCharsets.UTF_8);
      assertTrue(said.contains("blksim: node stopped"), said);
      assertTrue(!said.contains("no result file"), said);
    } finally {
      if (victim != null) {
        victim.destroyForcibly();
      }
      survivor.destroyForcibly();
    }
  }
}
