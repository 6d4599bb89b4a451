package blksim.cli;

import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.engine.pekko.ClusterRunner;
import blksim.workload.fio.stats.RunResult;
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

  private Simulator() {}

  /** Runs {@code s} with the given partitioning. */
  public static RunResult run(Scenario s, Partitioning partitioning, Host host,
      ProgressListener progress) {
    long wallStart = System.currentTimeMillis();
    RunOutcome outcome;
    if (host == Host.LOCAL) {
      outcome = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), partitioning,
          Runtime.getRuntime().availableProcessors(), progress);
    } else {
      outcome = ClusterRunner.run(ScenarioModelFactory.class.getName(), s.spec(), partitioning,
          progress);
    }
    return ScenarioResults.toRunResult(outcome, wallStart);
  }
}
