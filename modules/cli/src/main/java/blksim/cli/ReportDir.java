package blksim.cli;

import blksim.kernel.sched.CpuSamples;
import blksim.report.json.JsonWriter;
import blksim.report.plot.Plot;
import blksim.report.plot.ReportPage;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * {@code run --report DIR} and {@code sweep --report DIR}: plots (PNG and SVG) and an
 * {@code index.html} that shows them, beside the run's JSON and text.
 */
final class ReportDir {
  /** Samples per run when {@code --report} chooses the interval. */
  static final int SAMPLES_PER_RUN = 200;
  /**
   * Completions a plotted interval holds on average at least, when {@code --report} chose the
   * interval: with fewer, a steady rate shows as a saw (1, 2, 1, 2 I/Os per interval plot as
   * 20k, 40k, 20k IOPS at 50 us), each interval's count being off by up to one I/O.
   */
  static final int MIN_IOS_PER_SAMPLE = 20;
  /** Most plotted intervals when {@code --report} chose the interval. */
  static final int MAX_SAMPLES = 500;
  /** Most heatmap rows: more CPUs are shown in groups (the mean of each group). */
  static final int MAX_HEAT_ROWS = 256;

  private ReportDir() {}

  /**
   * Refuses, before anything runs, a report directory that is a file or cannot be written; creates
   * it if missing.
   */
  static void check(Path dir, String option) {
    // The directory itself is made when the report is written (Outputs.writeAll).
    Outputs.checkDir(dir, option);
  }

  /** The sample interval for a run expected to end at {@code expectedEndNs}: whole us, >= 1us. */
  static long sampleIntervalNs(long expectedEndNs) {
    long raw = expectedEndNs > 0 ? expectedEndNs / SAMPLES_PER_RUN : 1_000_000L;
    return Math.max(1000, (raw + 999) / 1000 * 1000);
  }

  /**
   * Writes a run's report: its plots, the time series, the JSON and text, and index.html.
   *
   * @param chosen whether {@code --report} chose the sample interval (no explicit {@code
   *     trace.sample-interval}): then whole runs of intervals are merged by {@link #coarsen}
   */
  static void writeRun(Path dir, String title, Simulator.Outcome o, String json, String text,
      boolean chosen) throws IOException {
    List<CpuSamples.Series> samples = chosen ? coarsen(o.samples()) : o.samples();
    List<Plot> plots = new ArrayList<>(latencyPlots(o.fio()));
    plots.addAll(timePlots(samples));
    Outputs.writeAll(dir, List.of(new Outputs.File("fio.json", json),
        new Outputs.File("fio.txt", text),
        new Outputs.File("time_series.json", timeSeriesJson(samples))));
    ReportPage.write(dir, title, "Simulated by blksim. Plots are SVG (click for PNG); the"
        + " figures are in the files below.", plots,
        List.of(new ReportPage.Link("fio.json", "fio's JSON output of the run"),
            new ReportPage.Link("fio.txt", "fio's text output of the run"),
            new ReportPage.Link("time_series.json", "busy time per CPU and completions per"
                + " device, per interval of simulated time")));
  }

  /**
   * The samples with every {@code k} intervals merged into one, {@code k} the least that leaves at
   * most {@link #MAX_SAMPLES} intervals each holding {@link #MIN_IOS_PER_SAMPLE} completions (all
   * devices) on average (fio's {@code log_avg_msec} averages its logs over a window the same way).
   * A trailing partial group is dropped, as a trailing partial interval is.
   */
  static List<CpuSamples.Series> coarsen(List<CpuSamples.Series> samples) {
    if (samples.isEmpty()) {
      return samples;
    }
    int n = 0;
    long total = 0;
    for (CpuSamples.Series s : samples) {
      n = Math.max(n, s.busyNs().length);
      for (long[] a : s.ios()) {
        for (long v : a) {
          total += v;
        }
      }
    }
    // k * total / n >= MIN: k >= MIN * n / total, rounded up
    long byIos = total == 0 ? 1 : (MIN_IOS_PER_SAMPLE * (long) n + total - 1) / total;
    int k = (int) Math.min(n, Math.max(Math.max(1, byIos), (n + MAX_SAMPLES - 1) / MAX_SAMPLES));
    if (k <= 1) {
      return samples;
    }
    int m = Math.max(1, n / k);
    List<CpuSamples.Series> out = new ArrayList<>(samples.size());
    for (CpuSamples.Series s : samples) {
      List<long[]> ios = new ArrayList<>();
      for (long[] a : s.ios()) {
        ios.add(merge(a, k, m));
      }
      out.add(new CpuSamples.Series(s.intervalNs() * k, merge(s.busyNs(), k, m), s.disks(), ios,
          merge(s.nrRunningNs(), k, m), merge(s.migrations(), k, m)));
    }
    return out;
  }

