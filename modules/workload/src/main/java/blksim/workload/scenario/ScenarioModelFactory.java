package blksim.workload.scenario;

import blksim.engine.Component;
import blksim.engine.Model;
import blksim.engine.ModelFactory;
import blksim.engine.Seeds;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.device.DeviceParams;
import blksim.kernel.dm.DmParams;
import blksim.kernel.dm.Kdelayd;
import blksim.kernel.timer.TimerParams;
import blksim.kernel.workqueue.KernelMode;
import blksim.kernel.workqueue.Workqueue;
import blksim.kernel.workqueue.WorkqueueParams;
import blksim.kernel.workqueue.WorkqueueSystem;
import blksim.kernel.kthread.HousekeepingKworker;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.topology.Cpu;
import blksim.kernel.topology.Topology;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.stats.JobInfo;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.FioEngine;
import blksim.workload.fio.thread.AsyncFioThread;
import blksim.workload.fio.thread.FioJobThread;
import blksim.workload.fio.thread.JobSequencer;
import blksim.workload.fio.thread.PsyncThread;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Builds the simulated machine of a scenario: one {@link CpuComponent} per CPU (wrapped with its
 * per-CPU workqueue pools), the unbound workqueue pool hosts, each device's queue on every CPU (a
 * blk-mq hardware context, a bio-based driver's submission path, or a device-mapper table stacked
 * on the queues below it), and the fio job threads.
 *
 * <p>Placement of fio jobs: job {@code k} (in run order, numjobs expanded) runs on CPU
 * {@code k mod nr_cpus} for its whole life. Simplified: the kernel would place and migrate the
 * threads; with one job per CPU or fewer this is what its load balancer converges to.
 */
public final class ScenarioModelFactory implements ModelFactory {

  @Override
  public Model build(String spec) {
    return build(ScenarioLoader.fromSpec(spec));
  }

  /**
   * A built machine: the engine's model, and the workqueue system that reads the workqueue
   * components' reports back ({@code null} when the scenario uses no workqueue).
   */
  public record Machine(Model model, WorkqueueSystem workqueues) {}

  /** Builds the model of an already loaded scenario. */
  public Model build(Scenario s) {
    return machine(s).model();
  }

