package blksim.cli;

import blksim.engine.ProgressListener;
import blksim.workload.replay.ReplayProgress;
import java.io.PrintStream;
import java.util.Locale;

/**
 * The progress line on stderr for runs longer than about two seconds on a terminal: simulated
 * time, percent done (when the end is known), events per second and the estimated time left;
 * for {@code read_iolog} replays also the trace time reached, records read per wall second and,
 * when a {@code replay_end} window bounds the trace, the time left to reach it.
 */
final class Progress implements ProgressListener {
  private static final long SHOW_AFTER_NS = 2_000_000_000L;
  private static final long EVERY_NS = 250_000_000L;
  private final PrintStream err;
  private final long expectedEndNs;
  private final long startNs = System.nanoTime();
  private long lastNs;
  private boolean shown;

  Progress(PrintStream err, long expectedEndNs) {
    this.err = err;
    this.expectedEndNs = expectedEndNs;
  }

  /** A listener that prints only on a terminal. */
  static ProgressListener forTerminal(java.util.function.LongSupplier expectedEndNs) {
    return System.console() == null ? ProgressListener.NONE : new Progress(System.err,
        expectedEndNs.getAsLong());
  }

  @Override
  public void progress(long simTimeNs, long events) {
    long now = System.nanoTime();
    long wall = now - startNs;
    if (wall < SHOW_AFTER_NS || now - lastNs < EVERY_NS) {
      return;
    }
    lastNs = now;
    shown = true;
    double eps = events / (wall / 1e9);
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "\rsimulated %.3f s", simTimeNs / 1e9));
    if (expectedEndNs > 0) {
      double frac = Math.min(1.0, (double) simTimeNs / expectedEndNs);
      sb.append(String.format(Locale.ROOT, " of %.3f s (%4.1f%%)", expectedEndNs / 1e9,
          frac * 100));
      if (frac > 0) {
        long eta = (long) (wall / 1e9 * (1 - frac) / frac);
        sb.append(String.format(Locale.ROOT, ", ETA %dm%02ds", eta / 60, eta % 60));
      }
    }
    sb.append(String.format(Locale.ROOT, ", %.2fM events/s", eps / 1e6));
    long records = ReplayProgress.records();
    if (records > 0) {
      // read_iolog: how far into the trace, how fast, and (with replay_end) how long to go.
      long trace = ReplayProgress.traceNs();
      long end = ReplayProgress.windowEndNs();
      sb.append(String.format(Locale.ROOT, "; trace %.3f s, %.2fM records/s", trace / 1e9,
          records / (wall / 1e9) / 1e6));
      if (end > 0 && trace > 0) {
        double frac = Math.min(1.0, (double) trace / end);
        long eta = (long) (wall / 1e9 * (1 - frac) / frac);
        sb.append(String.format(Locale.ROOT, ", trace ETA %dm%02ds", eta / 60, eta % 60));
      }
    }
    sb.append("   ");
    err.print(sb);
    err.flush();
  }

  /** Ends the progress line, if one was shown. */
  void close() {
    if (shown) {
      err.print("\r" + " ".repeat(79) + "\r");
      err.flush();
    }
  }
}
