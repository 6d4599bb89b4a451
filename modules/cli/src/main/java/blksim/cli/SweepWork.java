package blksim.cli;

import blksim.engine.InputException;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.pekko.ClusterRunner;
import blksim.engine.pekko.PartitionError;
import blksim.report.json.JsonReader;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;

/**
 * One run of a sweep, wherever it runs: the resolved scenario text goes in, the chosen figures of
 * fio's JSON output come out. The same code runs a local sweep's runs in the sweep's own JVM and
 * a distributed sweep's runs on each node's {@link #worker sweep worker}, so both give the same
 * figures by construction.
 *
 * <p>What travels is {@link Scenario#spec()}, the self-contained resolved scenario: the profile
 * is merged in and the fio job files are inlined as text by the loader, so a node needs none of
 * the sweep's files. Paths the model itself opens at run time (a {@code replay.trace}, made
 * absolute by the loader, and fio's {@code read_iolog}) are read by path on the node that runs:
 * they need a filesystem shared at the same path (on one machine, any path works). No class name
 * travels: a worker only ever builds {@code ScenarioModelFactory}'s model.
 */
public final class SweepWork {
  private SweepWork() {}

  /** Marker of the sweep protocol's messages, which cross JVMs through Kryo. */
  public interface Protocol {}

  /** What a sweep worker understands. */
  public sealed interface WorkerCommand extends Protocol permits RunRequest {}

  /** What a sweep driver understands from workers. */
  public interface DriverCommand {}

  /**
   * Run number {@code index} of sweep {@code sweepId}: {@code spec} on host {@code host}
   * ({@code cluster} or {@code local}), then each of {@code metrics} evaluated on its JSON.
   */
  public record RunRequest(String sweepId, int index, String spec, String host,
      List<String> metrics, ActorRef<DriverCommand> replyTo) implements WorkerCommand {
    public RunRequest {
      metrics = List.copyOf(metrics);
    }
  }

  /**
   * The answer to a {@link RunRequest}: one value per metric ({@code NaN} where {@code errors}
   * holds why it could not be evaluated, or for a quotient by 0), or {@code failure} when the run
   * itself failed; {@code node} is the worker's cluster address.
   */
  public record RunReply(String sweepId, int index, double[] values, String[] errors,
      PartitionError failure, String node, ActorRef<WorkerCommand> worker)
      implements DriverCommand, Protocol {}

  /** The figures of one run. */
  record Values(double[] values, String[] errors) {}

  /** The service key every node's sweep worker registers under with the receptionist. */
  public static final ServiceKey<WorkerCommand> WORKER_KEY =
      ServiceKey.create(WorkerCommand.class, "blksim-sweep-worker");

  /**
   * Runs {@code spec} on {@code host} ({@code node}: the embedded node for the cluster host, or
   * null for one of its own) and evaluates {@code metrics} on fio's JSON output. A metric that
   * names nothing is an error string in its slot, thrown only if the sweep uses it.
   */
  static Values run(String spec, Simulator.Host host, List<String> metrics,
      ActorSystem<Void> node) {
    Scenario s = ScenarioLoader.fromSpec(spec);
    Simulator.Outcome o = Simulator.runFull(s, Partitioning.parse(s.partitions()), host,
        ProgressListener.NONE, node);
    String text = Metrics.withWorkqueues(Metrics.json(o), o);
    @SuppressWarnings("unchecked")
    Map<String, Object> json = (Map<String, Object>) JsonReader.parse(text);
    double[] values = new double[metrics.size()];
    String[] errors = new String[metrics.size()];
    for (int i = 0; i < metrics.size(); i++) {
      try {
        values[i] = Metrics.evaluate(json, metrics.get(i), "--metric", 0);
      } catch (InputException e) {
        values[i] = Double.NaN;
        errors[i] = e.rule();
      }
    }
    return new Values(values, errors);
  }

