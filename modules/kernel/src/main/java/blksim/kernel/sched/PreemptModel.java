package blksim.kernel.sched;

import java.util.Locale;

/**
 * The kernel's preemption model ({@code CONFIG_PREEMPT_NONE}, {@code CONFIG_PREEMPT_VOLUNTARY},
 * {@code CONFIG_PREEMPT}), kernel-model.md §1.2: where a set need-resched flag takes effect.
 *
 * <table>
 *   <caption>Preemption points per model</caption>
 *   <tr><th>point</th><th>NONE</th><th>VOLUNTARY</th><th>FULL</th></tr>
 *   <tr><td>any point in user mode (a USER burst is cut)</td><td>yes</td><td>yes</td>
 *       <td>yes</td></tr>
 *   <tr><td>return to user mode ({@code exit_to_user_mode_loop()})</td><td>yes</td><td>yes</td>
 *       <td>yes</td></tr>
 *   <tr><td>{@code cond_resched()}</td><td>yes</td><td>yes</td><td>(already preempted)</td></tr>
 *   <tr><td>{@code might_resched()} / {@code might_sleep()}</td><td>no</td><td>yes</td>
 *       <td>(already preempted)</td></tr>
 *   <tr><td>any point in kernel mode (a SYSTEM burst is cut)</td><td>no</td><td>no</td>
 *       <td>yes</td></tr>
 * </table>
 *
 * <p>A context switch itself ({@code __schedule()}) always runs with preemption disabled; a
 * need-resched set during it is honoured by {@code schedule()}'s loop at its end, in every model.
 */
public enum PreemptModel {
  /** {@code CONFIG_PREEMPT_NONE}: kernel code runs until it blocks, returns to user or calls
   * {@code cond_resched()}. */
  NONE,
  /** {@code CONFIG_PREEMPT_VOLUNTARY}: NONE plus the {@code might_resched()} points. */
  VOLUNTARY,
  /** {@code CONFIG_PREEMPT}: kernel code is preemptible wherever preemption is enabled. */
  FULL;

  /** Whether a SYSTEM burst may be cut by a need-resched (kernel preemption). */
  public boolean preemptsKernel() {
    return this == FULL;
  }

  /** Parses the scenario value {@code none}, {@code voluntary} or {@code full}. */
  public static PreemptModel parse(String s) {
    switch (s.toLowerCase(Locale.ROOT)) {
      case "none":
        return NONE;
      case "voluntary":
        return VOLUNTARY;
      case "full":
        return FULL;
      default:
        throw new IllegalArgumentException(
            "preemption model must be none, voluntary or full, was '" + s + "'");
    }
  }
}
