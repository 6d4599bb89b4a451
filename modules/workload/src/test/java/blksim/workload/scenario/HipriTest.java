package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.workload.fio.stats.CpuUtil;
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
 * fio's {@code hipri}: io_uring's IORING_SETUP_IOPOLL polls for completions (null_blk
 * {@code poll-queues}); pvsync2's RWF_HIPRI is ignored by the kernel since 5.19.
 */
@Timeout(120)
class HipriTest {
  @TempDir Path dir;

  RunResult run(String engine, int pollQueues, String extra) throws IOException {
    Path p = dir.resolve("h.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = null_blk, name = nullb0, size = 1G, irqmode = timer,"
        + " completion-nsec = 10us, poll-queues = " + pollQueues + " } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/dev/nullb0\ndirect=1\nbs=4k\nrw=randread\n"
        + "ioengine=" + engine + "\nruntime=20ms\ntime_based\n" + extra + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0);
  }

  static long irqNs(RunResult r) {
    return r.cpus().stream().mapToLong(CpuUtil::irqNs).sum();
  }

  @Test
  void ioUringHipri_withPollQueues_pollsWithoutInterruptsOrSwitches() throws IOException {
    RunResult plain = run("io_uring", 1, "");
    RunResult polled = run("io_uring", 1, "hipri");
    JobStats p = plain.jobs().get(0);
    JobStats h = polled.jobs().get(0);
    assertTrue(irqNs(plain) > 0, "timer-mode completions take interrupts without hipri");
    assertEquals(0, irqNs(polled), "null_poll() completes in the polling task: no interrupt");
    assertTrue(p.ctx() > 0, "without hipri the job sleeps for each completion");
    assertEquals(0, h.ctx(), "an IOPOLL ring never sleeps");
    // Polled requests skip completion_nsec (null_queue_rq() only lists them).
    assertTrue(h.clat(0).mean() < p.clat(0).mean() / 2,
        h.clat(0).mean() + " vs " + p.clat(0).mean());
    assertTrue(h.totalIos(0) > p.totalIos(0), h.totalIos(0) + " vs " + p.totalIos(0));
  }

  @Test
  void ioUringHipri_withoutPollQueues_spinsForTheInterrupt() throws IOException {
    JobStats p = run("io_uring", 0, "").jobs().get(0);
    RunResult r = run("io_uring", 0, "hipri");
    JobStats h = r.jobs().get(0);
    assertTrue(irqNs(r) > 0, "REQ_POLLED is cleared: the request completes by interrupt");
    assertEquals(0, h.ctx(), "the task spins in io_iopoll_check() instead of sleeping");
    double cpu = h.usrNs() + h.sysNs();
    assertTrue(cpu >= 0.99 * 20_000_000, "the job holds its CPU all along: " + cpu);
    assertTrue(h.sysNs() > 0.9 * cpu, "sys " + h.sysNs() + " of " + cpu);
    assertTrue(p.sysNs() + p.usrNs() < 0.5 * cpu, "without hipri the job sleeps");
    // No wakeup and no switch back in: the completion is found sooner.
    assertTrue(h.clat(0).mean() < p.clat(0).mean(), h.clat(0).mean() + " vs " + p.clat(0).mean());
  }

  @Test
  void ioUringHipri_deeperQueue_reapsEveryRequest() throws IOException {
    JobStats h = run("io_uring", 1, "hipri\niodepth=8\niodepth_batch_complete_min=1")
        .jobs().get(0);
    assertEquals(0, h.ctx());
    assertTrue(h.totalIos(0) > 1000, "I/Os " + h.totalIos(0));
  }

  @Test
  void pvsync2Hipri_isIgnoredByTheKernel_sameRunAsWithout() throws IOException {
    JobStats p = run("pvsync2", 1, "").jobs().get(0);
    JobStats h = run("pvsync2", 1, "hipri\nhipri_percentage=50").jobs().get(0);
    assertEquals(p.totalIos(0), h.totalIos(0));
    assertEquals(p.clat(0).mean(), h.clat(0).mean());
    assertEquals(p.ctx(), h.ctx());
    assertTrue(h.ctx() > 0);
  }

  @Test
  void ioUringHipri_buffered_isRefused() throws IOException {
    Path p = dir.resolve("b.conf");
    Files.writeString(p, "blksim {\n  devices = [ { type = null_blk, name = nullb0 } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/dev/nullb0\nbs=4k\nioengine=io_uring\nhipri\n"
        + "size=1m\n\"\"\"]\n}\n");
    InputException e = assertThrows(InputException.class,
        () -> ScenarioLoader.load(p, List.of(), Map.of()));
    assertTrue(e.key().equals("hipri") || e.key().equals("direct") || e.key().equals("ioengine"),
        e.getMessage());
  }

  @Test
  void ioUringHipri_withoutPollQueues_onV6_13_isRefused_asTheKernelFailsEachIo()
      throws IOException {
    Path p = dir.resolve("k.conf");
    String conf = "blksim {\n  kernel.mode = V6_13\n"
        + "  devices = [ { type = null_blk, name = nullb0, poll-queues = PQ } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/dev/nullb0\ndirect=1\nbs=4k\nioengine=io_uring\n"
        + "hipri\nsize=1m\n\"\"\"]\n}\n";
    Files.writeString(p, conf.replace("PQ", "0"));
    InputException e = assertThrows(InputException.class,
        () -> ScenarioLoader.load(p, List.of(), Map.of()));
    assertEquals("hipri", e.key(), e.getMessage());
    assertTrue(e.getMessage().contains("EOPNOTSUPP"), e.getMessage());
    Files.writeString(p, conf.replace("PQ", "1"));
    ScenarioLoader.load(p, List.of(), Map.of()); // with poll queues it runs
  }

  @Test
  void pollQueues_mustNotBeNegative() throws IOException {
    InputException e = assertThrows(InputException.class, () -> run("io_uring", -1, "hipri"));
    assertTrue(e.getMessage().contains("poll-queues"), e.getMessage());
  }
}
