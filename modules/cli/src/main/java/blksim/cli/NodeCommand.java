package blksim.cli;

import blksim.engine.pekko.ClusterRunner;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.typed.Cluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code blksim node}: starts a cluster node in this JVM that hosts partitions of the runs other
 * members launch, until it is stopped (Ctrl-C, SIGTERM).
 *
 * <pre>
 * ./blksim node --port 25520                        # first JVM: forms the cluster
 * ./blksim run SCENARIO --join 127.0.0.1:25520 --partitions=node   # second JVM: runs on both
 * </pre>
 */
@Command(name = "node", mixinStandardHelpOptions = true,
    description = {"Start a cluster node that hosts partitions of runs launched on other members,"
        + " until stopped.", "",
        "A run joins it with 'blksim run SCENARIO --join HOST:PORT'; its partitions are spread"
            + " over all members (partition i on member i mod members) and its results are the"
            + " same as on one JVM.",
        "A sweep joins it with 'blksim sweep SCENARIO --vary ... --join HOST:PORT'; each of"
            + " its runs goes whole to one member (this node runs one at a time).",
        "-Dblksim.node.warm-up=50ms (in BLKSIM_JAVA_OPTS) makes it run a short warm-up"
            + " simulation at start while it waits, so that its first sweep run is not also its"
            + " JIT's first (off by default: measured, it did not pay)."},
    footer = {"", "Example (two JVMs on one machine):",
        "  ./blksim node --port 25520",
        "  ./blksim run scenarios/replay/two-devices.conf \\",
        "      --join 127.0.0.1:25520 --partitions=2"})
final class NodeCommand implements Callable<Integer> {
  @picocli.CommandLine.Mixin TlsOptions tls = new TlsOptions();

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--port", defaultValue = "25520",
      description = "TCP port to bind on --bind (0: a free one); default ${DEFAULT-VALUE}")
  int port;

  @Option(names = "--bind", defaultValue = "127.0.0.1",
      description = "address to bind and advertise; default ${DEFAULT-VALUE} (loopback only)")
  String bind;

  @Option(names = "--seed", paramLabel = "HOST:PORT",
      description = "join the cluster of this node instead of forming a new one (repeatable)")
  List<String> seeds = new ArrayList<>();

  /** Whether this JVM's node came up (it then says it stopped when the JVM ends). */
  static final java.util.concurrent.atomic.AtomicBoolean STARTED =
      new java.util.concurrent.atomic.AtomicBoolean();

  @Override
  public Integer call() throws Exception {
    ActorSystem<Void> system;
    if (port < 0 || port > 65535) {
      throw new blksim.engine.InputException(null, 0, "--port", "must be 0 (a free port) to"
          + " 65535, was " + port);
    }
    try {
      system = ClusterRunner.startClusterNode(bind, port, seeds, tls.resolve());
    } catch (IllegalArgumentException e) {
      throw new blksim.engine.InputException(null, 0, e.getMessage().contains("TLS") ? "--bind"
          : "--seed", e.getMessage());
    }
    // Runs of distributed sweeps ('blksim sweep --join'), each whole on this node.
    STARTED.set(true);
    SweepTrace.mark("node up");
    SweepWork.startWorker(system);
    PrintWriter out = spec.commandLine().getOut();
    out.println("blksim node up at " + Cluster.get(system).selfMember().address()
        + "; hosting partitions until stopped");
    out.flush();
    system.getWhenTerminated().toCompletableFuture().get();
    return 0;
  }
}
