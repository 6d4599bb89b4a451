package blksim.workload.mm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.IndexedReport;
import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.mm.MmComponent;
import blksim.kernel.mm.MmReport;
import blksim.workload.fio.stats.DiskStats;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import blksim.workload.scenario.ScenarioModelFactory;
import blksim.workload.scenario.ScenarioResults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Buffered writes to a block device through the page cache, its dirty throttling and the
 * flusher, in whole one- or two-CPU runs on null_blk (kernel-model.md §9).
 */
@Timeout(60)
class BufferedWriteTest {
  @TempDir Path dir;

  record Run(JobStats job, MmReport mm, long endNs, DiskStats disk) {}

  Path scenario(String extra, String device, String job) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1, memory = 256M }\n"
        + "  kernel { hz = 250, mode = V4_3_RC1 }\n"
        + extra
        + "  devices = [ " + device + " ]\n"
        + "  fio.jobs = [\"\"\"\n[w]\nfilename=/dev/nullb0\nbs=4k\n" + job + "\n\"\"\"]\n}\n");
    return p;
  }

  Run run(Path p) {
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    Model m = new ScenarioModelFactory().build(s.spec());
    RunOutcome out = LocalRunner.run(m, Partitioning.ONE, 1, ProgressListener.NONE);
    MmReport mm = null;
    for (IndexedReport r : out.reports()) {
      if (r.report().kind().equals(MmComponent.KIND)) {
        mm = MmReport.decode(r.report().payload());
      }
    }
    RunResult rr = ScenarioResults.toRunResult(out, 0);
    return new Run(rr.jobs().get(0), mm, out.stats().simulatedTimeNs(), rr.disks().get(0));
  }

  static final String SLOW = "{ type = null_blk, name = nullb0, size = 1G, irqmode = timer,"
      + " completion-nsec = 200us, hw-queue-depth = 1 }";
  static final String FAST = "{ type = null_blk, name = nullb0, size = 1G, irqmode = timer,"
      + " completion-nsec = 10us, hw-queue-depth = 64 }";

  @Test
  void everyDirtiedPageIsWrittenBack_andEndFsyncWaitsForIt() throws IOException {
    Run r = run(scenario("", SLOW, "rw=write\nsize=64m\nend_fsync=1"));
    assertNotNull(r.mm(), "a buffered writer gets a page cache");
    long pages = (64L << 20) / 4096;
    assertEquals(pages, r.mm().end().nrDirtied());
    assertEquals(pages, r.mm().end().nrWritten(), "end_fsync left nothing dirty");
    assertEquals(0, r.mm().end().dirty());
    assertEquals(0, r.mm().end().writeback());
    // One request at a time, 200 us each; the flusher's bios run on across pagevecs up to
    // BIO_MAX_VECS (256 pages) and the queue splits each at null_blk's max_sectors (255
    // sectors): 9 requests per full bio (8 x 255 + 8 sectors). The device needs at least that
    // many x 200 us; the job's runtime includes the fsync, so it cannot be shorter than that.
    long requests = r.disk().writeIos();
    assertTrue(requests >= pages / 256 * 9, "requests " + requests);
    long deviceNs = pages / 256 * 9 * 200_000L;
    assertTrue(r.job().runtimeNs() >= deviceNs * 99 / 100,
        "runtime " + r.job().runtimeNs() / 1_000_000 + " ms, device needs " + deviceNs / 1_000_000 + " ms");
    // Every bio but the last of a pass is full (256 pages), neither cut at a pagevec (14 pages)
    // nor at the queue's limit (31 pages): a 64 MiB file written in order takes a few more
    // than pages / 256 bios.
    long bios = r.mm().wbs().get(0).bios();
    assertTrue(bios >= pages / 256 && bios < pages / 128, "bios " + bios);
  }

  @Test
  void aSlowDeviceThrottlesTheWriter_aFastOneDoesNot() throws IOException {
    // 256 MiB of memory: dirty limit 20 % = 51.2 MiB, background 10 %; 128 MiB written.
    Run slow = run(scenario("", SLOW, "rw=write\nsize=128m"));
    Run fast = run(scenario("", FAST, "rw=write\nsize=128m"));
    assertTrue(slow.mm().bdpSleeps() > 0, "the slow device's writer paused");
    assertEquals(0, fast.mm().bdpSleeps(), "the fast device keeps dirty memory under freerun");
    long threshKb = slow.mm().threshPages() * 4;
    assertEquals(256L * 1024 * 20 / 100, threshKb, 4);
    // Each pause is at most max_pause: 200 ms capped by the wb's dirty/bandwidth bound.
    assertTrue(slow.mm().bdpMaxPauseNs() <= 200_000_000L);
  }

  @Test
  void dirtyBytesWinOverTheRatio() throws IOException {
    Run r = run(scenario("  vm { dirty_bytes = 8M, dirty_background_bytes = 4M }\n", SLOW,
        "rw=write\nsize=32m"));
    assertEquals(8 * 1024, r.mm().threshPages() * 4);
    assertEquals(4 * 1024, r.mm().backgroundThreshPages() * 4);
  }

  @Test
  void badDirtySettings_exitWithTheKey() throws IOException {
    InputException e = assertThrows(InputException.class, () -> ScenarioLoader.load(
        scenario("  vm { dirty_background_ratio = 30, dirty_ratio = 20 }\n", SLOW,
            "rw=write\nsize=1m"), List.of(), Map.of()));
    assertTrue(e.getMessage().contains("vm.dirty_background_ratio"), e.getMessage());
    e = assertThrows(InputException.class, () -> ScenarioLoader.load(
        scenario("  partitions = cpu\n", SLOW, "rw=write\nsize=1m"), List.of(), Map.of()));
    assertTrue(e.getMessage().contains("partitions"), e.getMessage());
    e = assertThrows(InputException.class, () -> ScenarioLoader.load(
        scenario("  vm { dirty_bytes = 100 }\n", SLOW, "rw=write\nsize=1m"), List.of(),
        Map.of()));
    assertTrue(e.getMessage().contains("vm.dirty_bytes"), e.getMessage());
  }

  @Test
  void sameSeed_sameResults() throws IOException {
    Path p = scenario("", SLOW, "rw=randwrite\nsize=32m\nend_fsync=1");
    Run a = run(p);
    Run b = run(p);
    assertEquals(a.endNs(), b.endNs());
    assertEquals(a.mm().bdpSleeps(), b.mm().bdpSleeps());
    assertEquals(a.mm().wbs().get(0).bios(), b.mm().wbs().get(0).bios());
  }
}
