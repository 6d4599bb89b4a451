package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.IndexedReport;
import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.fs.Filesystem;
import blksim.kernel.fs.Mounts;
import blksim.kernel.fs.Vfs;
import blksim.kernel.fs.XfsFilesystem;
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
 * fio's file options on directory= jobs, in whole runs: the files a job leaves on the XFS-like
 * filesystem, their sizes and blocks, and what reached the disk.
 */
@Timeout(120)
class FioFilesRunTest {
  @TempDir Path dir;

  record Run(Vfs vfs, MmReport mm, long diskWrites, long bytesWritten) {
    Filesystem fs() {
      return vfs.mountOf("/mnt/t").fs();
    }

    /** The inode of {@code path}, or a negative errno. */
    long ino(String path) {
      Mounts.Resolved r = vfs.mounts().find(path);
      return r.fs().lookupPath(r.relativePath());
    }
  }

  private Path scenario(String job) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1, memory = 512M }\n"
        + "  vm { dirty_background_bytes = 64M, dirty_bytes = 128M }\n"
        + "  devices = [ { type = ssd, name = sdb, size = 4G } ]\n"
        + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/t } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\ndirectory=/mnt/t/d\nrw=write\nbs=4k\n" + job
        + "\n\"\"\"]\n}\n");
    return p;
  }

  private Run run(String job) throws IOException {
    Scenario s = ScenarioLoader.load(scenario(job), List.of(), Map.of());
    ScenarioModelFactory.Machine m = new ScenarioModelFactory().machine(s);
    RunOutcome out = LocalRunner.run(m.model(), Partitioning.ONE, 1, ProgressListener.NONE);
    MmReport mm = null;
    long writes = 0;
    long bytes = 0;
    for (IndexedReport r : out.reports()) {
      if (r.report().kind().equals(MmComponent.KIND)) {
        mm = MmReport.decode(r.report().payload());
      }
      if (r.report().kind().equals(CpuReport.KIND)) {
        CpuReport c = CpuReport.decode(r.report().payload());
        for (DiskCounters.Snapshot d : c.disks()) {
          writes += d.writeIos();
        }
        for (TaskReport t : c.tasks()) {
          if (t.kind().equals(FioJobThread.KIND)) {
            bytes += JobStats.decode(t.payload()).ioBytes(1);
          }
        }
      }
    }
    return new Run(m.vfs(), mm, writes, bytes);
  }

  @Test
  void nrfiles_makesEveryFile_namedAndSizedAsFioDoes_andWritesThemAll() throws IOException {
    Run r = run("size=1m\nnrfiles=4\nnumjobs=2\nend_fsync=1");
    for (int job = 0; job < 2; job++) {
      for (int f = 0; f < 4; f++) {
        long ino = r.ino("/mnt/t/d/j." + job + "." + f);
        assertTrue(ino > 0, "j." + job + "." + f);
        assertEquals(256 << 10, r.fs().size(ino));
        // Written back by end_fsync: no page of it is still unwritten.
        assertFalse(r.fs().unwritten(ino, 63));
      }
    }
    assertTrue(r.ino("/mnt/t/d/j.0.4") < 0, "no fifth file");
    assertEquals(2 << 20, r.bytesWritten());
    assertEquals(512, r.mm().end().nrWritten());
  }

  @Test
  void randomWrites_coverEachFile_throughItsOwnRandomMap() throws IOException {
    Run r = run("rw=randwrite\nsize=512k\nnrfiles=2\nfallocate=none\nend_fsync=1\n"
        + "file_service_type=random");
    long free = r.fs().totalBlocks();
    for (int f = 0; f < 2; f++) {
      long ino = r.ino("/mnt/t/d/j.0." + f);
      assertEquals(256 << 10, r.fs().size(ino), "every block written once: the size is 256k");
    }
    // Without preallocation the blocks are the 128 pages written back.
    assertEquals(128, r.mm().end().nrWritten());
    assertTrue(r.fs().freeBlocks() < free);
  }

  @Test
  void fallocate_native_allocatesTheWholeFile_unwritten_beforeTheJob() throws IOException {
    // io_size 4k: one write into a 1 MiB file.
    Run nat = run("size=1m\nio_size=4k\nend_fsync=1");
    long ino = nat.ino("/mnt/t/d/j.0.0");
    assertEquals(1 << 20, nat.fs().size(ino));
    assertFalse(nat.fs().unwritten(ino, 0), "the written page was converted");
    assertTrue(nat.fs().unwritten(ino, 1));
    assertTrue(nat.fs().unwritten(ino, 255));
    long usedNative = nat.fs().totalBlocks() - nat.fs().freeBlocks();
    Run none = run("size=1m\nio_size=4k\nend_fsync=1\nfallocate=none");
    long usedNone = none.fs().totalBlocks() - none.fs().freeBlocks();
    assertEquals(255, usedNative - usedNone, "native preallocates the 255 pages not written");
    long noneIno = none.ino("/mnt/t/d/j.0.0");
    assertEquals(4096, none.fs().size(noneIno), "without layout the size is what was written");
    // keep: allocated, size left alone; truncate: size set, nothing allocated.
    Run keep = run("size=1m\nio_size=4k\nend_fsync=1\nfallocate=keep");
    assertEquals(4096, keep.fs().size(keep.ino("/mnt/t/d/j.0.0")));
    assertEquals(usedNative, keep.fs().totalBlocks() - keep.fs().freeBlocks());
    Run trunc = run("size=1m\nio_size=4k\nend_fsync=1\nfallocate=truncate");
    assertEquals(1 << 20, trunc.fs().size(trunc.ino("/mnt/t/d/j.0.0")));
    assertEquals(usedNone, trunc.fs().totalBlocks() - trunc.fs().freeBlocks());
  }

  @Test
  void createOnOpen_skipsTheLayout() throws IOException {
    Run r = run("size=1m\nio_size=4k\nend_fsync=1\ncreate_on_open=1");
    long ino = r.ino("/mnt/t/d/j.0.0");
    assertEquals(4096, r.fs().size(ino));
    assertFalse(r.fs().unwritten(ino, 1), "no fallocate without a layout");
  }

  @Test
  void overwrite_takesTheFileAsWrittenBefore_withNoLayoutIo() throws IOException {
    Run r = run("size=1m\nio_size=4k\nend_fsync=1\noverwrite=1");
    long ino = r.ino("/mnt/t/d/j.0.0");
    assertEquals(1 << 20, r.fs().size(ino));
    assertFalse(r.fs().unwritten(ino, 100), "laid out as written data");
    // Only the job's one page went to the disk.
    assertEquals(1, r.mm().end().nrWritten());
    assertEquals(1, r.diskWrites());
  }

  @Test
  void unlink_leavesNoFile_andGivesTheSpaceBack() throws IOException {
    Run r = run("size=256k\nnrfiles=2\nunlink=1\nend_fsync=1");
    assertEquals(-Filesystem.ENOENT, r.ino("/mnt/t/d/j.0.0"));
    assertEquals(-Filesystem.ENOENT, r.ino("/mnt/t/d/j.0.1"));
    assertTrue(r.ino("/mnt/t/d") > 0, "the directory stays");
    XfsFilesystem x = (XfsFilesystem) r.fs();
    assertEquals(x.totalBlocks() - XfsFilesystem.AG_HEADER_BLOCKS * x.geometry().agCount(),
        x.freeBlocks(), "every block but the AG headers is free again");
    assertEquals(2, r.fs().inodeCount(), "the root and d");
    // unlink_each_loop: two loops, files removed after the first and made again.
    Run loops = run("size=256k\nnrfiles=2\nloops=2\nunlink_each_loop=1\nfallocate=none\n"
        + "end_fsync=1");
    assertEquals(512 << 10, loops.bytesWritten());
    assertEquals(128 << 10, loops.fs().size(loops.ino("/mnt/t/d/j.0.1")));
  }

  @Test
  void fsyncOnClose_writesEachFileBack_whenItIsClosed() throws IOException {
    Run without = run("size=1m\nnrfiles=2");
    assertEquals(0, without.mm().end().nrWritten(), "nothing forces writeback");
    Run with = run("size=1m\nnrfiles=2\nfsync_on_close=1");
    assertEquals(256, with.mm().end().nrWritten());
    assertEquals(0, with.mm().end().dirty());
  }

  @Test
  void fileOptions_onAFilenameJob_andAJobWithoutSize_areRefused() throws IOException {
    Path p = scenario("size=1m");
    Files.writeString(p, Files.readString(p).replace("directory=/mnt/t/d",
        "filename=/dev/sdb\nnrfiles=2\nfilesize=4k"));
    InputException e = assertThrows(InputException.class,
        () -> ScenarioLoader.load(p, List.of(), Map.of()));
    assertEquals("filesize", e.key());
    assertTrue(e.getMessage().contains("directory="), e.getMessage());
    Path q = scenario("nrfiles=2");
    e = assertThrows(InputException.class, () -> ScenarioLoader.load(q, List.of(), Map.of()));
    assertEquals("size", e.key());
    assertTrue(e.getMessage().contains("filesize="), e.getMessage());
    Path r = scenario("filesize=64k\noffset=64k");
    e = assertThrows(InputException.class, () -> ScenarioLoader.load(r, List.of(), Map.of()));
    assertEquals("offset", e.key());
  }

  @Test
  void sameSeed_sameFiles() throws IOException {
    String job = "rw=randwrite\nfilesize=16k-256k\nnrfiles=6\nfile_service_type=random:4\n"
        + "end_fsync=1\nfallocate=none";
    Run a = run(job);
    Run b = run(job);
    for (int f = 0; f < 6; f++) {
      assertEquals(a.fs().size(a.ino("/mnt/t/d/j.0." + f)),
          b.fs().size(b.ino("/mnt/t/d/j.0." + f)));
    }
    assertEquals(a.mm().end().nrWritten(), b.mm().end().nrWritten());
    assertEquals(a.diskWrites(), b.diskWrites());
  }
}
