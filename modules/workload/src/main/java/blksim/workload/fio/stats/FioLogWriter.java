package blksim.workload.fio.stats;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * fio's per-I/O log files ({@code write_lat_log}, {@code write_bw_log}, {@code write_iops_log}),
 * written from a job's {@link IoSamples} after the run, line for line as fio's
 * {@code flush_samples()} (iolog.c) prints them: {@code time, value[, max], ddir, bs[, offset],
 * prio[, issue_time]}.
 *
 * <p>What goes into each log follows stat.c: without {@code log_avg_msec} every I/O gives one row
 * at its completion (its submission for the slat log), {@code lat} = slat + clat, {@code bw} =
 * {@code bytes * 1000000 / clat_ns} ({@code add_bw_sample()}), {@code iops} = 1. With
 * {@code log_avg_msec} the latency logs hold the mean (or max, or both) of each window, written
 * when the first I/O past the window completes ({@code add_log_sample()}), and the rest at the
 * end of the job ({@code finalize_logs()}); bw and iops rows are the rates of each
 * {@code log_avg_msec} interval ({@code __add_samples()}), as fio's helper thread computes them.
 * Windowed rows have bs 0, as in fio. Times are ms since the end of the ramp (fio's epoch).
 *
 * <p>Simplified: fio's helper thread wakes at about, not exactly, every {@code log_avg_msec};
 * here the bw/iops intervals end exactly on multiples of it, and the last partial interval of a
 * job is not logged. Priorities are always 0 (blksim has no I/O priority classes yet).
 */
public final class FioLogWriter {
  private FioLogWriter() {}

  /** The file names a job's logs get, relative to the working directory. */
  public static List<String> fileNames(FioLogOptions o, String jobName, int threadNumber) {
    return new ArrayList<>(files(o, jobName, threadNumber).keySet());
  }

  /** Each log file name of a job with the option that asks for it ({@code write_lat_log}...). */
  public static Map<String, String> files(FioLogOptions o, String jobName, int threadNumber) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : logs(o, jobName).entrySet()) {
      String type = e.getKey();
      out.put(name(e.getValue(), type, threadNumber, o.perJob()), switch (type) {
        case "bw" -> "write_bw_log";
        case "iops" -> "write_iops_log";
        default -> "write_lat_log";
      });
    }
    return out;
  }

  private static Map<String, String> logs(FioLogOptions o, String jobName) {
    Map<String, String> m = new LinkedHashMap<>();
    if (o.latPrefix() != null) {
      String p = o.latPrefix().isEmpty() ? jobName : o.latPrefix();
      m.put("lat", p);
      m.put("slat", p);
      m.put("clat", p);
    }
    if (o.bwPrefix() != null) {
      m.put("bw", o.bwPrefix().isEmpty() ? jobName : o.bwPrefix());
    }
    if (o.iopsPrefix() != null) {
      m.put("iops", o.iopsPrefix().isEmpty() ? jobName : o.iopsPrefix());
    }
    return m;
  }

  /** fio's {@code gen_log_name()}. */
  static String name(String prefix, String type, int threadNumber, boolean perJob) {
    return perJob ? prefix + "_" + type + "." + threadNumber + ".log" : prefix + "_" + type + ".log";
  }

  /**
   * Writes the job's log files under {@code dir} (each through a temporary file, then moved into
   * place; with {@code per_job_logs=0} after what the shared file already holds, as fio appends
   * to it); returns the paths written.
   */
  public static List<Path> write(Path dir, FioLogOptions o, String jobName, int threadNumber,
      JobStats stats, long endNs) throws IOException {
    IoSamples s = stats.samples();
    List<Path> written = new ArrayList<>();
    if (s == null) {
      return written;
    }
    for (Map.Entry<String, String> e : logs(o, jobName).entrySet()) {
      Path target = dir.resolve(name(e.getValue(), e.getKey(), threadNumber, o.perJob()));
      Path tmp = target.resolveSibling(target.getFileName() + ".blksim-tmp");
      try (Writer w = new BufferedWriter(Files.newBufferedWriter(tmp, StandardCharsets.UTF_8),
          1 << 16)) {
        if (!o.perJob() && Files.exists(target)) {
          // iolog.c finish_log(): flush_log(log, !per_job_logs) opens the shared file with
          // "a", so every job's rows follow what the file already holds.
          w.write(Files.readString(target, StandardCharsets.UTF_8));
        }
        render(w, e.getKey(), o, s, stats.startNs(), endNs);
      } catch (IOException | RuntimeException ex) {
        Files.deleteIfExists(tmp);
        throw ex;
      }
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      written.add(target);
    }
    return written;
  }

  /** The rows of one log ({@code lat}, {@code slat}, {@code clat}, {@code bw}, {@code iops}). */
  public static void render(Appendable w, String type, FioLogOptions o, IoSamples s, long epochNs,
      long endNs) throws IOException {
    Rows rows = new Rows(w, o);
    boolean latency = type.equals("lat") || type.equals("slat") || type.equals("clat");
    if (!latency && o.avgMsec() > 0) {
      intervals(rows, type, o.avgMsec(), s, epochNs, endNs);
      return;
    }
    Integer[] order = order(type, s, epochNs);
    Window[] win = {new Window(), new Window(), new Window()};
    for (int k = 0; k < order.length; k++) {
      int i = order[k];
      long slat = Math.max(0, s.slatNs(i));
      long issue = s.completionNs(i) - s.clatNs(i);
      long at = type.equals("slat") ? issue : s.completionNs(i);
      long value;
      long issueTime = 0;
      switch (type) {
        case "lat" -> value = slat + s.clatNs(i);
        case "slat" -> {
          value = s.slatNs(i);
          issueTime = issue - epochNs;
        }
        case "clat" -> {
          value = s.clatNs(i);
          issueTime = issue - epochNs;
        }
        case "bw" -> value = s.clatNs(i) == 0 ? 0 : s.bytes(i) * 1_000_000L / s.clatNs(i);
        default -> value = 1;
      }
      long ms = (at - epochNs) / 1_000_000L;
      int d = s.ddir(i);
      if (o.avgMsec() == 0) {
        rows.row(ms, value, 0, d, s.bytes(i), Math.max(0, s.offset(i)), issueTime);
        continue;
      }
      // add_log_sample() for an inline (latency) log.
      Window wd = win[d];
      wd.add(value);
      if (ms < wd.last || ms - wd.last < o.avgMsec()) {
        continue;
      }
      wd.flush(rows, ms, d, o.windowValue());
      wd.last = ms - ms % o.avgMsec();
    }
    if (o.avgMsec() > 0) {
      // finalize_logs(): what is left in each window, at the end of the job.
      long ms = (endNs - epochNs) / 1_000_000L;
      for (int d = 0; d < 3; d++) {
        win[d].flush(rows, ms, d, o.windowValue());
      }
    }
  }

  /** Sample indexes in the order fio logs them: slat at issue, the rest at completion. */
  private static Integer[] order(String type, IoSamples s, long epochNs) {
    List<Integer> idx = new ArrayList<>();
    for (int i = 0; i < s.size(); i++) {
      if (type.equals("slat") && s.slatNs(i) < 0) {
        continue; // sync engines measure no slat (fio's io_u_queued() is not called)
      }
      idx.add(i);
    }
    Integer[] a = idx.toArray(new Integer[0]);
    if (type.equals("slat")) {
      Arrays.sort(a, (x, y) -> Long.compare(s.completionNs(x) - s.clatNs(x),
          s.completionNs(y) - s.clatNs(y)));
    }
    return a;
  }

  /** {@code __add_samples()} at every {@code log_avg_msec} tick of the job. */
  private static void intervals(Rows rows, String type, int avgMsec, IoSamples s, long epochNs,
      long endNs) throws IOException {
    long stepNs = avgMsec * 1_000_000L;
    int i = 0;
    for (long tick = epochNs + stepNs; tick <= endNs; tick += stepNs) {
      long[] delta = new long[3];
      while (i < s.size() && s.completionNs(i) <= tick) {
        delta[s.ddir(i)] += type.equals("bw") ? s.bytes(i) : 1;
        i++;
      }
      long ms = (tick - epochNs) / 1_000_000L;
      for (int d = 0; d < 3; d++) {
        if (delta[d] == 0) {
          continue;
        }
        long rate = type.equals("bw") ? delta[d] * 1000 / avgMsec / 1024 : delta[d] * 1000 / avgMsec;
        Window one = new Window();
        one.add(rate);
        one.flush(rows, ms, d, rows.o.windowValue());
      }
    }
  }

  /** fio's {@code struct io_stat} of a log window ({@code add_stat_sample()}). */
  private static final class Window {
    long samples;
    double mean;
    long max;
    long last;

    void add(long v) {
      max = Math.max(max, v);
      double delta = v - mean;
      if (delta != 0) {
        mean += delta / (samples + 1.0);
      }
      samples++;
    }

    /** {@code __add_stat_to_log()}: a row if the window has samples; then it is reset. */
    void flush(Rows rows, long ms, int ddir, int windowValue) throws IOException {
      if (samples > 0) {
        long avg = (long) (mean + 0.50);
        if (windowValue == 0) {
          rows.row(ms, avg, 0, ddir, 0, 0, 0);
        } else if (windowValue == 1) {
          rows.row(ms, max, 0, ddir, 0, 0, 0);
        } else {
          rows.row(ms, avg, max, ddir, 0, 0, 0);
        }
      }
      samples = 0;
      mean = 0;
      max = 0;
    }
  }

  /** {@code flush_samples()}'s row format. */
  private static final class Rows {
    final Appendable w;
    final FioLogOptions o;
    final StringBuilder b = new StringBuilder(64);

    Rows(Appendable w, FioLogOptions o) {
      this.w = w;
      this.o = o;
    }

    void row(long ms, long value, long max, int ddir, long bs, long offset, long issueTime)
        throws IOException {
      b.setLength(0);
      b.append(ms).append(", ").append(value);
      if (o.windowValue() == 2) {
        b.append(", ").append(max);
      }
      b.append(", ").append(ddir).append(", ").append(bs);
      if (o.offset()) {
        b.append(", ").append(offset);
      }
      b.append(o.prio() ? ", 0x0000" : ", 0");
      if (o.issueTime()) {
        b.append(", ").append(issueTime);
      }
      b.append('\n');
      w.append(b);
    }
  }

  /** Unchecked wrapper for callers that render into memory. */
  public static String render(String type, FioLogOptions o, IoSamples s, long epochNs, long endNs) {
    StringBuilder b = new StringBuilder();
    try {
      render(b, type, o, s, epochNs, endNs);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return b.toString();
  }
}