  private static long[] merge(long[] a, int k, int m) {
    long[] out = new long[m];
    for (int i = 0; i < Math.min(a.length, m * k); i++) {
      out[i / k] += a[i];
    }
    return out;
  }

  /** Completion latency percentiles and histogram of all jobs together, per direction. */
  static List<Plot> latencyPlots(RunResult r) {
    String[] dirs = {"read", "write", "trim"};
    List<Histogram> merged = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (int d = 0; d < JobStats.DDIR_COUNT; d++) {
      Histogram h = null;
      for (JobStats j : r.jobs()) {
        if (j.totalIos(d) == 0) {
          continue;
        }
        Histogram jh = j.histogram(JobStats.Latency.CLAT, d);
        if (h == null) {
          h = jh;
        } else {
          h.add(jh);
        }
      }
      if (h != null && h.getTotalCount() > 0) {
        merged.add(h);
        labels.add(dirs[d]);
      }
    }
    if (merged.isEmpty()) {
      return List.of();
    }
    double[] pct = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
    List<String> pctLabels = new ArrayList<>();
    for (double p : pct) {
      pctLabels.add("p" + (p == Math.rint(p) ? String.valueOf((long) p) : String.valueOf(p)));
    }
    List<Plot.Series> ps = new ArrayList<>();
    for (int k = 0; k < merged.size(); k++) {
      Histogram h = merged.get(k);
      double[] y = new double[pct.length];
      for (int i = 0; i < pct.length; i++) {
        y[i] = h.medianEquivalentValue(h.getValueAtPercentile(pct[i])) / 1000.0;
      }
      ps.add(new Plot.Series(labels.get(k), new double[pct.length], y));
    }
    // The histogram: log2 buckets of the completion latency, as a share of the I/Os.
    long lo = Long.MAX_VALUE;
    long hi = 0;
    for (Histogram h : merged) {
      lo = Math.min(lo, h.getMinValue());
      hi = Math.max(hi, h.getMaxValue());
    }
    // Octaves when the latencies span more than four of them, else about 20 even buckets.
    long[] edges = edges(lo, hi);
    List<String> cats = new ArrayList<>();
    for (int b = 1; b < edges.length; b++) {
      cats.add("<" + duration(edges[b]));
    }
    List<Plot.Series> hs = new ArrayList<>();
    for (int k = 0; k < merged.size(); k++) {
      Histogram h = merged.get(k);
      double[] y = new double[cats.size()];
      long below = 0; // cumulative counts, so that no I/O is in two buckets
      for (int b = 1; b < edges.length; b++) {
        long upTo = b == edges.length - 1 ? h.getTotalCount()
            : h.getCountBetweenValues(0, edges[b] - 1);
        y[b - 1] = 100.0 * (upTo - below) / h.getTotalCount();
        below = upTo;
      }
      hs.add(new Plot.Series(labels.get(k), new double[cats.size()], y));
    }
    return List.of(
        new Plot.Bars("clat-percentiles", "Completion latency percentiles (all jobs)",
            "percentile", "clat (us)", pctLabels, ps),
        new Plot.Bars("clat-histogram", "Completion latency histogram (all jobs)",
            "completion latency", "share of I/Os (%)", cats, hs));
  }

  /** Bucket edges (ns) covering {@code [lo, hi]}: octaves over a wide range, else even steps. */
  static long[] edges(long lo, long hi) {
    List<Long> e = new ArrayList<>();
    if (hi >= 16 * Math.max(1, lo)) {
      int b0 = 63 - Long.numberOfLeadingZeros(Math.max(1, lo));
      for (long v = 1L << b0; ; v <<= 1) {
        e.add(v);
        if (v > hi) {
          break;
        }
      }
    } else {
      if (hi - lo < lo / 10) { // a narrow peak: show +-5% around it
        long pad = Math.max(1, lo / 20);
        lo = Math.max(0, lo - pad);
        hi = hi + pad;
      }
      long step = 1; // 1, 2, 5, 10, 20, 50 ... ns: the first that makes at most 20 buckets
      for (long mag = 1; step * 20 < hi - lo; mag *= 10) {
        for (long f : new long[] {1, 2, 5}) {
          step = f * mag;
          if (step * 20 >= hi - lo) {
            break;
          }
        }
      }
      for (long v = lo / step * step; ; v += step) {
        e.add(v);
        if (v > hi) {
          break;
        }
      }
    }
    return e.stream().mapToLong(Long::longValue).toArray();
  }

