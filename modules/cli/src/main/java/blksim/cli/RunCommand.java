package blksim.cli;

import blksim.engine.InputException;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.pekko.ClusterRunner;
import blksim.report.fio.FioPreamble;
import blksim.report.fio.FioTextReporter;
import blksim.workload.fio.stats.RunResult;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.pekko.actor.typed.ActorSystem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code blksim run SCENARIO}: simulates a scenario and prints fio's output.
 *
 * <pre>
 * ./blksim run scenarios/quickstart/nullblk-psync.conf --output-format=json --output out/
 * </pre>
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = {"Simulate a scenario (a machine, its devices, filesystems, fio job files,"
        + " fs_mark command lines and shell commands such as 'time umount /mnt/test') and print"
        + " fio's output for it (and fs_mark's, and each command's).", "",
        "Results are reproducible to the byte: the same scenario and seed give the same output"
            + " whatever the partitioning."},
    footer = {"", "Examples:",
        "  ./blksim run scenarios/quickstart/nullblk-psync.conf",
        "  ./blksim run scenarios/quickstart/nullblk-psync.conf \\",
        "      --set devices.0.irqmode=none",
        "  ./blksim run scenarios/nowait/brd-nowait-off.conf --threads \\",
        "      --timehist 0@100ms..100.02ms",
        "  ./blksim run SCENARIO --output-format=json --output results/ --partitions=node",
        "  ./blksim run myjob.fio            (a fio job file alone: default machine)",
        "  ./blksim run --name=rr --filename=/dev/nvme0n1 --rw=randread --bs=4k \\",
        "      --ioengine=io_uring --iodepth=32 --direct=1 --runtime=1s   (fio's command line)",
        "  ./blksim run myjob.fio --blktrace trace/   (then trace/nullb0.blkparse.txt)",
        "  ./blksim run SCENARIO --report report/   (then open report/index.html)",
        "  ./blksim run SCENARIO --perfetto run.json --perfetto-window 100ms..101ms"})
final class RunCommand implements Callable<Integer> {
  @picocli.CommandLine.Mixin TlsOptions tls = new TlsOptions();

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO|JOBFILE", description = "scenario file (HOCON"
      + " with a blksim object), or a fio job file alone, which runs on the default machine: 32"
      + " CPUs (2 sockets x 8 cores x SMT), 16 GiB; /dev/nullbN a null_blk, /dev/ramN a brd,"
      + " /dev/zramN a zram, other /dev/NAME an SSD, directory= an XFS-like filesystem on an SSD"
      + " mounted at /, where a job with no filename= or directory= gets fio's"
      + " jobname.jobnum.filenum files; or none, with fio's job options on the command line"
      + " as fio takes them (--name=JOB --rw=randread --bs=4k ...). fio's job options given"
      + " with a job file are its defaults, as fio takes them (run JOB.fio --runtime=5s: the"
      + " file's [global] and jobs override them; each --name=JOB a job run before the file's)")
  Path scenario;

  /**
   * fio's job options on the command line: a job file of their own ({@link FioCommandLine}) when
   * no file is given, the job file's defaults ({@link #jobFileOptions}) with one.
   */
  @picocli.CommandLine.Unmatched List<String> fioArgs = new ArrayList<>();

  @Option(names = "--output-format", paramLabel = "FORMAT[,FORMAT...]", defaultValue = "normal",
      description = "fio's output formats: normal (text), json, json+ (json with the clat"
          + " histogram bins), terse (also minimal, csv: terse version 3), or several joined by"
          + " commas as fio takes them (normal,json); default ${DEFAULT-VALUE}")
  String format;

  @Option(names = "--section", paramLabel = "NAME",
      description = "run only this [section] of the fio job files, as fio's --section"
          + " ([global] sections always apply; repeatable; sets blksim.fio.sections)")
  List<String> sections = new ArrayList<>();

  @Option(names = "--map", paramLabel = "PATH=TARGET",
      description = "map a path the fio job files name (repeatable; adds to blksim.fio.map):"
          + " /dev/sdb=nullb0 runs the job's /dev/sdb on the scenario's nullb0, /mnt/test=/data"
          + " moves its files; for a job file alone /dev/sdb=TYPE (null_blk, brd, zram, ssd,"
          + " disk, zoned-disk) chooses the default device's type")
  List<String> maps = new ArrayList<>();

