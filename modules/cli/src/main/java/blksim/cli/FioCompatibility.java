package blksim.cli;

import blksim.workload.fio.FioEngine;
import blksim.workload.fio.FioOptions;
import blksim.workload.fio.FioOptions.Option;
import blksim.workload.fio.FioOptions.Verdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The fio compatibility table as {@code ./blksim describe fio} prints it and as the README's
 * "fio compatibility" section summarises it, both generated from the table the parser obeys
 * ({@link FioOptions#table()}) and from the engine list ({@link FioEngine}).
 */
final class FioCompatibility {
  /** The README lines that enclose the generated section. */
  static final String BEGIN = "<!-- fio-compatibility:begin (generated: ./blksim describe fio"
      + " --markdown) -->";
  static final String END = "<!-- fio-compatibility:end -->";

  private FioCompatibility() {}

  /** How many options have each verdict. */
  static Map<Verdict, Integer> counts() {
    Map<Verdict, Integer> c = new EnumMap<>(Verdict.class);
    for (Verdict v : Verdict.values()) {
      c.put(v, 0);
    }
    for (Option o : FioOptions.table()) {
      c.merge(o.verdict(), 1, Integer::sum);
    }
    return c;
  }

  /** The one-line summary with the counts. */
  static String summary() {
    Map<Verdict, Integer> c = counts();
    return FioOptions.table().size() + " fio options (fio's own and its engines'): "
        + c.get(Verdict.MODELLED) + " modelled, " + c.get(Verdict.NO_EFFECT)
        + " accepted without effect, " + c.get(Verdict.REFUSED) + " refused";
  }

  /** The full table as text: every option with its aliases, verdict and reason; then engines. */
  static String text() {
    StringBuilder b = new StringBuilder();
    b.append("fio compatibility: ").append(summary()).append('\n');
    b.append("  (from fio's options.c and engines/*.c; refused options exit 2 with the reason)\n");
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"option", "aliases", "verdict", "reason or note"});
    for (Option o : FioOptions.table()) {
      String name = o.engines() == null ? o.name()
          : o.name() + " [" + String.join(",", o.engines()) + "]";
      rows.add(new String[] {name, o.aliases().isEmpty() ? "-" : String.join(",", o.aliases()),
          o.verdict().label(), o.reason().isEmpty() ? "-" : o.reason()});
    }
    int w0 = 0;
    int w1 = 0;
    for (String[] r : rows) {
      w0 = Math.max(w0, r[0].length());
      w1 = Math.max(w1, r[1].length());
    }
    for (String[] r : rows) {
      b.append("  ").append(pad(r[0], w0)).append("  ").append(pad(r[1], w1)).append("  ")
          .append(pad(r[2], 9)).append("  ").append(r[3]).append('\n');
    }
    b.append('\n').append("fio engines (ioengine=): modelled: ").append(modelledEngines())
        .append('\n');
    Map<String, String> refused = FioOptions.refusedEngines();
    int w = 0;
    for (String e : refused.keySet()) {
      w = Math.max(w, e.length());
    }
    for (Map.Entry<String, String> e : refused.entrySet()) {
      b.append("  ").append(pad(e.getKey(), w)).append("  refused    ").append(e.getValue())
          .append('\n');
    }
    return b.toString();
  }

  /** The README section, markers included. */
  static String markdown() {
    StringBuilder b = new StringBuilder();
    b.append(BEGIN).append('\n');
    b.append(summary()).append("; engines: ").append(modelledEngines()).append(" modelled, ")
        .append(FioOptions.refusedEngines().size()).append(" refused with their reason.\n\n");
    for (Verdict v : List.of(Verdict.MODELLED, Verdict.NO_EFFECT)) {
      b.append(v == Verdict.MODELLED ? "Modelled: " : "Accepted without effect: ");
      List<String> names = new ArrayList<>();
      for (Option o : FioOptions.table()) {
        if (o.verdict() == v) {
          names.add("`" + o.name() + "`" + (v == Verdict.NO_EFFECT ? " (" + o.reason() + ")"
              : ""));
        }
      }
      b.append(String.join(", ", names)).append(".\n\n");
    }
    b.append("Every other option is refused with its reason; `./blksim describe fio` prints them"
        + " all.\n");
    b.append(END).append('\n');
    return b.toString();
  }

  private static String modelledEngines() {
    List<String> names = new ArrayList<>();
    for (FioEngine e : FioEngine.values()) {
      names.add(e.fioName());
    }
    return String.join(", ", names);
  }

  private static String pad(String s, int w) {
    return s.length() >= w ? s : s + " ".repeat(w - s.length());
  }
}
