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
import blksim.kernel.block.DiskCounters;
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
 * Buffered ({@code direct=0}, fio's default) libaio on a block device: each iocb's read or write
 * runs through the device's page cache inside {@code io_submit()}, as psync's calls do (buffered
 * io_uring: {@code blksim.workload.fio.thread.BufferedIoUringTest}).
 */
@Timeout(120)
class DeviceBufferedAioTest {
  @TempDir Path dir;

  private Path scenario(String job) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1, memory = 512M }\n"
        + "  devices = [ { type = ssd, name = sdb, size = 4G } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/dev/sdb\nbs=4k\nsize=4m\n" + job
        + "\n\"\"\"]\n}\n");
    return p;
  }

  /** Disk read and write I/Os, and the bytes fio read and wrote. */
  private record Run(long diskReads, long diskWrites, long readBytes, long writeBytes) {}

  private Run run(String job) throws IOException {
    Scenario s = ScenarioLoader.load(scenario(job), List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    long reads = 0;
    long writes = 0;
    long rb = 0;
    long wb = 0;
    for (IndexedReport r : out.reports()) {
      if (r.report().kind().equals(CpuReport.KIND)) {
        CpuReport c = CpuReport.decode(r.report().payload());
        for (DiskCounters.Snapshot d : c.disks()) {
          reads += d.readIos();
          writes += d.writeIos();
        }
        for (TaskReport t : c.tasks()) {
          if (t.kind().equals(FioJobThread.KIND)) {
            JobStats js = JobStats.decode(t.payload());
            rb += js.ioBytes(0);
            wb += js.ioBytes(1);
          }
        }
      }
    }
    return new Run(reads, writes, rb, wb);
  }

  @Test
  void libaioRandomRead_goesThroughThePageCache_likePsync() throws IOException {
    Run aio = run("rw=randread\nioengine=libaio\niodepth=8");
    Run psync = run("rw=randread\nioengine=psync");
    assertEquals(4L << 20, aio.readBytes());
    // fio's POSIX_FADV_RANDOM: one page per miss, as psync's buffered reads.
    assertEquals(psync.diskReads(), aio.diskReads());
    assertTrue(aio.diskReads() > 900, "disk reads " + aio.diskReads());
  }

  @Test
  void libaioSecondLoop_isServedFromThePageCache() throws IOException {
    Run once = run("rw=read\nioengine=libaio\niodepth=4");
    Run twice = run("rw=read\nioengine=libaio\niodepth=4\nloops=2");
    assertEquals(8L << 20, twice.readBytes());
    assertEquals(once.diskReads(), twice.diskReads(), "the second pass reads nothing from disk");
    // Readahead windows, not one bio per 4 KiB iocb.
    assertTrue(once.diskReads() < 1024 / 8, "disk reads " + once.diskReads());
  }

  @Test
  void libaioBufferedWrite_dirtiesPages_thatEndFsyncWritesBack() throws IOException {
    Run w = run("rw=write\nioengine=libaio\niodepth=8\nend_fsync=1");
    assertEquals(4L << 20, w.writeBytes());
    // Written back in large merged bios, not one per 4 KiB iocb.
    assertTrue(w.diskWrites() > 0 && w.diskWrites() < 1024 / 4, "disk writes " + w.diskWrites());
    // Without end_fsync the 4 MiB stay dirty (below the background threshold, younger than
    // dirty_expire): the job's writes reached the page cache, not the disk.
    Run dirty = run("rw=write\nioengine=libaio\niodepth=8");
    assertEquals(4L << 20, dirty.writeBytes());
    assertTrue(dirty.diskWrites() < w.diskWrites(), dirty + " vs " + w);
  }

  @Test
  void bufferedLibaioOffload_isRefused() throws IOException {
    Path p = scenario("rw=randread\nioengine=libaio\nio_submit_mode=offload");
    InputException e = assertThrows(InputException.class,
        () -> ScenarioLoader.load(p, List.of(), Map.of()));
    assertEquals("io_submit_mode", e.key());
  }
}