  @Option(names = "--parse-only",
      description = "parse the scenario and its fio job files, report any error, run nothing"
          + " (fio's --parse-only)")
  boolean parseOnly;

  @Option(names = "--output", paramLabel = "DIR|FILE",
      description = "a DIR: also write fio.json, fio.txt and the resolved scenario.conf into it"
          + " (atomically); fio's log files (write_lat_log etc.) go there too, else into the"
          + " current directory as fio writes them. A FILE (an existing file, or a new name"
          + " ending in .json, .txt, .log, .out, .csv or .terse): write what would go to stdout"
          + " into it instead, as fio's --output does")
  Path output;

  @Option(names = "--partitions", paramLabel = "auto|one|node|llc|cpu|N",
      description = "partitioning, the partitions run in parallel (overrides the scenario's"
          + " blksim.partitions, whose default is auto: 2 partitions for a machine of 256 CPUs"
          + " or more where the scenario allows it, else one; results never depend on it)")
  String partitions;

  @Option(names = "--check-determinism",
      description = "run the scenario twice, in one partition and with its partitioning"
          + " (--partitions or blksim.partitions; with --join, over the JVMs), and report the"
          + " first difference of the JSON results (wall-clock fields aside); exit 0 if they"
          + " are identical, 1 if not")
  boolean checkDeterminism;

  @Option(names = "--seed", paramLabel = "N",
      description = "run seed (overrides the scenario's blksim.seed, whose default is 1; a job"
          + " file alone runs with 1)")
  Long seed;

  @Option(names = "--set", paramLabel = "KEY=VALUE",
      description = "override any scenario key, HOCON path syntax; 'blksim.' may be left out"
          + " (repeatable), e.g. --set devices.0.completion-nsec=20us")
  List<String> sets = new ArrayList<>();

  @Option(names = "--wq-monitor", paramLabel = "INTERVAL",
      description = "print wq_monitor's table (total, infl, CPUtime, CPUitsv, CMW/RPR, mayday,"
          + " rescued) every INTERVAL of simulated time, e.g. 1s or 100ms, and a wq_dump summary"
          + " of pools and pods at the end; both also go into the JSON")
  String wqMonitor;

  @Option(names = "--threads",
      description = "after fio's text, print every simulated thread's CPU time, context switches"
          + " and run-queue wait, grouped by name (fio's cpu line shows only its own threads;"
          + " this shows io-wq workers and kworkers too); the JSON always has them under"
          + " blksim.threads")
  boolean threads;

  @Option(names = "--timehist", paramLabel = "CPUS[@FROM..TO]",
      description = "record every context switch of these CPUs (a list such as 0-3,8), in"
          + " simulated time FROM..TO if given (e.g. 0@100ms..100.2ms), and print them with"
          + " perf sched timehist's columns after fio's text; the JSON gets sched_timehist")
  String timehist;

  @Option(names = "--blktrace", paramLabel = "DIR",
      description = "record what blktrace would of every device: per-CPU binary files"
          + " DIR/<dev>.blktrace.<cpu> (struct blk_io_trace, as blkparse and read_iolog read"
          + " them) and blkparse's default text with its summary, DIR/<dev>.blkparse.txt (Q,"
          + " G, P, U, I, M, F, D, C, and A/X through device-mapper); recording changes nothing"
          + " in the results")
  Path blktrace;

  @Option(names = "--report", paramLabel = "DIR",
      description = "write plots (PNG and SVG: latency percentiles and histogram, IOPS and CPU"
          + " utilisation over simulated time, a per-CPU utilisation heatmap) with an index.html"
          + " that shows them, and the JSON and text output, into DIR; the samples are taken"
          + " every trace.sample-interval (default 1/200 of the run, widened to 20 I/Os each)")
  Path report;