  /** IOPS per device and CPU utilisation over simulated time; a per-CPU heatmap. */
  static List<Plot> timePlots(List<CpuSamples.Series> samples) {
    if (samples.isEmpty()) {
      return List.of();
    }
    long interval = samples.get(0).intervalNs();
    int n = 0;
    for (CpuSamples.Series s : samples) {
      n = Math.max(n, s.busyNs().length);
    }
    double[] t = new double[n];
    for (int k = 0; k < n; k++) {
      t[k] = (k + 0.5) * interval / 1e6;
    }
    Map<String, double[]> iops = deviceIops(samples, n);
    List<Plot.Series> io = new ArrayList<>();
    iops.forEach((dev, v) -> io.add(new Plot.Series(dev, t, v)));
    double[][] util = utilisation(samples, n);
    double[] mean = new double[n];
    for (double[] row : util) {
      for (int k = 0; k < n; k++) {
        mean[k] += row[k] / util.length;
      }
    }
    List<Plot> out = new ArrayList<>();
    if (!io.isEmpty()) {
      out.add(new Plot.Lines("iops-over-time", "IOPS over simulated time (completions per"
          + " device, " + duration(interval) + " intervals)", "simulated time (ms)", "IOPS", io,
          false));
    }
    out.add(new Plot.Lines("cpu-over-time", "CPU utilisation over simulated time (mean of "
        + util.length + " CPUs)", "simulated time (ms)", "busy (%)",
        List.of(new Plot.Series("all CPUs", t, mean)), false));
    int group = (util.length + MAX_HEAT_ROWS - 1) / MAX_HEAT_ROWS;
    int rows = (util.length + group - 1) / group;
    double[][] z = new double[rows][n];
    for (int r = 0; r < rows; r++) {
      int from = r * group;
      int to = Math.min(util.length, from + group);
      for (int c = from; c < to; c++) {
        for (int k = 0; k < n; k++) {
          z[r][k] += util[c][k] / (to - from);
        }
      }
    }
    out.add(new Plot.Heat("cpu-heatmap", "Per-CPU utilisation over simulated time",
        "simulated time (ms)", group == 1 ? "CPU" : "CPU group (" + group + " CPUs each)",
        "busy (%)", 0, interval / 1e6, z, 100));
    return out;
  }

  /** Busy percent per CPU (row) and interval (column). */
  static double[][] utilisation(List<CpuSamples.Series> samples, int n) {
    double[][] util = new double[samples.size()][n];
    for (int c = 0; c < samples.size(); c++) {
      CpuSamples.Series s = samples.get(c);
      for (int k = 0; k < s.busyNs().length; k++) {
        util[c][k] = Math.min(100, 100.0 * s.busyNs()[k] / s.intervalNs());
      }
    }
    return util;
  }

  /** Completions per second per device, all CPUs' shares added, in device order of appearance. */
  static Map<String, double[]> deviceIops(List<CpuSamples.Series> samples, int n) {
    Map<String, double[]> out = new LinkedHashMap<>();
    for (CpuSamples.Series s : samples) {
      for (int d = 0; d < s.disks().size(); d++) {
        double[] v = out.computeIfAbsent(s.disks().get(d), k -> new double[n]);
        long[] ios = s.ios().get(d);
        for (int k = 0; k < ios.length; k++) {
          v[k] += ios[k] * 1e9 / s.intervalNs();
        }
      }
    }
    return out;
  }

  /** {@code time_series.json}: the interval, busy ns per CPU and completions per device. */
  static String timeSeriesJson(List<CpuSamples.Series> samples) {
    JsonWriter w = new JsonWriter();
    w.beginObject();
    w.name("interval_ns").value(samples.isEmpty() ? 0 : samples.get(0).intervalNs());
    w.name("cpu_busy_ns").beginArray();
    for (CpuSamples.Series s : samples) {
      w.beginArray();
      for (long v : s.busyNs()) {
        w.value(v);
      }
      w.endArray();
    }
    w.endArray();
    int n = 0;
    for (CpuSamples.Series s : samples) {
      n = Math.max(n, s.busyNs().length);
    }
    w.name("device_completions").beginObject();
    for (Map.Entry<String, double[]> e : deviceIops(samples, n).entrySet()) {
      w.name(e.getKey()).beginArray();
      long interval = samples.get(0).intervalNs();
      for (double v : e.getValue()) {
        w.value(Math.round(v * interval / 1e9));
      }
      w.endArray();
    }
    w.endObject();
    w.endObject();
    return w.toString() + "\n";
  }

  static String duration(long ns) {
    if (ns >= 1_000_000_000L && ns % 1_000_000_000L == 0) {
      return ns / 1_000_000_000L + "s";
    }
    if (ns >= 1_000_000L) {
      return fmt(ns / 1e6) + "ms";
    }
    if (ns >= 1000) {
      return fmt(ns / 1e3) + "us";
    }
    return ns + "ns";
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v)
        : String.format(Locale.ROOT, "%.4g", v).replaceAll("0+$", "").replaceAll("\\.$", "");
  }
}
