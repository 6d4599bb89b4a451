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
        + dev.blkzoneReport(MAX_ZONE_LINES) + overTime(dev.samples());
    return new TaskReport(comm(), KIND, encode(dev.name, text, dev.samples()));
  }

  /** The sample columns, as {@link DmzDevice#samples()} holds them. */
  public static final List<String> SAMPLE_COLUMNS = List.of("t_ns", "free_rnd_zones",
      "free_seq_zones", "reclaimed_zones", "kcopyd_bytes", "free_zone_waits", "bios");

  /** One target's report: its name, its text and its samples (rows of SAMPLE_COLUMNS). */
  record Decoded(String name, String text, List<long[]> samples) {}

  private static byte[] encode(String name, String text, List<long[]> samples) {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
      out.writeUTF(name);
      byte[] t = text.getBytes(StandardCharsets.UTF_8);
      out.writeInt(t.length);
      out.write(t);
      out.writeInt(samples.size());
      for (long[] r : samples) {
        for (int j = 0; j < SAMPLE_COLUMNS.size(); j++) {
          out.writeLong(r[j]);
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static Decoded decode(byte[] payload) {
    try (java.io.DataInputStream in = new java.io.DataInputStream(
        new java.io.ByteArrayInputStream(payload))) {
      String name = in.readUTF();
      byte[] t = in.readNBytes(in.readInt());
      int n = in.readInt();
      List<long[]> rows = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        long[] r = new long[SAMPLE_COLUMNS.size()];
        for (int j = 0; j < r.length; j++) {
          r[j] = in.readLong();
        }
        rows.add(r);
      }
      return new Decoded(name, new String(t, StandardCharsets.UTF_8), rows);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The texts of every dm-zoned report among {@code tasks}, in order. */
  public static List<String> texts(List<TaskReport> tasks) {
    List<String> out = new ArrayList<>();
    for (TaskReport t : tasks) {
      if (t.kind().equals(KIND)) {
        out.add(decode(t.payload()).text());
      }
    }
    return out;
  }

  /**
   * Each target's samples of its zone states over time (device name to rows of
   * {@link #SAMPLE_COLUMNS}), for the JSON.
   */
  public static java.util.SortedMap<String, List<long[]>> samples(List<TaskReport> tasks) {
    java.util.SortedMap<String, List<long[]>> out = new java.util.TreeMap<>();
    for (TaskReport t : tasks) {
      if (t.kind().equals(KIND)) {
        Decoded d = decode(t.payload());
        out.put(d.name(), d.samples());
      }
    }
    return out;
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
