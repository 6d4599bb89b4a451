package blksim.engine.pekko;

import blksim.engine.Component;
import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.ModelFactory;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.engine.SimulationException;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.ShardRegion;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.pattern.Patterns;

/**
 * Runs a model with its partitions hosted as Cluster Sharding entities: the Pekko counterpart of
 * {@link blksim.engine.LocalRunner}, with the same window protocol and the same outcome (reports,
 * event count, window count, simulated time; only the wall time differs).
 *
 * <p>{@link #run(String, String, Partitioning, ProgressListener)} starts an embedded single-node
 * cluster bound to 127.0.0.1 (the {@code blksim-cluster.conf} overlay, equivalent to
 * cluster-config/single-node.conf), runs, and shuts the node down, also on failure.
 * {@link #run(List, String, String, Partitioning, ProgressListener)} uses a cluster that is
 * already formed: the run coordinator lives on the first system, partitions are spread over every
 * member. Errors of the model come back as the exception the partition threw (same type, same
 * message); a lost message, a silent partition or a member leaving fail the run with a
 * {@link SimulationException} that says which partition or member.
 */
public final class ClusterRunner {
  /** Name of every blksim actor system; all nodes of a cluster must use it. */
  public static final String SYSTEM_NAME = "blksim";

  /** The overlay resource applied on top of the normal configuration for an embedded node. */
  public static final String EMBEDDED_CONFIG = "blksim-cluster.conf";

  private static final AtomicLong RUNS = new AtomicLong();

  private ClusterRunner() {}

  /**
   * Runs the model {@code factoryClass} builds from {@code spec} on an embedded single-node
   * cluster; {@code progress} is called after each window.
   */
  public static RunOutcome run(String factoryClass, String spec, Partitioning partitioning,
      ProgressListener progress) {
    // Build the model first: a bad spec fails before any node starts.
    return run(factoryClass, spec, ModelFactory.byName(factoryClass).build(spec), partitioning,
        progress);
  }

  /**
   * {@link #run(String, String, Partitioning, ProgressListener)} with {@code model}, the model
   * {@code factoryClass} builds from {@code spec}, already built by the caller: this JVM reads
   * it only to place its components and count those that keep the run alive (the partitions
   * build their own), so a caller that builds it anyway saves a second build.
   */
  public static RunOutcome run(String factoryClass, String spec, Model model,
      Partitioning partitioning, ProgressListener progress) {
    ActorSystem<Void> system = startEmbeddedNode();
    try {
      return run(List.of(system), factoryClass, spec, model, List.of(), partitioning, progress,
          PartitionSharding.TYPE_NAME, UnaryOperator.identity(), null);
    } finally {
      shutdown(system);
    }
  }

