package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code io_submit_mode=offload} against fio's documented behaviour (HOWTO: "offload" submits
 * with a pool of worker threads; rate-submit.c: {@code iodepth} workers per job; fio's
 * examples/fixed-rate-submission.fio: the rate of submission is kept).
 */
@Timeout(180)
class FioOffloadTest {
  @TempDir Path tmp;

  private static final String JOB = "[j]\nsize=64m\nrw=randread\nioengine=libaio\niodepth=4\n"
      + "direct=1\nrate_iops=2000\n";

  private MainTest.Result run(String mode) throws IOException {
    Path job = tmp.resolve(mode + ".fio");
    Files.writeString(job, JOB + "io_submit_mode=" + mode + "\n");
    MainTest.Result r = MainTest.cli("run", job.toString(), "--set", "max-time=100ms",
        "--threads");
    assertEquals(0, r.code(), r.err());
    return r;
  }

  /** The number of simulated threads named after the job, from the --threads table. */
  private static int threads(String out) {
    Matcher m = Pattern.compile("(?m)^  j\\s+(\\d+)\\s").matcher(out);
    assertTrue(m.find(), out);
    return Integer.parseInt(m.group(1));
  }

  private static int iops(String out) {
    Matcher m = Pattern.compile("read: IOPS=(\\d+)").matcher(out);
    assertTrue(m.find(), out);
    return Integer.parseInt(m.group(1));
  }

  @Test
  void offload_submitsFromIodepthWorkerThreads_andKeepsTheRate() throws IOException {
    MainTest.Result inline = run("inline");
    MainTest.Result offload = run("offload");
    assertEquals(1, threads(inline.out()), inline.out());
    // the job thread and iodepth submit workers
    assertEquals(1 + 4, threads(offload.out()), offload.out());
    int rate = iops(offload.out());
    assertTrue(rate >= 1960 && rate <= 2040, "offload IOPS " + rate);
    // slat runs from the hand-off to the worker's submit return: longer than inline's, which
    // is the submit call alone.
    assertTrue(slatAvg(offload.out()) > slatAvg(inline.out()),
        offload.out() + "\n" + inline.out());
  }

  private static double slatAvg(String out) {
    Matcher m = Pattern.compile("slat \\(nsec\\): min=\\d+, max=\\d+, avg=([0-9.]+)").matcher(out);
    assertTrue(m.find(), out);
    return Double.parseDouble(m.group(1));
  }

  @Test
  void offload_onADevice_withIoUring_runsFromWorkers_andASyncEngineIsRefused() throws IOException {
    Path job = tmp.resolve("dev.fio");
    Files.writeString(job, "[j]\nfilename=/dev/nullb0\nioengine=io_uring\ndirect=1\n"
        + "iodepth=8\nio_submit_mode=offload\nsize=4m\nrate_iops=5000\nrw=randread\n");
    MainTest.Result r = MainTest.cli("run", job.toString(), "--set", "max-time=100ms",
        "--threads");
    assertEquals(0, r.code(), r.err());
    assertEquals(1 + 8, threads(r.out()), r.out());
    int rate = iops(r.out());
    assertTrue(rate >= 4900 && rate <= 5100, "offload IOPS " + rate);
    Files.writeString(job, "[j]\nfilename=/dev/nullb0\nioengine=psync\ndirect=1\n"
        + "io_submit_mode=offload\nsize=4m\n");
    r = MainTest.cli("run", job.toString());
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("dev.fio:5:") && r.err().contains("psync"), r.err());
  }
}
