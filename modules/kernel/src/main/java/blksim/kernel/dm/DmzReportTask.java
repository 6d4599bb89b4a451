package blksim.kernel.dm;

import blksim.kernel.kthread.Kthread;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.sched.TaskReport;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Carries a dm-zoned target's state at the end of a run into the run's reports: the
 * {@code dmzadm --format} summary, the zone counts and counters ({@link DmzDevice#summary}) and
 * a {@code blkzone report}-like dump of the zones in use ({@link DmzDevice#blkzoneReport}). A
 * task that never runs, on the CPU of the target's flush and reclaim works (the way a CPU's
 * report reaches the caller whatever the host). Read back with {@link #texts}.
 */
public final class DmzReportTask extends Kthread {
  /** {@link TaskReport#kind()} of its report. */
  public static final String KIND = "dmz";
  /** Lines of the zone dump at most. */
  static final int MAX_ZONE_LINES = 64;

  private final DmzDevice dev;

  DmzReportTask(DmzDevice dev) {
    super("dmz/" + dev.name, 0, 0);
    this.dev = dev;
  }

  @Override
  protected boolean hasWork() {
    return false;
  }

  @Override
  protected void doWork(TaskCpu cpu) {
    throw new IllegalStateException("dmz report task never runs");
  }

  @Override
  public TaskReport report(long endNs) {
    String text = "dm-zoned " + dev.name + " at " + endNs / 1_000_000 + " ms\n"
        + dev.fmt.summary() + dev.summary() + "blkzone report (zones in use):\n"
        + dev.blkzoneReport(MAX_ZONE_LINES) + overTime(dev.samples())
        + SAMPLES_MARK + dev.name + "\n" + samplesText(dev.samples());
    return new TaskReport(comm(), KIND, text.getBytes(StandardCharsets.UTF_8));
  }

  /** The texts of every dm-zoned report among {@code tasks}, in order. */
  public static List<String> texts(List<TaskReport> tasks) {
    List<String> out = new ArrayList<>();
    for (TaskReport t : tasks) {
      if (t.kind().equals(KIND)) {
        String all = new String(t.payload(), StandardCharsets.UTF_8);
        int m = all.indexOf(SAMPLES_MARK);
        out.add(m < 0 ? all : all.substring(0, m));
      }
    }
    return out;
  }

  /** Separates the report's text from its samples (one line each) in the payload. */
  static final String SAMPLES_MARK = "\n#dmz-samples ";

  /** The sample columns, as {@link DmzDevice#samples()} holds them. */
  public static final List<String> SAMPLE_COLUMNS = List.of("t_ns", "free_rnd_zones",
      "free_seq_zones", "reclaimed_zones", "kcopyd_bytes", "free_zone_waits", "bios");

  /**
   * Each target's samples of its zone states over time (device name to rows of
   * {@link #SAMPLE_COLUMNS}), for the JSON.
   */
  public static java.util.SortedMap<String, List<long[]>> samples(List<TaskReport> tasks) {
    java.util.SortedMap<String, List<long[]>> out = new java.util.TreeMap<>();
    for (TaskReport t : tasks) {
      if (!t.kind().equals(KIND)) {
        continue;
      }
      String all = new String(t.payload(), StandardCharsets.UTF_8);
      int m = all.indexOf(SAMPLES_MARK);
      if (m < 0) {
        continue;
      }
      String[] lines = all.substring(m + SAMPLES_MARK.length()).split("\n");
      List<long[]> rows = new ArrayList<>();
      for (int i = 1; i < lines.length; i++) {
        if (lines[i].isBlank()) {
          continue;
        }
        String[] f = lines[i].trim().split(" ");
        long[] r = new long[f.length];
        for (int j = 0; j < f.length; j++) {
          r[j] = Long.parseLong(f[j]);
        }
        rows.add(r);
      }
      out.put(lines[0].trim(), rows);
    }
    return out;
  }

  private static String samplesText(List<long[]> samples) {
    StringBuilder b = new StringBuilder();
    for (long[] r : samples) {
      for (int j = 0; j < r.length; j++) {
        b.append(j == 0 ? "" : " ").append(r[j]);
      }
      b.append('\n');
    }
    return b.toString();
  }

  /** At most 20 of the samples, evenly spaced, as a table for the text report. */
  private static String overTime(List<long[]> samples) {
    if (samples.isEmpty()) {
      return "";
    }
    StringBuilder b = new StringBuilder("zone states over time (JSON: dm_zoned, one sample per"
        + " second with activity):\n");
    b.append(String.format("  %10s %9s %9s %10s %11s %11s%n", "time s", "free rnd", "free seq",
        "reclaimed", "kcopyd MiB", "zone waits"));
    int n = samples.size();
    int rows = Math.min(20, n);
    for (int i = 0; i < rows; i++) {
      long[] r = samples.get(rows == 1 ? 0 : (int) ((long) i * (n - 1) / (rows - 1)));
      b.append(String.format(java.util.Locale.ROOT, "  %10.1f %9d %9d %10d %11d %11d%n",
          r[0] / 1e9, r[1], r[2], r[3], r[4] >> 20, r[5]));
    }
    return b.toString();
  }
}
