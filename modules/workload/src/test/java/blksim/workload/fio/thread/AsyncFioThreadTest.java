package blksim.workload.fio.thread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.Component;
import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.iouring.IoWq;
import blksim.kernel.iouring.IoWqWorker;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.workqueue.WorkqueueCpu;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskState;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;
import blksim.workload.fio.stats.ThreadStat;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import blksim.workload.scenario.ScenarioModelFactory;
import blksim.workload.scenario.ScenarioResults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * io_uring's inline and punt paths and libaio, through whole one-CPU runs with known costs:
 * enter 300, sqe-issue 1300, cqe-post 200, punt 1000, worker-loop 500 ns; brd 500 + 5000 ns per
 * 4 KiB read; fio user 400 ns per I/O; no context-switch cost.
 */
class AsyncFioThreadTest {
  @TempDir Path dir;

  static final long BRD_READ = 500 + 5_000;

  record Run(JobStats job, RunOutcome outcome, List<Task> tasks, RunResult result) {}

  /**
   * A one-CPU run of {@code fio} on {@code device}. A null_blk device gets {@code scheduler =
   * none}: on one CPU the kernel's default would be mq-deadline (one hardware queue), whose
   * kblockd runs these tests of the engines do not look at.
   */
  Run run(String device, String fio) throws IOException {
    device = noScheduler(device);
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 1, threads-per-core = 1 }\n"
        + "  costs.sched.ctx-switch = 0\n"
        + "  devices = [ " + device + " ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\ndirect=1\nbs=4k\nrw=randread\nruntime=2ms\ntime_based\n"
        + fio + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    Model m = new ScenarioModelFactory().build(s.spec());
    RunOutcome out = LocalRunner.run(m, Partitioning.ONE, 1, ProgressListener.NONE);
    RunResult r = ScenarioResults.toRunResult(out, 0);
    List<Task> tasks = tasks(m);
    assertTrue(!tasks.isEmpty(), "the CPUs' tasks were found");
    return new Run(r.jobs().get(0), out, tasks, r);
  }

  /** The tasks of every CPU of {@code m} (scheduler and workqueue CPUs) after a run. */
  static List<Task> tasks(Model m) {
    List<Task> tasks = new ArrayList<>();
    for (Component c : m.components()) {
      if (c instanceof WorkqueueCpu w) {
        tasks.addAll(w.cpu().tasks());
      } else if (c instanceof CpuComponent cpu) {
        tasks.addAll(cpu.tasks());
      }
    }
    return tasks;
  }

  static long workers(Run r) {
    return r.tasks().stream().filter(t -> t instanceof AsyncFioThread)
        .map(t -> ((AsyncFioThread) t).ioWq())
        .mapToLong(wq -> wq == null ? 0 : wq.workersCreated()).sum();
  }

  static long ios(JobStats j) {
    return j.totalIos(0) + j.totalIos(1);
  }

  @Test
  void ioUringOnNowaitDevice_runsTheIoInsideTheSubmitCall() throws IOException {
    Run r = run("{ type = brd, name = ram0, size = 64M, nowait = true }",
        "ioengine=io_uring\nfilename=/dev/ram0\niodepth=2");
    JobStats j = r.job();
    assertTrue(ios(j) > 100);
    assertEquals(0, j.ctx(), "inline completion: the thread never sleeps");
    assertEquals(0, workers(r), "nothing is punted");
    // slat = the whole io_uring_enter() (entry, SQE issue, brd's copy, CQE post); fio takes the
    // issue time as the call returns (fio_ioring_queued()), so its commit bookkeeping after it
    // (half of its 400 ns of user time per I/O) is clat: the I/O is done, reaped after it.
    double slat = j.slat(0).mean();
    assertEquals(300 + 1300 + BRD_READ + 200, slat, 1e-6);
    assertEquals(200, j.clat(0).min(), 1e-6);
    assertTrue(j.sysCpuPercent() > 90, "the copy is system time of the fio thread");
  }

  @Test
  void ioUringOnDeviceWithoutNowait_puntsToIoWq_whoseCpuFioDoesNotSee() throws IOException {
    Run r = run("{ type = brd, name = ram0, size = 64M, nowait = false }",
        "ioengine=io_uring\nfilename=/dev/ram0\niodepth=2");
    JobStats j = r.job();
    assertTrue(ios(j) > 100);
    // 6.4's io_wq_activate_free_worker() skips a free worker that was woken but has not run,
    // and with none running the submit call creates another: the bounded limit,
    // min(SQ entries 2, 4 x 1 CPU) = 2, is reached.
    assertEquals(2, workers(r), "two bounded workers at iodepth 2");
    // slat = entry + SQE issue + nowait reject (200) + punt, never the copy.
    // That is the shortest; the two worker creations (50 us each, in the submit call) and the
    // worker preempting fio at the call's return to user space lengthen others.
    assertEquals(300 + 1300 + 200 + 1000, j.slat(0).min(), 1e-6);
    assertTrue(j.slat(0).mean() > 300 + 1300 + 200 + 1000);
    long fioCpuPerIo = (j.usrNs() + j.sysNs()) / ios(j);
    assertTrue(fioCpuPerIo < BRD_READ,
        "brd's copy runs in iou-wrk, not in fio's usr/sys: " + fioCpuPerIo + " ns per I/O");
    long workersSys = r.tasks().stream().filter(t -> t instanceof IoWqWorker)
        .mapToLong(t -> t.stimeNs()).sum();
    assertTrue(workersSys >= ios(j) * BRD_READ, "the workers did the copies");
    long machineSys = r.result().cpus().stream().mapToLong(c -> c.sysNs()).sum();
    assertTrue(machineSys >= j.sysNs() + ios(j) * BRD_READ,
        "the CPU's own accounting shows the worker's time that fio's does not");
    double ctxPerIo = (double) j.ctx() / ios(j);
    assertTrue(ctxPerIo > 0.4 && ctxPerIo <= 1.05, "about one wait per I/O: " + ctxPerIo);
  }

  @Test
  void threadStatistics_listEveryTask_withTheWorkersTimeAndWaits() throws IOException {
    Run r = run("{ type = brd, name = ram0, size = 64M, nowait = false }",
        "ioengine=io_uring\nfilename=/dev/ram0\niodepth=2");
    List<ThreadStat> threads = r.result().threads();
    assertEquals(r.tasks().size(), threads.size(), "one line per task: " + threads);
    IoWqWorker w = r.tasks().stream().filter(t -> t instanceof IoWqWorker)
        .map(t -> (IoWqWorker) t).findFirst().orElseThrow();
    ThreadStat ws = threads.stream().filter(t -> t.comm().equals(w.comm())).findFirst()
        .orElseThrow();
    assertEquals(w.stimeNs(), ws.stimeNs());
    assertEquals(w.nivcsw(), ws.nivcsw());
    assertEquals("iou-wrk-N", ws.group());
    assertTrue(ws.nivcsw() > 10 && ws.runDelayNs() > 0,
        "the worker is preempted by the woken fio thread and waits for it: " + ws);
    ThreadStat fio = threads.stream().filter(t -> t.comm().equals("j")).findFirst().orElseThrow();
    JobStats j = r.job();
    assertTrue(fio.utimeNs() >= j.usrNs() && fio.stimeNs() >= j.sysNs(),
        "the thread's whole life covers fio's measured window: " + fio);
    long elapsed = r.outcome().stats().simulatedTimeNs();
    long cpuTime = threads.stream().mapToLong(t -> t.utimeNs() + t.stimeNs()).sum();
    assertTrue(cpuTime <= elapsed, "one CPU: " + cpuTime + " of " + elapsed + " ns");
    assertTrue(cpuTime > elapsed * 9 / 10, "CPU-bound: " + cpuTime + " of " + elapsed + " ns");
  }

  @Test
  void libaioOnBrd_doesTheIoInsideIoSubmit_andReapsWithASystemCall() throws IOException {
    Run r = run("{ type = brd, name = ram0, size = 64M }",
        "ioengine=libaio\nfilename=/dev/ram0\niodepth=4");
    JobStats j = r.job();
    assertEquals(0, workers(r) + j.ctx());
    // io_submit(): entry + iocb issue + copy + event post; no REQ_NOWAIT, so no reject. fio
    // stamps the issue time as io_submit() returns (fio_libaio_queued()).
    assertEquals(300 + 1300 + BRD_READ + 200, j.slat(0).mean(), 1e-6);
    assertTrue(j.clat(0).mean() >= 300, "io_getevents() is a system call: " + j.clat(0).mean());
  }

  static String noScheduler(String devices) {
    return devices.replace("type = null_blk,", "type = null_blk, scheduler = none,");
  }

  @Test
  void ioUringOnNullBlk_issuesInline_andCompletesByInterrupt() throws IOException {
    Run r = run("{ type = null_blk, name = nullb0, size = 1G, irqmode = timer,"
        + " completion-nsec = 20us }", "ioengine=io_uring\nfilename=/dev/nullb0\niodepth=4");
    JobStats j = r.job();
    assertEquals(0, workers(r), "blk-mq supports nowait");
    assertTrue(j.clat(0).min() >= 20_000, "completion after completion_nsec: " + j.clat(0).min());
    double iops = ios(j) / 0.002;
    assertTrue(iops > 3 * 1e9 / 21_000, "4 in flight overlap their 20 us: " + iops);
  }

  @Test
  void ioUringWithoutFreeTags_getsEagain_andPunts() throws IOException {
    Run r = run("{ type = null_blk, name = nullb0, size = 1G, irqmode = timer,"
        + " completion-nsec = 20us, hw-queue-depth = 1 }",
        "ioengine=io_uring\nfilename=/dev/nullb0\niodepth=4");
    assertTrue(workers(r) >= 1, "-EAGAIN on a tag miss is punted to io-wq");
    assertTrue(ios(r.job()) > 50);
  }

  @Test
  void ioWqWorkers_multiplyWhileTheyBlock_andExitAfterTheIdleTimeout_allButTheLast()
      throws IOException {
    Path p = dir.resolve("idle.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 1, threads-per-core = 1 }\n"
        + "  kernel.io-wq-idle-timeout = 1ms\n"
        + noScheduler("  devices = [ { type = null_blk, name = nullb0, size = 1G, irqmode = timer,"
        + " completion-nsec = 20us, hw-queue-depth = 1 },\n"
        + "    { type = null_blk, name = nullb1, size = 1G, irqmode = none } ]\n")
        + "  fio.jobs = [\"\"\"\n[global]\ndirect=1\nbs=4k\nrw=randread\ntime_based\n"
        + "[burst]\nioengine=io_uring\nfilename=/dev/nullb0\niodepth=8\nruntime=2ms\n"
        + "[long]\nioengine=psync\nfilename=/dev/nullb1\nruntime=6ms\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    Model m = new ScenarioModelFactory().build(s.spec());
    LocalRunner.run(m, Partitioning.ONE, 1, ProgressListener.NONE);
    AsyncFioThread burst = null;
    for (Component c : m.components()) {
      CpuComponent cpu = c instanceof WorkqueueCpu w ? w.cpu() : (CpuComponent) c;
      for (Task t : cpu.tasks()) {
        if (t instanceof AsyncFioThread a) {
          burst = a;
        }
      }
    }
    IoWq wq = burst.ioWq();
    assertTrue(wq.workersCreated() >= 2,
        "a worker blocked on a tag with work pending makes another: " + wq.workersCreated());
    assertEquals(wq.workersCreated() - 1, wq.workersExited(),
        "idle for 1 ms after the burst, all but the last exit");
    assertEquals(1, wq.workers().size());
    long dead = wq.workersExited();
    long deadTasks = m.components().stream()
        .flatMap(c -> (c instanceof WorkqueueCpu w ? w.cpu() : (CpuComponent) c).tasks().stream())
        .filter(t -> t instanceof IoWqWorker && t.state() == TaskState.DEAD).count();
    assertEquals(dead, deadTasks, "the exited workers' threads ended");
  }

  @Test
  void jobStillRunningAtMaxTime_reportsWhatItDidUpToThen() throws IOException {
    Path p = dir.resolve("cut.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 1, threads-per-core = 1 }\n"
        + "  max-time = 1ms\n"
        + "  devices = [ { type = brd, name = ram0, size = 64M, nowait = true } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nioengine=io_uring\nfilename=/dev/ram0\ndirect=1\n"
        + "bs=4k\nrw=randread\nruntime=10ms\ntime_based\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    JobStats j = ScenarioResults.toRunResult(out, 0).jobs().get(0);
    assertTrue(ios(j) > 100, "I/Os up to the cut: " + ios(j));
    assertTrue(j.sysNs() > 0, "and their CPU time");
    double iops = ios(j) / 0.001;
    assertTrue(iops > 1e9 / (BRD_READ + 5_000) && iops < 1e9 / BRD_READ,
        "a rate over the 1 ms it ran: " + iops);
  }

  @Test
  void batchedSubmitAndReap_commitIodepthBatchSubmitIosPerSystemCall() throws IOException {
    Run r = run("{ type = null_blk, name = nullb0, size = 1G, irqmode = timer,"
        + " completion-nsec = 20us }", "ioengine=libaio\nfilename=/dev/nullb0\niodepth=8\n"
        + "iodepth_batch_submit=8\niodepth_batch_complete_min=8\n"
        + "iodepth_batch_complete_max=8");
    JobStats j = r.job();
    long ios = ios(j);
    assertTrue(ios > 200, "ios " + ios);
    assertTrue(j.totalSubmit() * 8 >= ios && j.totalSubmit() * 8 <= ios + 16,
        "one io_submit() per 8 I/Os: " + j.totalSubmit() + " calls for " + ios + " I/Os");
    assertEquals(j.totalSubmit(), j.submitCounts()[2], "every call in fio's 5-8 bucket");
    // The first I/O of a batch waits while the other 7 are prepared: slat grows with the batch.
    Run single = run("{ type = null_blk, name = nullb0, size = 1G, irqmode = timer,"
        + " completion-nsec = 20us }", "ioengine=libaio\nfilename=/dev/nullb0\niodepth=8");
    assertTrue(j.slat(0).mean() > single.job().slat(0).mean(),
        j.slat(0).mean() + " vs " + single.job().slat(0).mean());
  }
}
