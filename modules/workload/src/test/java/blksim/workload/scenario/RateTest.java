package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
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
 * fio's {@code rate}, {@code rate_iops} and {@code rate_process} (io_u.c rate_ddir(),
 * backend.c usec_for_io()): a rate-limited job issues at the rate, whatever the device could do.
 */
@Timeout(60)
class RateTest {
  @TempDir Path dir;

  JobStats run(String runtime, String job) throws IOException {
    Path p = dir.resolve("r.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = brd, name = ram0, size = 64M } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/dev/ram0\ndirect=1\nbs=4k\nrw=randread\n"
        + "runtime=" + runtime + "\ntime_based\n" + job + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    RunResult r = ScenarioResults.toRunResult(out, 0);
    return r.jobs().get(0);
  }

  @Test
  void rateIops_psync_issuesAtTheRate() throws IOException {
    long free = run("20ms", "").totalIos(0);
    long n = run("20ms", "rate_iops=5000").totalIos(0);
    // One I/O every 200 us over 20 ms; the device alone would do far more.
    assertTrue(free > 1000, "unlimited " + free);
    assertTrue(n >= 98 && n <= 102, "I/Os " + n + " at 5000 IOPS for 20 ms");
  }

  @Test
  void rateIops_withBssplit_pacesIos_notBytes() throws IOException {
    // usec_for_io(): with a bssplit and rate_iops (no rate), fio adds 10^6 / iops us per I/O
    // whatever its size: 5,000 IOPS of 4k and 64k I/Os, not 5,000 x 4 KiB per second in bytes
    // (which would be ~590 IOPS at the mean size of 34 KiB).
    long n = run("20ms", "bssplit=4k/50:64k/50\nrate_iops=5000").totalIos(0);
    assertTrue(n >= 98 && n <= 102, "I/Os " + n + " at 5000 IOPS for 20 ms");
    // With rate (bytes) the bssplit job is paced by bytes: 20 MiB/s of ~34 KiB I/Os.
    long bytesPaced = run("20ms", "bssplit=4k/50:64k/50\nrate=20m").totalIos(0);
    assertTrue(bytesPaced >= 8 && bytesPaced <= 16, "I/Os " + bytesPaced + " at 20 MiB/s");
    // Poisson: the mean gap is 10^6 / (bps / min_bs) us, so 5,000 IOPS again (500 +- 22).
    long poisson = run("100ms", "bssplit=4k/50:64k/50\nrate_iops=5000\nrate_process=poisson")
        .totalIos(0);
    assertTrue(poisson > 420 && poisson < 580, "poisson I/Os " + poisson);
    // The same with a bsrange whose smallest size is not bs's default (the gaps came from 4k
    // and gave twice the rate: about 1,000).
    long range = run("100ms", "bsrange=8k-64k\nrate_iops=5000\nrate_process=poisson")
        .totalIos(0);
    assertTrue(range > 420 && range < 580, "poisson I/Os with bsrange " + range);
  }

  @Test
  void rateInBytes_isBytesPerSecond_atTheBlockSize() throws IOException {
    long n = run("50ms", "rate=8m").totalIos(0);
    // 8 MiB/s in 4 KiB I/Os: 2048 IOPS, about 102 I/Os in 50 ms.
    assertTrue(n >= 100 && n <= 105, "I/Os " + n);
  }

  @Test
  void rateIops_ioUring_quiescesAndKeepsTheRate() throws IOException {
    long n = run("20ms", "ioengine=io_uring\niodepth=8\nrate_iops=5000").totalIos(0);
    assertTrue(n >= 98 && n <= 102, "I/Os " + n);
  }

  @Test
  void rateMin_checksEveryRateCycleAfterTwoSeconds_andEndsTheJobWithEio() throws IOException {
    // A 2 ms thinktime keeps the job near 500 IOPS. fio's check_min_rate(): nothing for 2 s, then
    // the first check records, and one rate_cycle later the window's rate is compared.
    JobStats slow = run("3500ms", "thinktime=2ms\nrate_iops_min=800");
    assertEquals(5, slow.error(), "EIO from check_min_rate");
    assertTrue(slow.jobRuntimeMs() >= 2990 && slow.jobRuntimeMs() <= 3010,
        "stopped one rate_cycle (1 s) after the 2 s settle: " + slow.jobRuntimeMs());
    JobStats cycle = run("3500ms", "thinktime=2ms\nrate_iops_min=800\nrate_cycle=250");
    assertTrue(cycle.jobRuntimeMs() >= 2240 && cycle.jobRuntimeMs() <= 2260,
        "rate_cycle=250: " + cycle.jobRuntimeMs());
    JobStats bytes = run("3500ms", "thinktime=2ms\nratemin=4m");
    assertEquals(5, bytes.error(), "about 2 MB/s is under 4 MiB/s");
    JobStats ok = run("3500ms", "thinktime=2ms\nrate_iops_min=300\nratecycle=500");
    assertEquals(0, ok.error());
    assertTrue(ok.jobRuntimeMs() >= 3490, "ran its runtime: " + ok.jobRuntimeMs());
  }

  @Test
  void rateMin_aboveTheRate_orWithRateIopsMin_isRefusedAsFioDoes() throws IOException {
    InputException e = assertThrows(InputException.class,
        () -> run("10ms", "rate_iops=100\nrate_iops_min=200"));
    assertTrue(e.getMessage().contains("minimum rate exceeds rate"), e.getMessage());
    e = assertThrows(InputException.class, () -> run("10ms", "rate_min=1m\nrate_iops_min=200"));
    assertTrue(e.getMessage().contains("mutually exclusive"), e.getMessage());
  }

  @Test
  void rateIops_nullEngine() throws IOException {
    Path p = dir.resolve("n.conf");
    Files.writeString(p, "blksim {\n  fio.jobs = [\"\"\"\n[j]\nioengine=null\nsize=1g\nbs=4k\n"
        + "rw=read\nruntime=20ms\ntime_based\nrate_iops=10000\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    long n = ScenarioResults.toRunResult(out, 0).jobs().get(0).totalIos(0);
    assertTrue(n >= 198 && n <= 202, "I/Os " + n);
  }

  @Test
  void poisson_keepsTheMeanRate_withIrregularGaps() throws IOException {
    JobStats lin = run("100ms", "rate_iops=5000");
    JobStats poi = run("100ms", "rate_iops=5000\nrate_process=poisson");
    long n = poi.totalIos(0);
    // 500 expected; a Poisson count has a standard deviation of about 22.
    assertTrue(n > 420 && n < 580, "poisson I/Os " + n);
    assertTrue(n != lin.totalIos(0) || poi.usrNs() != lin.usrNs(), "poisson differs from linear");
    assertEquals(n, run("100ms", "rate_iops=5000\nrate_process=poisson").totalIos(0),
        "the poisson stream is seeded");
  }

  @Test
  void randrw_perDirectionRates_eachDirectionKeepsItsOwn() throws IOException {
    // fio's rate_ddir(): a direction ahead of its rate hands the I/O to the other one if that
    // one is due, so reads keep 5000/s while writes keep 1000/s (a 50/50 draw that waited in
    // the drawn direction gave about 1000 reads: every other draw was a write waiting 1 ms).
    for (String engine : List.of("", "ioengine=io_uring\niodepth=8\n")) {
      JobStats j = run("200ms", engine + "rw=randrw\nrate_iops=5000,1000");
      assertTrue(j.totalIos(0) >= 995 && j.totalIos(0) <= 1002,
          engine + "reads " + j.totalIos(0) + " at 5000 IOPS for 200 ms");
      assertTrue(j.totalIos(1) >= 198 && j.totalIos(1) <= 201,
          engine + "writes " + j.totalIos(1) + " at 1000 IOPS for 200 ms");
    }
    JobStats poi = run("200ms", "rw=randrw\nrate_iops=5000,1000\nrate_process=poisson");
    // Poisson counts: about 1000 +- 32 and 200 +- 14.
    assertTrue(poi.totalIos(0) > 880 && poi.totalIos(0) < 1120, "poisson reads " + poi.totalIos(0));
    assertTrue(poi.totalIos(1) > 150 && poi.totalIos(1) < 250, "poisson writes " + poi.totalIos(1));
  }

  @Test
  void randrw_oneRateForBoth_isPerDirection_whateverTheMix() throws IOException {
    // rate_iops=1000 is 1000 for reads and 1000 for writes (a value without a comma carries
    // over). With both directions ahead, rate_ddir() sleeps until the earlier one is due and
    // issues that one, so each keeps 1000/s: 200 and 200 in 200 ms, for 50/50 and for 80/20.
    for (int mix : new int[] {50, 80}) {
      JobStats j = run("200ms", "rw=randrw\nrwmixread=" + mix + "\nrate_iops=1000");
      assertTrue(j.totalIos(0) >= 199 && j.totalIos(0) <= 201, mix + ": reads " + j.totalIos(0));
      assertTrue(j.totalIos(1) >= 199 && j.totalIos(1) <= 201, mix + ": writes " + j.totalIos(1));
    }
  }

  @Test
  void randrw_directionWithoutRate_takesTheRest_unlessItHasNoShareOfTheMix() throws IOException {
    // rate_iops=5000, limits reads only: usec_for_io() leaves writes' next I/O time at 0, so
    // whenever reads are ahead the I/O is a write.
    JobStats j = run("50ms", "rw=randrw\nrate_iops=5000,");
    assertTrue(j.totalIos(0) >= 248 && j.totalIos(0) <= 251, "reads " + j.totalIos(0));
    assertTrue(j.totalIos(1) > 5 * j.totalIos(0), "writes " + j.totalIos(1) + " unlimited");
    // rwmixread=100: rwmix[write] is 0, so rate_ddir() never switches to writes.
    JobStats r = run("50ms", "rw=randrw\nrwmixread=100\nrate_iops=5000,");
    assertEquals(0, r.totalIos(1), "writes");
    assertTrue(r.totalIos(0) >= 248 && r.totalIos(0) <= 251, "reads " + r.totalIos(0));
  }

  @Test
  void randrw_withRates_isDeterministic() throws IOException {
    JobStats a = run("50ms", "rw=randrw\nrate_iops=5000,1000\nrate_process=poisson");
    JobStats b = run("50ms", "rw=randrw\nrate_iops=5000,1000\nrate_process=poisson");
    assertEquals(a.totalIos(0), b.totalIos(0));
    assertEquals(a.totalIos(1), b.totalIos(1));
    assertEquals(a.usrNs(), b.usrNs());
  }

  @Test
  void rateAndRateIops_forOneDirection_areRefused() {
    InputException e = assertThrows(InputException.class,
        () -> run("20ms", "rate=1m\nrate_iops=100"));
    assertTrue(e.getMessage().contains("mutually exclusive"), e.getMessage());
  }

  @Test
  void rateProcess_unknownValue_isRefused() {
    InputException e = assertThrows(InputException.class,
        () -> run("20ms", "rate_iops=100\nrate_process=bursty"));
    assertTrue(e.getMessage().contains("rate_process"), e.getMessage());
  }
}
