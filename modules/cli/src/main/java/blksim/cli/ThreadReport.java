package blksim.cli;

import blksim.kernel.sched.LockWaitStat;
import blksim.workload.fio.stats.RunResult;
import blksim.workload.fio.stats.ThreadStat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The table {@code run --threads} prints after fio's text: every simulated thread, grouped by
 * name with numbers folded ({@code iou-wrk-N}, {@code kworker/N:N}), in order of first
 * appearance. fio's own {@code cpu} line counts only fio's threads (RUSAGE_THREAD); this shows
 * where the rest of the machine's time went, io-wq workers and kworkers included.
 */
final class ThreadReport {
  private ThreadReport() {}

  /** Sums of one group. */
  private static final class Group {
    final TreeSet<Integer> cpus = new TreeSet<>();
    int n;
    long usr;
    long sys;
    long nvcsw;
    long nivcsw;
    long runDelay;
    long migrations;
  }

  /** The table, or an empty string when the run has no thread statistics. */
  static String text(RunResult r) {
    List<ThreadStat> threads = r.threads();
    if (threads.isEmpty() || r.engine() == null || r.engine().simulatedTimeNs() <= 0) {
      return "";
    }
    double elapsed = r.engine().simulatedTimeNs();
    Map<String, Group> groups = new LinkedHashMap<>();
    for (ThreadStat t : threads) {
      Group g = groups.computeIfAbsent(t.group(), k -> new Group());
      g.cpus.add(t.cpu());
      g.n++;
      g.usr += t.utimeNs();
      g.sys += t.stimeNs();
      g.nvcsw += t.nvcsw();
      g.nivcsw += t.nivcsw();
      g.runDelay += t.runDelayNs();
      g.migrations += t.migrations();
    }
    StringBuilder b = new StringBuilder();
    b.append("\nThreads (all simulated threads, grouped by name; per-thread averages over ")
        .append(String.format(Locale.ROOT, "%.3f", elapsed / 1e9)).append(" s;\n")
        .append("  CPUs = CPU time of the whole group in CPUs' worth; wait = runnable but not"
            + " running;\n  on = the CPUs the threads were placed on):\n");
    b.append(String.format(Locale.ROOT, "  %-20s %7s %6s %8s %7s %7s %10s %10s %7s %10s%n",
        "name", "threads", "on", "CPUs", "usr%", "sys%", "vctx/s", "ivctx/s", "wait%", "migr/s"));
    double seconds = elapsed / 1e9;
    for (Map.Entry<String, Group> e : groups.entrySet()) {
      Group g = e.getValue();
      double per = 100.0 / (elapsed * g.n);
      b.append(String.format(Locale.ROOT,
          "  %-20s %7d %6s %8.2f %7.2f %7.2f %10.0f %10.0f %7.2f %10.0f%n",
          e.getKey(), g.n, cpuSpan(g.cpus), (g.usr + g.sys) / elapsed, g.usr * per, g.sys * per,
          g.nvcsw / seconds / g.n, g.nivcsw / seconds / g.n, g.runDelay * per,
          g.migrations / seconds / g.n));
    }
    locks(b, threads, seconds);
    return b.toString();
  }

  /**
   * The sleeping locks (each summed over the threads that took it), the waits per thread group,
   * and the threads in D state at the end with the lock each waits on; nothing if no thread took
   * a sleeping lock.
   */
  static void locks(StringBuilder b, List<ThreadStat> threads, double seconds) {
    Map<String, LockWaitStat> locks = new LinkedHashMap<>();
    Map<String, LockWaitStat> byGroup = new LinkedHashMap<>();
    for (ThreadStat t : threads) {
      for (LockWaitStat l : t.locks()) {
        locks.merge(l.lock(), l, LockWaitStat::plus);
        byGroup.merge(t.group() + "\u0000" + l.lock(), l, LockWaitStat::plus);
      }
    }
    if (locks.isEmpty()) {
      return;
    }
    b.append("\nSleeping locks (all threads; wait = from the first attempt to holding the lock,"
        + " spinning on\n  the CPU or asleep in D state; hand-offs = anti-starvation hand-offs):\n");
    b.append(String.format(Locale.ROOT, "  %-24s %9s %9s %8s %8s %9s %9s %9s %9s %8s%n", "lock",
        "acq/s", "contended", "spun", "slept", "spin ms", "sleep ms", "avg us", "max us",
        "handoffs"));
    for (LockWaitStat l : locks.values()) {
      b.append(String.format(Locale.ROOT,
          "  %-24s %9.0f %9d %8d %8d %9.3f %9.3f %9.1f %9.1f %8d%n", l.lock(),
          l.acquisitions() / seconds, l.contended(), l.spun(), l.slept(), l.spinNs() / 1e6,
          l.sleepNs() / 1e6, l.contended() == 0 ? 0.0 : l.waitNs() / 1e3 / l.contended(),
          l.maxWaitNs() / 1e3, l.handoffs()));
    }
    b.append("  by thread group:\n");
    for (Map.Entry<String, LockWaitStat> e : byGroup.entrySet()) {
      LockWaitStat l = e.getValue();
      String group = e.getKey().substring(0, e.getKey().indexOf('\u0000'));
      b.append(String.format(Locale.ROOT,
          "  %-20s %-24s %9d acquisitions, %d contended, %.3f ms spinning, %.3f ms asleep%n",
          group, l.lock(), l.acquisitions(), l.contended(), l.spinNs() / 1e6,
          l.sleepNs() / 1e6));
    }
    Map<String, Integer> d = new LinkedHashMap<>();
    int inD = 0;
    for (ThreadStat t : threads) {
      if (t.state() == 'D') {
        inD++;
        d.merge(t.group() + " on " + t.wchan(), 1, Integer::sum);
      }
    }
    b.append("  threads in D state at the end: ").append(inD);
    for (Map.Entry<String, Integer> e : d.entrySet()) {
      b.append(inD == 0 ? "" : "\n    ").append(e.getValue()).append(" x ").append(e.getKey());
    }
    b.append('\n');
  }

  /** "3", "0-47" or "5 CPUs" for the CPUs a group ran on. */
  static String cpuSpan(TreeSet<Integer> cpus) {
    int first = cpus.first();
    int last = cpus.last();
    if (first == last) {
      return Integer.toString(first);
    }
    if (last - first + 1 == cpus.size()) {
      return first + "-" + last;
    }
    return cpus.size() + " cpus";
  }
}
