package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scenario's {@code replay} section: trace devices mapped to simulated devices (one job
 * each, keeping the devices' relative timing), the four timing modes, and its bad inputs.
 */
@Timeout(120)
class ReplaySectionTest {
  @TempDir Path dir;

  static final int N = 20;
  static final long GAP_NS = 1_000_000;
  static final long B_START_NS = 30_000_000;

  /**
   * A blkparse trace of Q events: N 4 KiB reads on 8,16 every ms from 0, then N 4 KiB writes
   * on 8,32 every ms from 30 ms (written by the project in blkparse's default layout).
   */
  Path trace() throws IOException {
    StringBuilder b = new StringBuilder();
    int seq = 1;
    for (int i = 0; i < N; i++) {
      b.append(line("8,16", seq++, i * GAP_NS, "R", 2048 + 8L * i));
    }
    for (int i = 0; i < N; i++) {
      b.append(line("8,32", seq++, B_START_NS + i * GAP_NS, "W", 4096 + 16L * i));
    }
    Path p = dir.resolve("two.blkparse");
    Files.writeString(p, b.toString());
    return p;
  }

  static String line(String dev, int seq, long ns, String rwbs, long sector) {
    return String.format("%5s %3d %8d %5d.%09d %5d  Q %3s %d + 8 [app]%n", dev, 0, seq,
        ns / 1_000_000_000L, ns % 1_000_000_000L, 4000, rwbs, sector);
  }

  RunResult run(String replay) throws IOException {
    return run(replay, Partitioning.ONE);
  }

  RunResult run(String replay, Partitioning part) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 4, threads-per-core = 1 }\n"
        + "  devices = [\n"
        + "    { type = null_blk, name = nullb0, size = 1G, irqmode = timer,"
        + " completion-nsec = 20us }\n"
        + "    { type = null_blk, name = nullb1, size = 1G, irqmode = timer,"
        + " completion-nsec = 20us }\n  ]\n"
        + "  replay { trace = \"two.blkparse\"\n" + replay + "\n  }\n}\n");
    trace();
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), part,
        part == Partitioning.ONE ? 1 : 2, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0);
  }

  static JobStats job(RunResult r, String name) {
    for (JobStats j : r.jobs()) {
      if (j.info().jobname().equals(name)) {
        return j;
      }
    }
    throw new AssertionError("no job " + name + " in " + r.jobs().size() + " jobs");
  }

  @Test
  void devicesMap_oneJobPerSimulatedDevice_keepingEachDevicesRecordsAndTheirTiming()
      throws IOException {
    RunResult r = run("devices = [\"8,16=nullb0\", \"8,32=/dev/nullb1\"]");
    assertEquals(2, r.jobs().size());
    JobStats a = job(r, "replay-nullb0");
    JobStats b = job(r, "replay-nullb1");
    assertEquals(N, a.totalIos(0));
    assertEquals(0, a.totalIos(1));
    assertEquals(0, b.totalIos(0));
    assertEquals(N, b.totalIos(1));
    assertEquals(N, a.replay().issued());
    assertEquals(N, b.replay().issued());
    // Open loop at the recorded times: device 8,32's first record waits from the trace's start,
    // so its job ends near 30 ms + 19 ms, not 19 ms after it started.
    long aSpan = (N - 1) * GAP_NS;
    long bEnd = B_START_NS + (N - 1) * GAP_NS;
    assertTrue(a.runtimeNs() >= aSpan && a.runtimeNs() < aSpan * 1.1, "a " + a.runtimeNs());
    assertTrue(b.runtimeNs() >= bEnd && b.runtimeNs() < bEnd * 1.1, "b " + b.runtimeNs());
  }

  @Test
  void timingModes_recordedScaledAfapClosedLoop() throws IOException {
    long span = B_START_NS + (N - 1) * GAP_NS;
    JobStats rec = run("redirect = nullb0").jobs().get(0);
    assertEquals(N, rec.totalIos(0));
    assertEquals(N, rec.totalIos(1));
    assertTrue(rec.runtimeNs() >= span && rec.runtimeNs() < span * 1.1, "rec " + rec.runtimeNs());
    JobStats scaled = run("redirect = nullb0\ntiming = scaled\ntime-scale = 400").jobs().get(0);
    assertTrue(Math.abs(scaled.runtimeNs() - span / 4.0) < 0.1 * span / 4,
        "scaled " + scaled.runtimeNs() + " vs " + span / 4);
    JobStats afap = run("redirect = nullb0\ntiming = afap").jobs().get(0);
    assertEquals(2 * N, afap.replay().issued());
    // one at a time: each I/O waits for the previous one's 20 us completion
    assertTrue(afap.runtimeNs() >= 2 * N * 20_000L && afap.runtimeNs() < span / 20,
        "afap " + afap.runtimeNs());
    JobStats closed = run("redirect = nullb0\ntiming = closed-loop\nqueue-depth = 8")
        .jobs().get(0);
    assertEquals(2 * N, closed.replay().issued());
    assertTrue(closed.runtimeNs() < afap.runtimeNs() / 2,
        "closed loop at QD 8 " + closed.runtimeNs() + " vs one at a time " + afap.runtimeNs());
  }

  @Test
  void aReplayIsTheSameWhateverThePartitioning() throws IOException {
    String rep = "devices = [\"8,16=nullb0\", \"8,32=nullb1\"]\ntiming = closed-loop";
    RunResult one = run(rep, Partitioning.ONE);
    RunResult cpu = run(rep, Partitioning.parse("cpu"));
    for (int k = 0; k < 2; k++) {
      assertTrue(java.util.Arrays.equals(one.jobs().get(k).encode(),
          cpu.jobs().get(k).encode()), "job " + k);
    }
  }

  @Test
  void anUnmappedTraceDevice_stopsTheRunNamingItAndTheKey() throws IOException {
    InputException e = assertThrows(InputException.class,
        () -> run("devices = [\"8,16=nullb0\"]"));
    assertTrue(e.getMessage().contains("'8,32'") && e.getMessage().contains("replay.devices"),
        e.getMessage());
    assertTrue(e.getMessage().contains("two.blkparse:" + (N + 1)), e.getMessage());
  }

  @Test
  void badSections_areRefusedWithTheKeyAndTheRule() throws IOException {
    for (String[] c : new String[][] {
        {"", "replay.redirect"},
        {"redirect = nullb0\ndevices = [\"8,16=nullb1\"]", "not both"},
        {"redirect = sdq", "no simulated device 'sdq'"},
        {"devices = [\"8,16\"]", "TRACE=DEV"},
        {"devices = [\"8,16=nullb0\", \"8,16=nullb1\"]", "mapped twice"},
        {"redirect = nullb0\ntime-scale = 200", "timing = scaled"},
        {"redirect = nullb0\ntiming = fast", "timing"},
        {"redirect = nullb0\nformat = csv", "unknown trace format"},
        {"redirect = nullb0\nstart = 2s\nend = 1s", "replay.end"}}) {
      InputException e = assertThrows(InputException.class, () -> run(c[0]), c[0]);
      assertTrue(e.getMessage().contains(c[1]), c[1] + " in " + e.getMessage());
      assertTrue(e.getMessage().contains("s.conf"), e.getMessage());
    }
  }
}
