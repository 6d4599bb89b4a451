package blksim.workload.fsmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.IndexedReport;
import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.mm.MmComponent;
import blksim.kernel.mm.MmReport;
import blksim.kernel.sched.CpuReport;
import blksim.kernel.sched.TaskReport;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import blksim.workload.scenario.ScenarioModelFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * fs_mark on an XFS-like filesystem through the page cache and the flusher, in whole runs on a
 * small machine (kernel-model.md §15.4).
 */
@Timeout(120)
class FsMarkRunTest {
  @TempDir Path dir;

  record Run(FsMarkRunReport fsMark, MmReport mm, long diskWrites, long diskMerges) {}

  Path scenario(String extra, String cmd) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 4, threads-per-core = 1, memory = 512M }\n"
        + "  kernel { hz = 250, mode = V4_3_RC1 }\n"
        + extra
        + "  devices = [ { type = disk, name = sdb, size = 20G } ]\n"
        + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/t } ]\n"
        + "  fs_mark.command-lines = [\"" + cmd + "\"]\n}\n");
    return p;
  }

  Run run(Path p) {
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    Model m = new ScenarioModelFactory().build(s.spec());
    RunOutcome out = LocalRunner.run(m, Partitioning.ONE, 1, ProgressListener.NONE);
    FsMarkRunReport f = null;
    MmReport mm = null;
    long writes = 0;
    long merges = 0;
    for (IndexedReport r : out.reports()) {
      if (r.report().kind().equals(MmComponent.KIND)) {
        mm = MmReport.decode(r.report().payload());
      }
      if (r.report().kind().equals(CpuReport.KIND)) {
        CpuReport c = CpuReport.decode(r.report().payload());
        for (TaskReport t : c.tasks()) {
          if (t.kind().equals(FsMarkParent.KIND)) {
            f = FsMarkRunReport.decode(t.payload());
          }
        }
        for (DiskCounters.Snapshot d : c.disks()) {
          writes += d.writeIos();
          merges += d.writeMerges();
        }
      }
    }
    return new Run(f, mm, writes, merges);
  }

  @Test
  void everyFileIsCreatedWrittenAndCounted() throws IOException {
    // 2 processes x 500 files x 2 iterations of 4 KiB, no sync, files kept (-L).
    Run r = run(scenario("", "-S0 -n 500 -s 4096 -L 2 -d /mnt/t/a -d /mnt/t/b"));
    FsMarkRunResult res = r.fsMark().result();
    assertEquals(2, res.iterations().size());
    assertEquals(1000, res.iterations().get(0).count());
    assertEquals(2000, res.iterations().get(1).count(), "Count is cumulative over iterations");
    assertEquals(2000, r.mm().end().nrDirtied(), "one page dirtied per 4 KiB file");
    assertTrue(res.iterations().get(0).stats().filesPerSec() > 0);
    assertTrue(r.fsMark().elapsedNs() > 0);
  }

  @Test
  void fsyncPerFile_writesEveryPageBeforeTheRunEnds() throws IOException {
    Run r = run(scenario("", "-S1 -n 200 -s 8192 -d /mnt/t/a"));
    assertEquals(400, r.mm().end().nrDirtied());
    assertEquals(400, r.mm().end().nrWritten(), "-S 1: fsync before close writes each file");
    assertEquals(0, r.mm().end().dirty());
  }

  @Test
  void theFlushersPlugMergesSmallFilesIntoFewerRequests() throws IOException {
    // 3 MiB of dirty background threshold forces writeback during the run; files of one
    // directory are laid out contiguously (p-contig 1), so their 4 KiB bios are contiguous.
    String vm = "  vm { dirty_background_bytes = 2M, dirty_bytes = 8M }\n";
    String cmd = "-S0 -n 3000 -s 4096 -d /mnt/t/a";
    Path p = scenario(vm + "  kernel.writeback-plug = none\n", cmd);
    Files.writeString(p, Files.readString(p).replace("mount = /mnt/t }",
        "mount = /mnt/t, p-contig = 1 }"));
    Run noplug = run(p);
    Files.writeString(p, Files.readString(p).replace("writeback-plug = none",
        "writeback-plug = plug"));
    Run plug = run(p);
    assertEquals(noplug.mm().end().nrWritten() > 0, true, "writeback ran");
    // Without the wb-level plug each inode's bio is dispatched at the end of the inode, so
    // only the elevator merges (while the disk is busy); with it, up to 16 requests collect
    // in the plug first and contiguous bios merge there.
    double perReqNoplug = (double) noplug.mm().end().nrWritten() / noplug.diskWrites();
    double perReqPlug = (double) plug.mm().end().nrWritten() / plug.diskWrites();
    assertTrue(perReqPlug > 2 * perReqNoplug, "pages per request: plug " + perReqPlug
        + ", noplug " + perReqNoplug);
  }

  @Test
  void badFsMarkInput_namesTheKeyOrOption() throws IOException {
    InputException e = assertThrows(InputException.class, () -> ScenarioLoader.load(
        scenario("", "-S0 -n 10 -x -d /mnt/t/a"), List.of(), Map.of()));
    assertTrue(e.getMessage().contains("-x"), e.getMessage());
    e = assertThrows(InputException.class, () -> ScenarioLoader.load(
        scenario("", "-S0 -n 10 -d /elsewhere"), List.of(), Map.of()));
    assertTrue(e.getMessage().contains("fs_mark.command-lines[0]")
        && e.getMessage().contains("/elsewhere"), e.getMessage());
    Path ro = scenario("", "-S0 -n 10 -d /mnt/t/a");
    Files.writeString(ro, Files.readString(ro).replace("mount = /mnt/t }",
        "mount = /mnt/t, options = ro }"));
    e = assertThrows(InputException.class, () -> ScenarioLoader.load(ro, List.of(), Map.of()));
    assertTrue(e.getMessage().contains("read-only"), e.getMessage());
    e = assertThrows(InputException.class, () -> ScenarioLoader.load(
        scenario("  partitions = cpu\n", "-S0 -n 10 -d /mnt/t/a"), List.of(), Map.of()));
    assertTrue(e.getMessage().contains("partitions"), e.getMessage());
  }

  @Test
  void fioDirectoryJobs_areCheckedAgainstTheFilesystems() throws IOException {
    Path p = dir.resolve("d.conf");
    String base = "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1, memory = 512M }\n"
        + "  devices = [ { type = ssd, name = sdb, size = 20G } ]\n"
        + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/t } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nbs=4k\nsize=1m\n%s\n\"\"\"]\n}\n";
    Files.writeString(p, String.format(base, "directory=/elsewhere\nrw=write"));
    InputException e = assertThrows(InputException.class,
        () -> ScenarioLoader.load(p, List.of(), Map.of()));
    assertEquals("directory", e.key());
    assertTrue(e.getMessage().contains("/elsewhere") && e.getMessage().contains("/mnt/t"),
        e.getMessage());
    // io_uring on files is modelled, its polled completions (hipri) are not.
    Files.writeString(p, String.format(base, "directory=/mnt/t\nrw=read\nioengine=io_uring"));
    ScenarioLoader.load(p, List.of(), Map.of());
    Files.writeString(p, String.format(base,
        "directory=/mnt/t\nrw=read\nioengine=io_uring\nhipri=1"));
    e = assertThrows(InputException.class, () -> ScenarioLoader.load(p, List.of(), Map.of()));
    assertEquals("hipri", e.key());
    assertTrue(e.getMessage().contains("IOPOLL"), e.getMessage());
    // O_DIRECT on files is modelled; it still needs the VFS and its page cache.
    Files.writeString(p, String.format(base, "directory=/mnt/t\nrw=read\ndirect=1"));
    assertTrue(ScenarioLoader.load(p, List.of(), Map.of()).usesPageCacheWrites());
    Files.writeString(p, String.format(base, "directory=/mnt/t/sub/dir\nrw=randwrite"));
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    assertTrue(s.usesPageCacheWrites());
  }

  @Test
  void sameSeed_sameRun() throws IOException {
    Path p = scenario("  vm { dirty_background_bytes = 2M, dirty_bytes = 8M }\n",
        "-S0 -n 800 -s 4096 -d /mnt/t/a -d /mnt/t/b");
    Run a = run(p);
    Run b = run(p);
    assertEquals(a.fsMark().elapsedNs(), b.fsMark().elapsedNs());
    assertEquals(a.diskWrites(), b.diskWrites());
    assertEquals(a.mm().bdpSleeps(), b.mm().bdpSleeps());
  }
}
