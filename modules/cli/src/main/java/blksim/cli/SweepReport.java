package blksim.cli;

import blksim.report.plot.Plot;
import blksim.report.plot.ReportPage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code sweep --report DIR}: one plot per metric against the last varied key (one line per
 * combination of the other keys), the table and CSV, and {@code index.html}.
 */
final class SweepReport {
  private SweepReport() {}

  static void write(Path dir, String title, List<SweepCommand.Axis> axes,
      List<List<String>> combos, List<SweepCommand.Metric> metrics, List<List<Double>> rows)
      throws IOException {
    Outputs.writeAll(dir, List.of(
        new Outputs.File("sweep.txt", SweepCommand.table(axes, combos, metrics, rows)),
        new Outputs.File("sweep.csv", SweepCommand.csv(axes, combos, metrics, rows))));
    ReportPage.write(dir, title, "One run per combination of the varied keys; each plot is a"
        + " metric against " + axes.get(axes.size() - 1).key() + ".", plots(axes, combos,
        metrics, rows), List.of(new ReportPage.Link("sweep.txt", "the figures as a table"),
            new ReportPage.Link("sweep.csv", "the figures as CSV")));
  }

  /** One plot per metric: x the last varied key, a series per value of the others. */
  static List<Plot> plots(List<SweepCommand.Axis> axes, List<List<String>> combos,
      List<SweepCommand.Metric> metrics, List<List<Double>> rows) {
    SweepCommand.Axis xAxis = axes.get(axes.size() - 1);
    List<String> xs = xAxis.values();
    // numbers, or numbers with one unit for all (1us,4.8us,10us): a line against the number
    String unit = unit(xs);
    boolean numeric = unit != null;
    double[] x = new double[xs.size()];
    for (int i = 0; i < xs.size(); i++) {
      x[i] = numeric ? Double.parseDouble(xs.get(i).substring(0, xs.get(i).length()
          - unit.length())) : i;
    }
    String xLabel = xAxis.key() + (numeric && !unit.isEmpty() ? " (" + unit + ")" : "");
    List<Plot> out = new ArrayList<>();
    for (int m = 0; m < metrics.size(); m++) {
      // combinations differ in the last axis fastest: consecutive groups of xs.size() rows
      Map<String, double[]> series = new LinkedHashMap<>();
      for (int r = 0; r < rows.size(); r++) {
        List<String> others = combos.get(r).subList(0, axes.size() - 1);
        List<String> label = new ArrayList<>();
        for (int a = 0; a < others.size(); a++) {
          String k = axes.get(a).key(); // the key's last part: legends are narrow
          label.add(k.substring(k.lastIndexOf('.') + 1) + "=" + others.get(a));
        }
        String key = label.isEmpty() ? metrics.get(m).label() : String.join(", ", label);
        double v = rows.get(r).get(m);
        series.computeIfAbsent(key, k -> new double[xs.size()])[r % xs.size()] =
            Double.isNaN(v) ? 0 : v;
      }
      List<Plot.Series> ss = new ArrayList<>();
      series.forEach((k, v) -> ss.add(new Plot.Series(k, x, v)));
      String name = "metric-" + m;
      String title = metrics.get(m).label() + " against " + xAxis.key();
      out.add(numeric
          ? new Plot.Lines(name, title, xLabel, metrics.get(m).label(), ss, false)
          : new Plot.Bars(name, title, xAxis.key(), metrics.get(m).label(), xs, ss));
    }
    return out;
  }

  /** The unit all values share after their number ("" for plain numbers), or null. */
  static String unit(List<String> values) {
    String unit = null;
    for (String v : values) {
      java.util.regex.Matcher m = java.util.regex.Pattern
          .compile("([0-9]+(?:\\.[0-9]+)?)([a-zA-Z]*)").matcher(v.trim());
      if (!m.matches() || (unit != null && !unit.equals(m.group(2)))) {
        return null;
      }
      unit = m.group(2);
    }
    return unit;
  }
}
