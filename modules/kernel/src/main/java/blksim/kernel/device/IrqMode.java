package blksim.kernel.device;

import java.util.Locale;

/**
 * How null_blk completes a request (module parameter {@code irqmode}): 0 inline in
 * {@code queue_rq()}, 1 through a softirq on the submitting CPU, 2 from an hrtimer after
 * {@code completion_nsec}.
 */
public enum IrqMode {
  NONE,
  SOFTIRQ,
  TIMER;

  /** Parses {@code none|softirq|timer} or the numbers 0, 1, 2 null_blk takes. */
  public static IrqMode parse(String s) {
    switch (s.trim().toLowerCase(Locale.ROOT)) {
      case "0":
      case "none":
        return NONE;
      case "1":
      case "softirq":
        return SOFTIRQ;
      case "2":
      case "timer":
        return TIMER;
      default:
        throw new IllegalArgumentException("irqmode must be none|softirq|timer (or 0|1|2), was '"
            + s + "'");
    }
  }
}
