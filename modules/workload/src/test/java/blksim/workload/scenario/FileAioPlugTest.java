package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.workload.fio.stats.DiskStats;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * io_submit()'s batch plug on regular files ({@code fs.FileAio} through
 * {@code iouring.SubmitPlug}, as {@code SubmitCall} on a device): an XFS file's sequential 4 KiB
 * O_DIRECT reads submitted 8 at a time merge in the call's plug (each dio's own plug only
 * nests in it), so there are far fewer requests than reads; batches of two are not plugged
 * ({@code AIO_PLUG_THRESHOLD}) and every read is its own request. No scheduler: every merge is
 * a plug merge.
 */
@Timeout(120)
class FileAioPlugTest {
  @TempDir Path dir;

  RunResult run(int batch) throws IOException {
    return XfsDirectIoPlugTest.run(dir, "{ type = ssd, name = sdb, size = 1G, scheduler = none }",
        "[w]\nfilename=/mnt/t/f\nrw=read\nbs=4k\nsize=4m\ndirect=1\nioengine=libaio\n"
        + "iodepth=16\niodepth_batch_submit=" + batch + "\niodepth_batch_complete_min="
        + (batch > 2 ? batch : 1));
  }

  static long reads(RunResult r) {
    long n = 0;
    for (JobStats j : r.jobs()) {
      n += j.totalIos(0);
    }
    return n;
  }

  @Test
  void sequentialBatchOfEightMergesInTheCallsPlug() throws IOException {
    RunResult r = run(8);
    DiskStats d = XfsDirectIoPlugTest.disk(r);
    assertEquals(1024, reads(r));
    assertTrue(d.readIos() * 4 < 1024, "requests " + d.readIos() + " for 1024 reads");
    assertEquals(1024, d.readIos() + d.readMerges(), "every read is a request or a merge");
  }

  @Test
  void batchOfTwoIsNotPlugged() throws IOException {
    RunResult r = run(2);
    assertEquals(1024, reads(r));
    assertEquals(0, XfsDirectIoPlugTest.disk(r).readMerges());
    assertEquals(1024, XfsDirectIoPlugTest.disk(r).readIos());
  }
}
