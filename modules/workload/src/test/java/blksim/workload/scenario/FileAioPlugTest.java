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
 * io_submit()'s batch plug on regular files ({@code fs.FileAio} through
 * {@code iouring.SubmitPlug}, as {@code SubmitCall} on a device): an XFS file's sequential 4 KiB
 * O_DIRECT writes submitted 8 at a time merge in the call's plug (each dio's own plug only
 * nests in it), so there are far fewer requests than writes; batches of two are not plugged
 * ({@code AIO_PLUG_THRESHOLD}) and every write is its own request. No scheduler: every merge is
 * a plug merge.
 */
@Timeout(120)
class FileAioPlugTest {
  @TempDir Path dir;

  RunResult run(int batch) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1, memory = 512M }\n"
        + "  devices = [ { type = ssd, name = sdb, size = 1G, scheduler = none } ]\n"
        + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/t } ]\n"
        + "  fio.jobs = [\"\"\"\n[w]\nfilename=/mnt/t/f\nrw=read\nbs=4k\nsize=4m\ndirect=1\n"
        + "ioengine=libaio\niodepth=16\niodepth_batch_submit=" + batch
        + "\niodepth_batch_complete_min=" + (batch > 2 ? batch : 1) + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0);
  }

  static DiskStats disk(RunResult r) {
    return r.disks().stream().filter(d -> d.name().equals("sdb")).findFirst().orElseThrow();
  }

  static long writes(RunResult r) {
    long n = 0;
    for (JobStats j : r.jobs()) {
      n += j.totalIos(0);
    }
    return n;
  }

  @Test
  void sequentialBatchOfEightMergesInTheCallsPlug() throws IOException {
    RunResult r = run(8);
    DiskStats d = disk(r);
    assertEquals(1024, writes(r));
    assertTrue(d.readIos() * 4 < 1024, "requests " + d.readIos() + " for 1024 reads");
    assertEquals(1024, d.readIos() + d.readMerges(), "every read is a request or a merge");
  }

  @Test
  void batchOfTwoIsNotPlugged() throws IOException {
    RunResult r = run(2);
    assertEquals(1024, writes(r));
    assertEquals(0, disk(r).readMerges());
    assertEquals(1024, disk(r).readIos());
  }
}
