package blksim.workload.fio;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * fio's job options and what blksim does with each: the compatibility table the parser obeys,
 * read from the resource {@code blksim/workload/fio/fio-options.tsv}.
 *
 * <p>The table lists every {@code .name} of the {@code fio_options[]} table in fio's
 * {@code options.c} and of the option tables in {@code engines/*.c} (axboe/fio f5344384f7c7,
 * fio-3.42 era, a superset of fio-3.36's), with the {@code .alias}es (fio's {@code o_match()} in
 * {@code parse.c} compares name and alias exactly, case-sensitively), and one verdict per option:
 * <ul>
 *   <li>{@link Verdict#MODELLED}: simulated (the note says where partly);
 *   <li>{@link Verdict#NO_EFFECT}: accepted, validated, and without effect on the simulation;
 *       the reason says why that is harmless;
 *   <li>{@link Verdict#REFUSED}: exit 2 with {@code FILE:LINE: KEY is not modelled by blksim
 *       (REASON)}.
 * </ul>
 * A name in none of these lists is an "unknown fio option"; an option fio knows is never called
 * unknown. {@code ./blksim describe fio} prints the table and the README's "fio compatibility"
 * section holds its counts. Engines ({@code ioengine=}) have their own list, {@link FioEngine}.
 */
public final class FioOptions {

  /** What blksim does with a fio option. */
  public enum Verdict {
    /** Simulated. */
    MODELLED("modelled"),
    /** Accepted without effect on the simulation. */
    NO_EFFECT("no-effect"),
    /** Refused with a reason. */
    REFUSED("refused");

    private final String label;

    Verdict(String label) {
      this.label = label;
    }

    /** The word used in the table file and in {@code describe fio}. */
    public String label() {
      return label;
    }

    static Verdict of(String label) {
      for (Verdict v : values()) {
        if (v.label.equals(label)) {
          return v;
        }
      }
      throw new IllegalStateException("fio-options.tsv: unknown verdict '" + label + "'");
    }
  }

  /**
   * One row of the table.
   *
   * @param name fio's canonical name
   * @param engines {@code null} for an option of fio itself, else the engines whose option table
   *     defines it (fio accepts it only with one of them)
   * @param aliases fio's other spellings of it
   * @param verdict what blksim does with it
   * @param reason why (refused, no-effect), or a note on what is modelled; empty if none
   */
  public record Option(String name, List<String> engines, List<String> aliases, Verdict verdict,
      String reason) {}

  private static final String RESOURCE = "/blksim/workload/fio/fio-options.tsv";
  private static final Map<String, Option> TABLE = load();
  private static final Map<String, String> ALIASES = aliases(TABLE);

  private FioOptions() {}

  private static Map<String, Option> load() {
    Map<String, Option> m = new LinkedHashMap<>();
    try (InputStream in = FioOptions.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE);
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      boolean header = true;
      int n = 0;
      while ((line = r.readLine()) != null) {
        n++;
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        if (header) {
          header = false; // the column names
          continue;
        }
        String[] f = line.split("\t", -1);
        if (f.length != 5) {
          throw new IllegalStateException(RESOURCE + ":" + n + ": 5 tab-separated fields expected");
        }
        List<String> engines = f[1].equals("fio") ? null
            : List.of(f[1].substring("engine:".length()).split(","));
        List<String> aliases = f[2].equals("-") ? List.of() : List.of(f[2].split(","));
        String reason = f[4].equals("-") ? "" : f[4];
        if (m.put(f[0], new Option(f[0], engines, aliases, Verdict.of(f[3]), reason)) != null) {
          throw new IllegalStateException(RESOURCE + ":" + n + ": " + f[0] + " listed twice");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Collections.unmodifiableMap(m);
  }

  private static Map<String, String> aliases(Map<String, Option> table) {
    Map<String, String> m = new LinkedHashMap<>();
    for (Option o : table.values()) {
      for (String a : o.aliases()) {
        m.put(a, o.name());
      }
    }
    return Collections.unmodifiableMap(m);
  }

  /** Every option of the table, fio's own first, each group sorted by name. */
  public static List<Option> table() {
    return new ArrayList<>(TABLE.values());
  }

  /** The row of a canonical option name, or {@code null} if fio has no such option. */
  public static Option option(String canonical) {
    return TABLE.get(canonical);
  }

  /**
   * The fio engines blksim does not model, each with the reason ({@code ioengine=NAME is not
   * modelled by blksim (REASON)}), in {@code describe fio}'s order.
   */
  public static Map<String, String> refusedEngines() {
    return FioEngine.OTHER_FIO_ENGINES;
  }

  /**
   * blksim's own job options, which fio does not have: {@code read_iolog_format} (the trace
   * format, instead of detection), {@code replay_start}/{@code replay_end} (a window of trace
   * time) and {@code replay_device}/{@code replay_known_devices} (the trace devices a job replays,
   * and every device some job replays: the scenario's {@code replay} section). They are modelled by definition and are not in the table of fio's options.
   */
  public static final Set<String> EXTENSIONS = Set.of(
      "read_iolog_format", "replay_start", "replay_end", "replay_device",
      "replay_known_devices", "replay_skip_malformed");

  /** The canonical name for a key as written, or {@code null} if fio has no such option. */
  static String canonical(String key) {
    String alias = ALIASES.get(key);
    if (alias != null) {
      return alias;
    }
    return TABLE.containsKey(key) || EXTENSIONS.contains(key) ? key : null;
  }

  /**
   * fio's {@code show_closest_option()} ({@code options.c}): the option of fio's own table (not
   * an alias, not an engine's) at the smallest Levenshtein distance ({@code string_distance()}
   * in {@code parse.c}) from {@code written}, if that distance is at most half its length,
   * rounded up ({@code string_distance_ok()}); else {@code null}. Ties go to the first name in
   * the table's order (alphabetical here, {@code options.c}'s order in fio).
   *
   * <p>One refinement over fio: among names at the same distance, the one sharing the longest
   * run of characters with {@code written} wins, so {@code use_thread} (4 from both
   * {@code thread} and {@code pre_read}) suggests {@code thread}, where fio's first-in-order rule
   * picks whichever comes first. fio's aliases count as spellings of their option (the canonical
   * name is suggested).
   */
  static String closest(String written) {
    if (written.isEmpty()) {
      return null;
    }
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    int bestCommon = -1;
    for (Option o : TABLE.values()) {
      if (o.engines() != null) {
        continue;
      }
      List<String> spellings = new ArrayList<>();
      spellings.add(o.name());
      spellings.addAll(o.aliases());
      for (String n : spellings) {
        int d = distance(written, n);
        int common = d <= bestDistance ? longestCommonRun(written, n) : -1;
        if (d < bestDistance || (d == bestDistance && common > bestCommon)) {
          bestDistance = d;
          bestCommon = common;
          best = o.name();
        }
      }
    }
    return best != null && bestDistance <= (written.length() + 1) / 2 ? best : null;
  }

  /** The length of the longest substring {@code a} and {@code b} share. */
  static int longestCommonRun(String a, String b) {
    int best = 0;
    int[] p = new int[b.length() + 1];
    int[] q = new int[b.length() + 1];
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        q[j] = a.charAt(i - 1) == b.charAt(j - 1) ? p[j - 1] + 1 : 0;
        best = Math.max(best, q[j]);
      }
      int[] r = p;
      p = q;
      q = r;
    }
    return best;
  }

  /** The Levenshtein distance (insert, delete, substitute, each 1), as fio's string_distance(). */
  static int distance(String a, String b) {
    int[] p = new int[b.length() + 1];
    int[] q = new int[b.length() + 1];
    for (int j = 1; j <= b.length(); j++) {
      p[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      q[0] = p[0] + 1;
      for (int j = 1; j <= b.length(); j++) {
        int sub = p[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        q[j] = Math.min(p[j] + 1, Math.min(q[j - 1] + 1, sub));
      }
      int[] t = p;
      p = q;
      q = t;
    }
    return p[b.length()];
  }

  /** Whether blksim models (or harmlessly accepts) the canonical option. */
  static boolean modelled(String canonical) {
    if (EXTENSIONS.contains(canonical)) {
      return true;
    }
    Option o = TABLE.get(canonical);
    return o != null && o.verdict() != Verdict.REFUSED;
  }

  /** Why a refused option is refused (empty if the table gives no reason). */
  static String reason(String canonical) {
    Option o = TABLE.get(canonical);
    return o == null ? "" : o.reason();
  }

  /** Whether {@code name} is an option of one of fio's engines rather than of fio itself. */
  static boolean engineOption(String canonical) {
    Option o = TABLE.get(canonical);
    return o != null && o.engines() != null;
  }
}
