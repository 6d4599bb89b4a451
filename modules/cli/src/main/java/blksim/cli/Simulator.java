package blksim.cli;

import blksim.engine.ComponentReport;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.engine.pekko.ClusterRunner;
import blksim.kernel.sched.CpuReport;
import blksim.kernel.sched.SwitchRecord;
import blksim.kernel.workqueue.WorkqueueSystem;
import blksim.kernel.workqueue.WqDump;
import blksim.kernel.workqueue.WqMonitorSnapshot;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.stats.RunResult;
import blksim.kernel.mm.MmComponent;
import blksim.workload.fsmark.FsMarkParent;
import blksim.workload.fsmark.FsMarkRunReport;
import blksim.workload.shell.ShellReport;
import blksim.workload.shell.ShellTask;
import blksim.kernel.mm.MmReport;
import java.util.ArrayList;
import org.apache.pekko.actor.typed.ActorSystem;
import java.util.List;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioModelFactory;
import blksim.workload.scenario.ScenarioResults;

/** Runs a loaded scenario on the chosen host and returns fio's view of the results. */
public final class Simulator {

  /** Where partitions run. */
  public enum Host {
    /** Pekko Cluster Sharding entities on an embedded single-node cluster (the default). */
    CLUSTER,
    /** Plain threads in this JVM, without Pekko (for debugging and engine benchmarks). */
    LOCAL
  }

  private static ActorSystem<Void> sharedNode;

  private Simulator() {}

  /**
   * Keeps one embedded cluster node up for the runs that follow, until the returned handle is
   * closed: commands that run many scenarios (validate, bench) pay the node's start-up once.
   */
  public static AutoCloseable sharedNode() {
    return useNode(ClusterRunner.startEmbeddedNode());
  }

  /**
   * Runs the following cluster-host runs from {@code node} (a member of a possibly multi-JVM
   * cluster) until the returned handle is closed, which also shuts the node down.
   */
  public static AutoCloseable useNode(ActorSystem<Void> node) {
    sharedNode = node;
    return () -> {
      sharedNode = null;
      ClusterRunner.shutdown(node);
    };
  }

  /**
   * Everything a run produced: fio's results, the workqueue statistics (wq_monitor samples at
   * the scenario's interval, the totals at the end, and a wq_dump-style summary), and the context
   * switches of the CPUs that recorded them ({@code trace.timehist-cpus}) in time order, with the
   * number dropped over the line limit; {@code warnings}: lines for stderr (a
   * {@code kernel.wq-max-active} entry that named no workqueue).
   */
  public record Outcome(RunResult fio, List<WqMonitorSnapshot> wqSamples,
      WqMonitorSnapshot wqFinal, String wqDump, List<SwitchRecord> timehist,
      long timehistDropped, MmReport mm, List<FsMarkRunReport> fsMark, ShellReport shell,
      List<String> dmz, List<blksim.kernel.sched.CpuSamples.Series> samples,
      java.util.SortedMap<Integer, long[]> irqs, List<String> warnings,
      java.util.SortedMap<String, List<long[]>> dmzSamples) {}

  /** Runs {@code s} with the given partitioning. */
  public static RunResult run(Scenario s, Partitioning partitioning, Host host,
      ProgressListener progress) {
    return runFull(s, partitioning, host, progress).fio();
  }

  /** Runs {@code s} and also reads back the workqueue statistics. */
  public static Outcome runFull(Scenario s, Partitioning partitioning, Host host,
      ProgressListener progress) {
    return runFull(s, partitioning, host, progress, sharedNode);
  }

