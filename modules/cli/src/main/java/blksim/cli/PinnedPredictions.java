package blksim.cli;

import blksim.engine.InputException;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * An experiment's {@code predictions.conf}: blksim's values for the withheld figures as they were
 * when the model first ran end to end, with the commit that produced them, so that {@code validate}
 * can show any later drift of a prediction next to the figure it was first committed with.
 *
 * <pre>
 * commit = "db8e8db8ec1b36036625f723de133a4dd30752a2"
 * note = "./blksim run zram-nowait-off.conf --output-format=json at that commit"
 * predictions = [
 *   { scenario = "zram-nowait-off.conf", label = "IOPS", value = 851427.860697 }
 * ]
 * </pre>
 *
 * <p>Each entry names a figure of {@code kind = prediction} in the experiment's
 * {@code published.conf} by scenario and label. Pinned values are never re-pinned.
 *
 * @param file the predictions.conf file
 * @param commit the full (40 hex digits) commit the values came from
 * @param note how the values were produced, one line
 * @param entries the pinned values, in the file's order
 */
record PinnedPredictions(Path file, String commit, String note, List<Entry> entries) {

  /** The file name under an experiment's folder. */
  static final String FILE = "predictions.conf";
  /** The keys an entry may have. */
  static final Set<String> ENTRY_KEYS = Set.of("scenario", "label", "value");
  /** The top-level keys of the file. */
  static final Set<String> KEYS = Set.of("commit", "note", "predictions");

  /** One pinned value. */
  record Entry(String scenario, String label, double value, int line) {}

  /** The commit as {@code git log --oneline} abbreviates it. */
  String shortCommit() {
    return commit.substring(0, 7);
  }

  /** The pinned entry of a prediction figure, or null if it has none. */
  Entry find(Figure f) {
    for (Entry e : entries) {
      if (e.scenario().equals(f.scenario()) && e.label().equals(f.label())) {
        return e;
      }
    }
    return null;
  }

  /**
   * Reads and checks {@code experimentDir/predictions.conf}, or returns null when the experiment
   * has none: a 40-hex commit, a one-line note, and entries that each name one prediction figure
   * of {@code figures} (scenario and label), once, with a number.
   *
   * @throws InputException naming the file, the line and the key of the first broken rule; an
   *     entry that matches no prediction figure is named by its scenario and label
   */
  static PinnedPredictions load(Path experimentDir, List<Figure> figures) {
    Path path = experimentDir.resolve(FILE);
    if (!Files.isRegularFile(path)) {
      return null;
    }
    String file = path.toString();
    Config c = Figure.parse(path);
    for (String key : new TreeSet<>(c.root().keySet())) {
      if (!KEYS.contains(key)) {
        throw new InputException(file, Figure.line(c, key), key, "unknown key; " + FILE
            + " has " + String.join(", ", new TreeSet<>(KEYS)));
      }
    }
    String commit = Figure.string(c, "commit", file, 1);
    if (!commit.matches("[0-9a-f]{40}")) {
      throw new InputException(file, Figure.line(c, "commit"), "commit", "must be a full"
          + " id of 40 lower-case hex digits (git rev-parse prints it), was '" + commit + "'");
    }
    String note = Figure.string(c, "note", file, 1);
    if (note.isBlank() || note.contains("\n")) {
      throw new InputException(file, Figure.line(c, "note"), "note", "must say in one line how"
          + " the values were produced");
    }
    if (!c.hasPath("predictions")) {
      throw new InputException(file, 1, "predictions", FILE
          + " needs 'predictions', a list of { scenario = ..., label = ..., value = ... }");
    }
    List<? extends Config> list;
    try {
      list = c.getConfigList("predictions");
    } catch (ConfigException e) {
      throw new InputException(file, Figure.line(c, "predictions"), "predictions", "must be a"
          + " list of { scenario = ..., label = ..., value = ... }");
    }
    List<Entry> entries = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Config p : list) {
      int line = p.origin().lineNumber();
      for (String key : new TreeSet<>(p.root().keySet())) {
        if (!ENTRY_KEYS.contains(key)) {
          throw new InputException(file, Figure.line(p, key), key, "unknown key; a pinned"
              + " prediction has scenario, label, value");
        }
      }
      String scenario = Figure.string(p, "scenario", file, line);
      String label = Figure.string(p, "label", file, line);
      if (!p.hasPath("value")) {
        throw new InputException(file, line, "value", "value is missing: each entry needs one");
      }
      double value = Figure.number(p, "value", file);
      String what = "'" + scenario + "' '" + label + "'";
      boolean matches = figures.stream().anyMatch(f -> f.isPrediction()
          && f.scenario().equals(scenario) && f.label().equals(label));
      if (!matches) {
        throw new InputException(file, line, "predictions", "the pinned entry " + what
            + " matches no figure of kind prediction in "
            + experimentDir.resolve("published.conf") + " (same scenario and label)");
      }
      if (!seen.add(scenario + "\n" + label)) {
        throw new InputException(file, line, "predictions", "the entry " + what
            + " is pinned twice");
      }
      entries.add(new Entry(scenario, label, value, line));
    }
    return new PinnedPredictions(path, commit, note, List.copyOf(entries));
  }
}
