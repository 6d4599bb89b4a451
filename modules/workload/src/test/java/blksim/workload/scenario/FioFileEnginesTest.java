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
import blksim.kernel.fs.Filesystem;
import blksim.kernel.fs.Mounts;
import blksim.kernel.fs.Vfs;
import blksim.kernel.sched.CpuReport;
import blksim.kernel.sched.TaskReport;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.thread.FioJobThread;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio's engines that do no block I/O of their own, in whole runs, against fio's source
 * (engines/cpu.c, engines/fileoperations.c, engines/falloc.c, engines/ftruncate.c): what each
 * "I/O" does to the XFS-like filesystem, how many there are, and what the job reports.
 */
@Timeout(120)
class FioFileEnginesTest {
  @TempDir Path dir;

  /** A finished run: the VFS as the jobs left it and each job's statistics, in job order. */
  record Run(Vfs vfs, List<JobStats> jobs, Scenario scenario) {
    long ino(String path) {
      Mounts.Resolved r = vfs.mounts().find(path);
      return r.fs().lookupPath(r.relativePath());
    }

    Filesystem fs() {
      return vfs.mountOf("/mnt/t").fs();
    }

    JobStats job(int k) {
      return jobs.get(k);
    }
  }

  private Path scenario(String jobs, String extra) throws IOException {
    Path p = dir.resolve("e.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 4, threads-per-core = 1, memory = 512M }\n"
        + "  devices = [ { type = ssd, name = sdb, size = 4G } ]\n"
        + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/t } ]\n"
        + extra
        + "  fio.jobs = [\"\"\"\n" + jobs + "\n\"\"\"]\n}\n");
    return p;
  }

  private Run run(String jobs) throws IOException {
    return run(jobs, "");
  }

  private Run run(String jobs, String extra) throws IOException {
    Scenario s = ScenarioLoader.load(scenario(jobs, extra), List.of(), Map.of());
    ScenarioModelFactory.Machine m = new ScenarioModelFactory().machine(s);
    RunOutcome out = LocalRunner.run(m.model(), Partitioning.ONE, 1, ProgressListener.NONE);
    List<long[]> order = new ArrayList<>();
    List<JobStats> stats = new ArrayList<>();
    for (IndexedReport r : out.reports()) {
      if (r.report().kind().equals(CpuReport.KIND)) {
        for (TaskReport t : CpuReport.decode(r.report().payload()).tasks()) {
          if (t.kind().equals(FioJobThread.KIND)) {
            order.add(new long[] {FioJobThread.jobNumber(t.name()), stats.size()});
            stats.add(JobStats.decode(t.payload()));
          }
        }
      }
    }
    order.sort(Comparator.comparingLong(a -> a[0]));
    List<JobStats> sorted = new ArrayList<>();
    for (long[] o : order) {
      sorted.add(stats.get((int) o[1]));
    }
    return new Run(m.vfs(), sorted, s);
  }

  private InputException refused(String jobs) {
    return assertThrows(InputException.class,
        () -> ScenarioLoader.load(scenario(jobs, ""), List.of(), Map.of()));
  }

  // ---- cpuio ----

  /** The share of the job's runtime its user time took, in percent. */
  private static double usrPercent(JobStats j, long runtimeNs) {
    return 100.0 * j.usrNs() / runtimeNs;
  }

  @Test
  void cpuio_burnsCpuloadPercentOfACpu_inChunksOfCpuchunks() throws IOException {
    for (int load : new int[] {25, 50, 80}) {
      Run r = run("[burn]\nioengine=cpuio\ncpuload=" + load + "\ncpuchunks=2000\nruntime=400ms\n"
          + "time_based");
      JobStats j = r.job(0);
      double share = usrPercent(j, 400_000_000L);
      assertEquals(load, share, 1.5, "cpuload=" + load + ": usr " + share + "%");
      // One "I/O" per chunk and its thinktime: 2 ms / (load/100) per cycle.
      double cycles = 400.0 / (2.0 * 100 / load);
      assertEquals(cycles, j.totalIos(0), cycles * 0.05 + 1, "cpuload=" + load);
      assertEquals(0, j.ioBytes(0) + j.ioBytes(1), "FIO_NOIO: no bytes");
      // No system call but the thinktime's nanosleep().
      assertTrue(j.sysNs() < 400_000_000L / 200, "sys " + j.sysNs());
      // Each I/O's latency is its chunk.
      assertEquals(2_000_000L, j.clat(0).min());
    }
  }

  @Test
  void cpuio_cpuloadAbove100_isCapped_andQsortModeFollowsTheRoundTime() throws IOException {
    Run full = run("[burn]\nioengine=cpuio\ncpuload=250\ncpuchunks=1000\nruntime=100ms\n"
        + "time_based");
    assertEquals(100, usrPercent(full.job(0), 100_000_000L), 1.0, "fio caps cpuload at 100");
    Run q = run("[burn]\nioengine=cpuio\ncpuload=25\ncpumode=qsort\nruntime=400ms\ntime_based",
        "  costs.fio.cpuio-qsort-round = 4ms\n");
    JobStats j = q.job(0);
    assertEquals(25, usrPercent(j, 400_000_000L), 1.5, "qsort: thinktime from the round's time");
    assertEquals(4_000_000L, j.clat(0).min(), "a round costs costs.fio.cpuio-qsort-round");
    assertEquals(400.0 / 16, j.totalIos(0), 2, "a round of 4 ms and 12 ms of sleep");
  }

  @Test
  void cpuio_exitOnIoDone_endsWithTheLastIoJob() throws IOException {
    // The null job is done in well under a millisecond; the cpuio job then stops at its next
    // chunk instead of burning for its whole second.
    Run r = run("[burn]\nioengine=cpuio\ncpuload=50\ncpuchunks=1000\nruntime=1s\ntime_based\n"
        + "exit_on_io_done=1\n[io]\nioengine=null\nsize=1m\n");
    assertTrue(r.job(0).totalIos(0) <= 2, r.job(0).totalIos(0) + " chunks");
    assertEquals(256, r.job(1).totalIos(0));
    // Alone, it never ends that way (fio_running_or_pending_io_threads() is -1).
    Run alone = run("[burn]\nioengine=cpuio\ncpuload=50\ncpuchunks=1000\nruntime=20ms\n"
        + "time_based\nexit_on_io_done=1\n");
    assertEquals(10, alone.job(0).totalIos(0), 1);
  }

  @Test
  void cpuio_badOptions_areRefusedAtTheirLine() {
    InputException e = refused("[burn]\nioengine=cpuio\ncpuload=0\nruntime=1s\n");
    assertEquals("cpuload", e.key(), e.getMessage());
    assertEquals(4, e.line(), e.getMessage()); // the job text starts on the line after """
    assertTrue(e.getMessage().contains("cpu thread needs rate"), e.getMessage());
    e = refused("[burn]\nioengine=cpuio\nruntime=1s\n");
    assertEquals("ioengine", e.key(), e.getMessage());
    e = refused("[burn]\nioengine=cpuio\ncpuload=10\ncpumode=heapsort\nruntime=1s\n");
    assertEquals("cpumode", e.key(), e.getMessage());
    assertEquals(5, e.line(), e.getMessage());
    e = refused("[burn]\nioengine=cpuio\ncpuload=10\n");
    assertEquals("ioengine", e.key(), e.getMessage());
    assertTrue(e.getMessage().contains("runtime="), e.getMessage());
    e = refused("[j]\nioengine=psync\nfilename=/dev/sdb\ncpuload=10\nsize=1m\n");
    assertEquals("cpuload", e.key(), e.getMessage());
    e = refused("[j]\nioengine=filecreate\ndirectory=/mnt/t\nnrfiles=2\nfilesize=4k\n"
        + "stat_type=lstat\n");
    assertEquals("stat_type", e.key(), e.getMessage());
    e = refused("[j]\nioengine=filestat\ndirectory=/mnt/t\nfilesize=4k\nstat_type=fstat\n");
    assertEquals("stat_type", e.key(), e.getMessage());
  }

  // ---- the file and directory operation engines ----

  @Test
  void filecreate_createsNrfilesFiles_oneTimedCreatePerFile() throws IOException {
    Run r = run("[c]\nioengine=filecreate\ndirectory=/mnt/t/d\ncreate_on_open=1\nnrfiles=50\n"
        + "filesize=4k\nopenfiles=1\nfallocate=none\n");
    for (int f = 0; f < 50; f++) {
      long ino = r.ino("/mnt/t/d/c.0." + f);
      assertTrue(ino > 0, "c.0." + f);
      assertFalse(r.fs().isDirectory(ino));
    }
    assertTrue(r.ino("/mnt/t/d/c.0.50") < 0, "no 51st file");
    JobStats j = r.job(0);
    assertEquals(50, j.totalIos(0), "one 4k fake I/O per file");
    assertEquals(50 * 4096, j.ioBytes(0));
    assertEquals(50, j.clat(0).samples(), "one clat sample per create, none per fake I/O");
    assertEquals(0, j.lat(0).samples(), "FIO_NOSTATS: no total-latency sample");
    // Each create costs the system call's entry and the filesystem's create.
    long create = r.fs().createCostNs();
    assertTrue(j.clat(0).min() >= create, j.clat(0).min() + " < " + create);
    assertEquals(0, j.error());
  }

  @Test
  void creates_inOneDirectory_serializeOnItsLock() throws IOException {
    String job = "ioengine=filecreate\ndirectory=/mnt/t/d\ncreate_on_open=1\nnrfiles=200\n"
        + "filesize=4k\n";
    Run one = run("[a]\n" + job);
    Run four = run("[a]\n" + job + "numjobs=4\n");
    long oneEnd = one.job(0).clat(0).max();
    // Four creators in one directory: every create waits for the others' (i_rwsem).
    double meanOne = one.job(0).clat(0).mean();
    double meanFour = four.job(0).clat(0).mean();
    assertTrue(meanFour > 2.5 * meanOne, meanFour + " vs " + meanOne + " (max " + oneEnd + ")");
    for (int k = 0; k < 4; k++) {
      assertEquals(200, four.job(k).totalIos(0));
    }
  }

  @Test
  void filestat_and_filedelete_workOnLaidOutFiles() throws IOException {
    Run stat = run("[s]\nioengine=filestat\ndirectory=/mnt/t/d\nnrfiles=20\nfilesize=4k\n"
        + "stat_type=statx\n");
    JobStats s = stat.job(0);
    assertEquals(20, s.totalIos(0));
    assertEquals(20, s.clat(0).samples());
    for (int f = 0; f < 20; f++) {
      assertEquals(4096, stat.fs().size(stat.ino("/mnt/t/d/s.0." + f)), "laid out, kept");
    }
    // A stat walks no lock and allocates nothing: cheaper than a create.
    assertTrue(s.clat(0).max() < stat.fs().createCostNs());
    Run del = run("[x]\nioengine=filedelete\ndirectory=/mnt/t/d\nnrfiles=20\nfilesize=4k\n"
        + "unlink=0\n");
    assertEquals(20, del.job(0).totalIos(0));
    assertEquals(20, del.job(0).clat(0).samples());
    for (int f = 0; f < 20; f++) {
      assertTrue(del.ino("/mnt/t/d/x.0." + f) < 0, "x.0." + f + " deleted");
    }
    assertEquals(0, del.job(0).error());
  }

  @Test
  void filedelete_secondLoop_failsWithEnoent_asFioDoes() throws IOException {
    Run del = run("[x]\nioengine=filedelete\ndirectory=/mnt/t/d\nnrfiles=5\nfilesize=4k\n"
        + "loops=2\n");
    assertEquals(2, del.job(0).error(), "ENOENT");
    assertEquals(5, del.job(0).totalIos(0));
  }

  @Test
  void directoryEngines_makeStatAndRemoveDirectories() throws IOException {
    Run mk = run("[m]\nioengine=dircreate\ndirectory=/mnt/t/d\ncreate_on_open=1\nnrfiles=30\n"
        + "filesize=4k\n");
    for (int f = 0; f < 30; f++) {
      long ino = mk.ino("/mnt/t/d/m.0." + f);
      assertTrue(ino > 0 && mk.fs().isDirectory(ino), "m.0." + f);
    }
    assertEquals(30, mk.job(0).clat(0).samples());
    Run st = run("[s]\nioengine=dirstat\ndirectory=/mnt/t/d\nnrfiles=7\nfilesize=4k\n");
    for (int f = 0; f < 7; f++) {
      assertTrue(st.fs().isDirectory(st.ino("/mnt/t/d/s.0." + f)), "setup_dirs() made it");
    }
    assertEquals(7, st.job(0).totalIos(0));
    Run rm = run("[r]\nioengine=dirdelete\ndirectory=/mnt/t/d\nnrfiles=9\nfilesize=4k\n"
        + "unlink=0\n");
    for (int f = 0; f < 9; f++) {
      assertTrue(rm.ino("/mnt/t/d/r.0." + f) < 0, "r.0." + f + " removed");
    }
    assertEquals(9, rm.job(0).clat(0).samples());
    assertEquals(0, rm.job(0).error());
    // unlink=1 removes dircreate's directories at the end (remove_dir()).
    Run gone = run("[g]\nioengine=dircreate\ndirectory=/mnt/t/d\nnrfiles=4\nfilesize=4k\n"
        + "unlink=1\n");
    assertTrue(gone.ino("/mnt/t/d/g.0.0") < 0);
    assertEquals(4, gone.job(0).totalIos(0));
  }

  @Test
  void fileEngines_onADevice_areRefused() {
    InputException e = refused("[c]\nioengine=filecreate\nfilename=/dev/sdb\nsize=1m\n");
    assertEquals("filename", e.key(), e.getMessage());
    assertTrue(e.getMessage().contains("only files are supported"), e.getMessage());
  }

  // ---- falloc and ftruncate ----

  @Test
  void falloc_writesAllocate_trimsPunch_andKeepTheSize() throws IOException {
    Run w = run("[f]\nioengine=falloc\ndirectory=/mnt/t/d\nfilename=ff\nsize=1m\nrw=randwrite\n"
        + "bs=64k\nfallocate=none\ncreate_on_open=1\n");
    long ino = w.ino("/mnt/t/d/ff");
    assertEquals(1 << 20, w.fs().size(ino), "mode 0 extends i_size over every range");
    assertTrue(w.fs().totalBlocks() - w.fs().freeBlocks() >= 256, "every page allocated");
    assertFalse(w.fs().unwritten(ino, 256), "nothing past the file");
    JobStats j = w.job(0);
    assertEquals(16, j.totalIos(1));
    assertTrue(j.clat(1).min() >= w.fs().fallocateCostNs());
    Run t = run("[p]\nioengine=falloc\ndirectory=/mnt/t/d\nfilename=pp\nsize=1m\n"
        + "rw=randtrim\nbs=4k\n");
    assertEquals(256, t.job(0).totalIos(2), "every I/O a trim (a hole punch)");
    assertEquals(0, t.job(0).totalIos(1));
    assertEquals(1 << 20, t.fs().size(t.ino("/mnt/t/d/pp")), "KEEP_SIZE");
  }

  @Test
  void ftruncate_setsTheSizeToEachOffset_andFailsReads() throws IOException {
    Run r = run("[t]\nioengine=ftruncate\ndirectory=/mnt/t/d\nfilename=tt\nsize=64k\n"
        + "rw=write\nbs=4k\ncreate_on_open=1\n");
    JobStats j = r.job(0);
    assertEquals(16, j.totalIos(1));
    // The last I/O truncates to its offset, 60k.
    assertEquals(60 << 10, r.fs().size(r.ino("/mnt/t/d/tt")));
    assertTrue(j.clat(1).min() >= r.fs().fallocateCostNs(), "one transaction per call");
    Run read = run("[t]\nioengine=ftruncate\ndirectory=/mnt/t/d\nfilename=tt\nsize=64k\n"
        + "rw=read\nbs=4k\n");
    assertEquals(22, read.job(0).error(), "EINVAL");
    assertEquals(0, read.job(0).totalIos(0));
  }

  @Test
  void fillDevice_writesUntilTheFilesystemIsFull_andEndsWithoutAnError() throws IOException {
    // fio's backend.c: with fill_device an ENOSPC write clears the error and ends the job; the
    // size is the target's (4 GiB device), so only the full filesystem stops it, short of it.
    for (String engine : List.of("psync", "libaio\niodepth=4")) {
      Run r = run("[j]\nfilename=/mnt/t/fill\nrw=write\nbs=1m\ndirect=1\nioengine=" + engine
          + "\nfill_device=1\n");
      JobStats j = r.job(0);
      assertEquals(0, j.error(), engine);
      long written = j.ioBytes(1);
      assertTrue(written > 3L << 30 && written < 4L << 30, engine + ": " + written);
      assertEquals(0, r.fs().freeBlocks() * 4096 / (1 << 20), engine + ": the filesystem is full");
    }
  }
}
