package blksim.cli;

import blksim.engine.InputException;
import blksim.workload.scenario.ScenarioLoader;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code blksim validate [EXPERIMENT...]}: runs the reference experiments (every folder under
 * {@code scenarios/} with a {@code published.conf}) and compares each published figure with the
 * simulated one.
 *
 * <p>A {@code published.conf} lists figures:
 * <pre>
 * title = "QUEUE_FLAG_NOWAIT on brd and zram"
 * source = "linux-block, 2023-..."
 * figures = [
 *   { scenario = "brd-nowait-on.conf", label = "IOPS", metric = "jobs.0.read.iops",
 *     published = 1234567, tolerance = 0.15, kind = calibration }
 *   { scenario = "zram-nowait-off.conf", label = "IOPS", metric = "jobs.0.read.iops",
 *     kind = prediction }
 * ]
 * </pre>
 * {@code metric} is a path into fio's JSON output, or a quotient of two paths
 * ({@code "jobs.0.ctx / jobs.0.read.total_ios"}). {@code kind} is {@code calibration} (the model was
 * fitted on it), {@code validation} (it was not) or {@code prediction} (the figure is withheld:
 * blksim's value is printed, never compared).
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = {"Run the reference experiments and compare simulated with published figures.",
        "Prints experiment, metric, published, simulated, ratio, tolerance and verdict; exits 1"
            + " if a figure is outside its tolerance."},
    footer = {"", "Examples:", "  ./blksim validate", "  ./blksim validate nowait"})
