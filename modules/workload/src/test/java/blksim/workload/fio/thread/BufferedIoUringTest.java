package blksim.workload.fio.thread;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.iouring.IoWqWorker;
import blksim.kernel.sched.CpuReport;
import blksim.kernel.sched.Task;
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
 * Buffered ({@code direct=0}, fio's default) io_uring on a block device, whole runs on two CPUs
 * with 512 MiB: reads are tried inline with IOCB_NOWAIT, a hit completes there, a miss waits for
 * its page through the page-waitqueue callback and is re-issued as the submitter's task work (no
 * io-wq: a block device has FMODE_BUF_RASYNC); writes are punted to io-wq, whose workers run
 * the blocking buffered write; a device without nowait punts everything.
 */
@Timeout(120)
class BufferedIoUringTest {
  @TempDir Path dir;

  /** {@code diskReads}: read bios the device got (requests plus merges). */
  record Run(JobStats job, long diskReads, long diskWrites, long workers, long workersSysNs,
      RunResult result) {}

  private Path scenario(String device, String job) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1, memory = 512M }\n"
        + "  devices = [ " + device + " ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nioengine=io_uring\nbs=4k\n" + job + "\n\"\"\"]\n}\n");
    return p;
  }

  private Run run(String device, String job) throws IOException {
    Scenario s = ScenarioLoader.load(scenario(device, job), List.of(), Map.of());
    Model m = new ScenarioModelFactory().build(s.spec());
    RunOutcome out = LocalRunner.run(m, Partitioning.ONE, 1, ProgressListener.NONE);
    RunResult r = ScenarioResults.toRunResult(out, 0);
    List<Task> tasks = AsyncFioThreadTest.tasks(m);
    long workers = tasks.stream().filter(t -> t instanceof AsyncFioThread)
        .map(t -> ((AsyncFioThread) t).ioWq())
        .mapToLong(wq -> wq == null ? 0 : wq.workersCreated()).sum();
    long workersSys = tasks.stream().filter(t -> t instanceof IoWqWorker)
        .mapToLong(Task::stimeNs).sum();
    long reads = 0;
    long writes = 0;
    for (var ir : out.reports()) {
      if (ir.report().kind().equals(CpuReport.KIND)) {
        for (DiskCounters.Snapshot d : CpuReport.decode(ir.report().payload()).disks()) {
          // Bios, not requests: concurrent misses of neighbouring pages may merge.
          reads += d.readIos() + d.readMerges();
          writes += d.writeIos();
        }
      }
    }
    return new Run(r.jobs().get(0), reads, writes, workers, workersSys, r);
  }

  private static final String SSD = "{ type = ssd, name = sdb, size = 4G }";

  private static long ios(JobStats j) {
    return j.totalIos(0) + j.totalIos(1);
  }

  @Test
  void coldRandomRead_missesWaitForTheirPage_withoutIoWq() throws IOException {
    Run r = run(SSD, "filename=/dev/sdb\nrw=randread\nsize=4m\niodepth=8");
    assertEquals(4L << 20, r.job().ioBytes(0));
    // POSIX_FADV_RANDOM: one page per miss, as psync's and libaio's buffered reads.
    Run psync = run(SSD, "filename=/dev/sdb\nrw=randread\nsize=4m\nioengine=psync");
    assertEquals(psync.diskReads(), r.diskReads());
    assertTrue(r.diskReads() > 900, "disk reads " + r.diskReads());
    assertEquals(0, r.workers(), "a read miss is re-issued from the page wait, not punted");
    // The submitter sleeps in io_uring_enter() for the misses' completions (task work).
    assertTrue(r.job().ctx() > ios(r.job()) / 8, "ctx " + r.job().ctx());
  }

  @Test
  void warmCache_hitsCompleteInsideTheSubmitCall() throws IOException {
    // 1 MiB read 16 times: the first loop misses, the other fifteen hit.
    Run r = run(SSD, "filename=/dev/sdb\nrw=randread\nsize=1m\niodepth=8\nloops=16");
    assertEquals(16L << 20, r.job().ioBytes(0));
    assertEquals(256, r.diskReads(), "only the first loop reads the device");
    assertEquals(0, r.workers());
    // Hits complete inline: the thread sleeps only while the first loop's misses are read.
    assertTrue(r.job().ctx() < ios(r.job()) / 8, "ctx " + r.job().ctx() + " for "
        + ios(r.job()) + " I/Os");
  }

  @Test
  void bufferedWrite_runsInIoWqWorkers_thatDirtyThePages() throws IOException {
    Run r = run(SSD, "filename=/dev/sdb\nrw=randwrite\nsize=4m\niodepth=8\nend_fsync=1");
    assertEquals(4L << 20, r.job().ioBytes(1));
    assertTrue(r.workers() >= 1, "blkdev_write_iter()'s -EOPNOTSUPP for NOWAIT: punted");
    assertTrue(r.workersSysNs() > 0, "the buffered writes are the workers' system time");
    // The writes reached the page cache; end_fsync wrote them back in merged bios.
    assertTrue(r.diskWrites() > 0 && r.diskWrites() < 1024, "disk writes " + r.diskWrites());
    assertTrue(r.result().threads().stream().anyMatch(t -> t.comm().startsWith("iou-wrk-")),
        "the workers are listed with the threads: " + r.result().threads());
  }

  @Test
  void brdWithNowait_completesEvenAMissInline_withoutNowaitEverythingIsPunted()
      throws IOException {
    String job = "filename=/dev/ram0\nrw=randread\nsize=2m\niodepth=4";
    // brd completes the readahead bio inside submit_bio(): the page is up to date before the
    // NOWAIT read looks at it again, so nothing waits.
    Run inline = run("{ type = brd, name = ram0, size = 64M, nowait = true }", job);
    assertEquals(2L << 20, inline.job().ioBytes(0));
    assertEquals(0, inline.workers());
    assertEquals(0, inline.job().ctx(), "the fio thread never sleeps");
    // Without FMODE_NOWAIT io_read() punts at once.
    Run punted = run("{ type = brd, name = ram0, size = 64M, nowait = false }", job);
    assertEquals(2L << 20, punted.job().ioBytes(0));
    assertTrue(punted.workers() >= 1 && punted.workersSysNs() > 0, "punted: " + punted);
    assertEquals(inline.diskReads(), punted.diskReads(), "the same page-cache misses");
  }

  @Test
  void aPageWhoseReadaheadFailed_isReadByAWorker() throws IOException {
    // dm-zero kills readahead: the page is unlocked but not up to date, which only a blocking
    // read (->read_folio()) can fix: -EAGAIN from the NOWAIT read, punted to io-wq.
    Run r = run("{ type = dm, name = dm-zeros, table = \"0 2097152 zero\" }",
        "filename=/dev/mapper/dm-zeros\nrw=randread\nsize=1m\niodepth=4");
    assertEquals(1L << 20, r.job().ioBytes(0));
    assertTrue(r.workers() >= 1 && r.workersSysNs() > 0, "punted: " + r);
  }

  @Test
  void runsAreIdentical_andThePageCacheKeepsThemInOnePartition() throws IOException {
    String job = "filename=/dev/sdb\nrw=randrw\nsize=2m\niodepth=4";
    Run a = run(SSD, job);
    Run b = run(SSD, job);
    assertArrayEquals(a.job().encode(), b.job().encode());
    assertEquals(a.workers(), b.workers());
    // The page cache is shared kernel state: like every buffered path, one partition only.
    Scenario s = ScenarioLoader.load(scenario(SSD, job), List.of(), Map.of());
    Model m = new ScenarioModelFactory().build(s.spec());
    InputException e = assertThrows(InputException.class,
        () -> ScenarioModelFactory.checkPartitioning(s, m, Partitioning.parse("cpu")));
    assertEquals("partitions", e.key());
  }
}
