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
 * fio's {@code wait_for_completions()} asks for {@code min(iodepth_batch_complete_min,
 * cur_depth)} events: with an odd depth and a minimum of 2 the job's last I/O is reaped alone.
 * An io_getevents for more events than are in flight never returns: the run used to stall at
 * its end ("no event is left but 1 component(s) have not finished: cpu/0").
 */
@Timeout(120)
class ReapMinTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"libaio", "io_uring"})
  void completeMinAboveWhatIsInFlight_reapsWhatThereIs_andTheJobEnds(String engine)
      throws IOException {
    Path job = dir.resolve("reap.fio");
    Files.writeString(job, "[s]\nioengine=" + engine + "\ndirect=1\nrw=randread\nbs=4k\n"
        + "iodepth=3\niodepth_batch_submit=1\niodepth_batch_complete_min=2\n"
        + "filename=/dev/nullb0\ntime_based=1\nruntime=5ms\n");
    MainTest.Result r = MainTest.cli("run", job.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("read: IOPS="), r.out());
  }
}