final class ValidateCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "0..*", paramLabel = "EXPERIMENT",
      description = "experiments to run (folder names under the scenarios directory); all if"
          + " none")
  List<String> experiments = new ArrayList<>();

  @Option(names = "--scenarios", paramLabel = "DIR",
      description = "scenarios directory (default: scenarios/ of the blksim installation)")
  Path scenarios;

  @Option(names = "--host", paramLabel = "cluster|local", defaultValue = "cluster",
      description = "where partitions run (see run --help)")
  String host;

  /** One row of the table. */
  record Row(String experiment, String scenario, String label, String metric, Double published,
      double simulated, double tolerance, String kind) {

    String verdict() {
      if (kind.equals("prediction")) {
        return "PREDICTION";
      }
      return Math.abs(simulated / published - 1) <= tolerance ? "PASS" : "FAIL";
    }
  }

  @Override
  public Integer call() throws IOException {
    Path dir = scenarios != null ? scenarios : Home.scenarios();
    if (!Files.isDirectory(dir)) {
      throw new InputException(dir.toString(), 0, "--scenarios", "scenarios directory not found");
    }
    List<Path> found = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(p -> Files.isRegularFile(p.resolve("published.conf"))).sorted()
          .forEach(found::add);
    }
    List<Path> chosen = new ArrayList<>();
    for (String e : experiments) {
      Path p = dir.resolve(e);
      if (!found.contains(p)) {
        List<String> names = new ArrayList<>();
        found.forEach(f -> names.add(f.getFileName().toString()));
        throw new InputException(null, 0, "EXPERIMENT", "no experiment '" + e + "' in " + dir
            + "; experiments: " + (names.isEmpty() ? "none yet" : String.join(", ", names)));
      }
      chosen.add(p);
    }
    if (experiments.isEmpty()) {
      chosen = found;
    }
    PrintWriter out = spec.commandLine().getOut();
    if (chosen.isEmpty()) {
      out.println("No reference experiment with a published.conf under " + dir + ".");
      out.flush();
      return 0;
    }
    Simulator.Host h = RunCommand.parseHost(host);
    List<Row> rows = new ArrayList<>();
    try (AutoCloseable node = h == Simulator.Host.CLUSTER ? Simulator.sharedNode() : () -> { }) {
      for (Path e : chosen) {
        rows.addAll(runExperiment(e, h));
      }
      print(out, rows);
      summarise(out, rows, chosen);
      for (Path e : chosen) {
        runSweeps(e, h, out);
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return rows.stream().anyMatch(r -> r.verdict().equals("FAIL")) ? Main.EXIT_FAILED : 0;
  }

  /**
   * Runs the {@code sweeps} of a published.conf: one scenario, a metric, rows that set one key
   * (through a template) and columns that each add a list of overrides; prints one table each.
   */
  static void runSweeps(Path dir, Simulator.Host host, PrintWriter out) {
    Path pub = dir.resolve("published.conf");
    Config c = ConfigFactory.parseFile(pub.toFile());
    if (!c.hasPath("sweeps")) {
      return;
    }
    for (Config sw : c.getConfigList("sweeps")) {
      int line = sw.origin().lineNumber();
      String scen = req(sw, "scenario", pub, line);
      String metric = req(sw, "metric", pub, line);
      String rowKey = req(sw, "row-key", pub, line);
      String template = sw.hasPath("row-template") ? sw.getString("row-template") : "%s";
      List<String> rowValues = new ArrayList<>();
      sw.getList("rows").forEach(v -> rowValues.add(String.valueOf(v.unwrapped())));
      List<? extends Config> cols = sw.getConfigList("columns");
      out.println();
      out.println(sw.hasPath("title") ? sw.getString("title") : metric);
      StringBuilder head = new StringBuilder(String.format("%10s",
          sw.hasPath("row-label") ? sw.getString("row-label") : rowKey));
      for (Config col : cols) {
        head.append(String.format(" %16s", col.getString("label")));
      }
      out.println(head);
      for (String rv : rowValues) {
        StringBuilder line2 = new StringBuilder(String.format("%10s", rv));
        for (Config col : cols) {
          List<String> sets = new ArrayList<>(col.getStringList("set"));
          sets.add(rowKey + "=\"" + String.format(template, rv) + "\"");
          Map<String, Object> json = Metrics.runToJson(
              ScenarioLoader.load(dir.resolve(scen), sets), host);
          line2.append(String.format(Locale.ROOT, " %16s",
              num(Metrics.evaluate(json, metric, pub.toString(), line))));
        }
        out.println(line2);
        out.flush();
      }
    }
  }

  static List<Row> runExperiment(Path dir, Simulator.Host host) {
    Path pub = dir.resolve("published.conf");
    Config c;
    try {
      c = ConfigFactory.parseFile(pub.toFile());
    } catch (ConfigException e) {
      throw new InputException(pub.toString(), e.origin() == null ? 0 : e.origin().lineNumber(),
          null, e.getMessage());
    }
    String name = dir.getFileName().toString();
    Map<String, Map<String, Object>> cache = new HashMap<>();
    List<Row> rows = new ArrayList<>();
    if (!c.hasPath("figures")) {
      throw new InputException(pub.toString(), 1, "figures", "published.conf needs a figures"
          + " list");
    }
    for (Config f : c.getConfigList("figures")) {
      int line = f.origin().lineNumber();
      String scen = req(f, "scenario", pub, line);
      String metric = req(f, "metric", pub, line);
      String kind = f.hasPath("kind") ? f.getString("kind") : "validation";
      if (!List.of("calibration", "validation", "prediction").contains(kind)) {
        throw new InputException(pub.toString(), line, "kind", "kind must be calibration,"
            + " validation or prediction, was '" + kind + "'");
      }
      Double published = null;
      double tol = 0;
      if (!kind.equals("prediction")) {
        req(f, "published", pub, line);
        published = f.getDouble("published");
        tol = f.hasPath("tolerance") ? f.getDouble("tolerance") : 0.15;
      }
      Map<String, Object> json = cache.computeIfAbsent(scen,
          k -> Metrics.runToJson(ScenarioLoader.load(dir.resolve(k), List.of()), host));
      double sim = Metrics.evaluate(json, metric, pub.toString(), line);
      rows.add(new Row(name, scen, f.hasPath("label") ? f.getString("label") : metric, metric,
          published, sim, tol, kind));
    }
    return rows;
  }

  private static String req(Config f, String key, Path file, int line) {
    if (!f.hasPath(key)) {
      throw new InputException(file.toString(), line, key, "each figure needs '" + key + "'");
    }
    return f.getString(key);
  }

  static void print(PrintWriter out, List<Row> rows) {
    String fmt = "%-12s %-34s %-14s %14s %14s %7s %6s  %s%n";
    out.printf(fmt, "experiment", "scenario", "metric", "published", "simulated", "ratio", "tol",
        "verdict");
    for (Row r : rows) {
      boolean pred = r.kind().equals("prediction");
      out.printf(Locale.ROOT, fmt, r.experiment(), r.scenario(), r.label(),
          pred ? "(withheld)" : num(r.published()), num(r.simulated()),
          pred ? "-" : String.format(Locale.ROOT, "%.3f", r.simulated() / r.published()),
          pred ? "-" : String.format(Locale.ROOT, "%.0f%%", r.tolerance() * 100),
          r.verdict() + (r.kind().equals("calibration") ? " (calibration)" : ""));
    }
    out.flush();
  }

  /**
   * One paragraph per experiment after the table: how many compared figures are within
   * tolerance, how many are predictions, each failure spelled out, and the experiment's
   * README.md (where its known deviations are explained) when something failed.
   */
  static void summarise(PrintWriter out, List<Row> rows, List<Path> experiments) {
    for (Path e : experiments) {
      String name = e.getFileName().toString();
      List<Row> mine = rows.stream().filter(r -> r.experiment().equals(name)).toList();
      long compared = mine.stream().filter(r -> !r.kind().equals("prediction")).count();
      List<Row> failed = mine.stream().filter(r -> r.verdict().equals("FAIL")).toList();
      long predictions = mine.size() - compared;
      out.println();
      out.printf(Locale.ROOT, "%s: %d of %d compared figures within tolerance, %d prediction%s%n",
          name, compared - failed.size(), compared, predictions, predictions == 1 ? "" : "s");
      for (Row r : failed) {
        out.printf(Locale.ROOT, "  FAIL %s %s: simulated %s is %.3f of published %s"
            + " (tolerance %.0f%%)%n", r.scenario(), r.label(), num(r.simulated()),
            r.simulated() / r.published(), num(r.published()), r.tolerance() * 100);
      }
      Path readme = e.resolve("README.md");
      if (!failed.isEmpty() && Files.isRegularFile(readme)) {
        out.println("  what is and is not reproduced, and why: " + readme);
      }
    }
    out.flush();
  }

  private static String num(double v) {
    if (Math.abs(v) >= 1000) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    return String.format(Locale.ROOT, "%.4g", v);
  }
}