  /**
   * Starts an embedded node as {@link #startEmbeddedNode()} does, with its partition shard
   * region, on a thread of its own: the actor system takes about a second to create, which a
   * caller spends building its model meanwhile (then {@link #run(CompletableFuture, String,
   * String, Model, Partitioning, ProgressListener)}). A caller that fails before it runs must
   * hand the future to {@link #abandon(CompletableFuture)}.
   */
  public static CompletableFuture<ActorSystem<Void>> startEmbeddedNodeAsync() {
    CompletableFuture<ActorSystem<Void>> node = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        ActorSystem<Void> system = startEmbeddedNode();
        try {
          PartitionSharding.init(system);
        } catch (RuntimeException e) {
          shutdown(system);
          throw e;
        }
        node.complete(system);
      } catch (Throwable e) {
        node.completeExceptionally(e);
      }
    }, "blksim-node-start");
    t.setDaemon(true);
    t.start();
    return node;
  }

  /**
   * {@link #run(String, String, Model, Partitioning, ProgressListener)} on the node
   * {@link #startEmbeddedNodeAsync()} is starting, which it shuts down after the run, with the
   * {@code spares} of {@link #buildSpares} for its partitions after the first.
   */
  public static RunOutcome run(CompletableFuture<ActorSystem<Void>> starting,
      String factoryClass, String spec, Model model, List<CompletableFuture<Model>> spares,
      Partitioning partitioning, ProgressListener progress) {
    ActorSystem<Void> system = started(starting);
    try {
      return run(List.of(system), factoryClass, spec, model, spares, partitioning, progress,
          PartitionSharding.TYPE_NAME, UnaryOperator.identity(), null);
    } finally {
      shutdown(system);
    }
  }

  /** Shuts down the node {@code starting} brings up, once it is up (or its start has failed). */
  public static void abandon(CompletableFuture<ActorSystem<Void>> starting) {
    try {
      shutdown(started(starting));
    } catch (RuntimeException e) {
      // it never came up: nothing to stop
    }
  }

  private static ActorSystem<Void> started(CompletableFuture<ActorSystem<Void>> starting) {
    try {
      return starting.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SimulationException("interrupted while the embedded cluster node started", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new SimulationException("the embedded cluster node did not start", e.getCause());
    }
  }

  /**
   * Runs the model on an already formed cluster: {@code systems.get(0)} hosts the coordinator;
   * every Up member of the cluster hosts partitions (shard regions are started on each system of
   * the list; other JVMs must have called {@link PartitionSharding#init}).
   */
  public static RunOutcome run(List<? extends ActorSystem<?>> systems, String factoryClass,
      String spec, Partitioning partitioning, ProgressListener progress) {
    return run(systems, factoryClass, spec, partitioning, progress, PartitionSharding.TYPE_NAME,
        UnaryOperator.identity(), null);
  }

  /**
   * {@link #run(List, String, String, Partitioning, ProgressListener)} with {@code model} already
   * built by the caller from {@code spec} (read only, as in
   * {@link #run(String, String, Model, Partitioning, ProgressListener)}).
   */
  public static RunOutcome run(List<? extends ActorSystem<?>> systems, String factoryClass,
      String spec, Model model, Partitioning partitioning, ProgressListener progress) {
    return run(systems, factoryClass, spec, model, List.of(), partitioning, progress,
        PartitionSharding.TYPE_NAME, UnaryOperator.identity(), null);
  }

  /**
   * {@link #run(List, String, String, Model, Partitioning, ProgressListener)} with the
   * {@code spares} of {@link #buildSpares} for the partitions after the first that start in this
   * JVM.
   */
  public static RunOutcome run(List<? extends ActorSystem<?>> systems, String factoryClass,
      String spec, Model model, List<CompletableFuture<Model>> spares, Partitioning partitioning,
      ProgressListener progress) {
    return run(systems, factoryClass, spec, model, spares, partitioning, progress,
        PartitionSharding.TYPE_NAME, UnaryOperator.identity(), null);
  }

  /**
   * How many spare models a run with {@code partitioning} on {@code node} ({@code null}: an
   * embedded node of its own) can use: with N partitions ({@code partitions = N}, what
   * {@code auto} resolves to) all in this JVM (the node is its cluster's only member), one per
   * partition after the first, up to the JVM's processors less one (the launcher's own build);
   * none otherwise.
   */
  public static int sparesFor(Partitioning partitioning, ActorSystem<?> node) {
    if (partitioning.kind() != Partitioning.Kind.COUNT) {
      return 0;
    }
    if (node != null) {
      int members = 0;
      for (Member m : Cluster.get(node).state().getMembers()) {
        members++;
      }
      if (members != 1) {
        return 0;
      }
    }
    return Math.max(0, Math.min(partitioning.count(),
        Runtime.getRuntime().availableProcessors()) - 1);
  }

  /**
   * Starts {@code count} builds of the model {@code factoryClass} builds from {@code spec}, each
   * on a thread of its own, for the partitions of the run after the first in this JVM: each would
   * build the same model on {@code Init}, inside the run's wall time and after the launcher's
   * build; built meanwhile, they cost no wall time where the machine has a core for them.
   */
  public static List<CompletableFuture<Model>> buildSpares(String factoryClass, String spec,
      int count) {
    List<CompletableFuture<Model>> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      CompletableFuture<Model> f = new CompletableFuture<>();
      Thread t = new Thread(() -> {
        try {
          f.complete(ModelFactory.byName(factoryClass).build(spec));
        } catch (Throwable e) {
          f.completeExceptionally(e);
        }
      }, "blksim-spare-model-" + i);
      t.setDaemon(true);
      t.start();
      out.add(f);
    }
    return out;
  }

  /**
   * The full form, for tests: entity type {@code typeName} with its behavior wrapped by
   * {@code wrap}, and a watchdog override ({@code null}: from configuration).
   */
  static RunOutcome run(List<? extends ActorSystem<?>> systems, String factoryClass, String spec,
      Partitioning partitioning, ProgressListener progress, String typeName,
      UnaryOperator<Behavior<PartitionEntity.Command>> wrap, Duration watchdog) {
    return run(systems, factoryClass, spec, ModelFactory.byName(factoryClass).build(spec),
        List.of(), partitioning, progress, typeName, wrap, watchdog);
  }

  private static RunOutcome run(List<? extends ActorSystem<?>> systems, String factoryClass,
      String spec, Model model, List<CompletableFuture<Model>> spares, Partitioning partitioning,
      ProgressListener progress,
      String typeName, UnaryOperator<Behavior<PartitionEntity.Command>> wrap, Duration watchdog) {
    if (systems.isEmpty()) {
      throw new IllegalArgumentException("at least one actor system is needed");
    }
    ActorSystem<?> launcher = systems.get(0);
    ClusterRunSettings settings = ClusterRunSettings.from(launcher.settings().config());
    if (watchdog != null) {
      settings = settings.withWatchdog(watchdog);
    }
    int[] placement = partitioning.place(model.components());
    int partitions = 0;
    for (int p : placement) {
      partitions = Math.max(partitions, p + 1);
    }
    if (partitions == 0) {
      // A model without components: nothing to host, the outcome is LocalRunner's.
      return LocalRunner.run(model, partitioning, 1, progress);
    }
    int liveTotal = 0;
    for (Component c : model.components()) {
      liveTotal += c.keepsRunAlive() ? 1 : 0;
    }
    for (ActorSystem<?> s : systems) {
      PartitionSharding.init(s, typeName, wrap);
    }
    awaitRegions(systems, typeName, settings.startTimeout());
    String runId = "run" + RUNS.incrementAndGet() + "x" + Long.toHexString(System.nanoTime());
    RunCoordinator.Plan plan = new RunCoordinator.Plan(runId, factoryClass, spec,
        partitioning.toString(), model, partitions, liveTotal,
        PartitionSharding.typeKey(typeName), settings.watchdog(), progress,
        settings.peerWindows(partitions));
    CompletableFuture<RunOutcome> result = new CompletableFuture<>();
    ModelHandOff.offer(runId, model, spares);
    launcher.systemActorOf(RunCoordinator.create(plan, result), "blksim-" + runId,
        DispatcherSelector.fromConfig(PartitionSharding.DISPATCHER));
    try {
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SimulationException("interrupted while waiting for run " + runId, e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new SimulationException("run " + runId + " failed", e.getCause());
    } finally {
      ModelHandOff.withdraw(runId);
    }
  }

  /** The configuration of an embedded node: system properties, blksim-cluster.conf, defaults. */
  public static Config embeddedConfig() {
    ClassLoader cl = ClusterRunner.class.getClassLoader();
    return ConfigFactory.defaultOverrides(cl)
        .withFallback(ConfigFactory.parseResources(cl, EMBEDDED_CONFIG))
        .withFallback(ConfigFactory.load(cl))
        .resolve();
  }

  /** Starts a single-node cluster on 127.0.0.1 and waits until it is Up. */
  public static ActorSystem<Void> startEmbeddedNode() {
    Config config = embeddedConfig();
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), SYSTEM_NAME, config);
    try {
      Cluster cluster = Cluster.get(system);
      cluster.manager().tell(Join.create(cluster.selfMember().address()));
      Duration timeout = ClusterRunSettings.from(config).startTimeout();
      long deadline = System.nanoTime() + timeout.toNanos();
      while (cluster.selfMember().status() != MemberStatus.up()) {
        if (System.nanoTime() > deadline) {
          throw new SimulationException("the embedded cluster node did not come Up within "
              + timeout.toMillis() + " ms (blksim.engine.start-timeout)");
        }
        sleep(10);
      }
      return system;
    } catch (RuntimeException e) {
      shutdown(system);
      throw e;
    }
  }

  /**
   * Starts this JVM's node of a multi-JVM cluster: bound to {@code host:port} (port 0: a free
   * one), joining the cluster of {@code seeds} ({@code host:port} each; none: it forms a new
   * cluster of its own), hosting partitions of the runs any member launches. Returns once the
   * node is Up.
   */
  public static ActorSystem<Void> startClusterNode(String host, int port, List<String> seeds) {
    return startClusterNode(host, port, seeds, null);
  }

  /**
   * Artery's TLS transport with mutual authentication ({@code tls-tcp}): every member presents
   * the certificate of {@code keyStore} (PKCS12) and accepts only peers whose certificate that
   * same store trusts, so a process without the store cannot join, read or inject cluster
   * traffic. Hostname verification is off: members authenticate by certificate, not by name.
   *
   * @param keyStore the PKCS12 key store (key and trusted certificate)
   * @param password its password (also the key's)
   */
  public record Tls(java.nio.file.Path keyStore, String password) {
    /** The configuration overlay that turns TLS on. */
    Config overlay() {
      String ks = quote(keyStore.toAbsolutePath().toString());
      String pw = quote(password);
      return ConfigFactory.parseString(
          "pekko.remote.artery.transport = tls-tcp\n"
              + "pekko.remote.artery.ssl.config-ssl-engine {\n"
              + "  key-store = " + ks + "\n  trust-store = " + ks + "\n"
              + "  key-store-password = " + pw + "\n  key-password = " + pw + "\n"
              + "  trust-store-password = " + pw + "\n"
              + "  protocol = \"TLSv1.3\"\n"
              + "  enabled-algorithms = [\"TLS_AES_256_GCM_SHA384\", \"TLS_AES_128_GCM_SHA256\"]\n"
              + "  require-mutual-authentication = on\n"
              + "  hostname-verification = off\n"
              + "}\n");
    }
  }

  /** HOCON quoting of a string value. */
  private static String quote(String v) {
    return com.typesafe.config.ConfigValueFactory.fromAnyRef(v)
        .render(com.typesafe.config.ConfigRenderOptions.concise());
  }

  /**
   * {@link #startClusterNode(String, int, List)} with TLS when {@code tls} is not null. A bind
   * address other than loopback is refused without TLS: cluster members instantiate partitions
   * and run what other members send them, so an open port must authenticate its peers.
   */
  public static ActorSystem<Void> startClusterNode(String host, int port, List<String> seeds,
      Tls tls) {
    if (tls == null && !isLoopback(host)) {
      throw new IllegalArgumentException("binding " + host + " (not loopback) needs TLS:"
          + " give --tls-keystore (make one with 'blksim tls-keys DIR')");
    }
    return start(host, port, seeds, tls);
  }

  /** Whether {@code host} names a loopback address (127.0.0.0/8, ::1, localhost). */
  static boolean isLoopback(String host) {
    try {
      return java.net.InetAddress.getByName(host).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  private static ActorSystem<Void> start(String host, int port, List<String> seeds, Tls tls) {
    StringBuilder seedList = new StringBuilder();
    for (String s : seeds) {
      if (!s.matches("[^:\\s]+:\\d+")) {
        throw new IllegalArgumentException("a seed node is host:port, was '" + s + "'");
      }
      seedList.append(seedList.length() == 0 ? "" : ", ")
          .append('"').append("pekko://").append(SYSTEM_NAME).append('@').append(s).append('"');
    }
    Config overlay = ConfigFactory.parseString(
        "pekko.remote.artery.canonical.hostname = \"" + host + "\"\n"
            + "pekko.remote.artery.canonical.port = " + port + "\n"
            + "pekko.cluster.seed-nodes = [" + seedList + "]\n"
            + "pekko.cluster.jmx.multi-mbeans-in-same-jvm = on\n");
    if (tls != null) {
      overlay = tls.overlay().withFallback(overlay);
    }
    Config config = overlay.withFallback(embeddedConfig());
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), SYSTEM_NAME, config);
    try {
      Cluster cluster = Cluster.get(system);
      if (seeds.isEmpty()) {
        cluster.manager().tell(Join.create(cluster.selfMember().address()));
      }
      Duration timeout = ClusterRunSettings.from(config).startTimeout();
      long start = System.nanoTime();
      long deadline = start + timeout.toNanos();
      long nextProbe = start + REFUSED_PROBE_NANOS;
      long refusedSince = -1;
      while (cluster.selfMember().status() != MemberStatus.up()) {
        long now = System.nanoTime();
        if (now > deadline) {
          throw new SimulationException("this node did not join the cluster of " + seeds
              + " within " + timeout.toMillis() + " ms (blksim.engine.start-timeout): "
              + whyNotJoined(system, seeds));
        }
        if (!seeds.isEmpty() && now >= nextProbe) {
          // A seed that refuses every connection for seconds is not a node starting up: say
          // so now rather than after the whole start timeout (30 s by default).
          nextProbe = now + REFUSED_PROBE_NANOS;
          refusedSince = allRefuse(seeds) ? (refusedSince < 0 ? now : refusedSince) : -1;
          if (refusedSince >= 0 && now - refusedSince >= REFUSED_FAIL_NANOS) {
            throw new SimulationException("this node did not join the cluster of " + seeds
                + ": " + whyNotJoined(system, seeds));
          }
        }
        sleep(10);
      }
      PartitionSharding.init(system);
      system.systemActorOf(AutoDown.create(config.getDuration("blksim.engine.auto-down-after")),
          "blksim-auto-down", org.apache.pekko.actor.typed.Props.empty());
      return system;
    } catch (RuntimeException e) {
      shutdown(system);
      throw e;
    }
  }

  /** How often a joining node checks that its seeds accept TCP connections at all. */
  private static final long REFUSED_PROBE_NANOS = 1_000_000_000L;
  /**
   * How long every seed may refuse connections before the join fails: a node binds its port
   * about 1 s after its JVM starts (2 s on the loaded 2-core project machine), so a node and a
   * run started together still meet.
   */
  private static final long REFUSED_FAIL_NANOS = 10_000_000_000L;

  /** Whether every seed ({@code host:port}) refuses a TCP connection right now. */
  private static boolean allRefuse(List<String> seeds) {
    for (String seed : seeds) {
      int colon = seed.lastIndexOf(':');
      try (java.net.Socket socket = new java.net.Socket()) {
        socket.connect(new java.net.InetSocketAddress(seed.substring(0, colon),
            Integer.parseInt(seed.substring(colon + 1))), 500);
        return false;
      } catch (java.net.ConnectException e) {
        // refused: try the next
      } catch (java.io.IOException | RuntimeException e) {
        return false; // a timeout or anything else: let the start timeout decide
      }
    }
    return true;
  }

  /**
   * Why {@code system} could not join the cluster of {@code seeds} ({@code host:port} each):
   * nothing listening (connection refused or timed out), something listening that does not
   * answer as {@code pekko://blksim@host:port} (not a blksim node, another actor-system name, or
   * a TLS-only node), or a blksim node that answers but whose cluster did not take this node in
   * (a crashed member not downed yet blocks every join).
   */
  static String whyNotJoined(ActorSystem<?> system, List<String> seeds) {
    List<String> why = new ArrayList<>();
    for (String seed : seeds) {
      int colon = seed.lastIndexOf(':');
      String host = seed.substring(0, colon);
      int port = Integer.parseInt(seed.substring(colon + 1));
      try (java.net.Socket socket = new java.net.Socket()) {
        socket.connect(new java.net.InetSocketAddress(host, port), 2000);
      } catch (java.net.ConnectException e) {
        why.add("nothing is listening at " + seed + " (connection refused): start it with"
            + " 'blksim node --port " + port + "'");
        continue;
      } catch (java.net.SocketTimeoutException e) {
        why.add(seed + " does not accept connections (timed out: a firewall, or no such host)");
        continue;
      } catch (java.io.IOException e) {
        why.add("cannot connect to " + seed + ": " + e.getMessage());
        continue;
      }
      String path = "pekko://" + SYSTEM_NAME + "@" + seed + "/system/cluster/core/daemon";
      boolean answers;
      try {
        Object reply = Patterns.ask(Adapter.toClassic(system).actorSelection(path),
            new org.apache.pekko.actor.Identify(seed), Duration.ofSeconds(3))
            .toCompletableFuture().get();
        answers = reply instanceof org.apache.pekko.actor.ActorIdentity id
            && id.getActorRef().isPresent();
      } catch (ExecutionException e) {
        answers = false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        answers = false;
      }
      if (!answers) {
        why.add("something is listening at " + seed + " but it does not answer as pekko://"
            + SYSTEM_NAME + "@" + seed + ": it is not a blksim node, or it runs under another"
            + " actor-system name (blksim nodes are named '" + SYSTEM_NAME + "'), or it refused"
            + " the connection's handshake (a TLS node)");
        continue;
      }
      Set<Address> unreachable = new java.util.TreeSet<>(Member.addressOrdering());
      for (Member m : Cluster.get(system).state().getUnreachable()) {
        unreachable.add(m.address());
      }
      why.add(seed + " is a blksim node but its cluster did not take this node in"
          + (unreachable.isEmpty() ? " (is it the same blksim build?)"
              : ": member(s) " + unreachable + " are unreachable and not downed yet, and a"
                  + " cluster with an unreachable member takes no new member (its nodes down a"
                  + " crashed member after blksim.engine.auto-down-after; try again then)"));
    }
    return String.join("; ", why);
  }

  /** Waits until the cluster of {@code system} has at least {@code members} Up members. */
  public static void awaitMembers(ActorSystem<?> system, int members, Duration timeout) {
    Cluster cluster = Cluster.get(system);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      int up = 0;
      for (Member m : cluster.state().getMembers()) {
        if (m.status() == MemberStatus.up()) {
          up++;
        }
      }
      if (up >= members) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new SimulationException("only " + up + " of " + members + " cluster members are Up"
            + " after " + timeout.toMillis() + " ms: start the other nodes with 'blksim node'");
      }
      sleep(20);
    }
  }

  /**
   * Starts {@code nodes} embedded nodes in this JVM (each on 127.0.0.1 with a free port) and forms
   * one cluster of them, joined programmatically; returns once every node is Up. For tests and
   * trying distribution on one machine; shut them down with {@link #shutdown}, last first.
   */
  public static List<ActorSystem<Void>> startLocalCluster(int nodes) {
    return startLocalCluster(nodes, ConfigFactory.empty());
  }

  /** {@link #startLocalCluster(int)} with {@code overlay} on top of the embedded configuration. */
  static List<ActorSystem<Void>> startLocalCluster(int nodes, Config overlay) {
    if (nodes < 1) {
      throw new IllegalArgumentException("nodes must be at least 1, was " + nodes);
    }
    Config config = overlay.withFallback(embeddedConfig());
    List<ActorSystem<Void>> out = new ArrayList<>();
    try {
      for (int i = 0; i < nodes; i++) {
        out.add(ActorSystem.create(Behaviors.empty(), SYSTEM_NAME, config));
      }
      Address first = Cluster.get(out.get(0)).selfMember().address();
      for (ActorSystem<Void> s : out) {
        Cluster.get(s).manager().tell(Join.create(first));
      }
      Duration timeout = ClusterRunSettings.from(config).startTimeout();
      long deadline = System.nanoTime() + timeout.toNanos();
      for (ActorSystem<Void> s : out) {
        while (Cluster.get(s).selfMember().status() != MemberStatus.up()) {
          if (System.nanoTime() > deadline) {
            throw new SimulationException("a local cluster of " + nodes + " nodes did not form"
                + " within " + timeout.toMillis() + " ms (blksim.engine.start-timeout)");
          }
          sleep(10);
        }
      }
      return out;
    } catch (RuntimeException e) {
      for (int i = out.size() - 1; i >= 0; i--) {
        shutdown(out.get(i));
      }
      throw e;
    }
  }

  /** Terminates {@code system} and waits (up to 30 s) until it has. */
  public static void shutdown(ActorSystem<?> system) {
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      system.log().warn("actor system {} did not terminate cleanly: {}", system.name(),
          e.toString());
    }
  }

  /**
   * Waits until the sharding coordinator knows a region on every Up member (at least one per
   * system of the list), so that {@link PinnedAllocationStrategy} sees the whole membership.
   */
  private static void awaitRegions(List<? extends ActorSystem<?>> systems, String typeName,
      Duration timeout) {
    ActorSystem<?> launcher = systems.get(0);
    org.apache.pekko.actor.ActorRef region =
        org.apache.pekko.cluster.sharding.ClusterSharding.get(Adapter.toClassic(launcher))
            .shardRegion(typeName);
    long deadline = System.nanoTime() + timeout.toNanos();
    Set<Address> up = new HashSet<>();
    Set<Address> regions = Set.of();
    while (true) {
      boolean allUp = true;
      for (ActorSystem<?> s : systems) {
        allUp &= Cluster.get(s).selfMember().status() == MemberStatus.up();
      }
      up.clear();
      for (Member m : Cluster.get(launcher).state().getMembers()) {
        if (m.status() == MemberStatus.up()) {
          up.add(m.address());
        }
      }
      if (allUp) {
        try {
          Object reply = Patterns.ask(region, ShardRegion.getCurrentRegionsInstance(),
              Duration.ofSeconds(2)).toCompletableFuture().get();
          regions = ((ShardRegion.CurrentRegions) reply).getRegions();
        } catch (ExecutionException e) {
          regions = Set.of();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new SimulationException("interrupted while waiting for the cluster", e);
        }
        if (regions.size() >= systems.size() && regions.containsAll(up)) {
          return;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new SimulationException("the cluster was not ready within " + timeout.toMillis()
            + " ms (blksim.engine.start-timeout): members up " + up + ", partition regions "
            + regions + ", systems " + systems.size());
      }
      sleep(20);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SimulationException("interrupted while waiting for the cluster", e);
    }
  }
}
