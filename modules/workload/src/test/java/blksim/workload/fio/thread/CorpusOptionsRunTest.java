package blksim.workload.fio.thread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * fio options the public job-file corpus uses, run whole: {@code iodepth_low} (fio's HOWTO:
 * "after fio has filled the queue of 16 requests, it will let the depth drain down to 4 before
 * starting to fill it again"), {@code disable_slat} (no slat samples, lat still whole).
 */
@Timeout(120)
class CorpusOptionsRunTest {
  @TempDir Path dir;

  private static final String NULLB = "{ type = null_blk, scheduler = none, name = nullb0,"
      + " size = 1G, irqmode = timer, completion-nsec = 20us }";

  JobStats run(String fio) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 1, threads-per-core = 1 }\n"
        + "  costs.sched.ctx-switch = 0\n"
        + "  devices = [ " + NULLB + " ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\ndirect=1\nbs=4k\nrw=randread\nruntime=2ms\ntime_based\n"
        + "filename=/dev/nullb0\n" + fio + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    Model m = new ScenarioModelFactory().build(s.spec());
    RunOutcome out = LocalRunner.run(m, Partitioning.ONE, 1, ProgressListener.NONE);
    RunResult r = ScenarioResults.toRunResult(out, 0);
    return r.jobs().get(0);
  }

  /** fio's IO depths buckets 1, 2, 4, 8, 16, 32, 64 as fractions of the I/Os. */
  static double[] depths(JobStats j) {
    long[] c = j.ioDepthCounts();
    long n = 0;
    for (long v : c) {
      n += v;
    }
    double[] f = new double[c.length];
    for (int i = 0; i < c.length; i++) {
      f[i] = (double) c[i] / n;
    }
    return f;
  }

  @ParameterizedTest
  @ValueSource(strings = {"libaio", "io_uring"})
  void iodepthLow_drainsToTheMark_thenRefillsFromThere(String engine) throws IOException {
    JobStats full = run("ioengine=" + engine + "\niodepth=16");
    JobStats low = run("ioengine=" + engine + "\niodepth=16\niodepth_low=4");
    double[] f = depths(full);
    double[] l = depths(low);
    // Default (iodepth_low = iodepth): each I/O is queued as one completes, at depth 16.
    assertTrue(f[4] > 0.95, "keeps the queue full: " + java.util.Arrays.toString(f));
    // Drained to 4, fio queues the 5th..16th: depths 5-7 (3 of 12), 8-15 (8), 16 (1).
    assertTrue(low.totalIos(0) > 100, "ios " + low.totalIos(0));
    assertEquals(1.0 / 12, l[4], 0.02, java.util.Arrays.toString(l));
    assertEquals(8.0 / 12, l[3], 0.03, java.util.Arrays.toString(l));
    assertEquals(3.0 / 12, l[2], 0.03, java.util.Arrays.toString(l));
  }

  @ParameterizedTest
  @ValueSource(strings = {"iodepth_low=0", "iodepth_low=16", "iodepth_low=64"})
  void iodepthLowZeroOrAtLeastIodepth_isIodepth(String opt) throws IOException {
    JobStats j = run("ioengine=libaio\niodepth=16\n" + opt);
    assertTrue(depths(j)[4] > 0.95, java.util.Arrays.toString(depths(j)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"libaio", "io_uring"})
  void disableSlat_recordsNoSubmissionLatency_butLatStaysWhole(String engine)
      throws IOException {
    JobStats on = run("ioengine=" + engine + "\niodepth=4");
    JobStats off = run("ioengine=" + engine + "\niodepth=4\ndisable_slat=1");
    assertTrue(on.slat(0).samples() > 0, "slat measured by default");
    assertEquals(0, off.slat(0).samples(), "no slat samples with disable_slat");
    assertTrue(off.clat(0).samples() > 0);
    assertTrue(off.lat(0).mean() > off.clat(0).mean(),
        "lat runs from the submission still: " + off.lat(0).mean() + " vs clat "
        + off.clat(0).mean());
  }

  @ParameterizedTest
  @ValueSource(strings = {"ioengine=null\nsize=1m", "io_submit_mode=offload\nioengine=libaio"})
  void iodepthLowWhereNotModelled_isRefused(String opt) {
    InputException e = assertThrows(InputException.class,
        () -> run(opt + "\niodepth=8\niodepth_low=2"));
    assertTrue(e.getMessage().contains("iodepth_low"), e.getMessage());
  }

  /**
   * fio's get_start_offset(): offset=13% of the 1 GiB device is 139586437 bytes, rounded up to
   * the smallest bs (4 KiB): 139587584; clone 1 of numjobs=2 with offset_increment=10% starts
   * 107374182 bytes further, rounded up: 246964224.
   */
  @org.junit.jupiter.api.Test
  void offsetPercent_startsAtThatShareOfTheDevice_roundedUpToTheBlockSize() throws IOException {
    Path log = dir.resolve("io.log");
    run("ioengine=libaio\nrw=write\noffset=13%\nwrite_iolog=" + log);
    String first = Files.readAllLines(log).stream().filter(l -> l.contains(" write "))
        .findFirst().orElseThrow();
    assertEquals("139587584", first.split(" ")[3], first);
    List<blksim.workload.fio.FioJob> jobs = parse(
        "[j]\nbs=4k\noffset=13%\noffset_increment=10%\nnumjobs=2\n");
    assertEquals(139587584L, jobs.get(0).startOffset(1L << 30));
    assertEquals(246964224L, jobs.get(1).startOffset(1L << 30));
    // In bytes nothing is rounded: offset + k * offset_increment.
    List<blksim.workload.fio.FioJob> bytes = parse(
        "[j]\nbs=4k\noffset=1000\noffset_increment=24\nnumjobs=2\n");
    assertEquals(1024L, bytes.get(1).startOffset(1L << 30));
  }

  static List<blksim.workload.fio.FioJob> parse(String text) {
    return blksim.workload.fio.FioJobFile.parse("t.fio", text, null,
        new blksim.workload.fio.FioEnvironment(8, 16384, 4096), Map.of());
  }
}
