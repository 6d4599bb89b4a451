package blksim.cli;

import blksim.engine.InputException;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.pekko.ClusterRunner;
import blksim.engine.pekko.PartitionError;
import blksim.report.json.JsonReader;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
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
   * The thread and the private single-node cluster a JVM's sweep worker runs its runs on: one
   * run at a time, in submission order, on a thread of its own (never on an actor dispatcher),
   * each run's partitions on the private node so that they stay in this JVM. The private node
   * starts as the thread's first task when {@code startNodeNow} (a node starts it while it waits
   * for work; the sweep's JVM while it loads and joins), else at the first cluster-host run.
   * The sweep's JVM submits its first run here before it has joined the cluster.
   */
  static final class LocalWorker implements AutoCloseable {
    private final ExecutorService exec = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "blksim-sweep-worker");
      t.setDaemon(true);
      return t;
    });
    private final java.util.concurrent.atomic.AtomicBoolean stopping =
        new java.util.concurrent.atomic.AtomicBoolean();
    /** Only touched on the worker's thread (and read by {@link #close}). */
    private volatile ActorSystem<Void> privateNode;
    /** The cluster member this worker serves, once known: a run cut off by its shutdown. */
    private volatile org.apache.pekko.actor.ActorSystem member;

    LocalWorker(boolean startNodeNow) {
      if (startNodeNow) {
        exec.execute(() -> {
          try {
            node();
          } catch (RuntimeException e) {
            // the first run tries again and reports the failure
          }
        });
      }
    }

    /**
     * Queues a short run of scenario {@code f} ({@code max-time=simulatedTime}, on the private
     * node) on the worker's thread: a node's JVM compiles the engine's, the model's and the
     * report's hot paths while the sweep's JVM starts, loads and joins, instead of during its
     * first run. Its figures are dropped; runs share no state, so later results are unchanged.
     * Nothing if the file is missing or the time is 0; a failure is ignored (it is only a
     * warm-up). The future completes when it is done (exceptionally if it failed).
     */
    CompletableFuture<Void> warmUp(Path f, String simulatedTime) {
      CompletableFuture<Void> done = new CompletableFuture<>();
      if (simulatedTime.isBlank() || simulatedTime.equals("0")
          || !java.nio.file.Files.isRegularFile(f)) {
        done.complete(null);
        return done;
      }
      exec.execute(() -> {
        if (stopping.get()) {
          done.complete(null);
          return;
        }
        try {
          String spec = ScenarioLoader.load(f, List.of("max-time=" + simulatedTime)).spec();
          run(spec, Simulator.Host.CLUSTER, List.of("jobs.0.read.iops"), node());
          SweepTrace.mark("worker: warmed up");
          done.complete(null);
        } catch (RuntimeException | StackOverflowError e) {
          SweepTrace.mark("worker: warm-up failed: " + e);
          done.completeExceptionally(e);
        }
      });
      return done;
    }

    private ActorSystem<Void> node() {
      if (privateNode == null && !stopping.get()) {
        ActorSystem<Void> n = ClusterRunner.startEmbeddedNode();
        privateNode = n;
        if (stopping.get()) {
          n.terminate(); // closed while it started
        }
        SweepTrace.mark("worker: private node up");
      }
      return privateNode;
    }

    /**
     * Runs run {@code index} of sweep {@code sweepId} on the worker's thread and hands its reply
     * (from {@code self}, worker {@code me}, which may be null before the worker exists) to
     * {@code reply}; nothing if the worker is stopping (the run was cut off, not failed).
     */
    void submit(String sweepId, int index, String spec, String host, List<String> metrics,
        String self, ActorRef<WorkerCommand> me, java.util.function.Consumer<RunReply> reply) {
      exec.execute(() -> {
        RunReply out;
        try {
          SweepTrace.mark("worker: run " + (index + 1) + " start");
          Simulator.Host h = RunCommand.parseHost(host);
          Values v = run(spec, h, metrics, h == Simulator.Host.CLUSTER ? node() : null);
          SweepTrace.mark("worker: run " + (index + 1) + " end");
          out = new RunReply(sweepId, index, v.values(), v.errors(), null, self, me);
        } catch (RuntimeException | StackOverflowError e) {
          org.apache.pekko.actor.ActorSystem m = member;
          if (stopping.get() || (m != null && org.apache.pekko.actor.CoordinatedShutdown.get(m)
              .getShutdownReason().isPresent())) {
            // This node is leaving (SIGTERM): its run was cut off, not failed. The driver
            // learns that the member left and re-runs it elsewhere.
            return;
          }
          out = new RunReply(sweepId, index, new double[0], new String[0], failure(e, self),
              self, me);
        }
        reply.accept(out);
      });
    }

    /** Stops the thread (a run in progress is cut off) and the private node. */
    @Override
    public void close() {
      stopping.set(true);
      exec.shutdownNow();
      ActorSystem<Void> n = privateNode;
      if (n != null) {
        n.terminate();
      }
    }
  }

  /**
   * A sweep worker: hands the {@link RunRequest}s it is sent to {@code local}, which runs them one
   * at a time in arrival order; closes {@code local} when it stops. Registers itself under
   * {@link #WORKER_KEY}.
   */
  static Behavior<WorkerCommand> worker(LocalWorker local) {
    return Behaviors.setup(ctx -> {
      ctx.getSystem().receptionist().tell(Receptionist.register(WORKER_KEY, ctx.getSelf()));
      String self = org.apache.pekko.cluster.typed.Cluster.get(ctx.getSystem()).selfMember()
          .address().toString();
      ActorRef<WorkerCommand> me = ctx.getSelf();
      local.member = org.apache.pekko.actor.typed.javadsl.Adapter.toClassic(ctx.getSystem());
      return Behaviors.receive(WorkerCommand.class).onMessage(RunRequest.class, r -> {
        local.submit(r.sweepId(), r.index(), r.spec(), r.host(), r.metrics(), self, me,
            r.replyTo()::tell);
        return Behaviors.same();
      }).onSignal(org.apache.pekko.actor.typed.PostStop.class, sig -> {
        local.close();
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

  /**
   * Starts this JVM's sweep worker on {@code system} (a member of a multi-JVM cluster), its
   * private node starting now, while it waits for work (a node).
   */
  static void startWorker(ActorSystem<?> system) {
    startWorker(system, Home.scenarios().resolve(WARM_UP_SCENARIO),
        System.getProperty("blksim.node.warm-up", WARM_UP_DEFAULT));
  }

  /**
   * Starts this JVM's sweep worker on {@code system}, its private node starting now and then a
   * warm-up run of {@code warmUp} for {@code warmUpTime} of simulated time ({@link
   * LocalWorker#warmUp}), while it waits for work; the future completes after the warm-up.
   */
  static CompletableFuture<Void> startWorker(ActorSystem<?> system, Path warmUp,
      String warmUpTime) {
    LocalWorker local = new LocalWorker(true);
    CompletableFuture<Void> warm = local.warmUp(warmUp, warmUpTime);
    startWorker(system, local);
    return warm;
  }

  /** The scenario of a node's warm-up run, under the installation's scenarios directory. */
  static final String WARM_UP_SCENARIO = "quickstart/nullblk-psync.conf";

  /**
   * A node's warm-up run, in simulated time ({@code -Dblksim.node.warm-up}, e.g. 50ms: about
   * 1 s of CPU in a cold JVM, done while the sweep's JVM starts). Off by default: on a quiet
   * machine (2026-12-03) a 16-run sweep over a node with it took 23.2 s (median of 3), without
   * it 21.2 s; a run arriving during the warm-up waits for it.
   */
  static final String WARM_UP_DEFAULT = "0";

  /** Starts this JVM's sweep worker on {@code system}, running its runs on {@code local}. */
  static ActorRef<WorkerCommand> startWorker(ActorSystem<?> system, LocalWorker local) {
    return system.systemActorOf(worker(local), WORKER_NAME,
        org.apache.pekko.actor.typed.Props.empty());
  }

  /** The name of a JVM's sweep worker, a system actor: {@code /system/blksim-sweep-worker}. */
  static final String WORKER_NAME = "blksim-sweep-worker";

  /**
   * Asks every other Up member of {@code system}'s cluster for a sweep worker at its well-known
   * path and tells {@code driver} of each that answers (a member without one, like a {@code run
   * --join} JVM, does not): one round trip, where the receptionist takes its gossip rounds.
   */
  static void identifyWorkers(ActorSystem<?> system, ActorRef<DriverCommand> driver) {
    org.apache.pekko.actor.ActorSystem classic =
        org.apache.pekko.actor.typed.javadsl.Adapter.toClassic(system);
    org.apache.pekko.cluster.Cluster cluster = org.apache.pekko.cluster.Cluster.get(classic);
    for (org.apache.pekko.cluster.Member m : cluster.state().getMembers()) {
      if (m.address().equals(cluster.selfAddress())
          || m.status() != org.apache.pekko.cluster.MemberStatus.up()) {
        continue;
      }
      org.apache.pekko.actor.ActorSelection sel = classic.actorSelection(
          new org.apache.pekko.actor.RootActorPath(m.address(), "/").child("system")
              .child(WORKER_NAME));
      org.apache.pekko.pattern.Patterns.ask(sel, new org.apache.pekko.actor.Identify(
          m.address().toString()), java.time.Duration.ofSeconds(5)).thenAccept(reply -> {
            if (reply instanceof org.apache.pekko.actor.ActorIdentity id
                && id.getActorRef().isPresent()) {
              driver.tell(SweepDriver.found(
                  org.apache.pekko.actor.typed.javadsl.Adapter.toTyped(id.getActorRef().get())));
            }
          });
    }
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
