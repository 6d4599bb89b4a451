package blksim.cli;

import blksim.engine.InputException;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * One figure of an experiment's {@code published.conf}: the scenario that produces it, its label,
 * the metric (a path into fio's JSON output, or a quotient of two), how the model relates to it
 * ({@link Kind}) and what the simulated value is held to ({@link Expected}).
 *
 * <p>A figure gives exactly one of: a published value ({@code published}, with an optional
 * {@code tolerance}, default 0.15), a bound ({@code min} and/or {@code max}, for a published
 * statement such as "under 3,000 context switches per second"), or nothing at all when its kind
 * is {@code prediction} (the figure was withheld).
 *
 * @param experiment the experiment's folder name
 * @param scenario the scenario file, relative to the experiment's folder
 * @param label the figure's name in the tables (the metric when the file gives none)
 * @param metric the path into fio's JSON output
 * @param kind calibration, validation or prediction
 * @param expected what the simulated value is held to
 * @param line the line of the figure in published.conf
 */
record Figure(String experiment, String scenario, String label, String metric, Kind kind,
    Expected expected, int line) {

  /** The keys a figure may have; any other is a typo and rejected. */
  static final Set<String> KEYS = Set.of("scenario", "label", "metric", "published", "tolerance",
      "min", "max", "kind");
  /** The tolerance of a published value when the figure gives none. */
  static final double DEFAULT_TOLERANCE = 0.15;

  /** How the model relates to a figure. */
  enum Kind {
    /** The model was fitted on it. */
    CALIBRATION,
    /** The model was not fitted on it: its mechanisms must produce it. */
    VALIDATION,
    /** Withheld on purpose: blksim's value is printed, never compared. */
    PREDICTION;

    /** The spelling in published.conf. */
    String key() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** What a simulated value is held to. */
  sealed interface Expected permits Point, Bound, Withheld {
    /** Whether {@code simulated} meets it (a withheld figure always does: it is not compared). */
    boolean passes(double simulated);

    /** The table's published column. */
    String publishedText();
  }

  /** A published value: the simulated one passes within {@code tolerance} (relative). */
  record Point(double published, double tolerance) implements Expected {
    @Override
    public boolean passes(double simulated) {
      return Math.abs(simulated / published - 1) <= tolerance;
    }

    @Override
    public String publishedText() {
      return ValidateCommand.num(published);
    }
  }

  /** A published bound: {@code min <= simulated <= max}; either end may be absent (null). */
  record Bound(Double min, Double max) implements Expected {
    @Override
    public boolean passes(double simulated) {
      // NaN (a quotient with a zero divisor) meets no bound.
      return (min == null || simulated >= min) && (max == null || simulated <= max)
          && !Double.isNaN(simulated);
    }

    /** {@code <= 3000}, {@code >= 10} or {@code 10..3000}, the bounds as written. */
    @Override
    public String publishedText() {
      if (min == null) {
        return "<= " + plain(max);
      }
      if (max == null) {
        return ">= " + plain(min);
      }
      return plain(min) + ".." + plain(max);
    }

    private static String plain(double v) {
      return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
  }

  /** A withheld figure: blksim's value is a prediction. */
  record Withheld() implements Expected {
    @Override
    public boolean passes(double simulated) {
      return true;
    }

    @Override
    public String publishedText() {
      return "(withheld)";
    }
  }

  /** Whether the figure is a withheld one (blksim's value is a prediction). */
  boolean isPrediction() {
    return kind == Kind.PREDICTION;
  }

  /**
   * Reads and checks the figures of {@code experimentDir/published.conf}, before anything runs:
   * every figure names an existing scenario file and a metric, has a known kind, exactly one of
   * a published value or a bound (none for a prediction), numbers where numbers belong, and no
   * two figures share a scenario and label.
   *
   * @throws InputException naming the file, the line and the key of the first broken rule
   */
  static List<Figure> load(Path experimentDir) {
    Path pub = experimentDir.resolve("published.conf");
    String file = pub.toString();
    Config c = parse(pub);
    if (!c.hasPath("figures")) {
      throw new InputException(file, 1, "figures",
          "published.conf needs 'figures', a list of { scenario = ..., label = ..., ... }");
    }
    List<? extends Config> list;
    try {
      list = c.getConfigList("figures");
    } catch (ConfigException e) {
      throw new InputException(file, line(e, 1), "figures", "must be a list of"
          + " { scenario = ..., label = ..., metric = ..., ... }");
    }
    String name = experimentDir.getFileName().toString();
    List<Figure> figures = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Config f : list) {
      Figure fig = figure(name, experimentDir, file, f);
      if (!seen.add(fig.scenario() + "\n" + fig.label())) {
        throw new InputException(file, fig.line(), "label", "two figures of "
            + fig.scenario() + " are labelled '" + fig.label() + "'; labels must tell the"
            + " figures of a scenario apart");
      }
      figures.add(fig);
    }
    return figures;
  }

  private static Figure figure(String experiment, Path dir, String file, Config f) {
    int line = f.origin().lineNumber();
    for (String key : new TreeSet<>(f.root().keySet())) {
      if (!KEYS.contains(key)) {
        throw new InputException(file, line(f, key), key, "unknown figure key; a figure has "
            + String.join(", ", new TreeSet<>(KEYS)));
      }
    }
    String scenario = string(f, "scenario", file, line);
    if (!Files.isRegularFile(dir.resolve(scenario))) {
      throw new InputException(file, line(f, "scenario"), "scenario", "scenario '"
          + scenario + "' names no file in " + dir);
    }
    String metric = string(f, "metric", file, line);
    String label = f.hasPath("label") ? string(f, "label", file, line) : metric;
    String kindText = f.hasPath("kind") ? string(f, "kind", file, line) : "validation";
    Kind kind = null;
    for (Kind k : Kind.values()) {
      if (k.key().equals(kindText)) {
        kind = k;
      }
    }
    if (kind == null) {
      throw new InputException(file, line(f, "kind"), "kind", "kind must be calibration,"
          + " validation or prediction, was '" + kindText + "'");
    }
    return new Figure(experiment, scenario, label, metric, kind,
        expected(f, kind, file, line), line);
  }

  /** Checks that a figure gives exactly one of a published value or a bound (none if withheld). */
  private static Expected expected(Config f, Kind kind, String file, int line) {
    boolean published = f.hasPath("published");
    boolean bound = f.hasPath("min") || f.hasPath("max");
    if (kind == Kind.PREDICTION) {
      for (String key : List.of("published", "tolerance", "min", "max")) {
        if (f.hasPath(key)) {
          throw new InputException(file, line(f, key), key, key + " has no place in a"
              + " prediction (a withheld figure); give the figure another kind if it was"
              + " published");
        }
      }
      return new Withheld();
    }
    if (published && bound) {
      String key = f.hasPath("max") ? "max" : "min";
      throw new InputException(file, line(f, key), key, key + " is a bound and the figure"
          + " gives 'published' too; a figure gives either 'published' (with 'tolerance') or a"
          + " bound, not both");
    }
    if (published) {
      double value = number(f, "published", file);
      if (value == 0) {
        throw new InputException(file, line(f, "published"), "published", "must not be 0 (the"
            + " ratio divides by it); give a bound ('max = ...') instead");
      }
      double tol = DEFAULT_TOLERANCE;
      if (f.hasPath("tolerance")) {
        tol = number(f, "tolerance", file);
        if (!(tol >= 0)) {
          throw new InputException(file, line(f, "tolerance"), "tolerance", "must be >= 0 (a"
              + " fraction of the published value: 0.15 is 15 %), was " + tol);
        }
      }
      return new Point(value, tol);
    }
    if (bound) {
      if (f.hasPath("tolerance")) {
        throw new InputException(file, line(f, "tolerance"), "tolerance", "tolerance goes"
            + " with 'published'; a bound ('min' and/or 'max') has none");
      }
      Double min = f.hasPath("min") ? number(f, "min", file) : null;
      Double max = f.hasPath("max") ? number(f, "max", file) : null;
      if (min != null && max != null && min > max) {
        throw new InputException(file, line(f, "max"), "max", "max must be >= min (" + min
            + "), was " + max);
      }
      return new Bound(min, max);
    }
    throw new InputException(file, line, "published", "published is missing: each figure needs"
        + " it (with an optional 'tolerance') or a bound ('min' and/or 'max'), unless its kind is"
        + " prediction");
  }

  /** Parses a HOCON file; a syntax error becomes an InputException with its line. */
  static Config parse(Path file) {
    try {
      return ConfigFactory.parseFile(file.toFile());
    } catch (ConfigException e) {
      throw new InputException(file.toString(), line(e, 0), null, e.getMessage());
    }
  }

  /** A required string key of an entry. */
  static String string(Config f, String key, String file, int line) {
    if (!f.hasPath(key)) {
      throw new InputException(file, line, key, key + " is missing: each entry needs one");
    }
    ConfigValue v = f.getValue(key);
    if (v.valueType() == ConfigValueType.OBJECT || v.valueType() == ConfigValueType.LIST) {
      throw new InputException(file, line(f, key), key, "must be a string");
    }
    return f.getString(key);
  }

  /** A number key of an entry (present: the caller checked), finite. */
  static double number(Config f, String key, String file) {
    ConfigValue v = f.getValue(key);
    if (v.valueType() != ConfigValueType.NUMBER) {
      throw new InputException(file, line(f, key), key, "must be a number, was "
          + v.render());
    }
    double d = f.getDouble(key);
    if (!Double.isFinite(d)) {
      throw new InputException(file, line(f, key), key, "must be finite, was " + d);
    }
    return d;
  }

  /** The line of {@code key} in an entry. */
  static int line(Config f, String key) {
    return f.getValue(key).origin().lineNumber();
  }

  private static int line(ConfigException e, int otherwise) {
    return e.origin() == null ? otherwise : e.origin().lineNumber();
  }
}
