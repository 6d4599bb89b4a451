package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A submission of more I/Os than a plug holds ({@code BLK_MAX_REQUEST_COUNT}, 32) to a device
 * that completes in {@code ->queue_rq} (null_blk irqmode=0): the plug flushes at its limit inside
 * the issue of a later request, and the requests it held complete there. Their events used to be
 * taken for the request being issued, so they were never posted and the job waited for them
 * forever ("the run stalled ... have not finished: cpu/1").
 */
@Timeout(120)
class PlugLimitInlineTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"libaio", "io_uring"})
  void batchAbovePlugLimit_onInlineNullBlk_everyEventPosted_andTheJobEnds(String engine)
      throws IOException {
    Path job = dir.resolve("plug.fio");
    Files.writeString(job, "[s]\nioengine=" + engine + "\ndirect=1\nrw=read\nbs=127k\n"
        + "iodepth=64\niodepth_batch_submit=64\niodepth_batch_complete_max=64\n"
        + "filename=/dev/nullb0\ntime_based=1\nruntime=2ms\n");
    MainTest.Result r = MainTest.cli("run", job.toString(), "--set", "devices.0.irqmode=none");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("read: IOPS="), r.out());
  }
}
