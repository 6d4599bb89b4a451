package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.workload.fio.stats.CpuUtil;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;
import blksim.workload.fio.stats.ThreadStat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio's cpus_allowed, cpumask, cpus_allowed_policy and nice on a 4-CPU machine (one LLC): where
 * jobs are placed, that wakeup placement keeps them in their set, and that nice weights share a
 * CPU as CFS does.
 */
@Timeout(60)
class AffinityTest {
  @TempDir Path dir;

  RunResult run(String devices, String fio, String... extra) throws IOException {
    return runFor("2ms", devices, fio, extra);
  }

  RunResult runFor(String runtime, String devices, String fio, String... extra)
      throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 4, threads-per-core = 1 }\n"
        + String.join("\n", extra) + "\n"
        + "  devices = [ " + devices + " ]\n"
        + "  fio.jobs = [\"\"\"\n[global]\ndirect=1\nbs=4k\nrw=randread\nruntime=" + runtime
        + "\ntime_based\n" + fio + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0);
  }

  static ThreadStat thread(RunResult r, String comm, int nth) {
    return r.threads().stream().filter(t -> t.comm().equals(comm)).skip(nth).findFirst()
        .orElseThrow();
  }

  static long ios(JobStats j) {
    return j.totalIos(0) + j.totalIos(1);
  }

  @Test
  void niceWeights_shareOneAllowedCpu_asCfsDoes() throws IOException {
    // Two CPU-bound jobs on CPU 2 (brd completes inline): CFS gives hi a full slice (18 ms on 4
    // CPUs), lo its minimum granularity (2.25 ms), after which lo's vruntime, growing 88761/15
    // times faster, keeps it off the CPU while hi runs (100 ms, past the end of lo's 50 ms).
    RunResult r = runFor("100ms", "{ type = brd, name = ram0, size = 64M }",
        "filename=/dev/ram0\ncpus_allowed=2\n[hi]\nnice=-20\n[lo]\nnice=19\nruntime=50ms\n");
    assertEquals(2, thread(r, "hi", 0).cpu());
    assertEquals(2, thread(r, "lo", 0).cpu());
    long hi = ios(r.jobs().get(0));
    long lo = ios(r.jobs().get(1));
    assertTrue(hi > 15 * Math.max(1, lo), "weights 88761 : 15: " + hi + " vs " + lo);
    assertTrue(lo > 0, "lo ran its minimum granularity");
    for (CpuUtil c : r.cpus()) {
      if (c.cpu() != 2) {
        assertTrue(c.userNs() + c.sysNs() == 0, "CPU " + c.cpu() + " stays idle: " + c);
      }
    }
  }

  @Test
  void splitPolicy_givesEachJobOneCpuOfTheSet_cpumaskIsABitMask() throws IOException {
    RunResult r = run("{ type = brd, name = ram0, size = 64M }",
        "filename=/dev/ram0\n[s]\ncpus_allowed=1-2\ncpus_allowed_policy=split\nnumjobs=2\n"
            + "[m]\ncpumask=0x8\n");
    assertEquals(1, thread(r, "s", 0).cpu());
    assertEquals(2, thread(r, "s", 1).cpu());
    assertEquals(3, thread(r, "m", 0).cpu());
  }

  @Test
  void wakePlacement_neverLeavesTheAllowedSet() throws IOException {
    String nullb = "{ type = null_blk, name = nullb0, size = 1G, irqmode = timer,"
        + " completion-nsec = 10us }";
    String fio = "filename=/dev/nullb0\n[j]\ncpus_allowed=0-1\nnumjobs=3\n";
    RunResult r = run(nullb, fio, "kernel.wake-placement = llc");
    long moves = r.threads().stream().mapToLong(ThreadStat::migrations).sum();
    assertTrue(moves > 0, "three jobs on two CPUs do move: " + moves);
    for (CpuUtil c : r.cpus()) {
      if (c.cpu() >= 2) {
        assertEquals(0, c.userNs(), "no fio user time on CPU " + c.cpu());
      }
    }
    RunResult free = run(nullb, "filename=/dev/nullb0\n[j]\nnumjobs=4\n",
        "kernel.wake-placement = llc");
    assertTrue(free.cpus().stream().filter(c -> c.cpu() >= 2).mapToLong(CpuUtil::userNs).sum()
        > 0, "without the mask the same jobs use CPUs 2-3");
  }
}
