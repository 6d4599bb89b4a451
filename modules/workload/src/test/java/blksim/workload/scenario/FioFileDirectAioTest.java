package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.IndexedReport;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.fs.Filesystem;
import blksim.kernel.fs.Mounts;
import blksim.kernel.fs.Vfs;
import blksim.kernel.mm.MmComponent;
import blksim.kernel.mm.MmReport;
import blksim.kernel.sched.CpuReport;
import blksim.kernel.sched.TaskReport;
import blksim.kernel.workqueue.PwqStat;
import blksim.kernel.workqueue.Workqueue;
import blksim.kernel.workqueue.WorkqueueSystem;
import blksim.kernel.workqueue.WqOwnerReport;
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
 * fio jobs on files with O_DIRECT and with libaio, in whole runs on an XFS-like filesystem: the
 * depth libaio keeps, direct I/O bypassing the page cache, async direct writes completing on
 * the superblock's dio workqueue (which converts the unwritten extents fio's layout
 * preallocated), buffered libaio through the page cache, and thinktime on files.
 */
@Timeout(120)
class FioFileDirectAioTest {
  @TempDir Path dir;

  record Run(Vfs vfs, JobStats job, MmReport mm, long diskReads, long diskReadSectors,
      long diskWrites,
      long dioWorkStarted) {
    Filesystem fs() {
      return vfs.mountOf("/mnt/t").fs();
    }

    long ino(String path) {
      Mounts.Resolved r = vfs.mounts().find(path);
      return r.fs().lookupPath(r.relativePath());
    }

    long ios() {
      return job.totalIos(0) + job.totalIos(1);
    }
  }

