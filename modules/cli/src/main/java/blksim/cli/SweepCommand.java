package blksim.cli;

import blksim.engine.InputException;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import blksim.engine.Seeds;
import blksim.engine.pekko.ClusterRunner;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code blksim sweep SCENARIO --vary KEY=V1,V2,...}: runs a scenario once per combination of
 * the varied keys' values (the first {@code --vary} changes slowest) and prints one row per run
 * with the chosen figures of fio's JSON output, as a table or CSV.
 *
 * <p>Every combination is loaded (and so checked) before the first result, so a bad key or value
 * stops the sweep with exit code 2 and nothing printed; run 1 starts as soon as its own scenario
 * is loaded, while the others load (loading takes a few seconds in a fresh JVM), and is cut off
 * if one of them fails. The optional output file is written atomically once all runs are done.
 *
 * <p>{@code --repeat N} runs every combination N times, seeded by {@link #repeatSeed}, and prints
 * per metric the mean, sample standard deviation, minimum and maximum. {@code --join} hands the
 * runs to the sweep workers of a cluster ({@link SweepDriver}); every run, here or there, is
 * {@link SweepWork#run}, so the output is the same.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true,
    description = {"Run a scenario over the values of one or more keys and print a figure table.",
        "One row per combination of the --vary values (the first --vary changes slowest), one"
            + " column per --metric. Without --metric: IOPS, usr%%, sys%%, ctx per I/O, slat and"
            + " clat averages of the first job (or group_reporting's group), for reads if it"
            + " read, else writes."},
    footer = {"", "Examples:",
        "  ./blksim sweep scenarios/nowait/brd-nowait-on.conf \\",
        "      --vary costs.brd.per-page-read=1us,4.8us,10us",
        "  ./blksim sweep scenarios/quickstart/nullblk-psync.conf \\",
        "      --vary devices.0.irqmode=none,softirq,timer \\",
        "      --vary kernel.preempt=none,full --metric iops=jobs.0.read.iops \\",
        "      --metric 'p/io=jobs.0.ctx / jobs.0.read.total_ios'",
        "  ./blksim sweep SCENARIO --vary KEY=1,2,4 --report report/"})
final class SweepCommand implements Callable<Integer> {
  @picocli.CommandLine.Mixin TlsOptions tls = new TlsOptions();

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SCENARIO", description = "scenario file (HOCON), or a fio job file run on run's default machine")
  Path scenario;

  @Option(names = "--vary", paramLabel = "KEY=V1,V2,...", required = true,
      description = "a scenario key and the values to run it with, comma-separated (values"
          + " cannot contain commas); repeatable: all combinations run")
  List<String> vary = new ArrayList<>();

  @Option(names = "--metric", paramLabel = "[LABEL=]PATH",
      description = "a figure of fio's JSON output: a dotted path (jobs.0.read.iops) or a"
          + " quotient of two ('jobs.0.ctx / jobs.0.read.total_ios' or"
          + " jobs.0.ctx/jobs.0.read.total_ios), with an optional column label; repeatable. '/'"
          + " is the only operator; '-' is part of a key (dmz_cwq_dmz-sdb), never a minus")
  List<String> metrics = new ArrayList<>();

  @Option(names = "--set", paramLabel = "KEY=VALUE",
      description = "a fixed override for every run, as in run --set (repeatable)")
  List<String> sets = new ArrayList<>();

  @Option(names = "--map", paramLabel = "PATH=TARGET",
      description = "map a path the fio job files name, for every run, as in run --map"
          + " (repeatable)")
  List<String> maps = new ArrayList<>();

  @Option(names = "--format", paramLabel = "table|csv", defaultValue = "table",
      description = "table (aligned columns, default) or csv")
  String format;

  @Option(names = "--output", paramLabel = "FILE",
      description = "also write the table (or CSV) to FILE, atomically, after the last run")
  Path output;

  @Option(names = "--host", paramLabel = "cluster|local", defaultValue = "cluster",
      description = "where partitions run (see run --help)")
  String host;

  @Option(names = "--report", paramLabel = "DIR",
      description = "write a plot (PNG and SVG) of every metric against the last varied key,"
          + " the table and CSV, and an index.html that shows them, into DIR")
  Path report;

  /** The largest resolved scenario sent to a node: below Artery's 256 KiB frame, with room. */
  static final int MAX_SPEC_BYTES = 200 * 1024;

  /** A varied key and its values. */
  record Axis(String key, List<String> values) {}

  /** A column: its header and the JSON path it reads. */
  record Metric(String label, String path) {}

  @Option(names = "--repeat", paramLabel = "N", defaultValue = "1",
      description = "run each combination N times with N seeds derived from its run seed"
          + " (the first is the run seed itself) and print each metric's mean, sample standard"
          + " deviation, minimum and maximum (columns <metric>_mean, _sd, _min, _max);"
          + " default ${DEFAULT-VALUE}")
  int repeat;

  @Option(names = "--join", paramLabel = "HOST:PORT",
      description = "farm the runs out to a cluster: this JVM joins the cluster of this seed"
          + " node (started with 'blksim node'), runs its share, and each run goes whole to one"
          + " member (repeatable); the output is the same as without --join")
  List<String> join = new ArrayList<>();

  @Option(names = "--nodes", paramLabel = "N", defaultValue = "2",
      description = "with --join: cluster members (this JVM included) to wait for before the"
          + " first run; default ${DEFAULT-VALUE}")
  int nodes;

  @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
      description = "with --join: the address this JVM binds and advertises; default"
          + " ${DEFAULT-VALUE}")
  String bind;

  @Override
  public Integer call() throws Exception {
    if (!format.equals("table") && !format.equals("csv")) {
      throw new InputException(null, 0, "--format", "--format must be table or csv, was '"
          + format + "'");
    }
    if (repeat < 1 || repeat > 10_000) {
      throw new InputException(null, 0, "--repeat", "--repeat must be in [1, 10000], was "
          + repeat);
    }
    if (!join.isEmpty() && nodes < 1) {
      throw new InputException(null, 0, "--nodes", "--nodes must be >= 1, was " + nodes);
    }
    if (output != null) {
      // Refused before the first run, not after the last.
      if (java.nio.file.Files.isDirectory(output)) {
        throw new InputException(null, 0, "--output", output + " is a directory; --output names"
            + " the file the table is written to");
      }
      Path parent = output.toAbsolutePath().getParent();
      Outputs.checkDir(parent, "--output");
    }
    ClusterRunner.Tls tlsSettings = join.isEmpty() ? null : tls.resolve();
    return sweep(tlsSettings);
  }

  /** How many times a sweep began joining a cluster (tests: not before its runs are checked). */
  static final java.util.concurrent.atomic.AtomicInteger JOINS_STARTED =
      new java.util.concurrent.atomic.AtomicInteger();

  /**
   * This JVM's start as a member of the cluster of {@code --join}, begun before the runs are
   * loaded: the cluster node starts (and joins) on a thread of its own, and the sweep worker's
   * private node on the worker's thread.
   */
  private static final class Joining implements AutoCloseable {
    final CompletableFuture<ActorSystem<Void>> system;
    final SweepWork.LocalWorker worker;

    Joining(String bind, List<String> seeds, ClusterRunner.Tls tls, boolean clusterHost) {
      JOINS_STARTED.incrementAndGet();
      worker = new SweepWork.LocalWorker(clusterHost);
      system = new CompletableFuture<>();
      Thread t = new Thread(() -> {
        try {
          system.complete(ClusterRunner.startClusterNode(bind, 0, seeds, tls));
        } catch (Throwable e) {
          system.completeExceptionally(e);
        }
      }, "blksim-sweep-join");
      t.setDaemon(true);
      t.start();
    }

    /** The joined member (its node Up), once it is. */
    ActorSystem<Void> await() throws Exception {
      try {
        return system.get();
      } catch (java.util.concurrent.ExecutionException e) {
        if (e.getCause() instanceof IllegalArgumentException iae) {
          throw new InputException(null, 0, "--join", iae.getMessage());
        }
        if (e.getCause() instanceof RuntimeException re) {
          throw re;
        }
        throw e;
      }
    }

    /** Leaves the cluster (now, or once the join completes) and stops the worker. */
    @Override
    public void close() {
      worker.close();
      if (system.isDone()) {
        if (!system.isCompletedExceptionally()) {
          ClusterRunner.shutdown(system.join());
        }
      } else {
        system.thenAccept(ClusterRunner::shutdown);
      }
    }
  }

  private Integer sweep(ClusterRunner.Tls tlsSettings) throws Exception {
    List<Axis> axes = new ArrayList<>();
    for (String v : vary) {
      axes.add(axis(v));
    }
    List<Metric> chosen = new ArrayList<>();
    for (String m : metrics) {
      chosen.add(metric(m));
    }
    List<List<String>> combos = combinations(axes);
    List<String> paths = new ArrayList<>();
    if (chosen.isEmpty()) {
      paths.addAll(SweepWork.defaultCandidates());
    } else {
      chosen.forEach(m -> paths.add(m.path()));
    }
    Simulator.Host h = RunCommand.parseHost(host);
    // Every combination (and repetition) is loaded, and so checked, before the first result: a
    // bad key or value stops the sweep with nothing printed. A local sweep starts run 1 as soon
    // as its own scenario is loaded, while the others load, and cuts it off if one of them
    // fails. With --join nothing starts before every run is loaded: a cluster node that has
    // begun to join would hold the exit (its leave) for seconds; this JVM then joins the
    // cluster, its worker's private node starts and run 1 starts on it before the join is done.
    LocalRuns local = join.isEmpty() ? new LocalRuns(h, paths) : null;
    Joining joining = null;
    try {
      java.util.concurrent.Future<SweepWork.Values>[] first = newFirst();
      List<SweepDriver.Job> jobs = load(local, first, axes, combos);
      if (local != null) {
        return sweep(joining, local, first[0], jobs, axes, chosen, combos, paths, null, null);
      }
      joining = new Joining(bind, join, tlsSettings, h == Simulator.Host.CLUSTER);
      String sweepId = "sweep" + Long.toHexString(System.nanoTime());
      // run 1's reply goes to the driver once there is one
      CompletableFuture<org.apache.pekko.actor.typed.ActorRef<SweepWork.DriverCommand>> driver =
          new CompletableFuture<>();
      joining.worker.submit(sweepId, 0, jobs.get(0).spec(), host, paths, "this JVM", null,
          reply -> driver.thenAccept(d -> d.tell(reply)));
      return sweep(joining, null, null, jobs, axes, chosen, combos, paths, sweepId, driver);
    } finally {
      if (local != null) {
        local.close();
      }
      if (joining != null) {
        joining.close();
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static java.util.concurrent.Future<SweepWork.Values>[] newFirst() {
    return new java.util.concurrent.Future[1];
  }

  /**
   * Loads (and so checks) every combination and repetition; a local sweep's run 1 is submitted
   * to {@code local} as soon as it is loaded ({@code first[0]}). With --join, also checks that
   * every resolved scenario fits in one message, and the report directory.
   */
  private List<SweepDriver.Job> load(LocalRuns local,
      java.util.concurrent.Future<SweepWork.Values>[] first, List<Axis> axes,
      List<List<String>> combos) throws java.io.IOException {
    Path file = scenario;
    List<String> fixed = new ArrayList<>(sets);
    if (java.nio.file.Files.isRegularFile(scenario) && !JobFileRun.isScenario(scenario)) {
      // a fio job file alone, on run's default machine (run --help says which)
      file = JobFileRun.scenarioFor(scenario, List.of(), maps, spec.commandLine().getErr());
    } else if (!maps.isEmpty()) {
      fixed.add(RunCommand.mapOverride(scenario, maps));
    }
    List<SweepDriver.Job> jobs = new ArrayList<>();
    for (List<String> combo : combos) {
      List<String> all = new ArrayList<>(fixed);
      all.addAll(assignments(axes, combo));
      String label = String.join(", ", assignments(axes, combo));
      try {
        Scenario s = ScenarioLoader.load(file, all);
        for (int k = 0; k < repeat; k++) {
          String text = s.spec();
          if (k > 0) {
            List<String> withSeed = new ArrayList<>(all);
            withSeed.add("blksim.seed=" + repeatSeed(s.seed(), k));
            text = ScenarioLoader.load(file, withSeed).spec();
          }
          jobs.add(new SweepDriver.Job(jobs.size(), text, repeat == 1 ? label
              : label + (label.isEmpty() ? "" : ", ") + "repeat " + (k + 1) + " of " + repeat));
          if (jobs.size() == 1) {
            SweepTrace.mark("run 1 loaded");
            if (local != null) {
              first[0] = local.submit(0, text);
            }
          }
        }
      } catch (InputException e) {
        throw relabel(e, axes, combo);
      }
    }
    SweepTrace.mark(jobs.size() + " runs loaded");
    if (report != null) {
      ReportDir.check(report, "--report");
    }
    if (!join.isEmpty()) {
      for (SweepDriver.Job j : jobs) {
        // A message over Artery's frame size would be dropped, and its run never answered.
        int bytes = j.spec().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes > MAX_SPEC_BYTES) {
          throw new InputException(null, 0, "--join", "run " + (j.index() + 1) + " ("
              + j.label() + "): its resolved scenario is " + bytes + " bytes, more than the "
              + MAX_SPEC_BYTES + " a distributed sweep sends in one message; run it without"
              + " --join");
        }
      }
    }
    return jobs;
  }

  private Integer sweep(Joining joining, LocalRuns local,
      java.util.concurrent.Future<SweepWork.Values> first, List<SweepDriver.Job> jobs,
      List<Axis> axes, List<Metric> chosen, List<List<String>> combos, List<String> paths,
      String sweepId,
      CompletableFuture<org.apache.pekko.actor.typed.ActorRef<SweepWork.DriverCommand>> driver)
      throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    List<SweepWork.Values> values = join.isEmpty()
        ? runHere(local, first, jobs, paths, !chosen.isEmpty(), err)
        : runOnCluster(joining, sweepId, driver, jobs, paths, err);
    // The columns: each value's slot in a run's figures.
    int[] slot = new int[chosen.isEmpty() ? 6 : chosen.size()];
    if (chosen.isEmpty()) {
      // fio's default columns for the direction the first run moved data in
      String d = value(values.get(0), 0) > 0 ? "read" : "write";
      chosen.addAll(defaultsFor(d));
      for (int i = 0; i < 6; i++) {
        slot[i] = 1 + (d.equals("read") ? 0 : 6) + i;
      }
    } else {
      for (int i = 0; i < slot.length; i++) {
        slot[i] = i;
      }
    }
    List<List<Double>> rows = new ArrayList<>();
    for (SweepWork.Values v : values) {
      List<Double> row = new ArrayList<>();
      for (int i : slot) {
        row.add(value(v, i));
      }
      rows.add(row);
    }
    List<Metric> columns = chosen;
    if (repeat > 1) {
      columns = statColumns(chosen);
      rows = stats(rows, repeat);
    }
    String rendered = format.equals("csv") ? csv(axes, combos, columns, rows)
        : table(axes, combos, columns, rows);
    PrintWriter out = spec.commandLine().getOut();
    out.print(rendered);
    out.flush();
    SweepTrace.mark("table printed");
    if (output != null) {
      Path abs = output.toAbsolutePath();
      Outputs.writeAll(abs.getParent(), List.of(new Outputs.File(abs.getFileName().toString(),
          rendered)));
    }
    if (report != null) {
      SweepReport.write(report, "blksim sweep " + scenario.getFileName(), axes, combos, columns,
          rows);
    }
    return 0;
  }

  /**
   * The seed of repetition {@code k} (0-based) of a combination whose run seed is {@code seed}:
   * the run seed itself for the first, so that {@code --repeat} only adds runs, then
   * {@code Seeds.forComponent(seed, "sweep.repeat." + k)} (FNV-1a of the name mixed with the
   * run seed by SplitMix64's finaliser), its sign bit cleared. The same on every JVM and node.
   */
  static long repeatSeed(long seed, int k) {
    return k == 0 ? seed : Seeds.forComponent(seed, "sweep.repeat." + k) & Long.MAX_VALUE;
  }

  /** A run's figure in {@code slot}, or the metric's error if it names nothing. */
  private static double value(SweepWork.Values v, int slot) {
    if (v.errors()[slot] != null) {
      throw new InputException("--metric", 0, "metric", v.errors()[slot]);
    }
    return v.values()[slot];
  }

  /**
   * A local sweep's runs, one after another on a thread of their own: the embedded node (for the
   * cluster host) starts there at once, while the runs load, and run 1 as soon as it is loaded.
   */
  private static final class LocalRuns implements AutoCloseable {
    private final Simulator.Host host;
    private final List<String> paths;
    private final java.util.concurrent.ExecutorService exec =
        java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
          Thread t = new Thread(r, "blksim-sweep-run");
          t.setDaemon(true);
          return t;
        });
    /** Only set on the runs' thread. */
    private volatile ActorSystem<Void> node;
    private volatile boolean busy;
    private volatile boolean closed;

    LocalRuns(Simulator.Host host, List<String> paths) {
      this.host = host;
      this.paths = List.copyOf(paths);
      if (host == Simulator.Host.CLUSTER) {
        exec.execute(() -> {
          try {
            if (closed) {
              return;
            }
            node = ClusterRunner.startEmbeddedNode();
            SweepTrace.mark("embedded node up");
          } catch (RuntimeException e) {
            // run 1 tries again and reports the failure
          }
        });
      }
    }

    /** Runs {@code spec} after the runs submitted before it. */
    java.util.concurrent.Future<SweepWork.Values> submit(int index, String spec) {
      return exec.submit(() -> {
        if (closed) {
          throw new java.util.concurrent.CancellationException();
        }
        busy = true;
        SweepTrace.mark("run " + (index + 1) + " start");
        try {
          if (host == Simulator.Host.CLUSTER && node == null) {
            node = ClusterRunner.startEmbeddedNode(); // its start failed: fails again here
          }
          return SweepWork.run(spec, host, paths, node);
        } finally {
          busy = false;
        }
      });
    }

    /** The figures of a submitted run, or its failure as it would have been thrown here. */
    static SweepWork.Values await(java.util.concurrent.Future<SweepWork.Values> f)
        throws InterruptedException {
      try {
        return f.get();
      } catch (java.util.concurrent.ExecutionException e) {
        if (e.getCause() instanceof RuntimeException re) {
          throw re;
        }
        if (e.getCause() instanceof Error er) {
          throw er;
        }
        throw new IllegalStateException(e.getCause());
      }
    }

    /**
     * Stops the thread and the node once the node's start is done (never interrupted: Pekko
     * would print the interruption); a run still in progress (after a failed load) is cut off
     * by the node's termination, or finishes on its daemon thread (local host).
     */
    @Override
    public void close() {
      closed = true;
      boolean idle = !busy;
      exec.shutdown();
      try {
        if (idle) {
          exec.awaitTermination(60, java.util.concurrent.TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      ActorSystem<Void> n = node;
      if (n != null) {
        if (idle) {
          ClusterRunner.shutdown(n);
        } else {
          n.terminate();
        }
      }
      SweepTrace.mark("embedded node stopped");
    }
  }

  /** Runs the sweep's runs one after another in this JVM; run 1 is {@code first}. */
  private static List<SweepWork.Values> runHere(LocalRuns local,
      java.util.concurrent.Future<SweepWork.Values> first, List<SweepDriver.Job> jobs,
      List<String> paths, boolean userMetrics, PrintWriter err) throws InterruptedException {
    List<SweepWork.Values> out = new ArrayList<>();
    long t0 = System.nanoTime();
    for (SweepDriver.Job j : jobs) {
      java.util.concurrent.Future<SweepWork.Values> f = j.index() == 0 ? first
          : local.submit(j.index(), j.spec());
      SweepWork.Values v = LocalRuns.await(f);
      SweepTrace.mark("run " + (j.index() + 1) + " end");
      // A metric that names nothing stops the sweep after its first run (the defaults:
      // the first, which tells reads from writes).
      for (int i = 0; out.isEmpty() && i < (userMetrics ? paths.size() : 1); i++) {
        value(v, i);
      }
      out.add(v);
      long t1 = System.nanoTime();
      err.printf(Locale.ROOT, "sweep: run %d of %d (%s) in %.1f s%n", j.index() + 1,
          jobs.size(), j.label(), (t1 - t0) / 1e9);
      err.flush();
      t0 = t1;
    }
    return out;
  }

  /**
   * Runs the sweep's runs on the cluster of {@code --join}: this JVM's worker starts the first
   * run at once, this JVM finishes joining the cluster as a member with that worker, a {@link
   * SweepDriver} hands the other runs out, and this JVM leaves the cluster at the end.
   */
  private List<SweepWork.Values> runOnCluster(Joining joining, String id,
      CompletableFuture<org.apache.pekko.actor.typed.ActorRef<SweepWork.DriverCommand>> driver,
      List<SweepDriver.Job> jobs, List<String> paths, PrintWriter err) throws Exception {
    ActorSystem<Void> sys = joining.await();
    SweepTrace.mark("joined: this node is Up");
    ClusterRunner.awaitMembers(sys, nodes, java.time.Duration.ofSeconds(60));
    SweepTrace.mark(nodes + " members Up");
    org.apache.pekko.actor.typed.ActorRef<SweepWork.WorkerCommand> mine =
        SweepWork.startWorker(sys, joining.worker);
    CompletableFuture<SweepDriver.Outcome> done = new CompletableFuture<>();
    org.apache.pekko.actor.typed.ActorRef<SweepWork.DriverCommand> d = sys.systemActorOf(
        SweepDriver.create(id, jobs, host, paths, nodes, 0, err, done), "blksim-" + id,
        Props.empty());
    // The workers known now go to the driver at once; the receptionist lists them (and any
    // later ones) some gossip rounds later.
    d.tell(SweepDriver.found(mine));
    SweepWork.identifyWorkers(sys, d);
    driver.complete(d);
    SweepDriver.Outcome o;
    try {
      o = done.get();
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw e;
    }
    SweepTrace.mark("last result in");
    for (String r : o.reruns()) {
      err.println("sweep: " + r);
    }
    if (!o.reruns().isEmpty()) {
      err.println("sweep: " + o.reruns().size() + " run(s) re-run after their node left; the"
          + " results are those of a local sweep (runs are deterministic)");
    }
    err.flush();
    joining.close();
    SweepTrace.mark("left the cluster, actor system terminated");
    return o.values();
  }

  /** {@code <label>_mean}, {@code _sd}, {@code _min}, {@code _max} for each metric. */
  static List<Metric> statColumns(List<Metric> metrics) {
    List<Metric> out = new ArrayList<>();
    for (Metric m : metrics) {
      for (String st : List.of("mean", "sd", "min", "max")) {
        out.add(new Metric(m.label() + "_" + st, m.path()));
      }
    }
    return out;
  }

  /**
   * Per group of {@code n} consecutive rows (one combination's repetitions) and per column: the
   * mean, the sample standard deviation (n - 1 in the denominator; NaN for one run), the minimum
   * and the maximum, summed in repetition order.
   */
  static List<List<Double>> stats(List<List<Double>> rows, int n) {
    List<List<Double>> out = new ArrayList<>();
    for (int g = 0; g < rows.size(); g += n) {
      List<Double> line = new ArrayList<>();
      for (int c = 0; c < rows.get(g).size(); c++) {
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        boolean nan = false;
        for (int r = g; r < g + n; r++) {
          double x = rows.get(r).get(c);
          nan |= Double.isNaN(x);
          sum += x;
          min = Math.min(min, x);
          max = Math.max(max, x);
        }
        double mean = sum / n;
        double sq = 0;
        for (int r = g; r < g + n; r++) {
          double d = rows.get(r).get(c) - mean;
          sq += d * d;
        }
        double sd = n > 1 ? Math.sqrt(sq / (n - 1)) : Double.NaN;
        if (nan) {
          mean = sd = min = max = Double.NaN;
        } else if (min == max) {
          mean = min; // equal values: no rounding residue in the mean or the deviation
          sd = n > 1 ? 0 : Double.NaN;
        }
        line.add(mean);
        line.add(sd);
        line.add(min);
        line.add(max);
      }
      out.add(line);
    }
    return out;
  }

  /** {@code key=value} for each varied key of one combination. */
  static List<String> assignments(List<Axis> axes, List<String> combo) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < axes.size(); i++) {
      out.add(axes.get(i).key() + "=" + combo.get(i));
    }
    return out;
  }

  /** An error in an override that came from a --vary value names --vary, not --set. */
  private static InputException relabel(InputException e, List<Axis> axes, List<String> combo) {
    for (String a : assignments(axes, combo)) {
      if ((ScenarioLoader.OVERRIDE_ORIGIN_PREFIX + a).equals(e.file())) {
        return new InputException("--vary " + a, e.line(), e.key(), e.rule());
      }
    }
    return e;
  }

  static Axis axis(String spec) {
    int eq = spec.indexOf('=');
    if (eq <= 0) {
      throw new InputException(null, 0, "--vary", "--vary needs KEY=V1,V2,..., was '" + spec
          + "'");
    }
    String key = spec.substring(0, eq).trim();
    List<String> values = new ArrayList<>();
    for (String v : spec.substring(eq + 1).split(",", -1)) {
      if (v.isBlank()) {
        throw new InputException(null, 0, "--vary", "--vary " + key + " has an empty value in '"
            + spec.substring(eq + 1) + "'");
      }
      values.add(v.trim());
    }
    return new Axis(key, values);
  }

  static Metric metric(String spec) {
    int eq = spec.indexOf('=');
    if (eq == 0 || eq == spec.length() - 1 || spec.isBlank()) {
      throw new InputException(null, 0, "--metric", "--metric needs [LABEL=]PATH, was '" + spec
          + "'");
    }
    return eq > 0 ? new Metric(spec.substring(0, eq).trim(), spec.substring(eq + 1).trim())
        : new Metric(spec.trim(), spec.trim());
  }

  /** All combinations, the first axis changing slowest. */
  static List<List<String>> combinations(List<Axis> axes) {
    List<List<String>> out = new ArrayList<>();
    out.add(List.of());
    for (Axis a : axes) {
      List<List<String>> next = new ArrayList<>();
      for (List<String> prefix : out) {
        for (String v : a.values()) {
          List<String> c = new ArrayList<>(prefix);
          c.add(v);
          next.add(c);
        }
      }
      out = next;
    }
    return out;
  }

  /** The default columns: the first job's figures for direction {@code d} (read or write). */
  static List<Metric> defaultsFor(String d) {
    String j = "jobs.0." + d + ".";
    return List.of(new Metric("IOPS", j + "iops"), new Metric("usr%", "jobs.0.usr_cpu"),
        new Metric("sys%", "jobs.0.sys_cpu"),
        new Metric("ctx/IO", "jobs.0.ctx / " + j + "total_ios"),
        new Metric("slat ns", j + "slat_ns.mean"), new Metric("clat ns", j + "clat_ns.mean"));
  }

  /** Significant digits for a table cell: integers as such, others with 4 significant digits. */
  static String num(double v) {
    if (Double.isNaN(v)) {
      return "-";
    }
    if (Math.abs(v) >= 1000 || v == Math.rint(v)) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    return String.format(Locale.ROOT, "%.4g", v);
  }

  static String table(List<Axis> axes, List<List<String>> combos, List<Metric> metrics,
      List<List<Double>> rows) {
    List<List<String>> cells = new ArrayList<>();
    List<String> head = new ArrayList<>();
    axes.forEach(a -> head.add(a.key()));
    metrics.forEach(m -> head.add(m.label()));
    cells.add(head);
    for (int r = 0; r < rows.size(); r++) {
      List<String> line = new ArrayList<>(combos.get(r));
      rows.get(r).forEach(v -> line.add(num(v)));
      cells.add(line);
    }
    int[] width = new int[head.size()];
    for (List<String> line : cells) {
      for (int c = 0; c < line.size(); c++) {
        width[c] = Math.max(width[c], line.get(c).length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (List<String> line : cells) {
      for (int c = 0; c < line.size(); c++) {
        if (c > 0) {
          sb.append("  ");
        }
        // Keys and values left-aligned, figures right-aligned.
        String fmt = c < axes.size() ? "%-" + width[c] + "s" : "%" + width[c] + "s";
        sb.append(String.format(Locale.ROOT, fmt, line.get(c)));
      }
      sb.append(System.lineSeparator());
    }
    return sb.toString();
  }

  static String csv(List<Axis> axes, List<List<String>> combos, List<Metric> metrics,
      List<List<Double>> rows) {
    StringBuilder sb = new StringBuilder();
    List<String> head = new ArrayList<>();
    axes.forEach(a -> head.add(quote(a.key())));
    metrics.forEach(m -> head.add(quote(m.label())));
    sb.append(String.join(",", head)).append('\n');
    for (int r = 0; r < rows.size(); r++) {
      List<String> line = new ArrayList<>();
      combos.get(r).forEach(v -> line.add(quote(v)));
      for (double v : rows.get(r)) {
        line.add(Double.isNaN(v) ? "" : v == Math.rint(v) && Math.abs(v) < 1e15
            ? String.valueOf((long) v) : String.valueOf(v));
      }
      sb.append(String.join(",", line)).append('\n');
    }
    return sb.toString();
  }

  private static String quote(String s) {
    if (s.contains(",") || s.contains("\"") || s.contains(" ")) {
      return "\"" + s.replace("\"", "\"\"") + "\"";
    }
    return s;
  }
}
