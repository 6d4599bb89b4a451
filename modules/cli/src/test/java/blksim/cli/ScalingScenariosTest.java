package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.workload.fio.FioJob;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scaling experiment's scenarios (scenarios/scaling/, issue 15 item 6) stay valid: every one
 * loads at every machine size of the README's sweep with one job per CPU, and runs briefly at the
 * smallest size through {@code sweep}, as the README's commands run it.
 */
class ScalingScenariosTest {
  static final Path DIR = Path.of("../../scenarios/scaling");

  /** The README's {@code --vary machine.cores-per-llc=...}: 8 to 1,024 CPUs. */
  static final List<Integer> CORES_PER_LLC = List.of(2, 8, 32, 128, 256);

  static List<Path> scenarios() throws IOException {
    try (Stream<Path> s = Files.list(DIR)) {
      List<Path> l = s.filter(p -> p.toString().endsWith(".conf")).sorted().toList();
      assertEquals(6, l.size(),
          "brd and zram nowait on/off, null_blk psync and its one-queue mq-deadline case: " + l);
      return l;
    }
  }

  @Test
  @Timeout(60)
  void everyJobFile_hasOneSectionPerSize_withOneJobPerCpu() throws IOException {
    try (Stream<Path> s = Files.list(DIR)) {
      List<Path> files = s.filter(p -> p.toString().endsWith(".fio")).sorted().toList();
      assertEquals(3, files.size(), files.toString());
      for (Path f : files) {
        String text = Files.readString(f);
        for (int c : CORES_PER_LLC) {
          assertTrue(text.contains("\n[c" + c + "]\nnumjobs=" + 4 * c + "\n"),
              f + ": section [c" + c + "] runs 4 x " + c + " jobs");
        }
      }
    }
  }

  @Test
  @Timeout(60)
  void everyScenario_loadsWithOneJobPerCpu_andTheLargestSizeLoads() throws IOException {
    for (Path p : scenarios()) {
      int c = CORES_PER_LLC.get(0);
      Scenario s = ScenarioLoader.load(p, List.of());
      assertEquals(4 * c, s.topology().cpuCount(), p + ": on its own, the smallest size");
      assertEquals(4 * c, s.jobs().size(), p + ": one job per CPU");
    }
    int c = CORES_PER_LLC.get(CORES_PER_LLC.size() - 1);
    Path p = DIR.resolve("brd-nowait-on.conf");
    Scenario s = ScenarioLoader.load(p, List.of("machine.cores-per-llc=" + c));
    assertEquals(4 * c, s.topology().cpuCount());
    assertEquals(4 * c, s.jobs().size(), "the varied key picks the job file's section too");
    for (FioJob j : s.jobs()) {
      assertEquals("c" + c, j.name(), "only the section of this size runs");
    }
  }

  @Test
  @Timeout(60)
  void everyScenario_runsItsSmallestSize_throughSweep() throws IOException {
    for (Path p : scenarios()) {
      MainTest.Result r = MainTest.cli("sweep", p.toString(), "--vary",
          "machine.cores-per-llc=" + CORES_PER_LLC.get(0), "--set", "max-time=300us",
          "--metric", "iops=jobs.0.read.iops", "--metric", "sys=jobs.0.sys_cpu", "--format",
          "csv", "--host", "local");
      assertEquals(0, r.code(), p + ": " + r.err());
      String[] lines = r.out().strip().split("\n");
      assertEquals("machine.cores-per-llc,iops,sys", lines[0], r.out());
      assertEquals(2, lines.length, r.out());
      String[] row = lines[1].split(",");
      assertEquals(String.valueOf(CORES_PER_LLC.get(0)), row[0]);
      assertTrue(Double.parseDouble(row[1]) > 0, p + " reads: " + r.out());
      assertTrue(Double.parseDouble(row[2]) > 0, p + " spends system time: " + r.out());
      assertFalse(r.err().contains("Exception"), r.err());
    }
  }

  /**
   * The shared-queue case's mechanism (README.md here, "Where a shared queue stops it"): from 8
   * to 32 CPUs, null_blk with one mq-deadline queue and contended dd->lock does fewer I/Os per
   * CPU, every I/O spins longer on the lock, and with contention off nothing spins.
   */
  @Test
  @Timeout(60)
  void sharedQueueScenario_spinsLongerOnDdLock_asTheMachineGrows() {
    Path p = DIR.resolve("nullblk-mq-deadline-1q.conf");
    double[][] on = sweepSpin(p, "on");
    double[][] off = sweepSpin(p, "off");
    // rows: 8 and 32 CPUs; columns: I/Os per CPU, spin ns per I/O
    assertTrue(on[1][0] < on[0][0], "per-CPU I/Os fall from 8 to 32 CPUs: " + on[0][0] + " -> "
        + on[1][0]);
    assertTrue(on[0][1] > 0, "8 CPUs already contend for dd->lock");
    assertTrue(on[1][1] > 2 * on[0][1], "spin per I/O grows with the machine: " + on[0][1]
        + " -> " + on[1][1]);
    assertEquals(0, off[0][1] + off[1][1], "contention off: no spin is charged");
    assertTrue(off[1][0] > on[1][0], "without the spin, 32 CPUs do more I/Os each");
  }

  private static double[][] sweepSpin(Path p, String contention) {
    // The SMT factor of generic-x86.conf (issue 15 item 4) is pinned off here: it slows the
    // 8-CPU case's fully busy cores by 1.54 and, in 300 us, hides the lock's per-CPU fall
    // (27.3 -> 29.0 I/Os per CPU with it, 35.8 -> 32.5 without); this test isolates dd->lock.
    MainTest.Result r = MainTest.cli("sweep", p.toString(), "--vary", "machine.cores-per-llc=2,8",
        "--set", "max-time=300us", "--set", "kernel.spinlock-contention=" + contention,
        "--set", "costs.sched.smt-slowdown=1",
        "--metric", "ios=disk_util.0.read_ios", "--metric",
        "spin=blksim.queues.nullb0.sched_lock_spin_ns", "--format", "csv", "--host", "local");
    assertEquals(0, r.code(), r.err());
    String[] lines = r.out().strip().split("\n");
    assertEquals(3, lines.length, r.out());
    double[][] rows = new double[2][];
    for (int i = 0; i < 2; i++) {
      String[] f = lines[i + 1].split(",");
      double cpus = 4 * Double.parseDouble(f[0]);
      double ios = Double.parseDouble(f[1]);
      rows[i] = new double[] {ios / cpus, Double.parseDouble(f[2]) / ios};
    }
    return rows;
  }
}
