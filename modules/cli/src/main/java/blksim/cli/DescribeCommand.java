package blksim.cli;

import blksim.engine.InputException;
import blksim.workload.scenario.Param;
import blksim.workload.scenario.ScenarioSchema;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code blksim describe [COMPONENT]}: every parameter a scenario can set, with its unit, default
 * and meaning, grouped by the component it configures.
 *
 * <pre>
 * ./blksim describe null_blk
 * </pre>
 */
@Command(name = "describe", mixinStandardHelpOptions = true,
    description = {"Print the parameters of each component (name, unit, default, meaning).",
        "'describe fio' also prints the fio compatibility table: every fio job option (fio's"
            + " own and its engines') with its aliases and verdict: modelled, accepted without"
            + " effect (and why) or refused (and why); then fio's engines."})
final class DescribeCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "COMPONENT",
      description = "only this component")
  String component;

  @picocli.CommandLine.Option(names = "--markdown",
      description = "with fio: print the README's \"fio compatibility\" section instead")
  boolean markdown;

  /**
   * Sets the help's footer to the components {@code describe} knows, taken from the schema so
   * that it cannot go stale (a hand-written list once named 14 of the 31).
   */
  static void footer(picocli.CommandLine describe) {
    describe.getCommandSpec().usageMessage().footer("",
        "Components: " + String.join(", ", rows().keySet()));
  }

  /** Every parameter's row, grouped by component, in the schema's order. */
  private static Map<String, List<String[]>> rows() {
    Map<String, List<String[]>> rows = new LinkedHashMap<>();
    for (Param p : ScenarioSchema.KEYS) {
      rows.computeIfAbsent(p.component(), k -> new ArrayList<>()).add(row("blksim." + p.path(), p));
    }
    for (Map.Entry<String, List<Param>> e : ScenarioSchema.DEVICE_KEYS.entrySet()) {
      for (Param p : e.getValue()) {
        rows.computeIfAbsent(e.getKey(), k -> new ArrayList<>())
            .add(row("blksim.devices.N." + p.path(), p));
      }
    }
    for (Map.Entry<String, List<Param>> e : ScenarioSchema.FILESYSTEM_KEYS.entrySet()) {
      for (Param p : e.getValue()) {
        rows.computeIfAbsent(e.getKey(), k -> new ArrayList<>())
            .add(row("blksim.filesystems.N." + p.path(), p));
      }
    }
    return rows;
  }

  @Override
  public Integer call() {
    Map<String, List<String[]>> rows = rows();
    if (component != null && !rows.containsKey(component)) {
      throw new InputException(null, 0, "COMPONENT", "unknown component '" + component
          + "'; components: " + String.join(", ", rows.keySet()));
    }
    PrintWriter out = spec.commandLine().getOut();
    if (markdown) {
      if (!"fio".equals(component)) {
        throw new InputException(null, 0, "--markdown", "only 'describe fio --markdown' exists");
      }
      out.print(FioCompatibility.markdown());
      out.flush();
      return 0;
    }
    for (Map.Entry<String, List<String[]>> e : rows.entrySet()) {
      if (component != null && !component.equals(e.getKey())) {
        continue;
      }
      out.println(e.getKey());
      int w = 0;
      for (String[] r : e.getValue()) {
        w = Math.max(w, r[0].length());
      }
      for (String[] r : e.getValue()) {
        out.printf("  %-" + w + "s  %-8s %-12s %s%n", r[0], r[1], r[2], r[3]);
      }
      out.println();
    }
    if ("fio".equals(component)) {
      out.print(FioCompatibility.text()); // every fio job option: what blksim does with it
    }
    out.flush();
    return 0;
  }

  private static String[] row(String name, Param p) {
    String type = p.type() == Param.Type.ENUM ? String.join("|", p.choices())
        : p.type().name().toLowerCase(java.util.Locale.ROOT);
    String unit = p.unit().isEmpty() ? type : p.unit();
    String dflt = p.defaultValue() == null ? "(required)" : p.defaultValue();
    return new String[] {name, unit, dflt, p.description()};
  }
}
