package blksim.cli;

import blksim.engine.InputException;
import blksim.workload.scenario.ScenarioLoader;
import com.typesafe.config.Config;
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
 *   { scenario = "chris-plug-flush.conf", label = "ctx/s", metric = "...", max = 3000 }
 *   { scenario = "zram-nowait-off.conf", label = "IOPS", metric = "jobs.0.read.iops",
 *     kind = prediction }
 * ]
 * </pre>
 * {@code metric} is a path into fio's JSON output, or a quotient of two paths
 * ({@code "jobs.0.ctx / jobs.0.read.total_ios"}). {@code kind} is {@code calibration} (the model was
 * fitted on it), {@code validation} (it was not) or {@code prediction} (the figure is withheld:
 * blksim's value is printed, never compared). A compared figure gives either {@code published}
 * (and a relative {@code tolerance}, default 0.15) or a bound, {@code min} and/or {@code max}
 * (see {@link Figure}).
 *
 * <p>The table has one line per figure, columns experiment, scenario, label, published,
 * simulated, ratio, tol and verdict, each separated from the next by at least two spaces. An
 * experiment with a {@code predictions.conf} ({@link PinnedPredictions}) gets its predictions
 * again in a second table, the pinned value (and its commit) next to the current one. Every
 * published.conf and predictions.conf is read and checked before the first run.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = {"Run the reference experiments and compare simulated with published figures.",
        "Prints experiment, scenario, label, published, simulated, ratio, tolerance and verdict;"
            + " exits 1 if a figure is outside its tolerance or bound. Predictions pinned in an"
            + " experiment's predictions.conf are shown in a second table, pinned next to"
            + " current."},
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

  /** An experiment's folder, its figures and its pinned predictions (null if none). */
  record Experiment(Path dir, List<Figure> figures, PinnedPredictions pinned) {
    String name() {
      return dir.getFileName().toString();
    }

    /** Reads and checks the experiment's published.conf and predictions.conf. */
    static Experiment load(Path dir) {
      List<Figure> figures = Figure.load(dir);
      return new Experiment(dir, figures, PinnedPredictions.load(dir, figures));
    }
  }

  /** One row of the table: a figure and its simulated value. */
  record Row(Figure figure, double simulated) {

    /** Whether a compared figure is out of its tolerance or bound (never for a prediction). */
    boolean failed() {
      return !figure.expected().passes(simulated);
    }

    String verdict() {
      if (figure.isPrediction()) {
        return "PREDICTION";
      }
      String pass = failed() ? "FAIL" : "PASS";
      boolean calibration = figure.kind() == Figure.Kind.CALIBRATION;
      if (figure.expected() instanceof Figure.Bound) {
        return pass + (calibration ? " (bound, calibration)" : " (bound)");
      }
      return pass + (calibration ? " (calibration)" : "");
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
      // Nothing compared is not a pass: a CI job pointed at the wrong directory must fail.
      throw new InputException(dir.toString(), 0, "--scenarios", "no reference experiment (a"
          + " folder with a published.conf) in it, so nothing was validated");
    }
    // Every input file is checked before the first run: a typo costs a second, not a run.
    List<Experiment> loaded = new ArrayList<>();
    for (Path e : chosen) {
      loaded.add(Experiment.load(e));
    }
    Simulator.Host h = RunCommand.parseHost(host);
    List<Row> rows = new ArrayList<>();
    try (AutoCloseable node = h == Simulator.Host.CLUSTER ? Simulator.sharedNode() : () -> { }) {
      for (Experiment e : loaded) {
        rows.addAll(runExperiment(e, h));
      }
      print(out, rows);
      summarise(out, rows, chosen);
      printPinned(out, rows, loaded);
      for (Path e : chosen) {
        runSweeps(e, h, out);
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return rows.stream().anyMatch(Row::failed) ? Main.EXIT_FAILED : 0;
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

  /** Runs each scenario of an experiment once and evaluates its figures. */
  static List<Row> runExperiment(Experiment e, Simulator.Host host) {
    Path pub = e.dir().resolve("published.conf");
    // Only looked up by key, never iterated: the rows keep the figures' order.
    Map<String, Map<String, Object>> cache = new HashMap<>();
    List<Row> rows = new ArrayList<>();
    for (Figure f : e.figures()) {
      Map<String, Object> json = cache.computeIfAbsent(f.scenario(),
          k -> Metrics.runToJson(ScenarioLoader.load(e.dir().resolve(k), List.of()), host));
      rows.add(new Row(f, Metrics.evaluate(json, f.metric(), pub.toString(), f.line())));
    }
    return rows;
  }

  private static String req(Config f, String key, Path file, int line) {
    if (!f.hasPath(key)) {
      throw new InputException(file.toString(), line, key, key + " is missing: each figure needs one");
    }
    return f.getString(key);
  }

  /**
   * The table: one line per figure; a prediction shows {@code (withheld)} as its published value,
   * a bound its limits, and neither has a ratio or a tolerance.
   */
  static void print(PrintWriter out, List<Row> rows) {
    TextTable t = new TextTable(List.of("experiment", "scenario", "label", "published",
        "simulated", "ratio", "tol", "verdict"), false, false, false, true, true, true, true,
        false);
    for (Row r : rows) {
      Figure f = r.figure();
      String ratio = "-";
      String tol = "-";
      if (f.expected() instanceof Figure.Point p) {
        ratio = String.format(Locale.ROOT, "%.3f", r.simulated() / p.published());
        tol = String.format(Locale.ROOT, "%.0f%%", p.tolerance() * 100);
      }
      t.add(f.experiment(), f.scenario(), f.label(), f.expected().publishedText(),
          num(r.simulated()), ratio, tol, r.verdict());
    }
    t.print(out);
    out.flush();
  }

  /**
   * One paragraph per experiment after the table: how many compared figures are within
   * tolerance (or their bound), how many are predictions, each failure spelled out, and the
   * experiment's README.md (where its known deviations are explained) when something failed.
   */
  static void summarise(PrintWriter out, List<Row> rows, List<Path> experiments) {
    for (Path e : experiments) {
      String name = e.getFileName().toString();
      List<Row> mine = rows.stream().filter(r -> r.figure().experiment().equals(name)).toList();
      long compared = mine.stream().filter(r -> !r.figure().isPrediction()).count();
      List<Row> failed = mine.stream().filter(Row::failed).toList();
      long predictions = mine.size() - compared;
      out.println();
      out.printf(Locale.ROOT, "%s: %d of %d compared figures within tolerance, %d prediction%s%n",
          name, compared - failed.size(), compared, predictions, predictions == 1 ? "" : "s");
      for (Row r : failed) {
        Figure f = r.figure();
        if (f.expected() instanceof Figure.Point p) {
          out.printf(Locale.ROOT, "  FAIL %s %s: simulated %s is %.3f of published %s"
              + " (tolerance %.0f%%)%n", f.scenario(), f.label(), num(r.simulated()),
              r.simulated() / p.published(), num(p.published()), p.tolerance() * 100);
        } else {
          out.printf(Locale.ROOT, "  FAIL %s %s: simulated %s is outside the published bound"
              + " %s%n", f.scenario(), f.label(), num(r.simulated()),
              f.expected().publishedText());
        }
      }
      Path readme = e.resolve("README.md");
      if (!failed.isEmpty() && Files.isRegularFile(readme)) {
        out.println("  what is and is not reproduced, and why: " + readme);
      }
    }
    out.flush();
  }

  /**
   * The second table, for the experiments with a predictions.conf: each prediction's pinned
   * value (with its commit) next to the current one and their ratio, or "not pinned"; then per
   * experiment how many pinned values are unchanged (exactly) and each one that moved.
   */
  static void printPinned(PrintWriter out, List<Row> rows, List<Experiment> experiments) {
    List<Experiment> pinned = experiments.stream().filter(e -> e.pinned() != null).toList();
    if (pinned.isEmpty()) {
      return;
    }
    TextTable t = new TextTable(List.of("experiment", "scenario", "label", "pinned", "current",
        "current/pinned"), false, false, false, true, true, true);
    List<String> summary = new ArrayList<>();
    for (Experiment e : pinned) {
      PinnedPredictions p = e.pinned();
      int predictions = 0;
      int unchanged = 0;
      List<String> moved = new ArrayList<>();
      for (Row r : rows) {
        Figure f = r.figure();
        if (!f.isPrediction() || !f.experiment().equals(e.name())) {
          continue;
        }
        predictions++;
        PinnedPredictions.Entry pin = p.find(f);
        if (pin == null) {
          t.add(f.experiment(), f.scenario(), f.label(), "not pinned", num(r.simulated()), "-");
          continue;
        }
        String ratio = String.format(Locale.ROOT, "%.4f", r.simulated() / pin.value());
        t.add(f.experiment(), f.scenario(), f.label(),
            num(pin.value()) + " (" + p.shortCommit() + ")", num(r.simulated()), ratio);
        if (Double.compare(r.simulated(), pin.value()) == 0) {
          unchanged++;
        } else {
          String cur = num(r.simulated());
          String was = num(pin.value());
          String movedRatio = ratio;
          if (cur.equals(was)) {
            // A move below the table's 4 significant digits: show the digits that differ.
            cur = Double.toString(r.simulated());
            was = Double.toString(pin.value());
            movedRatio = String.format(Locale.ROOT, "%.8f", r.simulated() / pin.value());
          }
          moved.add(String.format(Locale.ROOT, "  MOVED %s %s: current %s is %s of pinned %s",
              f.scenario(), f.label(), cur, movedRatio, was));
        }
      }
      summary.add(String.format(Locale.ROOT, "%s: %d of %d predictions pinned at %s (%s),"
          + " %d unchanged", e.name(), p.entries().size(), predictions, p.shortCommit(),
          e.dir().getParent().relativize(p.file()), unchanged));
      summary.addAll(moved);
    }
    out.println();
    t.print(out);
    out.println();
    summary.forEach(out::println);
    out.flush();
  }

  /** A figure as the tables print it: whole above 1000, else four significant digits. */
  static String num(double v) {
    if (Math.abs(v) >= 1000) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    return String.format(Locale.ROOT, "%.4g", v);
  }
}
