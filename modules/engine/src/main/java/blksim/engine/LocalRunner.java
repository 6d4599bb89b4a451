package blksim.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs a model's partitions inside this JVM without Pekko, with the same window protocol as the
 * cluster host. Used by unit tests of the engine and by benchmarks that measure the engine alone.
 *
 * <p>With {@code threads > 1} the partitions of a window run in parallel on a fixed thread pool;
 * results are identical either way.
 */
public final class LocalRunner {
  /** Window length of a single-partition run, in virtual ns. */
  public static final long SOLO_CHUNK_NS = 1_000_000L;

  private LocalRunner() {}

  /** Runs {@code model} with the given partitioning, on {@code threads} threads. */
  public static RunOutcome run(Model model, Partitioning partitioning, int threads,
      ProgressListener progress) {
    long wallStart = System.nanoTime();
    int[] placement = partitioning.place(model.components());
    int count = 0;
    for (int p : placement) {
      count = Math.max(count, p + 1);
    }
    List<Partition> parts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      parts.add(new Partition(i, model, placement));
    }
    int liveTotal = parts.stream().mapToInt(Partition::liveCount).sum();
    WindowPlanner planner = new WindowPlanner(model, count, liveTotal, SOLO_CHUNK_NS);
    ExecutorService pool = threads > 1 && count > 1 ? Executors.newFixedThreadPool(threads) : null;
    try {
      List<Partition.WindowResult> results = new ArrayList<>();
      for (Partition p : parts) {
        results.add(p.start());
      }
      long events = 0;
      while (true) {
        route(parts, results, planner);
        long earliest = Long.MAX_VALUE;
        for (Partition p : parts) {
          earliest = Math.min(earliest, p.nextEventTime());
        }
        long end = planner.nextWindowEnd(earliest);
        if (end < 0) {
          long last = parts.stream().mapToLong(Partition::lastEventTime).max().orElse(0);
          if (earliest == Long.MAX_VALUE && planner.live() > 0) {
            throw stall(parts, last);
          }
          long endTime = planner.endTime(last, earliest);
          List<IndexedReport> reports = new ArrayList<>();
          for (Partition p : parts) {
            reports.addAll(p.reports(endTime));
          }
          reports.sort(Comparator.comparingInt(IndexedReport::index));
          RunStats stats = new RunStats(events, planner.windows(), count, endTime,
              System.nanoTime() - wallStart);
          return new RunOutcome(reports, stats);
        }
        for (Partition p : parts) {
          p.setStopAt(planner.stopAt());
        }
        results = runWindow(parts, end, pool);
        for (Partition.WindowResult r : results) {
          events += r.events();
        }
        progress.progress(Math.min(end, planner.stopAt()), events);
      }
    } finally {
      if (pool != null) {
        pool.shutdownNow();
      }
    }
  }

  private static List<Partition.WindowResult> runWindow(List<Partition> parts, long end,
      ExecutorService pool) {
    List<Partition.WindowResult> out = new ArrayList<>();
    if (pool == null) {
      for (Partition p : parts) {
        out.add(p.runWindow(end));
      }
      return out;
    }
    List<Future<Partition.WindowResult>> fs = new ArrayList<>();
    for (Partition p : parts) {
      fs.add(pool.submit(() -> p.runWindow(end)));
    }
    for (Future<Partition.WindowResult> f : fs) {
      try {
        out.add(f.get());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SimulationException("interrupted", e);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RuntimeException re) {
          throw re;
        }
        throw new SimulationException("partition failed", e.getCause());
      }
    }
    return out;
  }

  private static void route(List<Partition> parts, List<Partition.WindowResult> results,
      WindowPlanner planner) {
    for (Partition.WindowResult r : results) {
      planner.accept(r);
      List<Event>[] out = r.outgoing();
      for (int d = 0; d < out.length; d++) {
        if (out[d] != null) {
          parts.get(d).deliver(out[d]);
        }
      }
    }
    for (Partition p : parts) {
      planner.acceptStop(p.stopAt());
    }
  }

  /** The error for a run in which live components wait but no event is left. */
  static SimulationException stall(List<Partition> parts, long lastEventTime) {
    List<String> live = new ArrayList<>();
    for (Partition p : parts) {
      live.addAll(p.liveComponents());
    }
    return stallError(live, lastEventTime);
  }

  /**
   * The error for a stalled run, given the ids of the components still keeping the run alive in
   * partition order; shared with the cluster host so both hosts report a stall identically.
   */
  public static SimulationException stallError(List<String> live, long lastEventTime) {
    return new SimulationException("the run stalled at virtual time " + lastEventTime
        + " ns: no event is left but " + live.size() + " component(s) have not finished: "
        + String.join(", ", live.subList(0, Math.min(10, live.size())))
        + (live.size() > 10 ? ", ..." : ""));
  }
}
