package blksim.kernel.sched;

import java.util.List;

/**
 * Which CPUs record their context switches ({@link SwitchRecord}, {@code perf sched timehist}),
 * over which window of virtual time, and at most how many per CPU.
 *
 * @param cpus CPU ids that record; empty for none
 * @param fromNs first switch-out time recorded
 * @param toNs switch-outs from this time on are not recorded; 0 for the end of the run
 * @param maxLines most records kept per CPU; later ones are dropped and counted
 */
public record TimehistParams(List<Integer> cpus, long fromNs, long toNs, int maxLines) {

  /** No CPU records anything. */
  public static final TimehistParams NONE = new TimehistParams(List.of(), 0, 0, 0);

  public TimehistParams {
    cpus = List.copyOf(cpus);
    if (fromNs < 0 || toNs < 0 || maxLines < 0) {
      throw new IllegalArgumentException("timehist window and limit must be >= 0: " + fromNs
          + ", " + toNs + ", " + maxLines);
    }
    if (toNs != 0 && toNs <= fromNs) {
      throw new IllegalArgumentException("timehist window ends (" + toNs
          + " ns) before it starts (" + fromNs + " ns)");
    }
  }

  /** Whether CPU {@code cpu} records. */
  public boolean traces(int cpu) {
    return cpus.contains(cpu);
  }

  /** Whether a switch-out at {@code timeNs} is in the window. */
  public boolean inWindow(long timeNs) {
    return timeNs >= fromNs && (toNs == 0 || timeNs < toNs);
  }
}
