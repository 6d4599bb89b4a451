package blksim.cli;

import blksim.engine.InputException;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code blksim sweep SCENARIO --vary KEY=V1,V2,...}: runs a scenario once per combination of
 * the varied keys' values (the first {@code --vary} changes slowest) and prints one row per run
 * with the chosen figures of fio's JSON output, as a table or CSV.
 *
 * <p>Every combination is loaded (and so checked) before the first run, so a bad key or value
 * stops the sweep with exit code 2 before any time is spent; the optional output file is written
 * atomically once all runs are done.
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
        "      --vary devices.0.irqmode=none,softirq,timer --vary kernel.preempt=none,full \\",
        "      --metric iops=jobs.0.read.iops --metric 'p/io=jobs.0.ctx / jobs.0.read.total_ios'"})
final class SweepCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SCENARIO", description = "scenario file (HOCON), or a fio job file run on run's default machine")
  Path scenario;

  @Option(names = "--vary", paramLabel = "KEY=V1,V2,...", required = true,
      description = "a scenario key and the values to run it with, comma-separated (values"
          + " cannot contain commas); repeatable: all combinations run")
  List<String> vary = new ArrayList<>();

  @Option(names = "--metric", paramLabel = "[LABEL=]PATH",
      description = "a figure of fio's JSON output: a dotted path (jobs.0.read.iops) or a"
          + " quotient of two ('jobs.0.ctx / jobs.0.read.total_ios'), with an optional column"
          + " label; repeatable")
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

  /** A varied key and its values. */
  record Axis(String key, List<String> values) {}

  /** A column: its header and the JSON path it reads. */
  record Metric(String label, String path) {}

  @Override
  public Integer call() throws Exception {
    if (!format.equals("table") && !format.equals("csv")) {
      throw new InputException(null, 0, "--format", "--format must be table or csv, was '"
          + format + "'");
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
    List<Axis> axes = new ArrayList<>();
    for (String v : vary) {
      axes.add(axis(v));
    }
    List<Metric> chosen = new ArrayList<>();
    for (String m : metrics) {
      chosen.add(metric(m));
    }
    List<List<String>> combos = combinations(axes);
    // Load every combination first: a bad key or value fails before any run.
    List<Scenario> scenarios = new ArrayList<>();
    Path file = scenario;
    List<String> fixed = new ArrayList<>(sets);
    if (java.nio.file.Files.isRegularFile(scenario) && !JobFileRun.isScenario(scenario)) {
      // a fio job file alone, on run's default machine (run --help says which)
      file = JobFileRun.scenarioFor(scenario, List.of(), maps, spec.commandLine().getErr());
    } else if (!maps.isEmpty()) {
      fixed.add(RunCommand.mapOverride(scenario, maps));
    }
    for (List<String> combo : combos) {
      List<String> all = new ArrayList<>(fixed);
      all.addAll(assignments(axes, combo));
      try {
        scenarios.add(ScenarioLoader.load(file, all));
      } catch (InputException e) {
        throw relabel(e, axes, combo);
      }
    }
    Simulator.Host h = RunCommand.parseHost(host);
    List<List<Double>> rows = new ArrayList<>();
    PrintWriter err = spec.commandLine().getErr();
    try (AutoCloseable node = h == Simulator.Host.CLUSTER ? Simulator.sharedNode() : () -> { }) {
      for (int r = 0; r < scenarios.size(); r++) {
        Scenario s = scenarios.get(r);
        long t0 = System.nanoTime();
        Map<String, Object> json = Metrics.runToJson(s, h);
        if (chosen.isEmpty()) {
          chosen.addAll(defaults(json));
        }
        List<Double> row = new ArrayList<>();
        for (Metric m : chosen) {
          row.add(Metrics.evaluate(json, m.path(), "--metric", 0));
        }
        rows.add(row);
        err.printf(Locale.ROOT, "sweep: run %d of %d (%s) in %.1f s%n", r + 1, scenarios.size(),
            String.join(", ", assignments(axes, combos.get(r))), (System.nanoTime() - t0) / 1e9);
        err.flush();
      }
    }
    String rendered = format.equals("csv") ? csv(axes, combos, chosen, rows)
        : table(axes, combos, chosen, rows);
    PrintWriter out = spec.commandLine().getOut();
    out.print(rendered);
    out.flush();
    if (output != null) {
      Path abs = output.toAbsolutePath();
      Outputs.writeAll(abs.getParent(), List.of(new Outputs.File(abs.getFileName().toString(),
          rendered)));
    }
    return 0;
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

  /** The default columns: the first job's figures for the direction it moved data in. */
  static List<Metric> defaults(Map<String, Object> json) {
    String d = Metrics.evaluate(json, "jobs.0.read.total_ios", "--metric", 0) > 0 ? "read"
        : "write";
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
