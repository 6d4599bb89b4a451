package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.syscall.SyscallParams;
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
 * O_DIRECT's per-page cost (issue 10 item 8): the user buffer is pinned page by page at
 * submission and unpinned at completion; every page after the first costs
 * {@code costs.mm.dio-pin-page + costs.mm.dio-unpin-page} of system time, and a 4 KiB I/O costs
 * what it did before.
 */
@Timeout(60)
class DirectIoPageCostTest {
  @TempDir Path dir;

  // max-sectors 1 MiB: a 128 KiB bio stays one request (at the default 255 sectors the block
  // layer splits it in two, and the second request's submit cost would be counted here too).
  private static final String NULLB =
      "{ type = null_blk, name = nullb0, size = 1G, max-sectors = 1M }";
  private static final String XFS = "  filesystems = [ { type = xfs, device = nullb0,"
      + " mount = /mnt/t } ]\n";

  private Scenario load(String job, String fs, String... overrides) throws IOException {
    Path p = dir.resolve("d.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [" + NULLB + "]\n" + fs
        + "  fio.jobs = [\"\"\"\n[j]\ndirect=1\nruntime=5ms\ntime_based=1\n" + job
        + "\n\"\"\"]\n}\n");
    return ScenarioLoader.load(p, List.of(overrides), Map.of());
  }

  private static JobStats run(Scenario s) {
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    RunResult r = ScenarioResults.toRunResult(out, 0);
    return r.jobs().get(0);
  }

  /** System time per completed I/O of the job, reads and writes together. */
  private static double sysPerIo(JobStats j) {
    long ios = j.totalIos(0) + j.totalIos(1);
    assertTrue(ios > 100, ios + " I/Os");
    return (double) j.sysNs() / ios;
  }

  private static final String[] NO_PIN = {"costs.mm.dio-pin-page=0", "costs.mm.dio-unpin-page=0"};

  private static String blockJob(String engine, String rw, String bs) {
    return "ioengine=" + engine + "\nrw=" + rw + "\nbs=" + bs + "\nfilename=/dev/nullb0\n"
        + (engine.equals("psync") ? "" : "iodepth=4\n");
  }

  @Test
  void psync_128k_costs_31_pagesMoreThan_4k() throws IOException {
    Scenario s4 = load(blockJob("psync", "read", "4k"), "");
    Scenario s128 = load(blockJob("psync", "read", "128k"), "");
    SyscallParams c = s128.syscalls();
    long perPage = c.dioPinPageNs() + c.dioUnpinPageNs();
    assertTrue(perPage > 0, "the profile's defaults charge something");
    double diff = sysPerIo(run(s128)) - sysPerIo(run(s4));
    assertEquals(31.0 * perPage, diff, 0.03 * 31 * perPage,
        "128 KiB pins 32 pages, 31 beyond the first");
  }

  @Test
  void fourKib_isUnchangedByThePerPageCosts() throws IOException {
    for (String engine : List.of("psync", "libaio", "io_uring")) {
      JobStats with = run(load(blockJob(engine, "randread", "4k"), "",
          "costs.mm.dio-pin-page=5us", "costs.mm.dio-unpin-page=5us"));
      JobStats without = run(load(blockJob(engine, "randread", "4k"), "", NO_PIN));
      assertEquals(without.totalIos(0), with.totalIos(0), engine);
      assertEquals(without.sysNs(), with.sysNs(), engine);
    }
  }

  @Test
  void largeBlocks_payPinAndUnpin_onEveryDirectPath() throws IOException {
    for (String engine : List.of("psync", "libaio", "io_uring")) {
      for (String rw : List.of("read", "write")) {
        Scenario with = load(blockJob(engine, rw, "64k"), "");
        long perPage = with.syscalls().dioPinPageNs() + with.syscalls().dioUnpinPageNs();
        double diff = sysPerIo(run(with)) - sysPerIo(run(load(blockJob(engine, rw, "64k"), "",
            NO_PIN)));
        assertEquals(15.0 * perPage, diff, 0.05 * 15 * perPage, engine + " " + rw);
      }
    }
  }

  @Test
  void xfsFileODirect_paysThePerPageCost() throws IOException {
    for (String engine : List.of("psync", "libaio")) {
      String job = "ioengine=" + engine + "\nrw=write\nbs=128k\nsize=256m\n"
          + "filename=/mnt/t/f\n" + (engine.equals("psync") ? "" : "iodepth=4\n");
      Scenario with = load(job, XFS);
      long perPage = with.syscalls().dioPinPageNs() + with.syscalls().dioUnpinPageNs();
      double diff = sysPerIo(run(with)) - sysPerIo(run(load(job, XFS, NO_PIN)));
      assertEquals(31.0 * perPage, diff, 0.05 * 31 * perPage, engine);
    }
  }

  @Test
  void ioUringFixedbufs_pinsNothingPerIo() throws IOException {
    String job = blockJob("io_uring", "read", "128k");
    JobStats fixed = run(load(job + "fixedbufs=1\n", ""));
    JobStats noPin = run(load(job, "", NO_PIN));
    JobStats pinned = run(load(job, ""));
    assertEquals(sysPerIo(noPin), sysPerIo(fixed), 0.01 * sysPerIo(noPin));
    assertTrue(sysPerIo(pinned) > sysPerIo(fixed) + 1000, sysPerIo(pinned) + " vs "
        + sysPerIo(fixed));
  }
}
