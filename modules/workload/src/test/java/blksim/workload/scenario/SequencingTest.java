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
 * fio's job sequencing (backend.c run_threads()): stonewall, wait_for, exitall/exit_what, the
 * implicit stonewall between job files, number_ios, startdelay from the start of the run.
 */
@Timeout(60)
class SequencingTest {
  @TempDir Path dir;

  /** One run on 4 CPUs with a brd; jobs of {@code fio} after a [global] of 4k direct reads. */
  RunResult run(String extra, String... jobFiles) throws IOException {
    Path p = dir.resolve("s.conf");
    StringBuilder jobs = new StringBuilder();
    for (String f : jobFiles) {
      jobs.append(jobs.length() == 0 ? "" : ", ").append("\"\"\"\n[global]\ndirect=1\nbs=4k\n"
          + "filename=/dev/ram0\n" + f + "\n\"\"\"");
    }
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 4, threads-per-core = 1 }\n"
        + extra + "\n  devices = [ { type = brd, name = ram0, size = 64M } ]\n"
        + "  fio.jobs = [" + jobs + "]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0);
  }

  static JobStats job(RunResult r, int k) {
    return r.jobs().get(k);
  }

  /** The wakeup of a job on another CPU costs one wakeup latency (a TaskWakeup message). */
  static final long WAKE_SLACK_NS = 100_000;

  /** A job's first step comes a few µs after it is made runnable (switch costs). */
  static final long STARTUP_NS = 10_000;

  @Test
  void stonewall_secondGroupStartsWhenTheFirstEnds() throws IOException {
    // a and b (group 0) run 2 ms at once; c (stonewall, group 1) starts once both ended.
    RunResult r = run("", "rw=randread\nruntime=2ms\ntime_based\n[a]\n[b]\n[c]\nstonewall\n");
    JobStats a = job(r, 0);
    JobStats b = job(r, 1);
    JobStats c = job(r, 2);
    // Both start at the first dispatch of their CPUs (a few µs of scheduling after 0).
    assertEquals(a.startNs(), b.startNs());
    assertTrue(a.startNs() < STARTUP_NS, "a starts at once: " + a.startNs());
    long firstEnd = Math.max(a.endNs(), b.endNs());
    assertTrue(firstEnd >= 2_000_000, "group 0 ran its 2 ms: " + firstEnd);
    assertTrue(c.startNs() >= firstEnd && c.startNs() <= firstEnd + WAKE_SLACK_NS,
        "c starts at the end of group 0 (" + firstEnd + "), was " + c.startNs());
    assertTrue(c.endNs() - c.startNs() >= 2_000_000);
  }

  @Test
  void withoutStonewall_allJobsStartTogether() throws IOException {
    RunResult r = run("", "rw=randread\nruntime=1ms\ntime_based\n[a]\n[b]\n[c]\n");
    for (int k = 0; k < 3; k++) {
      assertEquals(job(r, 0).startNs(), job(r, k).startNs());
      assertTrue(job(r, k).startNs() < STARTUP_NS);
    }
  }

  @Test
  void severalJobFiles_areJoinedWithAStonewall() throws IOException {
    RunResult r = run("", "rw=randread\nruntime=1ms\ntime_based\n[a]\n",
        "rw=randread\nruntime=1ms\ntime_based\n[b]\n");
    assertTrue(job(r, 1).startNs() >= job(r, 0).endNs(),
        "b (second file) after a: " + job(r, 0).endNs() + " / " + job(r, 1).startNs());
  }

  @Test
  void waitFor_startsAfterTheNamedJobOnly() throws IOException {
    // long runs 3 ms, short 1 ms; after waits for short only, so it starts at ~1 ms while long
    // still runs.
    RunResult r = run("", "rw=randread\ntime_based\n[long]\nruntime=3ms\n[short]\nruntime=1ms\n"
        + "[after]\nruntime=1ms\nwait_for=short\n");
    long shortEnd = job(r, 1).endNs();
    long after = job(r, 2).startNs();
    assertTrue(after >= shortEnd && after <= shortEnd + WAKE_SLACK_NS,
        "after starts when short ends (" + shortEnd + "), was " + after);
    assertTrue(after < job(r, 0).endNs(), "long still runs");
  }

  @Test
  void exitall_endsTheGroupWhenOneJobEnds() throws IOException {
    // quick does 100 I/Os; exitall (default exit_what=group) stops slow, which is time based
    // for 50 ms, at about the same time.
    RunResult r = run("", "rw=randread\n[quick]\nnumber_ios=100\nexitall\n[slow]\nruntime=50ms\n"
        + "time_based\n");
    JobStats quick = job(r, 0);
    JobStats slow = job(r, 1);
    assertEquals(100, quick.totalIos(0), "number_ios stops quick after 100 I/Os");
    assertTrue(slow.endNs() < 10_000_000, "slow stopped early: " + slow.endNs());
    assertTrue(slow.endNs() >= quick.endNs());
  }

  @Test
  void numberIos_endsAJobEarlyButNeverExtendsIt() throws IOException {
    // size=40k is 10 I/Os of 4k: number_ios=1000 does not make more.
    RunResult r = run("", "rw=read\n[a]\nnumber_ios=7\n[b]\nsize=40k\nnumber_ios=1000\n");
    assertEquals(7, job(r, 0).totalIos(0));
    assertEquals(10, job(r, 1).totalIos(0));
  }

  @Test
  void startdelay_ofASequencedJob_countsFromTheStartOfTheRun() throws IOException {
    // b waits for a (1 ms) and has startdelay=3ms: it starts at 3 ms, not at 1 + 3 ms.
    RunResult r = run("", "rw=randread\nruntime=1ms\ntime_based\n[a]\n[b]\nwait_for=a\n"
        + "startdelay=3ms\n");
    long start = job(r, 1).startNs();
    assertTrue(start >= 3_000_000 && start < 3_000_000 + STARTUP_NS, "b starts at 3 ms: " + start);
  }

  @Test
  void startdelayRange_eachJobDrawsItsDelayInTheRange_theSameForTheSameSeed()
      throws IOException {
    // init.c: start_delay = rand_between(delay_state, lo, hi) per job (each numjobs clone).
    String job = "rw=randread\nruntime=1ms\ntime_based\n[a]\nnumjobs=4\nstartdelay=1ms-5ms\n";
    RunResult r = run("", job);
    java.util.Set<Long> starts = new java.util.TreeSet<>();
    for (int k = 0; k < 4; k++) {
      long start = job(r, k).startNs();
      assertTrue(start >= 1_000_000 && start < 5_000_000 + STARTUP_NS, "clone " + k + ": " + start);
      starts.add(start);
    }
    assertTrue(starts.size() > 1, "the clones draw their own delays: " + starts);
    assertEquals(job(r, 2).startNs(), job(run("", job), 2).startNs(), "seeded by the run");
  }

  @Test
  void steadystate_endsTheJobOnceSteady_andReportsItsWindow() throws IOException {
    // brd at QD1 is steady from the start: with 1 ms checks and a 3 ms window the IOPS of 3
    // intervals vary far less than 20%, so the job stops at about 3 ms instead of 50 ms; the
    // result (carried through the job's encoded statistics) says so.
    RunResult r = run("", "rw=randread\nruntime=50ms\ntime_based\n[a]\nss=iops:20%\nss_dur=3ms\n"
        + "steadystate_check_interval=1ms\n");
    JobStats a = job(r, 0);
    assertTrue(a.endNs() < 5_000_000, "ended at " + a.endNs());
    assertTrue(a.steadyState().attained());
    assertEquals(3, a.steadyState().iops().length);
    long sum = 0;
    for (long v : a.steadyState().iops()) {
      assertTrue(v > 0);
      sum += v;
    }
    assertEquals(sum / 3, a.steadyState().iopsMean());
  }

  @Test
  void sequencedJobs_needOnePartition() {
    InputException e = assertThrows(InputException.class,
        () -> run("partitions = cpu", "rw=read\nsize=40k\n[a]\n[b]\nstonewall\n"));
    assertTrue(e.getMessage().contains("partitions"), e.getMessage());
  }
}
