package blksim.cli;

import blksim.engine.InputException;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.report.fio.FioJsonReporter;
import blksim.report.json.JsonReader;
import blksim.workload.scenario.Scenario;
import java.util.List;
import java.util.Map;

/**
 * Reads a figure out of fio's JSON output: a dotted path ({@code jobs.0.read.iops}; keys that
 * contain dots are found too, as in {@code jobs.0.read.clat_ns.percentile.99.000000}), or the
 * quotient of two paths ({@code jobs.0.ctx / jobs.0.read.total_ios}).
 */
final class Metrics {
  private Metrics() {}

  /** Runs {@code s} with its own partitioning and returns fio's JSON output, parsed. */
  static Map<String, Object> runToJson(Scenario s, Simulator.Host host) {
    Simulator.Outcome o = Simulator.runFull(s, Partitioning.parse(s.partitions()), host,
        ProgressListener.NONE);
    String text = withWorkqueues(json(o), o);
    @SuppressWarnings("unchecked")
    Map<String, Object> json = (Map<String, Object>) JsonReader.parse(text);
    return json;
  }

  /**
   * A run's JSON document: fio's, with the page cache's {@code vmstat} and {@code writeback}
   * objects when a job wrote through it, and the {@code fs_mark} array when fs_mark ran.
   */
  static String json(Simulator.Outcome o) {
    return json(o, false);
  }

  /** {@link #json(Simulator.Outcome)}, as fio's json+ (latency bins) with {@code plus}. */
  static String json(Simulator.Outcome o, boolean plus) {
    String json = FioJsonReporter.render(o.fio(), plus);
    if (o.mm() != null) {
      json = MmText.addToJson(json, o.mm());
    }
    if (!o.fsMark().isEmpty()) {
      json = FsMarkOutput.addToJson(json, o.fsMark(), o.fio());
    }
    if (o.shell() != null) {
      json = ShellOutput.addToJson(json, o.shell());
    }
    if (ReplayOutput.any(o.fio())) {
      json = ReplayOutput.addToJson(json, o.fio());
    }
    if (o.dmzSamples() != null && !o.dmzSamples().isEmpty()) {
      json = dmZoned(json, o.dmzSamples());
    }
    if (o.samples() != null && !o.samples().isEmpty()) {
      json = schedSamples(json, o.samples());
    }
    return json;
  }

  /**
   * {@code sched_samples} ({@code trace.sample-interval}): per CPU in CPU order, the mean run
   * queue length ({@code nr_running}, the running task included) and the tasks that migrated
   * to it, per interval.
   */
  static String schedSamples(String json, List<blksim.kernel.sched.CpuSamples.Series> samples) {
    blksim.report.json.JsonWriter w = new blksim.report.json.JsonWriter();
    w.beginObject();
    w.name("sched_samples").beginObject();
    long interval = samples.get(0).intervalNs();
    w.name("interval_ns").value(interval);
    w.name("nr_running").beginArray();
    for (blksim.kernel.sched.CpuSamples.Series s : samples) {
      w.beginArray();
      for (long v : s.nrRunningNs()) {
        w.value(Math.round(v * 1000.0 / interval) / 1000.0);
      }
      w.endArray();
    }
    w.endArray();
    w.name("migrations").beginArray();
    for (blksim.kernel.sched.CpuSamples.Series s : samples) {
      w.beginArray();
      for (long v : s.migrations()) {
        w.value(v);
      }
      w.endArray();
    }
    w.endArray();
    w.endObject();
    w.endObject();
    return WqReport.splice(json, w.toString());
  }

  /**
   * A scenario that samples its workqueues (kernel.wq-monitor-interval) is measured on them too:
   * the JSON gets wq_monitor's samples and {@code wq_monitor_summary}, as {@code run} prints it.
   */
  static String withWorkqueues(String json, Simulator.Outcome o) {
    return o.wqSamples().isEmpty() ? json : WqReport.addToJson(json, o);
  }

  /**
   * {@code dm_zoned}: per dm-zoned target, its zone states and reclaim progress over time, one
   * sample per second of simulated time with activity ({@code DmzReportTask.SAMPLE_COLUMNS}).
   */
  private static String dmZoned(String json, java.util.SortedMap<String, List<long[]>> samples) {
    blksim.report.json.JsonWriter w = new blksim.report.json.JsonWriter();
    w.beginObject();
    w.name("dm_zoned").beginObject();
    List<String> cols = blksim.kernel.dm.DmzReportTask.SAMPLE_COLUMNS;
    for (java.util.Map.Entry<String, List<long[]>> e : samples.entrySet()) {
      w.name(e.getKey()).beginObject();
      w.name("samples").beginArray();
      for (long[] r : e.getValue()) {
        w.beginObject();
        for (int i = 0; i < r.length && i < cols.size(); i++) {
          w.name(cols.get(i)).value(r[i]);
        }
        w.endObject();
      }
      w.endArray();
      w.endObject();
    }
    w.endObject();
    w.endObject();
    return WqReport.splice(json, w.toString());
  }

  /**
   * The value of {@code metric} in {@code json}: a dotted path ({@code jobs.0.read.iops}), a
   * constant, or a quotient of two, {@code a / b} or {@code a/b} (a path never contains
   * {@code /}, so the spaces are optional; with several, they divide left to right). A
   * {@code -} is never an operator: JSON keys contain it ({@code dmz_cwq_dmz-sdb}).
   */
  static double evaluate(Map<String, Object> json, String metric, String file, int line) {
    int slash = metric.lastIndexOf('/');
    if (slash >= 0) {
      String left = metric.substring(0, slash).trim();
      String right = metric.substring(slash + 1).trim();
      if (left.isEmpty() || right.isEmpty()) {
        throw new InputException(file, line, "metric", "'" + metric + "': '/' needs an operand"
            + " on each side (a / b or a/b)");
      }
      double a = evaluate(json, left, file, line);
      double b = evaluate(json, right, file, line);
      return b == 0 ? Double.NaN : a / b;
    }
    if (metric.matches("[0-9]+(\\.[0-9]+)?")) {
      // a constant operand: "jobs.0.write.bw / 1024" is MiB/s
      return Double.parseDouble(metric);
    }
    Object cur = json;
    String[] parts = metric.split("\\.");
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i];
      if (cur instanceof Map<?, ?> m) {
        // A key may itself contain dots (fio's percentiles: "99.000000"): take the shortest
        // run of parts that names a key.
        int j = i;
        String key = part;
        while (!m.containsKey(key) && j + 1 < parts.length) {
          key = key + "." + parts[++j];
        }
        if (!m.containsKey(key)) {
          throw new InputException(file, line, "metric", "'" + metric + "' does not name a"
              + " value in fio's JSON output (no '" + part + "')");
        }
        cur = m.get(key);
        i = j;
      } else if (cur instanceof List<?> l && part.matches("\\d+")
          && Integer.parseInt(part) < l.size()) {
        cur = l.get(Integer.parseInt(part));
      } else {
        throw new InputException(file, line, "metric", "'" + metric + "' does not name a value"
            + " in fio's JSON output (no '" + part + "')");
      }
    }
    if (!(cur instanceof Number n)) {
      throw new InputException(file, line, "metric", "'" + metric + "' is not a number");
    }
    return n.doubleValue();
  }
}