  /**
   * A sweep worker: runs the {@link RunRequest}s it is sent one at a time, in arrival order, on a
   * thread of its own (never on an actor dispatcher), each run's partitions on a private embedded
   * single-node cluster (started at the first cluster-host run, stopped with {@code system}) so
   * that they stay in this JVM. Registers itself under {@link #WORKER_KEY}.
   */
  static Behavior<WorkerCommand> worker() {
    return Behaviors.setup(ctx -> {
      ctx.getSystem().receptionist().tell(Receptionist.register(WORKER_KEY, ctx.getSelf()));
      ExecutorService exec = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "blksim-sweep-worker");
        t.setDaemon(true);
        return t;
      });
      ActorSystem<Void>[] privateNode = newNodeHolder();
      String self = org.apache.pekko.cluster.typed.Cluster.get(ctx.getSystem()).selfMember()
          .address().toString();
      ActorRef<WorkerCommand> me = ctx.getSelf();
      java.util.concurrent.atomic.AtomicBoolean stopping =
          new java.util.concurrent.atomic.AtomicBoolean();
      org.apache.pekko.actor.ActorSystem system =
          org.apache.pekko.actor.typed.javadsl.Adapter.toClassic(ctx.getSystem());
      return Behaviors.receive(WorkerCommand.class).onMessage(RunRequest.class, r -> {
        exec.execute(() -> {
          RunReply reply;
          try {
            Simulator.Host h = RunCommand.parseHost(r.host());
            SweepTrace.mark("worker: run " + (r.index() + 1) + " start");
            if (h == Simulator.Host.CLUSTER && privateNode[0] == null) {
              privateNode[0] = ClusterRunner.startEmbeddedNode();
              SweepTrace.mark("worker: private node up");
            }
            Values v = run(r.spec(), h, r.metrics(), privateNode[0]);
            SweepTrace.mark("worker: run " + (r.index() + 1) + " end");
            reply = new RunReply(r.sweepId(), r.index(), v.values(), v.errors(), null, self, me);
          } catch (RuntimeException | StackOverflowError e) {
            if (stopping.get() || org.apache.pekko.actor.CoordinatedShutdown.get(system)
                .getShutdownReason().isPresent()) {
              // This node is leaving (SIGTERM): its run was cut off, not failed. The driver
              // learns that the member left and re-runs it elsewhere.
              return;
            }
            reply = new RunReply(r.sweepId(), r.index(), new double[0], new String[0],
                failure(e, self), self, me);
          }
          r.replyTo().tell(reply);
        });
        return Behaviors.same();
      }).onSignal(org.apache.pekko.actor.typed.PostStop.class, sig -> {
        stopping.set(true);
        exec.shutdownNow();
        if (privateNode[0] != null) {
          privateNode[0].terminate();
        }
        return Behaviors.same();
      }).build();
    });
  }

  /** A run's failure as it travels: input and simulation errors as themselves. */
  static PartitionError failure(Throwable e, String node) {
    if (e instanceof InputException || e instanceof blksim.engine.SimulationException) {
      return PartitionError.of(-1, e);
    }
    return new PartitionError(PartitionError.Type.SIMULATION, "the run failed on " + node + ": "
        + e, null, 0, null, null);
  }

  @SuppressWarnings("unchecked")
  private static ActorSystem<Void>[] newNodeHolder() {
    return (ActorSystem<Void>[]) new ActorSystem<?>[1];
  }

  /** Starts this JVM's sweep worker on {@code system} (a member of a multi-JVM cluster). */
  static void startWorker(ActorSystem<?> system) {
    system.systemActorOf(worker(), "blksim-sweep-worker",
        org.apache.pekko.actor.typed.Props.empty());
  }

  /** The metrics a run evaluates when the sweep has no --metric: see {@link #chooseDefaults}. */
  static List<String> defaultCandidates() {
    List<String> out = new ArrayList<>();
    out.add("jobs.0.read.total_ios");
    for (String d : List.of("read", "write")) {
      for (SweepCommand.Metric m : SweepCommand.defaultsFor(d)) {
        out.add(m.path());
      }
    }
    return out;
  }
}