  @Option(names = "--perfetto", paramLabel = "FILE",
      description = "write the run as a trace ui.perfetto.dev opens (Chrome JSON trace events):"
          + " a track per CPU with the tasks' run slices and idle, one with its interrupts, and"
          + " every device's bios from queueing to completion (recorded through --blktrace, into"
          + " a temporary directory unless given); the same bytes in every partitioning")
  Path perfetto;

  @Option(names = "--perfetto-window", paramLabel = "FROM..TO",
      description = "with --perfetto: only this stretch of simulated time, e.g. 100ms..101ms"
          + " (a long run's whole trace is large: a CPU keeps at most 1,000,000 switches)")
  String perfettoWindow;

  @Option(names = "--join", paramLabel = "HOST:PORT",
      description = "run on a multi-JVM cluster: this JVM joins the cluster of this seed node"
          + " (started with 'blksim node') and partitions spread over all members (repeatable)")
  List<String> join = new ArrayList<>();

  @Option(names = "--nodes", paramLabel = "N", defaultValue = "2",
      description = "with --join: cluster members (this JVM included) to wait for before the run"
          + " starts; default ${DEFAULT-VALUE}")
  int nodes;

  @Option(names = "--host", paramLabel = "cluster|local", defaultValue = "cluster",
      description = "where partitions run: cluster (Pekko Cluster Sharding, embedded single-node"
          + " cluster; default) or local (plain threads, for debugging)")
  String host;

