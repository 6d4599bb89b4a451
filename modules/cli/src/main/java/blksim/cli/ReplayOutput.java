package blksim.cli;

import blksim.report.json.JsonWriter;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;
import blksim.workload.replay.ReplayStats;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the {@code read_iolog} jobs of a run replayed: a summary after fio's text (records read,
 * issued, skipped, wrapped, per trace device, and the recorded against the simulated latency
 * where the trace had latencies), a {@code replay} object in the JSON, and the notices (reader
 * choices, wrapped records) on stderr.
 */
final class ReplayOutput {
  private static final double[] PERCENTILES = {50, 90, 99, 99.9};

  private ReplayOutput() {}

  private static List<JobStats> replayJobs(RunResult r) {
    List<JobStats> out = new ArrayList<>();
    for (JobStats j : r.jobs()) {
      if (j.replay() != null) {
        out.add(j);
      }
    }
    return out;
  }

  /** Whether any job replayed a trace. */
  static boolean any(RunResult r) {
    return !replayJobs(r).isEmpty();
  }

  /** The reader notices and the wrap counts, one line each, on {@code err}. */
  static void notices(RunResult r, PrintWriter err) {
    java.util.Set<String> said = new java.util.HashSet<>(); // jobs replaying one trace share its
    for (JobStats j : replayJobs(r)) {
      ReplayStats s = j.replay();
      for (String n : s.notes()) {
        if (said.add(n)) {
          err.println("blksim: " + n);
        }
      }
      if (s.wrapped() > 0) {
        err.println("blksim: " + j.info().jobname() + ": " + s.wrapped() + " record(s) of "
            + s.file() + " lay beyond the end of " + s.device() + " and were wrapped modulo its"
            + " size");
      }
    }
    err.flush();
  }

  /** The text printed after fio's report. */
  static String text(RunResult r) {
    StringBuilder b = new StringBuilder("\nReplay (read_iolog):\n");
    for (JobStats j : replayJobs(r)) {
      ReplayStats s = j.replay();
      b.append(String.format(Locale.ROOT, "  %s (job %d): %s (%s) on %s%n", j.info().jobname(),
          j.info().jobIndex(), s.file(), s.format(), s.device()));
      b.append(String.format(Locale.ROOT, "    records: read=%d, issued=%d, skipped=%d,"
          + " outside window=%d, unsupported=%d, wrapped=%d, file actions=%d, waits=%d%n",
          s.recordsRead(), s.issued(), s.skipped(), s.outsideWindow(), s.unsupported(),
          s.wrapped(), s.fileActions(), s.waits()));
      for (Map.Entry<String, long[]> e : s.devices().entrySet()) {
        long[] v = e.getValue();
        b.append(String.format(Locale.ROOT, "    device %s: read=%d, issued=%d, skipped=%d,"
            + " outside window=%d, unsupported=%d, wrapped=%d%n", e.getKey(),
            v[ReplayStats.DEV_READ], v[ReplayStats.DEV_ISSUED], v[ReplayStats.DEV_SKIPPED],
            v[ReplayStats.DEV_OUTSIDE_WINDOW], v[ReplayStats.DEV_UNSUPPORTED],
            v[ReplayStats.DEV_WRAPPED]));
      }
      if (s.latencySamples() > 0) {
        b.append(String.format(Locale.ROOT, "    latency (usec), %d I/Os with a recorded"
            + " latency:%n", s.latencySamples()));
        b.append(String.format(Locale.ROOT, "      %-10s %12s %12s%n", "", "recorded",
            "simulated"));
        b.append(String.format(Locale.ROOT, "      %-10s %12.2f %12.2f%n", "mean",
            s.recordedMean() / 1000, s.simulatedMean() / 1000));
        for (double p : PERCENTILES) {
          b.append(String.format(Locale.ROOT, "      %-10s %12.2f %12.2f%n",
              String.format(Locale.ROOT, "%.1fth", p), s.recordedPercentile(p) / 1000.0,
              s.simulatedPercentile(p) / 1000.0));
        }
      }
    }
    return b.toString();
  }

  /** fio's JSON with a top-level {@code replay} object. */
  static String addToJson(String fioJson, RunResult r) {
    JsonWriter w = new JsonWriter();
    long read = 0;
    long issued = 0;
    long skipped = 0;
    long outsideWindow = 0;
    long unsupported = 0;
    long wrapped = 0;
    for (JobStats j : replayJobs(r)) {
      ReplayStats s = j.replay();
      read += s.recordsRead();
      issued += s.issued();
      skipped += s.skipped();
      outsideWindow += s.outsideWindow();
      unsupported += s.unsupported();
      wrapped += s.wrapped();
    }
    w.beginObject();
    w.name("replay").beginObject();
    w.name("records_read").value(read);
    w.name("issued").value(issued);
    // The same counts as each job's, by the same names; not_issued is their sum (what the
    // top-level skipped was until 2026-12-03).
    w.name("skipped").value(skipped);
    w.name("outside_window").value(outsideWindow);
    w.name("unsupported").value(unsupported);
    w.name("not_issued").value(skipped + outsideWindow + unsupported);
    w.name("wrapped").value(wrapped);
    w.name("jobs").beginArray();
    for (JobStats j : replayJobs(r)) {
      ReplayStats s = j.replay();
      w.beginObject();
      w.name("jobname").value(j.info().jobname());
      w.name("jobnum").value(j.info().jobIndex());
      w.name("file").value(s.file());
      w.name("format").value(s.format());
      w.name("device").value(s.device());
      w.name("records_read").value(s.recordsRead());
      w.name("issued").value(s.issued());
      w.name("skipped").value(s.skipped());
      w.name("outside_window").value(s.outsideWindow());
      w.name("unsupported").value(s.unsupported());
      w.name("wrapped").value(s.wrapped());
      w.name("file_actions").value(s.fileActions());
      w.name("waits").value(s.waits());
      w.name("last_trace_time_ns").value(s.lastTraceNs());
      w.name("devices").beginObject();
      for (Map.Entry<String, long[]> e : s.devices().entrySet()) {
        long[] v = e.getValue();
        w.name(e.getKey()).beginObject();
        w.name("read").value(v[ReplayStats.DEV_READ]);
        w.name("issued").value(v[ReplayStats.DEV_ISSUED]);
        w.name("skipped").value(v[ReplayStats.DEV_SKIPPED]);
        w.name("outside_window").value(v[ReplayStats.DEV_OUTSIDE_WINDOW]);
        w.name("unsupported").value(v[ReplayStats.DEV_UNSUPPORTED]);
        w.name("wrapped").value(v[ReplayStats.DEV_WRAPPED]);
        w.endObject();
      }
      w.endObject();
      w.name("notes").beginArray();
      for (String n : s.notes()) {
        w.value(n);
      }
      w.endArray();
      if (s.latencySamples() > 0) {
        w.name("latency_ns").beginObject();
        w.name("samples").value(s.latencySamples());
        for (int k = 0; k < 2; k++) {
          boolean rec = k == 0;
          w.name(rec ? "recorded" : "simulated").beginObject();
          w.name("mean").value(rec ? s.recordedMean() : s.simulatedMean());
          w.name("percentile").beginObject();
          for (double p : PERCENTILES) {
            w.name(String.format(Locale.ROOT, "%f", p))
                .value(rec ? s.recordedPercentile(p) : s.simulatedPercentile(p));
          }
          w.endObject();
          w.endObject();
        }
        w.endObject();
      }
      w.endObject();
    }
    w.endArray();
    w.endObject();
    w.endObject();
    return WqReport.splice(fioJson, w.toString());
  }
}
