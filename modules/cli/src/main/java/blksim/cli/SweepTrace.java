package blksim.cli;

/**
 * Phase timestamps of a sweep or a run on stderr, with {@code -Dblksim.sweep.trace=true} (in
 * {@code BLKSIM_JAVA_OPTS}): JVM start to main, loading, joining the cluster, each run's start and
 * end on each worker, the last result, leaving and exit; for {@code run}: loading, the model
 * built, the simulation done, the results read, exit. Each line gives the seconds since this
 * JVM started and the wall clock (epoch ms), so the lines of a node and of the sweep's JVM can be
 * put side by side. Off by default; never part of the table or CSV.
 */
final class SweepTrace {
  private SweepTrace() {}

  /** Whether tracing is on. */
  static final boolean ON = Boolean.getBoolean("blksim.sweep.trace");

  private static final long JVM_START_MS = ON
      ? java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime() : 0;

  /** One line: {@code sweep-trace +S.SSS s (epoch ms) [thread] what}, when tracing is on. */
  static void mark(String what) {
    if (!ON) {
      return;
    }
    long now = System.currentTimeMillis();
    System.err.printf(java.util.Locale.ROOT, "sweep-trace +%.3f s (%d) [%s] %s%n",
        (now - JVM_START_MS) / 1e3, now, Thread.currentThread().getName(), what);
    System.err.flush();
  }
}