  @Override
  public Integer call() throws IOException {
    if (scenario != null && !fioArgs.isEmpty()) {
      // fio's program options a user adds to a job file (fio --minimal --eta=never JOB.fio):
      // --minimal is terse output, the --eta ones change only fio's progress display.
      List<String> rest = new ArrayList<>();
      for (String a : fioArgs) {
        if (a.equals("--minimal")) {
          if (format.equals("normal")) {
            format = "terse";
          }
        } else if (!FioCommandLine.programOption(a)) {
          rest.add(a);
        } else {
          FioCommandLine.checkTerseVersion(a);
        }
      }
      fioArgs = rest;
    }
    if (scenario != null && !fioArgs.isEmpty()) {
      String spaced = spacedFioOption();
      if (spaced != null && !java.nio.file.Files.exists(scenario)) {
        // fio's "--bs 4k": picocli took the value for the SCENARIO|JOBFILE.
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "fio command line: "
            + spaced + " " + scenario + ": blksim reads fio's options only as --opt=value (write "
            + spaced + "=" + scenario + "); '" + scenario + "' was taken for the"
            + " SCENARIO|JOBFILE");
      }
      if (!java.nio.file.Files.isRegularFile(scenario) || JobFileRun.isScenario(scenario)) {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "Unknown option: '"
            + fioArgs.get(0) + "' (fio's job options go with a fio JOBFILE, whose defaults they"
            + " set as fio's do, or alone as a job of their own; a scenario's jobs are in its"
            + " job files)");
      }
      // fio --runtime=5s JOB.fio: the options are the job file's defaults (the loader's
      // blksim.fio.command-line, fio's parse_cmd_line() before parse_jobs_ini()).
      jobFileOptions = List.copyOf(fioArgs);
    }
    if (scenario != null && !jobFileOptions.isEmpty()) {
      try {
        return runFile();
      } catch (InputException e) {
        // an error about a line of the command line's text names the option typed
        throw blksim.workload.fio.FioCommandLineText.of(jobFileOptions).restate(e);
      }
    }
    if (scenario != null) {
      return runFile();
    }
    if (fioArgs.isEmpty()) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          "Missing required parameter: 'SCENARIO|JOBFILE' (or fio's job options: --name=JOB"
          + " --rw=... --bs=...)");
    }
    FioCommandLine cmd = FioCommandLine.parse(fioArgs);
    if (cmd.minimal() && format.equals("normal")) {
      format = "terse"; // fio's --minimal
    }
    try {
      scenario = cmd.write();
      commandLine = true;
      return runFile();
    } catch (InputException e) {
      throw cmd.translate(e);
    } finally {
      cmd.delete();
    }
  }

  /** The job file was written from fio's options on the command line. */
  private boolean commandLine;

  /** fio's job options given with a JOBFILE (its defaults, as fio takes them), else empty. */
  private List<String> jobFileOptions = List.of();

  /**
   * The fio option given as {@code --opt value} just before the argument picocli took for the
   * SCENARIO|JOBFILE, or null: fio accepts that form, blksim reads only {@code --opt=value}.
   */
  private String spacedFioOption() {
    List<String> args = spec.commandLine().getParseResult().originalArgs();
    int i = args.indexOf(scenario.toString());
    if (i <= 0) {
      return null;
    }
    String prev = args.get(i - 1);
    return prev.startsWith("--") && !prev.contains("=") && fioArgs.contains(prev) ? prev : null;
  }

  private Integer runFile() throws IOException {
    OutputFormats formats = OutputFormats.parse(format);
    Simulator.Host h = parseHost(host);
    // fio's --output FILE, or blksim's --output DIR
    Path outputFile = output != null && Outputs.isFile(output) ? output : null;
    Path outputDir = outputFile == null ? output : null;
    if (outputFile != null) {
      Outputs.checkFile(outputFile, "--output");
    } else if (outputDir != null) {
      Outputs.checkDir(outputDir, "--output");
    }
    List<String> overrides = new ArrayList<>(sets);
    // Overrides made from an option: an error in one names the option the user typed.
    java.util.Map<String, String> optionOf = new java.util.HashMap<>();
    if (seed != null) {
      overrides.add("blksim.seed=" + seed);
    }
    if (partitions != null) {
      overrides.add("blksim.partitions=\"" + partitions + "\"");
      optionOf.put(overrides.get(overrides.size() - 1), "--partitions");
    }
    if (wqMonitor != null) {
      overrides.add("blksim.kernel.wq-monitor-interval=" + wqMonitor);
      optionOf.put(overrides.get(overrides.size() - 1), "--wq-monitor");
    }
    if (timehist != null) {
      for (String o : timehistOverrides(timehist)) {
        overrides.add(o);
        optionOf.put(o, "--timehist");
      }
    }
    if (!sections.isEmpty()) {
      overrides.add(sectionsOverride(sections));
      optionOf.put(overrides.get(overrides.size() - 1), "--section");
    }
    if (blktrace != null) {
      overrides.add(BlktraceFiles.override(blktrace));
    }
    Path file = scenario;
    if (Files.isRegularFile(scenario) && !JobFileRun.isScenario(scenario)) {
      file = JobFileRun.scenarioFor(scenario, sections, maps, spec.commandLine().getErr(),
          commandLine ? "fio's options on the command line are" : null, jobFileOptions);
    } else if (!maps.isEmpty()) {
      overrides.add(mapOverride(scenario, maps));
      optionOf.put(overrides.get(overrides.size() - 1), "--map");
    }
    if (!jobFileOptions.isEmpty()) {
      overrides.add(listOverride("blksim.fio.command-line", jobFileOptions));
    }
    Scenario s;
    SweepTrace.mark("run: loading " + file);
    try {
      s = ScenarioLoader.load(file, overrides);
    } catch (InputException e) {
      throw windowError(asOption(e, optionOf), e);
    }
    SweepTrace.mark("run: scenario loaded");
    boolean reload = false;
    boolean reportChoseInterval = false;
    if (report != null) {
      ReportDir.check(report, "--report");
      if (blksim.workload.scenario.ScenarioModelFactory.sampleIntervalNs(s) == 0) {
        long end = new blksim.workload.scenario.ScenarioModelFactory().build(s).expectedEndNs();
        overrides.add("blksim.trace.sample-interval=" + ReportDir.sampleIntervalNs(end) + "ns");
        reload = true;
        reportChoseInterval = true;
      }
    }
    Path perfettoBlktrace = blktrace;
    if (perfettoWindow != null && perfetto == null) {
      throw new InputException(null, 0, "--perfetto-window", "needs --perfetto FILE");
    }
    if (perfetto != null) {
      if (timehist != null) {
        throw new InputException(null, 0, "--perfetto", "cannot be combined with --timehist"
            + " (--perfetto records every CPU's switches through the same hook)");
      }
      PerfettoTrace.check(perfetto);
      for (String o : PerfettoTrace.overrides(s.topology().cpuCount(), perfettoWindow)) {
        overrides.add(o);
        optionOf.put(o, "--perfetto-window");
      }
      if (blktrace == null) {
        perfettoBlktrace = Files.createTempDirectory("blksim-perfetto");
        overrides.add(BlktraceFiles.override(perfettoBlktrace));
      }
      reload = true;
    }
    if (reload) {
      try {
        s = ScenarioLoader.load(file, overrides);
      } catch (InputException e) {
        throw windowError(asOption(e, optionOf), e);
      }
    }
    if (parseOnly) {
      return 0; // fio --parse-only: the job files parsed, nothing runs, nothing is printed
    }
    Partitioning p = Partitioning.parse(s.partitions());
    if (checkDeterminism && join.isEmpty()) {
      return checkDeterminism(s, p, h);
    }
    Path logBase = outputDir != null ? outputDir : Path.of("");
    FioLogFiles.check(s.jobs(), logBase, outputDir);
    if (perfettoBlktrace != null) {
      BlktraceFiles.prepare(perfettoBlktrace, s);
    }
    blksim.workload.replay.ReplayProgress.reset();
    // The expected end takes a model build (a few hundred ms with thousands of CPUs): only for a
    // terminal, where the progress line shows it.
    Scenario loaded = s;
    ProgressListener progress = Progress.forTerminal(
        () -> new blksim.workload.scenario.ScenarioModelFactory().build(loaded).expectedEndNs());
    Simulator.Outcome o;
    AutoCloseable node = () -> { };
    List<String> clusterNodes = new ArrayList<>();
    try {
      if (!join.isEmpty()) {
        if (h != Simulator.Host.CLUSTER) {
          throw new InputException(null, 0, "--join", "a multi-JVM run needs --host=cluster");
        }
        if (nodes < 1) {
          throw new InputException(null, 0, "--nodes", "must be >= 1, was " + nodes);
        }
        ActorSystem<Void> sys;
        // Pekko's own WARN lines while the join is tried (timestamped "Couldn't join seed
        // nodes" and association failures) are off stderr: blksim's one line says why it failed.
        org.slf4j.Logger pekkoLog = org.slf4j.LoggerFactory.getLogger("org.apache.pekko");
        ch.qos.logback.classic.Level before = null;
        if (pekkoLog instanceof ch.qos.logback.classic.Logger l) {
          before = l.getLevel();
          l.setLevel(ch.qos.logback.classic.Level.OFF);
        }
        try {
          sys = ClusterRunner.startClusterNode("127.0.0.1", 0, join, tls.resolve());
        } catch (IllegalArgumentException e) {
          throw new InputException(null, 0, "--join", e.getMessage());
        } catch (blksim.engine.SimulationException e) {
          // the address the user gave reaches no cluster that takes this node: bad input
          throw new InputException(null, 0, "--join " + String.join(",", join), e.getMessage());
        } finally {
          if (pekkoLog instanceof ch.qos.logback.classic.Logger l) {
            l.setLevel(before);
          }
        }
        node = Simulator.useNode(sys);
        ClusterRunner.awaitMembers(sys, nodes, java.time.Duration.ofSeconds(60));
        for (org.apache.pekko.cluster.Member m : org.apache.pekko.cluster.typed.Cluster.get(sys)
            .state().getMembers()) {
          clusterNodes.add(m.address().toString());
        }
        java.util.Collections.sort(clusterNodes);
      }
      if (checkDeterminism) {
        return checkDeterminism(s, p, h); // over the joined JVMs (the local case returned above)
      }
      o = Simulator.runFull(s, p, h, progress);
    } finally {
      if (progress instanceof Progress pr) {
        pr.close();
      }
      try {
        node.close();
      } catch (Exception e) {
        spec.commandLine().getErr().println("blksim: leaving the cluster: " + e);
      }
    }
    RunResult r = o.fio();
    SweepTrace.mark("run: results read");
    o.warnings().forEach(spec.commandLine().getErr()::println);
    FioTextReporter.errorLines(r).forEach(spec.commandLine().getErr()::println); // io_u errors
    // --wq-monitor, or a scenario that samples its workqueues (kernel.wq-monitor-interval)
    boolean wq = wqMonitor != null || !o.wqSamples().isEmpty();
    // Each form only where it is printed or written (with a job per CPU on thousands of CPUs,
    // either takes seconds).
    boolean kept = outputDir != null || report != null;
    String json = "";
    if (kept || formats.json() || formats.jsonPlus()) {
      String fioJson = Metrics.json(o, formats.jsonPlus());
      json = wq ? WqReport.addToJson(fioJson, o) : fioJson;
      if (timehist != null) {
        json = TimehistReport.addToJson(json, o);
      }
      if (!clusterNodes.isEmpty()) {
        json = withClusterNodes(json, clusterNodes);
      }
    }
    // fio's lines before the run, then the blank line its run statistics start with
    String preRun = s.jobs().isEmpty() ? "" : FioPreamble.render(s.jobs(), s.seed());
    String normal = !kept && !formats.normal() ? "" : (s.jobs().isEmpty() ? "" : "\n")
        + (o.fsMark().isEmpty() ? "" : FsMarkOutput.text(o.fsMark()))
        + FioTextReporter.render(r)
        + (ReplayOutput.any(r) ? ReplayOutput.text(r) : "")
        + (o.shell() != null ? ShellOutput.text(o.shell()) : "")
        + (o.dmz().isEmpty() ? "" : "\n" + String.join("\n", o.dmz()))
        + (o.mm() != null ? MmText.text(o.mm()) : "")
        + (wq ? WqReport.text(o) : "")
        + (threads ? ThreadReport.text(r) : "")
        + (timehist != null ? TimehistReport.text(o) : "");
    if (ReplayOutput.any(r)) {
      ReplayOutput.notices(r, spec.commandLine().getErr());
    }
    String text = formats.compose(preRun, normal, json, r);
    if (outputFile != null) {
      Outputs.writeFile(outputFile, text);
    } else if (outputDir != null) {
      Outputs.writeAll(outputDir, List.of(
          new Outputs.File("fio.json", json),
          new Outputs.File("fio.txt", preRun + normal),
          new Outputs.File("scenario.conf", s.spec())));
    }
    if (report != null) {
      ReportDir.writeRun(report, "blksim run " + scenario.getFileName(), o, json,
          preRun + normal, reportChoseInterval);
      if (!formats.json() && !formats.jsonPlus()) {
        spec.commandLine().getErr().println("blksim: wrote the report into " + report
            + " (open " + report.resolve("index.html") + ")");
      }
    }
    if (perfetto != null) {
      long n = PerfettoTrace.write(perfetto, s, o, perfettoBlktrace, s.timehist().fromNs(),
          s.timehist().toNs(), r.engine().simulatedTimeNs());
      if (blktrace == null) {
        deleteTree(perfettoBlktrace);
      }
      if (!formats.json() && !formats.jsonPlus()) {
        spec.commandLine().getErr().println("blksim: wrote " + n + " trace events into "
            + perfetto + " (open it in ui.perfetto.dev)");
      }
    }
    List<Path> logs = FioLogFiles.write(s.jobs(), r, logBase);
    if (!logs.isEmpty() && !formats.json() && !formats.jsonPlus()) {
      spec.commandLine().getErr().println("blksim: wrote " + logs.size() + " fio log file(s): "
          + logs.get(0) + (logs.size() > 1 ? " ..." : ""));
    }
    if (blktrace != null) {
      int n = BlktraceFiles.writeText(blktrace, s);
      if (!formats.json() && !formats.jsonPlus()) {
        spec.commandLine().getErr().println("blksim: wrote the blktrace of " + n + " device(s)"
            + " into " + blktrace);
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(outputFile != null ? "" : text);
    out.flush();
    return 0;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** {@code --map} entries after the scenario's own {@code blksim.fio.map}, as an override. */
  static String mapOverride(Path scenario, List<String> maps) {
    List<String> all = new ArrayList<>();
    try {
      com.typesafe.config.Config c = com.typesafe.config.ConfigFactory.parseFile(
          scenario.toFile());
      if (c.hasPath("blksim.fio.map")) {
        all.addAll(c.getStringList("blksim.fio.map"));
      }
    } catch (com.typesafe.config.ConfigException e) {
      // the loader reports what is wrong with the scenario
    }
    all.addAll(maps);
    return listOverride("blksim.fio.map", all);
  }

  /** {@code key=[...]}: a list of strings as an override, quoted as HOCON renders it. */
  static String listOverride(String key, List<String> values) {
    return key + "=" + com.typesafe.config.ConfigValueFactory.fromIterable(values)
        .render(com.typesafe.config.ConfigRenderOptions.concise());
  }

  /** {@code --section NAME ...} as the {@code blksim.fio.sections} override. */
  static String sectionsOverride(List<String> names) {
    for (String n : names) {
      if (n.equals("global")) {
        throw new InputException(null, 0, "--section", "can't use global as only section (was '"
            + n + "'): [global] sections always apply");
      }
    }
    return listOverride("blksim.fio.sections", names);
  }

  /** {@code --timehist CPUS[@FROM..TO]} as scenario overrides (validated by the loader). */
  static List<String> timehistOverrides(String spec) {
    String cpus = spec;
    List<String> o = new ArrayList<>();
    int at = spec.indexOf('@');
    if (at >= 0) {
      cpus = spec.substring(0, at);
      String[] w = spec.substring(at + 1).split("\\.\\.", -1);
      if (w.length != 2 || w[0].isBlank() || w[1].isBlank()) {
        throw new InputException(null, 0, "--timehist", "the window must be FROM..TO, such as"
            + " 100ms..101ms, was '" + spec.substring(at + 1) + "'");
      }
      o.add("blksim.trace.timehist-from=" + w[0].trim());
      o.add("blksim.trace.timehist-to=" + w[1].trim());
    }
    if (cpus.isBlank()) {
      throw new InputException(null, 0, "--timehist", "name the CPUs to trace, such as 0 or 0-3,"
          + " was '" + spec + "'");
    }
    o.add("blksim.trace.timehist-cpus=\"" + cpus.trim() + "\"");
    return o;
  }

  /**
   * {@code --check-determinism}: the scenario in one partition and with {@code p}, their JSON
   * compared line by line with the wall-clock and partitioning fields removed; the first
   * difference is printed with its line in both.
   */
  private int checkDeterminism(Scenario s, Partitioning p, Simulator.Host h) {
    PrintWriter out = spec.commandLine().getOut();
    boolean groups = s.localityGroups() > 1;
    if (p.equals(Partitioning.ONE) && !groups) {
      throw new InputException(null, 0, "--check-determinism", "compares one partition with"
          + " another partitioning: give --partitions (node, llc, cpu or N), or"
          + " --set locality-groups=N to compare locality groups with none");
    }
    // The reference is one partition without locality groups, so groups are checked too.
    Scenario plain = groups ? ScenarioLoader.withLocalityGroups(s, 1) : s;
    Simulator.Outcome o1 = Simulator.runFull(plain, Partitioning.ONE, h, ProgressListener.NONE);
    String one = Metrics.withWorkqueues(Metrics.json(o1), o1);
    Simulator.Outcome o2 = Simulator.runFull(s, p, h, ProgressListener.NONE);
    String other = Metrics.withWorkqueues(Metrics.json(o2), o2);
    String otherName = p.equals(Partitioning.ONE)
        ? "partitions=one with locality-groups=" + s.localityGroups() : "partitions=" + p;
    String diff = firstDifference(one, other, "partitions=one", otherName);
    if (diff != null) {
      out.println(diff);
      out.flush();
      return Main.EXIT_FAILED;
    }
    out.println("deterministic: partitions=one and " + otherName + " give the same JSON ("
        + one.split("\n").length + " lines; wall-clock and partitioning fields aside)");
    out.flush();
    return 0;
  }

  /** The first differing line of two JSON texts (fields that may differ removed), or null. */
  static String firstDifference(String jsonA, String jsonB, String nameA, String nameB) {
    String[] a = comparable(jsonA).split("\n");
    String[] b = comparable(jsonB).split("\n");
    for (int i = 0; i < Math.max(a.length, b.length); i++) {
      String x = i < a.length ? a[i] : "(end)";
      String y = i < b.length ? b[i] : "(end)";
      if (!x.equals(y)) {
        return "NOT deterministic: the JSON differs at line " + (i + 1) + ":\n  " + nameA + ": "
            + x.strip() + "\n  " + nameB + ": " + y.strip();
      }
    }
    return null;
  }

  /**
   * {@code blksim.cluster.nodes}: the members of the cluster a {@code --join} run was spread over
   * (their addresses, sorted). Like the wall-clock fields, not part of the result that must be
   * identical in every partitioning ({@link #comparable} drops it).
   */
  static String withClusterNodes(String json, List<String> nodes) {
    int at = json.indexOf("\"blksim\" : {");
    if (at < 0) {
      return json;
    }
    int brace = json.indexOf('{', at) + 1;
    StringBuilder b = new StringBuilder("\n    \"cluster\" : {\n      \"nodes\" : [ ");
    for (int i = 0; i < nodes.size(); i++) {
      b.append(i == 0 ? "" : ", ").append('"').append(nodes.get(i)).append('"');
    }
    b.append(" ]\n    },");
    return json.substring(0, brace) + b + json.substring(brace);
  }

  /** The JSON without the fields that may differ between runs or partitionings. */
  private static String comparable(String json) {
    StringBuilder b = new StringBuilder();
    for (String line : json.split("\n")) {
      String t = line.strip();
      if (t.startsWith("\"timestamp") || t.startsWith("\"time\"") || t.startsWith("\"wall_time")
          || t.startsWith("\"events_per_wall") || t.startsWith("\"partitions\"")
          || t.startsWith("\"windows\"") || t.startsWith("\"coupling_factor\"")
          || t.startsWith("\"nodes\"") || t.startsWith("\"cluster\"")) {
        continue;
      }
      b.append(line).append('\n');
    }
    return b.toString();
  }

  /**
   * An error in an override that an option made ({@code --partitions}, {@code --wq-monitor},
   * {@code --timehist}) rephrased to name that option, not the scenario key behind it.
   */
  static InputException asOption(InputException e, java.util.Map<String, String> optionOf) {
    if (e.file() == null || !e.file().startsWith(ScenarioLoader.OVERRIDE_ORIGIN_PREFIX)) {
      return e;
    }
    String option = optionOf.get(e.file().substring(
        ScenarioLoader.OVERRIDE_ORIGIN_PREFIX.length()));
    if (option == null) {
      return e;
    }
    String rule = e.rule();
    if (e.key() != null) {
      String k = e.key().startsWith("blksim.") ? e.key() : "blksim." + e.key();
      rule = rule.replace(k + " ", "").replace(e.key() + " ", "");
    }
    return new InputException(null, 0, option, rule);
  }

  /**
   * A window of {@code --timehist} or {@code --perfetto-window} that ends before it starts, said
   * with the window the user typed ({@code asOption} left the loader's rule, which names {@code
   * trace.timehist-from}); any other error as it is.
   */
  private InputException windowError(InputException asOption, InputException original) {
    if (asOption == original || original.key() == null
        || !original.key().endsWith("trace.timehist-to")
        || !original.rule().startsWith("must be after")) {
      return asOption;
    }
    String typed = "--timehist".equals(asOption.key()) ? timehist
        : "--perfetto-window".equals(asOption.key()) ? perfettoWindow : null;
    String[] w = typed == null ? new String[0]
        : typed.substring(typed.indexOf('@') + 1).split("\\.\\.", -1);
    if (w.length != 2) {
      return asOption;
    }
    return new InputException(null, 0, asOption.key() + " " + typed, "the end (" + w[1].trim()
        + ") must be after the start (" + w[0].trim() + "), or 0 for the end of the run");
  }

  static Simulator.Host parseHost(String host) {
    switch (host) {
      case "cluster":
        return Simulator.Host.CLUSTER;
      case "local":
        return Simulator.Host.LOCAL;
      default:
        throw new InputException(null, 0, "--host", "must be cluster or local, was '" + host
            + "'");
    }
  }
}
