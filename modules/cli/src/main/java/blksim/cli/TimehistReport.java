package blksim.cli;

import blksim.kernel.sched.SwitchRecord;
import blksim.report.json.JsonWriter;
import java.util.Locale;

/**
 * {@code run --timehist}: the traced CPUs' context switches with {@code perf sched timehist}'s
 * columns after fio's text, and a {@code sched_timehist} object in the JSON.
 */
final class TimehistReport {
  private TimehistReport() {}

  /** The table printed after fio's normal output. */
  static String text(Simulator.Outcome o) {
    StringBuilder b = new StringBuilder();
    b.append("\nsched timehist (perf sched timehist's columns; one line per switch-out, times in"
        + " us;\n  wait = since its previous switch-out, sch delay = runnable but queued,"
        + " state S slept, R preempted, X exited):\n");
    b.append(String.format(Locale.ROOT, "%15s %6s  %-28s %11s %11s %11s %5s%n", "time (s)",
        "cpu", "task name [tid]", "wait time", "sch delay", "run time", "state"));
    b.append("--------------- ------  ---------------------------- ----------- -----------"
        + " ----------- -----\n");
    for (SwitchRecord r : o.timehist()) {
      b.append(String.format(Locale.ROOT, "%15.9f [%04d]  %-28s %11.3f %11.3f %11.3f %5s%n",
          r.timeNs() / 1e9, r.cpu(), r.comm() + "[" + r.tid() + "]", r.waitNs() / 1e3,
          r.schDelayNs() / 1e3, r.runNs() / 1e3, r.state()));
    }
    if (o.timehistDropped() > 0) {
      b.append(String.format(Locale.ROOT, "(%d more switches in the window were not recorded:"
          + " trace.timehist-max-lines per CPU)%n", o.timehistDropped()));
    }
    return b.toString();
  }

  /** fio's JSON with a top-level {@code sched_timehist} object. */
  static String addToJson(String fioJson, Simulator.Outcome o) {
    JsonWriter w = new JsonWriter();
    w.beginObject();
    w.name("sched_timehist").beginObject();
    w.name("dropped").value(o.timehistDropped());
    w.name("switches").beginArray();
    for (SwitchRecord r : o.timehist()) {
      w.beginObject();
      w.name("time_ns").value(r.timeNs());
      w.name("cpu").value(r.cpu());
      w.name("tid").value(r.tid());
      w.name("comm").value(r.comm());
      w.name("wait_ns").value(r.waitNs());
      w.name("sch_delay_ns").value(r.schDelayNs());
      w.name("run_ns").value(r.runNs());
      w.name("state").value(String.valueOf(r.state()));
      w.endObject();
    }
    w.endArray();
    w.endObject();
    w.endObject();
    return WqReport.splice(fioJson, w.toString());
  }
}