  /**
   * {@link #runFull(Scenario, Partitioning, Host, ProgressListener)} on the cluster host from
   * {@code node} ({@code null}: an embedded node of its own): a sweep worker keeps a private
   * single-node cluster so that a run's partitions stay in its JVM.
   */
  static Outcome runFull(Scenario s, Partitioning partitioning, Host host,
      ProgressListener progress, ActorSystem<Void> node) {
    long wallStart = System.currentTimeMillis();
    // Built here too on the cluster host: the machine's structure reads the reports back, and
    // the cluster runner places its components (without building it once more).
    // An embedded node takes about a second to start: it starts while the model is built.
    java.util.concurrent.CompletableFuture<ActorSystem<Void>> starting =
        host == Host.CLUSTER && node == null ? ClusterRunner.startEmbeddedNodeAsync() : null;
    // So do the models of this JVM's other partitions (each would build its own after this one).
    List<java.util.concurrent.CompletableFuture<blksim.engine.Model>> spares =
        host == Host.CLUSTER ? ClusterRunner.buildSpares(ScenarioModelFactory.class.getName(),
            s.spec(), ClusterRunner.sparesFor(partitioning, node)) : List.of();
    ScenarioModelFactory.Machine machine;
    try {
      machine = new ScenarioModelFactory().machine(s);
      ScenarioModelFactory.checkPartitioning(s, machine.model(), partitioning);
      if (host != Host.LOCAL) {
        ScenarioModelFactory.checkClusterPartitioning(s, machine.model(), partitioning);
      }
      SweepTrace.mark("run: model built");
    } catch (RuntimeException | Error e) {
      if (starting != null) {
        ClusterRunner.abandon(starting);
      }
      throw e;
    }
    RunOutcome outcome;
    if (host == Host.LOCAL) {
      outcome = LocalRunner.run(machine.model(), partitioning,
          Runtime.getRuntime().availableProcessors(), progress);
    } else if (node != null) {
      outcome = ClusterRunner.run(List.of(node), ScenarioModelFactory.class.getName(),
          s.spec(), machine.model(), spares, partitioning, progress);
    } else {
      outcome = ClusterRunner.run(starting, ScenarioModelFactory.class.getName(), s.spec(),
          machine.model(), spares, partitioning, progress);
    }
    SweepTrace.mark("run: simulation done (" + outcome.stats().wallTimeNs() / 1_000_000
        + " ms of wall time in the run's figure)");
    List<ComponentReport> reports = new ArrayList<>();
    outcome.reports().forEach(r -> reports.add(r.report()));
    List<String> warnings = new ArrayList<>();
    for (String e : machine.unmatchedWqMaxActive()) {
      warnings.add("blksim: warning: kernel.wq-max-active entry '" + e + "' matches no"
          + " workqueue of this run (ordered workqueues keep max_active 1)");
    }
    WorkqueueSystem wqs = machine.workqueues();
    RunResult raw = ScenarioResults.toRunResult(outcome, wallStart);
    // fio's JSON "global options": the [global] section of the (first) job file.
    // disk_util=0 on every job: fio prints no "Disk stats" (nor the JSON disk_util).
    boolean diskUtil = s.jobs().isEmpty() || s.jobs().stream().anyMatch(FioJob::diskUtil);
    RunResult fio = new RunResult(raw.jobs(), diskUtil ? raw.disks() : List.of(), raw.engine(),
        raw.wallClockEpochMs(),
        raw.blksimVersion(), s.jobs().isEmpty() ? new java.util.LinkedHashMap<>()
            : s.jobs().get(0).globalOptions(), raw.cpus(), raw.threads());
    List<SwitchRecord> hist = new ArrayList<>();
    long dropped = 0;
    MmReport mm = null;
    java.util.TreeMap<Integer, FsMarkRunReport> fsMark = new java.util.TreeMap<>();
    // run --report's samples (trace.sample-interval), by CPU id
    java.util.TreeMap<Integer, blksim.kernel.sched.CpuSamples.Series> samples =
        new java.util.TreeMap<>();
    java.util.TreeMap<Integer, long[]> irqs = new java.util.TreeMap<>(); // run --perfetto
    ShellReport shell = null;
    List<String> dmz = new ArrayList<>();
    java.util.TreeMap<String, List<long[]>> dmzSamples = new java.util.TreeMap<>();
    for (ComponentReport r : reports) {
      if (r.kind().equals(MmComponent.KIND)) {
        mm = MmReport.decode(r.payload());
      }
      if (r.kind().equals(CpuReport.KIND)) {
        CpuReport c = CpuReport.decode(r.payload());
        for (blksim.kernel.sched.TaskReport t : c.tasks()) {
          if (t.kind().equals(FsMarkParent.KIND)) {
            FsMarkRunReport f = FsMarkRunReport.decode(t.payload());
            fsMark.put(f.instance(), f);
          }
          if (t.kind().equals(ShellTask.KIND)) {
            shell = ShellReport.decode(t.payload());
          }
        }
        dmz.addAll(blksim.kernel.dm.DmzReportTask.texts(c.tasks()));
        dmzSamples.putAll(blksim.kernel.dm.DmzReportTask.samples(c.tasks()));
        hist.addAll(c.timehist());
        dropped += c.timehistDropped();
        if (c.samples() != null) {
          samples.put(c.cpu(), c.samples());
        }
        if (c.irqs().length > 0) {
          irqs.put(c.cpu(), c.irqs());
        }
      }
    }
    // Time order; at equal times by CPU: the same order whatever the partitioning.
    hist.sort(java.util.Comparator.comparingLong(SwitchRecord::timeNs)
        .thenComparingInt(SwitchRecord::cpu));
    if (wqs == null) {
      return new Outcome(fio, List.of(), new WqMonitorSnapshot(outcome.stats().simulatedTimeNs(),
          List.of()), "", hist, dropped, mm, List.copyOf(fsMark.values()), shell, dmz,
          List.copyOf(samples.values()), irqs, List.copyOf(warnings), dmzSamples);
    }
    return new Outcome(fio, wqs.monitorSamples(reports),
        wqs.fromReports(reports, outcome.stats().simulatedTimeNs()),
        WqDump.render(wqs, WorkqueueSystem.ownerReports(reports)), hist, dropped, mm,
        List.copyOf(fsMark.values()), shell, dmz, List.copyOf(samples.values()), irqs,
        List.copyOf(warnings), dmzSamples);
  }
}
