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
        + dev.blkzoneReport(MAX_ZONE_LINES);
    return new TaskReport(comm(), KIND, text.getBytes(StandardCharsets.UTF_8));
  }

  /** The texts of every dm-zoned report among {@code tasks}, in order. */
  public static List<String> texts(List<TaskReport> tasks) {
    List<String> out = new ArrayList<>();
    for (TaskReport t : tasks) {
      if (t.kind().equals(KIND)) {
        out.add(new String(t.payload(), StandardCharsets.UTF_8));
      }
    }
    return out;
  }
}
