package blksim.cli;

import blksim.kernel.workqueue.PwqStat;
import blksim.kernel.workqueue.WqMonitorRenderer;
import blksim.kernel.workqueue.WqMonitorSnapshot;
import blksim.report.json.JsonWriter;

/**
 * The workqueue part of {@code run --wq-monitor}: wq_monitor.py's table at each sample and a
 * wq_dump summary after fio's text, and a {@code wq_monitor} array in the JSON.
 */
final class WqReport {
  private WqReport() {}

  /** The text printed after fio's normal output. */
  static String text(Simulator.Outcome o) {
    StringBuilder b = new StringBuilder("\nwq_monitor (simulated time of each sample):\n");
    for (WqMonitorSnapshot s : o.wqSamples()) {
      b.append(String.format(java.util.Locale.ROOT, "\nt=%.3f s", s.timeNs() / 1e9));
      b.append(WqMonitorRenderer.table(s, null));
    }
    b.append("\nwq_dump:\n").append(o.wqDump());
    return b.toString();
  }

  /**
   * fio's JSON with a top-level {@code wq_monitor} array: one object per sample, with each
   * workqueue's counters under wq_monitor.py's names.
   */
  static String addToJson(String fioJson, Simulator.Outcome o) {
    JsonWriter w = new JsonWriter();
    w.beginObject();
    w.name("wq_monitor").beginArray();
    for (WqMonitorSnapshot s : o.wqSamples()) {
      w.beginObject();
      w.name("time_ns").value(s.timeNs());
      w.name("workqueues").beginArray();
      for (WqMonitorSnapshot.Row r : s.rows()) {
        w.beginObject();
        w.name("name").value(r.name());
        w.name("unbound").value(r.unbound());
        w.name("mem_reclaim").value(r.memReclaim());
        w.name("total").value(r.total());
        w.name("infl").value(r.infl());
        w.name("cpu_time_us").value(r.stat(PwqStat.CPU_TIME));
        w.name("cpu_intensive").value(r.stat(PwqStat.CPU_INTENSIVE));
        w.name("cm_wakeup").value(r.stat(PwqStat.CM_WAKEUP));
        w.name("repatriated").value(r.stat(PwqStat.REPATRIATED));
        w.name("mayday").value(r.stat(PwqStat.MAYDAY));
        w.name("rescued").value(r.stat(PwqStat.RESCUED));
        w.endObject();
      }
      w.endArray();
      w.endObject();
    }
    w.endArray();
    summary(w, o);
    w.name("wq_dump").value(o.wqDump());
    w.endObject();
    return splice(fioJson, w.toString());
  }

  /**
   * {@code wq_monitor_summary}: per workqueue (by name, in the order first sampled) the most
   * and the median in-flight works over the samples where it had any in flight, as one would
   * read a run of wq_monitor.py samples taken while the workqueue was busy
   * ({@code wq_monitor_summary.NAME.infl_median}, for published.conf checks).
   */
  private static void summary(JsonWriter w, Simulator.Outcome o) {
    java.util.Map<String, java.util.List<Long>> infl = new java.util.LinkedHashMap<>();
    for (WqMonitorSnapshot s : o.wqSamples()) {
      for (WqMonitorSnapshot.Row r : s.rows()) {
        java.util.List<Long> l = infl.computeIfAbsent(r.name(), k -> new java.util.ArrayList<>());
        if (r.infl() > 0) {
          l.add(r.infl());
        }
      }
    }
    w.name("wq_monitor_summary").beginObject();
    for (java.util.Map.Entry<String, java.util.List<Long>> e : infl.entrySet()) {
      java.util.List<Long> l = new java.util.ArrayList<>(e.getValue());
      java.util.Collections.sort(l);
      w.name(e.getKey()).beginObject();
      w.name("busy_samples").value(l.size());
      w.name("infl_max").value(l.isEmpty() ? 0 : l.get(l.size() - 1));
      w.name("infl_median").value(l.isEmpty() ? 0 : l.get((l.size() - 1) / 2));
      w.endObject();
    }
    w.endObject();
  }

  /** Splices the members of JSON object {@code extra} into fio's root object, at its end. */
  static String splice(String fioJson, String extra) {
    String e = extra.trim();
    String members = e.substring(1, e.length() - 1).replaceAll("^\\s+|\\s+$", "");
    int end = fioJson.lastIndexOf('}');
    String head = fioJson.substring(0, end).replaceAll("\\s+$", "");
    return head + ",\n  " + members + "\n}\n";
  }
}
