package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.workload.fio.stats.DiskStats;
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
 * The plug of libaio's and io_uring's submission batches (issue 10 item 8, {@code SubmitCall}):
 * a batch of more than two I/Os is plugged, so contiguous ones merge into one request
 * ({@code blk_attempt_plug_merge()}); random ones do not, and batches of two are not plugged.
 * null_blk without a scheduler has no elevator merging, so every merge is a plug merge.
 */
@Timeout(60)
class SubmitPlugRunTest {
  @TempDir Path dir;

  static final String NULLB = "{ type = null_blk, name = nullb0, size = 1G, irqmode = timer,"
      + " scheduler = none }";

  RunResult run(String fio) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n  devices = [ " + NULLB + " ]\n"
        + "  fio.jobs = [\"\"\"\n[global]\ndirect=1\ntime_based\nruntime=5ms\nbs=4k\n"
        + "filename=/dev/nullb0\n" + fio + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0);
  }

  static long reads(RunResult r) {
    long n = 0;
    for (JobStats j : r.jobs()) {
      n += j.totalIos(0);
    }
    return n;
  }

  static DiskStats disk(RunResult r) {
    return r.disks().stream().filter(d -> d.name().equals("nullb0")).findFirst().orElseThrow();
  }

  static String job(String engine, String rw, int batch) {
    return job(engine, rw, batch, batch);
  }

  static String job(String engine, String rw, int batch, int completeMin) {
    return "[j]\nioengine=" + engine + "\nrw=" + rw + "\niodepth=16\niodepth_batch_submit="
        + batch + "\niodepth_batch_complete_min=" + completeMin + "\n";
  }

  @Test
  void sequentialLibaioBatchOfEightMergesInThePlug() throws IOException {
    RunResult r = run(job("libaio", "read", 8));
    DiskStats d = disk(r);
    long ios = reads(r);
    assertTrue(ios > 100, "I/Os " + ios);
    // Each batch of 8 contiguous 4 KiB reads becomes one 32 KiB request, give or take the
    // batches in flight at the end.
    assertTrue(d.readIos() * 4 < ios, "requests " + d.readIos() + " for " + ios + " I/Os");
    assertTrue(d.readMerges() > 0, "merges " + d.readMerges());
  }

  @Test
  void sequentialIoUringBatchOfEightMergesInThePlug() throws IOException {
    RunResult r = run(job("io_uring", "read", 8));
    long ios = reads(r);
    assertTrue(disk(r).readIos() * 4 < ios, "requests " + disk(r).readIos() + " for " + ios);
  }

  @Test
  void randomBatchOfEightIssuesOneRequestPerIo() throws IOException {
    RunResult r = run(job("libaio", "randread", 8));
    DiskStats d = disk(r);
    assertEquals(0, d.readMerges());
    // Requests still in flight at the end are counted by neither side's completion.
    assertTrue(Math.abs(d.readIos() - reads(r)) <= 16,
        "requests " + d.readIos() + " for " + reads(r) + " I/Os");
  }

  @Test
  void batchOfTwoIsNotPlugged() throws IOException {
    // AIO_PLUG_THRESHOLD: io_submit() of two iocbs does not plug, so nothing merges.
    RunResult r = run(job("libaio", "read", 2, 1));
    assertTrue(reads(r) > 100, "I/Os " + reads(r));
    assertEquals(0, disk(r).readMerges());
  }
}