  private Run run(String job) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1, memory = 512M }\n"
        + "  devices = [ { type = ssd, name = sdb, size = 4G } ]\n"
        + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/t } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\ndirectory=/mnt/t/d\n" + job + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    ScenarioModelFactory.Machine m = new ScenarioModelFactory().machine(s);
    RunOutcome out = LocalRunner.run(m.model(), Partitioning.ONE, 1, ProgressListener.NONE);
    Workqueue dio = m.workqueues() == null ? null : m.workqueues().workqueues().stream()
        .filter(w -> w.name().equals("dio/sdb")).findFirst().orElse(null);
    JobStats stats = null;
    MmReport mm = null;
    long reads = 0;
    long readSectors = 0;
    long writes = 0;
    long started = 0;
    for (IndexedReport r : out.reports()) {
      if (r.report().kind().equals(MmComponent.KIND)) {
        mm = MmReport.decode(r.report().payload());
      }
      if (r.report().kind().equals(CpuReport.KIND)) {
        CpuReport c = CpuReport.decode(r.report().payload());
        for (DiskCounters.Snapshot d : c.disks()) {
          reads += d.readIos();
          readSectors += d.readSectors();
          writes += d.writeIos();
        }
        for (TaskReport t : c.tasks()) {
          if (t.kind().equals(FioJobThread.KIND)) {
            stats = JobStats.decode(t.payload());
          }
        }
      }
    }
    if (dio != null) {
      List<blksim.engine.ComponentReport> reports = out.reports().stream()
          .map(IndexedReport::report).toList();
      for (WqOwnerReport w : WorkqueueSystem.ownerReports(reports)) {
        started += w.counters()[dio.id() * PwqStat.COUNT + PwqStat.STARTED.ordinal()];
      }
    }
    return new Run(m.vfs(), stats, mm, reads, readSectors, writes, started);
  }

  @Test
  void libaioDirectReads_keepTheQueueDepth_andBypassThePageCache() throws IOException {
    Run r = run("rw=randread\nbs=4k\nsize=8m\nioengine=libaio\niodepth=8\ndirect=1");
    assertEquals(2048, r.ios());
    long[] depth = r.job().ioDepthCounts();
    // fio's io_u_map buckets 1, 2, 4, 8, ...: once the queue is full every submission finds 8
    // in flight (iodepth_batch_complete_min=1 reaps one, the next fills the slot).
    assertTrue(depth[3] > 2000, "submissions at depth 8: " + java.util.Arrays.toString(depth));
    assertEquals(0, depth[4] + depth[5] + depth[6], "never more than iodepth");
    // Every read reached the disk (random neighbours may merge in the block layer).
    assertEquals(8 << 11, r.diskReadSectors(), "8 MiB read from the disk");
    assertTrue(r.diskReads() > 2000, "about one request per read: " + r.diskReads());
    assertEquals(0, r.mm().pgpgin(), "no page went through the page cache");
  }

  @Test
  void libaioDirectWrites_completeOnTheDioWorkqueue_andConvertTheUnwrittenLayout()
      throws IOException {
    // fio lays the file out with fallocate (unwritten extents); each direct write into them is
    // converted by xfs_dio_write_end_io() on s_dio_done_wq.
    Run r = run("rw=randwrite\nbs=16k\nsize=4m\nioengine=libaio\niodepth=4\ndirect=1");
    assertEquals(256, r.ios());
    assertEquals(256, r.dioWorkStarted(), "one iomap_dio_complete_work per write");
    long ino = r.ino("/mnt/t/d/j.0.0");
    assertEquals(4 << 20, r.fs().size(ino));
    StringBuilder left = new StringBuilder();
    for (long page = 0; page < 1024; page++) {
      if (r.fs().unwritten(ino, page)) {
        left.append(page).append(' ');
      }
    }
    assertEquals("", left.toString(), "pages left unwritten");
    assertEquals(256, r.diskWrites(), "one bio per write, straight to the device");
  }

  @Test
  void syncDirectWrites_convertInTheCallersContext_notOnTheWorkqueue() throws IOException {
    Run r = run("rw=write\nbs=64k\nsize=1m\nioengine=psync\ndirect=1");
    assertEquals(16, r.ios());
    assertEquals(0, r.dioWorkStarted());
    long ino = r.ino("/mnt/t/d/j.0.0");
    assertFalse(r.fs().unwritten(ino, 255));
    assertEquals(16, r.diskWrites());
  }

  @Test
  void libaioBufferedReads_goThroughThePageCache_insideIoSubmit() throws IOException {
    Run r = run("rw=read\nbs=4k\nsize=4m\nioengine=libaio\niodepth=16");
    assertEquals(1024, r.ios());
    assertEquals(4096, r.mm().pgpgin(), "the 4 MiB file came through the page cache once");
    assertTrue(r.diskReads() < 1024 / 8, "readahead windows, not one read per I/O: "
        + r.diskReads());
  }

  @Test
  void thinktime_onFiles_spacesTheIos() throws IOException {
    Run plain = run("rw=read\nbs=4k\nsize=64m\ntime_based\nruntime=50ms");
    Run thinking = run("rw=read\nbs=4k\nsize=64m\ntime_based\nruntime=50ms\nthinktime=10ms");
    assertTrue(plain.ios() > 100, "without thinktime: " + plain.ios());
    // One I/O, then 10 ms asleep, within 50 ms: 5 or 6 I/Os.
    assertTrue(thinking.ios() >= 4 && thinking.ios() <= 6, "with thinktime: " + thinking.ios());
  }

  @Test
  void thinktime_withLibaio_quiescesFirst() throws IOException {
    Run r = run("rw=randread\nbs=4k\nsize=64m\ntime_based\nruntime=50ms\nioengine=libaio"
        + "\niodepth=4\ndirect=1\nthinktime=10ms\nthinktime_blocks=8");
    // After 8 completions the job quiesces (the up to 3 others in flight complete too), then
    // sleeps 10 ms: 5 rounds of 8 to 11 I/Os in 50 ms, against thousands without thinktime.
    assertTrue(r.ios() >= 40 && r.ios() <= 55, "I/Os: " + r.ios());
  }

  @Test
  void rate_onFiles_limitsTheBandwidth() throws IOException {
    Run r = run("rw=write\nbs=4k\nsize=64m\ntime_based\nruntime=100ms\nrate=1m\ndirect=1");
    // 1 MiB/s for 100 ms: about 100 KiB, 25 writes of 4 KiB.
    assertTrue(r.ios() >= 24 && r.ios() <= 27, "writes: " + r.ios());
  }

  @Test
  void ioUringDirectReads_keepTheQueueDepth_andBypassThePageCache() throws IOException {
    Run r = run("rw=randread\nbs=4k\nsize=8m\nioengine=io_uring\niodepth=8\ndirect=1");
    assertEquals(2048, r.ios());
    long[] depth = r.job().ioDepthCounts();
    assertTrue(depth[3] > 2000, "submissions at depth 8: " + java.util.Arrays.toString(depth));
    assertEquals(0, depth[4] + depth[5] + depth[6], "never more than iodepth");
    assertEquals(8 << 11, r.diskReadSectors(), "8 MiB read from the disk");
    assertEquals(0, r.mm().pgpgin(), "no page went through the page cache");
  }

  @Test
  void ioUringBufferedReads_goThroughThePageCache() throws IOException {
    Run r = run("rw=read\nbs=4k\nsize=4m\nioengine=io_uring\niodepth=16");
    assertEquals(1024, r.ios());
    assertEquals(4096, r.mm().pgpgin(), "the 4 MiB file came through the page cache once");
    assertTrue(r.diskReads() < 1024 / 8, "readahead windows: " + r.diskReads());
  }

  @Test
  void ioUring_reapsTheCompletionRingInUserSpace_libaioEntersTheKernel() throws IOException {
    // fio_ioring_getevents() reads the CQ ring first and calls io_uring_enter(GETEVENTS) only
    // when fewer than min completions are there; fio_libaio_getevents() always calls
    // io_getevents() (user_space_reap is off by default). Same I/Os, less system time.
    String job = "rw=randread\nbs=4k\nsize=8m\niodepth=8\ndirect=1\nioengine=";
    Run uring = run(job + "io_uring");
    Run aio = run(job + "libaio");
    assertEquals(aio.ios(), uring.ios());
    assertTrue(uring.job().sysNs() < aio.job().sysNs(),
        "sys ns io_uring " + uring.job().sysNs() + " vs libaio " + aio.job().sysNs());
  }

  @Test
  void misalignedDirectJobsAndIoUringHipriOnFiles_areRefusedWithTheReason()
      throws IOException {
    Path p = dir.resolve("bad.conf");
    for (String[] c : new String[][] {{"offset=1000\ndirect=1", "offset", "EINVAL"},
        {"ioengine=io_uring\nhipri=1", "hipri", "IOPOLL"}}) {
      Files.writeString(p, "blksim {\n"
          + "  devices = [ { type = ssd, name = sdb, size = 4G } ]\n"
          + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/t } ]\n"
          + "  fio.jobs = [\"\"\"\n[j]\ndirectory=/mnt/t\nrw=read\nsize=1m\n" + c[0]
          + "\n\"\"\"]\n}\n");
      blksim.engine.InputException e = org.junit.jupiter.api.Assertions.assertThrows(
          blksim.engine.InputException.class, () -> ScenarioLoader.load(p, List.of(), Map.of()));
      assertEquals(c[1], e.key());
      assertTrue(e.getMessage().contains(c[2]), e.getMessage());
    }
  }
}
