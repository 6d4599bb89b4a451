package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.IndexedReport;
import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.mm.PageCache;
import blksim.kernel.sched.CpuReport;
import blksim.kernel.sched.TaskReport;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.thread.FioJobThread;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio's {@code ioengine=mmap} (engines/mmap.c) on files of the XFS-like filesystem and
 * {@code ioengine=page_fault} (engines/page_fault.c) in whole runs: the faults they take, the
 * readahead a mapped sequential read triggers, the dirty pages a mapped write leaves for the
 * flusher, msync, determinism.
 */
@Timeout(120)
class FioMmapEngineTest {
  @TempDir Path dir;

  record Run(PageCache pc, List<JobStats> jobs, long diskReadIos, long diskWriteSectors) {}

  private Path scenario(String jobs) throws IOException {
    Path p = dir.resolve("m.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1, memory = 1G }\n"
        + "  devices = [ { type = ssd, name = sdb, size = 4G } ]\n"
        + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/t } ]\n"
        + "  fio.jobs = [\"\"\"\n" + jobs + "\n\"\"\"]\n}\n");
    return p;
  }

  private Run run(String jobs) throws IOException {
    Scenario s = ScenarioLoader.load(scenario(jobs), List.of(), Map.of());
    ScenarioModelFactory.Machine m = new ScenarioModelFactory().machine(s);
    RunOutcome out = LocalRunner.run(m.model(), Partitioning.ONE, 1, ProgressListener.NONE);
    List<JobStats> stats = new ArrayList<>();
    for (IndexedReport r : out.reports()) {
      if (r.report().kind().equals(CpuReport.KIND)) {
        for (TaskReport t : CpuReport.decode(r.report().payload()).tasks()) {
          if (t.kind().equals(FioJobThread.KIND)) {
            stats.add(JobStats.decode(t.payload()));
          }
        }
      }
    }
    return new Run(m.vfs() == null ? null : m.vfs().pageCache(), stats, 0, 0);
  }

  @Test
  void aMappedSequentialReadIsReadAheadInLargeReads() throws IOException {
    Run r = run("[r]\nioengine=mmap\ndirectory=/mnt/t\nsize=16m\nbs=4k\nrw=read");
    JobStats j = r.jobs().get(0);
    assertEquals(0, j.error());
    assertEquals(16 << 20, j.ioBytes(0));
    long pages = 4096;
    // MADV_SEQUENTIAL (fio's default hint for a sequential job): the sync window, then async
    // windows from the PG_readahead markers: readahead added every page, in windows.
    assertEquals(pages, r.pc().readaheadPages());
    assertTrue(r.pc().pgpgin() == 16 << 10, "each page read once: " + r.pc().pgpgin());
    // Fault-around maps 16 pages per fault; the markers' pages fault on their own.
    long faults = j.majf() + j.minf();
    assertTrue(faults < pages / 8 && faults >= pages / 16, "faults " + faults);
    // A fault that submitted the next window (PG_readahead) or waited for its page is retried
    // and counts as major (mm_account_fault()); the others are minor.
    assertTrue(j.majf() >= 1 && j.minf() > j.majf(), "majf " + j.majf() + " minf " + j.minf());
  }

  @Test
  void mappedRandomWritesFaultEveryPageOnceAndTheFlusherWritesThemForMsync()
      throws IOException {
    Run r = run("[w]\nioengine=mmap\ndirectory=/mnt/t\nsize=16m\nbs=4k\nrw=randwrite\n"
        + "fsync=256\nend_fsync=1");
    JobStats j = r.jobs().get(0);
    assertEquals(0, j.error());
    long pages = 4096;
    assertEquals(pages, j.totalIos(1));
    assertEquals(pages, j.majf() + j.minf(), "first-touch faults = pages touched");
    // Every page was dirtied through ->page_mkwrite() and written back; msync (fsync=256) and
    // end_fsync waited for the writeback: nothing is dirty or under writeback at the end.
    assertEquals(pages, r.pc().nrDirtied());
    assertEquals(pages, r.pc().nrWritten());
    assertEquals(0, r.pc().nrDirty());
    assertEquals(0, r.pc().nrWriteback());
    assertTrue(j.ctx() >= pages / 256, "each msync sleeps until its pages are written: ctx "
        + j.ctx());
  }

  @Test
  void mappedWritesWithoutSyncLeaveDirtyPagesAndCostLessThanSyncedOnes() throws IOException {
    Run plain = run("[w]\nioengine=mmap\ndirectory=/mnt/t\nsize=16m\nbs=4k\nrw=randwrite");
    Run synced = run("[w]\nioengine=mmap\ndirectory=/mnt/t\nsize=16m\nbs=4k\nrw=randwrite\n"
        + "fsync=64");
    assertTrue(plain.pc().nrDirty() > 0, "no msync: pages still dirty at the end");
    assertTrue(synced.jobs().get(0).runtimeNs() > plain.jobs().get(0).runtimeNs(),
        "msync waits for the device");
  }

  @Test
  void mappedWritesPastTheDirtyLimitAreThrottledByBalanceDirtyPages() throws IOException {
    // 1 GiB machine: the dirty threshold is a few hundred MiB of dirtyable memory at most;
    // 512 MiB written through the mapping must meet balance_dirty_pages() pauses.
    Run r = run("[w]\nioengine=mmap\ndirectory=/mnt/t\nsize=512m\nbs=64k\nrw=write");
    JobStats j = r.jobs().get(0);
    assertEquals(0, j.error());
    assertEquals(512L << 20, j.ioBytes(1));
    assertTrue(r.pc().bdpStats().iterations() > 0, "balance_dirty_pages() ran");
    assertTrue(r.pc().bdpStats().sleeps() > 0, "and paused the writer: "
        + r.pc().bdpStats().sleeps());
    assertTrue(r.pc().nrWritten() > 0, "the flusher wrote pages meanwhile");
  }

  @Test
  void aWriteToAPageCleanedByWritebackFaultsAndDirtiesItAgain() throws IOException {
    // norandommap: offsets repeat. Without a sync a repeated page stays dirty and writable; with
    // msync every 16 writes, writeback cleans (and write-protects) the pages, so a repeat faults
    // again and ->page_mkwrite() dirties the page again.
    String job = "[w]\nioengine=mmap\ndirectory=/mnt/t\nsize=1m\nbs=4k\nrw=randwrite\n"
        + "norandommap\nend_fsync=1\n";
    Run plain = run(job);
    Run synced = run(job + "fsync=16");
    JobStats p = plain.jobs().get(0);
    JobStats s = synced.jobs().get(0);
    assertEquals(p.totalIos(1), s.totalIos(1));
    // Every write fault dirties a clean page, and only faults do.
    assertEquals(p.majf() + p.minf(), plain.pc().nrDirtied());
    assertEquals(s.majf() + s.minf(), synced.pc().nrDirtied());
    assertTrue(s.majf() + s.minf() > p.majf() + p.minf(), "re-faults after writeback: "
        + (s.majf() + s.minf()) + " vs " + (p.majf() + p.minf()));
    assertEquals(synced.pc().nrDirtied(), synced.pc().nrWritten());
  }

  @Test
  void theSameSeedGivesTheSameRun() throws IOException {
    String job = "[m]\nioengine=mmap\ndirectory=/mnt/t\nsize=8m\nbs=4k\nrw=randrw\nfsync=32";
    JobStats a = run(job).jobs().get(0);
    JobStats b = run(job).jobs().get(0);
    assertEquals(a.runtimeNs(), b.runtimeNs());
    assertEquals(a.usrNs(), b.usrNs());
    assertEquals(a.sysNs(), b.sysNs());
    assertEquals(a.majf(), b.majf());
    assertEquals(a.minf(), b.minf());
    assertEquals(java.util.Arrays.toString(a.clatPercentiles(0)),
        java.util.Arrays.toString(b.clatPercentiles(0)));
  }

  @Test
  void pageFaultFaultsEachAnonymousPageOnceAndNotOnLaterLoops() throws IOException {
    Run r = run("[global]\nioengine=page_fault\nsize=8m\nbs=4k\nstonewall\n"
        + "[w]\nrw=write\n[warm]\nrw=randrw\nloops=3");
    JobStats w = r.jobs().get(0);
    JobStats warm = r.jobs().get(1);
    assertEquals(0, w.error());
    assertEquals(2048, w.minf(), "a write fault per page");
    assertEquals(0, w.majf());
    // randrw over 3 loops: each page faults at its first touch only (a read maps the zero
    // page, a later write to it faults once more), never in loops 2 and 3.
    assertTrue(warm.minf() >= 2048 && warm.minf() <= 2 * 2048, "warm minf " + warm.minf());
    assertEquals(3 * 2048, warm.totalIos(0) + warm.totalIos(1));
  }

  @Test
  void mmapOfABlockDeviceIsRefusedWithItsReason() {
    InputException e = assertThrows(InputException.class, () -> ScenarioLoader.load(
        scenario("[d]\nioengine=mmap\nfilename=/dev/sdb\nsize=1m\nrw=read"), List.of(),
        Map.of()));
    assertTrue(e.getMessage().contains("page cache"), e.getMessage());
  }
}
