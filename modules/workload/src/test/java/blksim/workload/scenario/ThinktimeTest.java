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
 * fio's {@code thinktime} (backend.c handle_thinktime()): after every {@code thinktime_blocks}
 * completions the job quiesces, spins {@code thinktime_spin} and waits the rest with
 * {@code usec_sleep()} (time.c), which makes up for the timer slack.
 */
@Timeout(60)
class ThinktimeTest {
  @TempDir Path dir;

  static final long RUNTIME_NS = 20_000_000;

  JobStats run(String job, String extra) throws IOException {
    Path p = dir.resolve("t.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + extra + "\n  devices = [ { type = brd, name = ram0, size = 64M } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/dev/ram0\ndirect=1\nbs=4k\nrw=randread\n"
        + "runtime=20ms\ntime_based\n" + job + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    RunResult r = ScenarioResults.toRunResult(out, 0);
    return r.jobs().get(0);
  }

  @Test
  void psync_sleepsThinktime_afterEveryThinktimeBlocks() throws IOException {
    JobStats free = run("", "");
    double perIoNs = (double) RUNTIME_NS / free.totalIos(0);
    JobStats thinking = run("thinktime=1ms\nthinktime_blocks=10", "");
    // A cycle: 10 I/Os, then 1 ms (usec_sleep(): a sleep of 1 ms less ns_granularity, which
    // the slack and the wakeup make up, and a spin of what is left).
    double cycleNs = 10 * perIoNs + 1_000_000;
    double expected = 10 * RUNTIME_NS / cycleNs;
    long n = thinking.totalIos(0);
    assertTrue(n < free.totalIos(0) / 4, "thinktime slows the job: " + n + " vs "
        + free.totalIos(0));
    assertTrue(Math.abs(n - expected) <= 0.08 * expected + 10,
        "I/Os " + n + ", expected about " + expected);
  }

  @Test
  void usecSleep_makesUpForTheTimerSlack() throws IOException {
    // fio's usec_sleep() sleeps the thinktime less its ns_granularity (the longest 1 us
    // nanosleep, about the slack) and spins what is left, so a 100 us thinktime lasts about
    // 100 us whatever the slack (the sleep alone would take 150 us with the default 50 us).
    long slack50 = run("thinktime=100us", "").totalIos(0);
    long slack0 = run("thinktime=100us", "kernel.timer-slack = 0").totalIos(0);
    double ratio = (double) slack0 / slack50;
    assertTrue(ratio > 0.97 && ratio < 1.03, slack0 + " vs " + slack50 + ": " + ratio);
    // 20 ms / (100 us + an I/O of a few us): about 190 cycles, not 20 ms / 150 us = 133.
    assertTrue(slack50 > 170 && slack50 < 200, "I/Os " + slack50);
  }

  @Test
  void usecSleep_belowTheGranularity_spins() throws IOException {
    // 20 us is below ns_granularity (~53 us here): fio spins it in user space (usec_spin()),
    // no sleep, no context switch.
    JobStats j = run("thinktime=20us", "");
    assertTrue(j.usrNs() > 0.7 * RUNTIME_NS, "usr " + j.usrNs());
    assertEquals(0, j.ctx(), "context switches");
  }

  @Test
  void thinktimeSpin_isUserTime_andTheRestIsSlept() throws IOException {
    JobStats j = run("thinktime=1ms\nthinktime_spin=400us\nthinktime_blocks=4", "");
    long cycles = j.totalIos(0) / 4;
    assertTrue(cycles > 5, "cycles " + cycles);
    // Each cycle spins 400 us in user space; the user time of the I/Os is small beside it.
    assertTrue(j.usrNs() >= cycles * 400_000 && j.usrNs() < (cycles + 1) * 400_000 + 2_000_000,
        "usr " + j.usrNs() + " for " + cycles + " cycles");
  }

  @Test
  void ioUring_quiescesBeforeThinking() throws IOException {
    JobStats free = run("ioengine=io_uring\niodepth=8", "");
    JobStats j = run("ioengine=io_uring\niodepth=8\nthinktime=1ms\nthinktime_blocks=8", "");
    long n = j.totalIos(0);
    double perIoNs = (double) RUNTIME_NS / free.totalIos(0);
    // As in fio's do_io(): after a sleep the job fills its 8 slots and reaps one at a time;
    // the 8th completion makes the thinktime due, and the quiesce reaps the 7 still in flight:
    // 15 I/Os between two sleeps, all completed before the sleep starts.
    int perCycle = 8 + 8 - 1;
    double minCycles = RUNTIME_NS / (perCycle * perIoNs + 1_100_000);
    double maxCycles = RUNTIME_NS / 1_050_000.0;
    assertTrue(n >= perCycle * Math.floor(minCycles) && n <= perCycle * Math.ceil(maxCycles),
        "I/Os " + n + " for " + minCycles + " to " + maxCycles + " cycles of " + perCycle);
    assertTrue(n < free.totalIos(0) / 4);
  }

  @Test
  void thinktimeIotime_stallsAfterThatMuchIoTime_orAfterThinktimeBlocksIfSet()
      throws IOException {
    long free = run("", "").totalIos(0);
    // 2 ms of I/O, then 1 ms + 50 us of sleep: about 2/3.05 of the free job's I/Os. Without
    // thinktime_blocks only the time triggers (its default 1 would stall after every I/O).
    long timed = run("thinktime=1ms\nthinktime_iotime=2ms", "").totalIos(0);
    double share = (double) timed / free;
    assertTrue(share > 0.55 && share < 0.75, timed + " of " + free + ": " + share);
    // with thinktime_blocks too, whichever comes first: 10 I/Os come long before 2 ms
    long blocks = run("thinktime=1ms\nthinktime_blocks=10", "").totalIos(0);
    long both = run("thinktime=1ms\nthinktime_blocks=10\nthinktime_iotime=2ms", "")
        .totalIos(0);
    assertTrue(Math.abs(both - blocks) <= blocks / 20 + 2, both + " vs " + blocks);
    // and a time shorter than 10 I/Os' triggers first
    long perIoNs = RUNTIME_NS / free;
    long early = run("thinktime=1ms\nthinktime_blocks=10\nthinktime_iotime="
        + (3 * perIoNs / 1000) + "us", "").totalIos(0);
    assertTrue(early < blocks * 0.6, early + " vs " + blocks);
  }

  @Test
  void thinktimeBlocksTypeIssue_countsIssuedIos() throws IOException {
    String job = "ioengine=io_uring\niodepth=8\nthinktime=1ms\nthinktime_blocks=8\n";
    long complete = run(job + "thinktime_blocks_type=complete", "").totalIos(0);
    assertEquals(run(job, "").totalIos(0), complete, "complete is the default");
    long issue = run(job + "thinktime_blocks_type=issue", "").totalIos(0);
    // complete: 15 I/Os a cycle (ioUring_quiescesBeforeThinking); issue: the 8 issued after a
    // sleep make it due, and the quiesce reaps them: 8 a cycle.
    double ratio = (double) issue / complete;
    assertTrue(ratio > 0.45 && ratio < 0.65, issue + " vs " + complete + ": " + ratio);
  }

  @Test
  void vsync_runsAsSync_oneIovecACall() throws IOException {
    JobStats sync = run("ioengine=sync", "");
    JobStats vsync = run("ioengine=vsync", "");
    assertEquals(sync.totalIos(0), vsync.totalIos(0));
    assertEquals(sync.usrNs() + sync.sysNs(), vsync.usrNs() + vsync.sysNs());
  }

  @Test
  void thinktimeSpin_isCutToTheRuntimeLeft() throws IOException {
    // 15 ms spins after every I/O in a 20 ms job: the second spin starts near 15 ms and is cut
    // at 20 ms, as handle_thinktime() cuts it to the runtime left (it ran to ~30 ms before).
    JobStats j = run("thinktime=15ms\nthinktime_spin=15ms\nthinktime_blocks=1", "");
    assertTrue(j.runtimeMs(0) <= 21, "runtime " + j.runtimeMs(0) + " ms");
    assertTrue(j.usrNs() >= 19_000_000 && j.usrNs() <= 20_500_000, "usr " + j.usrNs());
  }

  @Test
  void rateIgnoreThinktime_doesNotCatchUpOnTheStall() throws IOException {
    // 1,000 IOPS, a 5 ms stall after every 5 I/Os. Without the option the rate catches up after
    // each stall (the I/Os due meanwhile go back to back): about 20 I/Os in 20 ms. With it, the
    // stall counts as rated I/O done (handle_thinktime() adds its bytes, less a block), so each
    // cycle is 5 I/Os a millisecond apart and then the stall: about 2 cycles.
    String job = "rate_iops=1000\nthinktime=5ms\nthinktime_blocks=5\n";
    long catchUp = run(job, "").totalIos(0);
    long ignore = run(job + "rate_ignore_thinktime=1\n", "").totalIos(0);
    assertTrue(catchUp >= 18 && catchUp <= 22, "catching up: " + catchUp);
    assertTrue(ignore >= 9 && ignore <= 13, "ignoring the thinktime: " + ignore);
    // Poisson: the stall's time goes to last_usec instead, with the same effect.
    long poissonCatchUp = run(job + "rate_process=poisson\n", "").totalIos(0);
    long poissonIgnore = run(job + "rate_process=poisson\nrate_ignore_thinktime=1\n", "")
        .totalIos(0);
    assertTrue(poissonIgnore < poissonCatchUp * 0.75,
        "poisson: " + poissonIgnore + " vs " + poissonCatchUp);
  }

  /**
   * fio's handle_thinktime(td, ddir) credits the rate of the direction of the I/O the stall
   * followed: with only reads rated (1,000 IOPS binds: 20 reads in 20 ms) and nine writes in
   * ten, most stalls follow an unrated write and credit nothing, so ignoring the thinktime keeps
   * the reads (19 against 20); crediting the read rate after every stall, as the model did until
   * 2026-12-03, cut them to 7.
   */
  @Test
  void rateIgnoreThinktime_creditsTheDirectionTheStallFollowed() throws IOException {
    String job = "rw=randrw\nrwmixread=10\nrate_iops=1000,\nthinktime=200us\nthinktime_blocks=5\n";
    long catchUp = run(job, "").totalIos(0);
    long ignore = run(job + "rate_ignore_thinktime=1\n", "").totalIos(0);
    assertTrue(catchUp > 0 && ignore >= catchUp * 0.8, "reads " + ignore + " vs " + catchUp);
  }

  @Test
  void rateIgnoreThinktime_withoutRate_changesNothing() throws IOException {
    String job = "thinktime=1ms\nthinktime_blocks=10\n";
    JobStats plain = run(job, "");
    JobStats ignoring = run(job + "rate_ignore_thinktime=1\n", "");
    assertEquals(plain.totalIos(0), ignoring.totalIos(0));
    assertEquals(plain.clat(0).mean(), ignoring.clat(0).mean());
  }

  @Test
  void sameSeed_sameResult() throws IOException {
    JobStats a = run("ioengine=io_uring\niodepth=4\nthinktime=300us\nthinktime_blocks=3", "");
    JobStats b = run("ioengine=io_uring\niodepth=4\nthinktime=300us\nthinktime_blocks=3", "");
    assertEquals(a.totalIos(0), b.totalIos(0));
    assertEquals(a.usrNs(), b.usrNs());
  }

  @Test
  void timerSlack_outOfRange_isRefused() {
    InputException e = assertThrows(InputException.class,
        () -> run("thinktime=1ms", "kernel.timer-slack = -1us"));
    assertTrue(e.getMessage().contains("kernel.timer-slack"), e.getMessage());
  }
}
