package blksim.kernel.sched;

import java.util.ArrayList;
import java.util.List;

/**
 * One SMT core shared by its hardware threads ({@code cpu_smt_mask()}): the throughput two busy
 * siblings lose to each other ({@code costs.sched.smt-slowdown}, issue 15 item 4).
 *
 * <p>A thread whose sibling is busy executes its work {@link #factor} times slower than alone:
 * a burst that starts while a sibling runs a task is stretched by the factor, and when a
 * sibling starts or stops running a task in the middle of a burst, the work still to do is
 * rescaled to the new rate ({@link CpuComponent} re-arms the burst's end). The CPU time charged
 * is the stretched time: the thread occupies its CPU that long.
 *
 * <p>"Busy" is a task on the CPU ({@code rq->curr} is not the idle task), a spinning one
 * included; an idle CPU (in an idle state or handling an interrupt) leaves its sibling the
 * whole core. Simplified: one factor for every kind of work (the published SMT gains are for
 * whole workloads and do not separate user and kernel work); interrupt handlers are stretched
 * by the sibling's state when they start, not rescaled; an open-ended optimistic spin is not
 * stretched. All threads of a core are in one LLC and so one partition; a change on one thread
 * rescales the others within the same event, in CPU order, so the event order is deterministic.
 */
final class SmtCore {
  private final double factor;
  private final List<CpuComponent> threads = new ArrayList<>();
  /** Threads of this core that run a task now. */
  private int busy;

  /**
   * A core whose threads run {@code factor} (> 1) times slower while another thread of the core
   * is busy.
   */
  SmtCore(double factor) {
    if (!(factor > 1.0 && factor <= 4.0)) {
      throw new IllegalArgumentException("SMT factor must be in (1, 4], was " + factor);
    }
    this.factor = factor;
  }

  /** Adds a thread (in CPU order, before the run starts, idle). */
  void add(CpuComponent c) {
    threads.add(c);
  }

  /** The threads of this core, in the order they joined. */
  List<CpuComponent> threads() {
    return threads;
  }

  /** The slowdown of work run now on {@code c}: the factor if another thread is busy, else 1. */
  double factorFor(CpuComponent c) {
    int others = busy - (c.current() != null ? 1 : 0);
    return others > 0 ? factor : 1.0;
  }

  /** {@code ns} of work started now on {@code c}, stretched by {@link #factorFor}. */
  long stretch(CpuComponent c, long ns) {
    double f = factorFor(c);
    return f == 1.0 || ns <= 0 ? ns : Math.round(ns * f);
  }

  /**
   * {@code c} started ({@code nowBusy}) or stopped running a task: every other thread of the core
   * whose rate changes has the rest of its burst rescaled.
   */
  void busyChanged(CpuComponent c, boolean nowBusy) {
    busy += nowBusy ? 1 : -1;
    if (busy < 0 || busy > threads.size()) {
      throw new IllegalStateException("SMT core of " + c.id() + ": " + busy + " busy threads");
    }
    // Another thread's rate changes only when it loses its last busy sibling or gains its first.
    for (CpuComponent t : threads) {
      if (t != c) {
        t.smtRateChanged(factorFor(t));
      }
    }
  }

  /**
   * The wall time left of a burst that had {@code leftNs} to run at rate {@code oldFactor}, run
   * from now on at {@code newFactor}: the same work, rescaled.
   */
  static long rescale(long leftNs, double oldFactor, double newFactor) {
    if (oldFactor == newFactor || leftNs <= 0) {
      return leftNs;
    }
    return Math.round(leftNs / oldFactor * newFactor);
  }
}