  /** Builds the machine of an already loaded scenario. */
  public Machine machine(Scenario s) {
    Topology topo = Topology.of(s.topology());
    TimerParams timers = TimerParams.defaults(s.hz());
    WorkqueueParams wqp = WorkqueueParams.defaults(KernelMode.valueOf(s.kernelMode()))
        .withMonitorIntervalNs(s.wqMonitorIntervalNs());
    WorkqueueSystem.Builder wb = WorkqueueSystem.builder(topo, s.sched(), timers, wqp);
    boolean hasDm = s.devices().stream().anyMatch(d -> d instanceof DmParams);
    // Nothing else queues work yet: without dm or wq_monitor the workqueue components would only
    // sit in every event's path (the per-CPU wrapper costs ~15% of the event rate).
    boolean needWq = hasDm || s.wqMonitorIntervalNs() > 0;
    Workqueue kdelayd = hasDm ? Kdelayd.alloc(wb) : null;
    WorkqueueSystem wqs = needWq ? wb.build() : null;
    Kdelayd kd = hasDm ? Kdelayd.on(wqs, kdelayd) : Kdelayd.STANDALONE;
    List<CpuComponent> cpus = new ArrayList<>();
    Map<String, List<BlockQueue>> queues = new LinkedHashMap<>();
    for (Cpu c : topo.cpus()) {
      CpuComponent cpu = new CpuComponent(c, s.sched());
      if (s.timehist().traces(c.id())) {
        cpu.traceSwitches(s.timehist());
      }
      Map<String, BlockQueue> onCpu = new LinkedHashMap<>();
      for (DeviceParams d : s.devices()) {
        BlockQueue q;
        if (d instanceof DmParams dm) {
          // A mapped device stacks on the queues of the devices declared before it, on this CPU.
          q = dm.newQueue(cpu, s.blockLayer(), timers, kd, onCpu::get);
        } else {
          // One seed per device, the same on every CPU: all CPUs agree on its contents.
          q = d.newQueue(cpu, s.blockLayer(),
              new SplittableRandom(Seeds.forComponent(s.seed(), "dev/" + d.name())));
        }
        cpu.attach(q);
        onCpu.put(d.name(), q);
        queues.computeIfAbsent(d.name(), k -> new ArrayList<>()).add(q);
      }
      if (s.housekeepingIntervalNs() > 0) {
        cpu.addTask(new HousekeepingKworker(c.id(), s.housekeepingIntervalNs(),
            s.housekeepingWorkNs()));
      }
      cpus.add(cpu);
    }
    if (s.migratesInLlc()) {
      Map<Integer, List<CpuComponent>> byLlc = new java.util.TreeMap<>();
      for (CpuComponent c : cpus) {
        byLlc.computeIfAbsent(c.cpu().llc(), k -> new ArrayList<>()).add(c);
      }
      for (CpuComponent c : cpus) {
        c.joinLlc(byLlc.get(c.cpu().llc()));
      }
    }
    long expectedEnd = 0;
    List<FioJob> jobs = s.jobs();
    List<FioJobThread> threads = new ArrayList<>();
    for (int k = 0; k < jobs.size(); k++) {
      FioJob j = jobs.get(k);
      int[] allowed = allowedCpus(j, k);
      // fio forks the job; the kernel places it. Here: job k on CPU k, or on the k-th CPU of its
      // cpus_allowed set (round robin), which with cpus_allowed_policy=split is its only CPU.
      int cpuId = allowed == null ? k % cpus.size() : allowed[k % allowed.length];
      DeviceParams dev = s.device(j.filename());
      List<BlockQueue> q = queues.get(dev.name());
      JobStats stats = new JobStats(info(j));
      FioJobThread t = thread(s, j, k, q, stats, cpus.size());
      threads.add(t);
      t.setAllowedCpus(allowed);
      t.setUnbound(s.migratesInLlc() && (allowed == null || allowed.length > 1));
      cpus.get(cpuId).addTask(t);
      if (j.runtimeNs() > 0) {
        expectedEnd = Math.max(expectedEnd, j.startDelayNs() + j.rampTimeNs() + j.runtimeNs());
      }
    }
    sequence(jobs, threads);
    List<Component> components = new ArrayList<>(wqs != null ? wqs.components(cpus) : cpus);
    long maxTime = s.maxTimeNs() > 0 ? s.maxTimeNs() : Long.MAX_VALUE;
    return new Machine(
        new Model(components, s.sched().wakeupLatencyNs(), maxTime, expectedEnd, s.seed()), wqs);
  }

  /**
   * Puts the job threads under one {@link JobSequencer} when a job is sequenced (stonewall,
   * wait_for, exitall); otherwise every job starts at once, as before.
   */
  private static void sequence(List<FioJob> jobs, List<FioJobThread> threads) {
    if (!JobSequencer.needed(jobs)) {
      return;
    }
    JobSequencer seq = new JobSequencer(jobs);
    threads.forEach(t -> t.setSequencer(seq));
  }

  private static FioJobThread thread(Scenario s, FioJob j, int k, List<BlockQueue> q,
      JobStats stats, int nCpus) {
    int pid = 1000 + k;
    if (j.ioengine().isSync()) {
      return new PsyncThread(j, k, pid, q::get, s.fioCosts(), s.syscalls(), s.pageCache(), stats,
          s.seed());
    }
    AsyncFioThread.Engine engine = j.ioengine() == FioEngine.IO_URING
        ? AsyncFioThread.Engine.IO_URING : AsyncFioThread.Engine.LIBAIO;
    return new AsyncFioThread(j, k, pid, q::get, s.fioCosts(), s.syscalls(), s.pageCache(),
        s.ioUring(), engine, nCpus, stats, s.seed());
  }

  /**
   * The CPUs job {@code k} (its global number, fio's {@code thread_number - 1}) may run on:
   * {@code cpus_allowed}, cut to its {@code k}-th CPU by {@code cpus_allowed_policy=split}
   * ({@code fio_cpus_split()}); {@code null} for all.
   */
  static int[] allowedCpus(FioJob j, int k) {
    int[] set = j.cpusAllowed();
    if (set == null) {
      return null;
    }
    return j.cpusAllowedSplit() ? new int[] {set[k % set.length]} : set;
  }

  /** The reporting identity of a job. */
  static JobInfo info(FioJob j) {
    return new JobInfo(j.name(), j.groupId(), j.jobIndex(), new LinkedHashMap<>(j.options()),
        j.rw().fioName(), j.bs().clone(), j.ioengine().fioName(), j.iodepth(),
        j.ioengine().isSync(), j.percentileList().clone(),
        j.description() == null ? "" : j.description(), j.groupReporting());
  }
}
