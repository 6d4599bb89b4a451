package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.IndexedReport;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.mm.MmComponent;
import blksim.kernel.mm.MmReport;
import blksim.kernel.sched.CpuReport;
import blksim.kernel.sched.TaskReport;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.thread.FioJobThread;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio reading the files of a directory= job through the page cache: fio's fadvise hint
 * (SEQUENTIAL doubles the readahead window, RANDOM turns it off), readahead batching the disk
 * reads, and a second pass served from the cache.
 */
@Timeout(120)
class FioFileReadTest {
  @TempDir Path dir;

  record Run(long diskReads, long pgpginKiB, long bytesRead) {}

  private Run run(String job) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1, memory = 512M }\n"
        + "  devices = [ { type = ssd, name = sdb, size = 4G } ]\n"
        + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/t } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\ndirectory=/mnt/t/d\nbs=4k\nsize=4m\n" + job
        + "\n\"\"\"]\n}\n");
    return runScenario(p);
  }

  /** Runs scenario {@code p} in one partition: disk reads, pgpgin and the bytes fio read. */
  static Run runScenario(Path p) throws IOException {
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    long reads = 0;
    long pgpgin = 0;
    long bytes = 0;
    for (IndexedReport r : out.reports()) {
      if (r.report().kind().equals(MmComponent.KIND)) {
        pgpgin = MmReport.decode(r.report().payload()).pgpgin();
      }
      if (r.report().kind().equals(CpuReport.KIND)) {
        CpuReport c = CpuReport.decode(r.report().payload());
        for (DiskCounters.Snapshot d : c.disks()) {
          reads += d.readIos();
        }
        for (TaskReport t : c.tasks()) {
          if (t.kind().equals(FioJobThread.KIND)) {
            bytes += JobStats.decode(t.payload()).ioBytes(0);
          }
        }
      }
    }
    return new Run(reads, pgpgin, bytes);
  }

  @Test
  void sequentialRead_readsTheFileOnce_inReadaheadWindows() throws IOException {
    Run r = run("rw=read");
    assertEquals(4L << 20, r.bytesRead());
    assertEquals(4096, r.pgpginKiB(), "the 4 MiB file came from the disk once");
    // 1024 pages in windows that grow to 256 KiB (128 KiB doubled by FADV_SEQUENTIAL), each
    // split into requests of at most max_sectors: far fewer than one read per 4 KiB.
    assertTrue(r.diskReads() > 4 && r.diskReads() < 1024 / 8, "disk reads " + r.diskReads());
  }

  @Test
  void fadviseHint_zero_leavesTheWindowUndoubled_andRandomTurnsReadaheadOff()
      throws IOException {
    Run hinted = run("rw=read");
    Run plain = run("rw=read\nfadvise_hint=0");
    Run random = run("rw=read\nfadvise_hint=random");
    assertEquals(4096, plain.pgpginKiB());
    // 128 KiB windows instead of 256 KiB ones: more, smaller reads.
    assertTrue(plain.diskReads() > hinted.diskReads(),
        plain.diskReads() + " vs " + hinted.diskReads());
    // FADV_RANDOM on a sequential reader: one page per read.
    assertTrue(random.diskReads() > 900, "disk reads " + random.diskReads());
  }

  @Test
  void randomRead_getsNoReadahead_onePageAtATime() throws IOException {
    Run r = run("rw=randread");
    assertEquals(4L << 20, r.bytesRead());
    assertEquals(4096, r.pgpginKiB());
    // FADV_RANDOM: every miss reads its own page (the random map reads each page once).
    assertTrue(r.diskReads() > 900, "disk reads " + r.diskReads());
  }

  @Test
  void filenameInAFilesystem_isARegularFile_relativeToTheDirectory() throws IOException {
    // filename=a:b names two files of directory=/mnt/t/d (fio ignores nrfiles then).
    Run r = run("rw=read\nfilename=a:b\nnrfiles=5");
    assertEquals(4L << 20, r.bytesRead());
    assertEquals(4096, r.pgpginKiB(), "two files of 2 MiB, each read once");
  }

  @Test
  void filesLargerThanTheFilesystem_areRefusedBeforeTheRun() throws IOException {
    Path p = dir.resolve("full.conf");
    Files.writeString(p, "blksim {\n"
        + "  devices = [ { type = ssd, name = sdb, size = 64M } ]\n"
        + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/t } ]\n"
        + "  fio.jobs = [\"\"\"\n[w]\ndirectory=/mnt/t\nrw=write\nbs=64k\nsize=128m\n\"\"\"]\n}\n");
    blksim.engine.InputException e = org.junit.jupiter.api.Assertions.assertThrows(
        blksim.engine.InputException.class, () -> ScenarioLoader.load(p, List.of(), Map.of()));
    assertEquals("size", e.key());
    assertTrue(e.getMessage().contains("ENOSPC") && e.getMessage().contains("/mnt/t"),
        e.getMessage());
  }

  @Test
  void secondLoop_isServedFromThePageCache() throws IOException {
    Run once = run("rw=read");
    Run twice = run("rw=read\nloops=2");
    assertEquals(8L << 20, twice.bytesRead());
    assertEquals(once.pgpginKiB(), twice.pgpginKiB(), "the second pass reads no page from disk");
    assertEquals(once.diskReads(), twice.diskReads());
  }
}
