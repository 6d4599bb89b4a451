package blksim.engine.pekko;

import blksim.engine.Model;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * The launcher's model of a run, handed to the first partition of that run that starts in the
 * launcher's JVM, and spare copies for the next ones, so that a run on an embedded node builds
 * each of its local partitions' models once and off its critical path.
 *
 * <p>{@link ClusterRunner} builds (or is given) the model to place its components and count the
 * live ones; every {@link PartitionEntity} builds its own from the spec, since it may live in
 * another JVM. In the launcher's JVM the first partition {@link #take takes} the launcher's copy
 * instead: the set-up time and memory of a one-partition run halve (at 4,096 CPUs the two copies
 * were about 117 MB). Only one partition may take it, since partitions of one JVM run on
 * different threads and a model's shared structures are not thread-safe. The next partitions
 * take the spares, models the launcher had built from the same spec on other threads while it
 * built its own ({@link ClusterRunner#buildSpares}); a partition that finds none, or a spare
 * whose build failed, builds its own as before (and so reports the build's error itself). The
 * launcher reads only the model's structure during the run and its state after the run has
 * ended, as the local host ({@code LocalRunner}) does with the one model it runs.
 */
final class ModelHandOff {
  private static final ConcurrentHashMap<String, Offer> OFFERED = new ConcurrentHashMap<>();

  /** What is left of the offer of one run: the launcher's model, then the spares in order. */
  private static final class Offer {
    private Model model;
    private final Deque<CompletableFuture<Model>> spares;

    Offer(Model model, List<CompletableFuture<Model>> spares) {
      this.model = model;
      this.spares = new ArrayDeque<>(spares);
    }

    synchronized CompletableFuture<Model> next() {
      if (model != null) {
        CompletableFuture<Model> m = CompletableFuture.completedFuture(model);
        model = null;
        return m;
      }
      return spares.poll();
    }
  }

  private ModelHandOff() {}

  /** Offers {@code model} to the partitions of run {@code runId} (until {@link #withdraw}). */
  static void offer(String runId, Model model) {
    offer(runId, model, List.of());
  }

  /**
   * Offers {@code model}, then the {@code spares} (models being built from the same spec), to the
   * partitions of run {@code runId} (until {@link #withdraw}).
   */
  static void offer(String runId, Model model, List<CompletableFuture<Model>> spares) {
    OFFERED.put(runId, new Offer(model, spares));
  }

  /**
   * A model of run {@code runId} no partition has taken yet (waiting for a spare still being
   * built), or null if none is left or the spare's build failed.
   */
  static Model take(String runId) {
    Offer o = OFFERED.get(runId);
    CompletableFuture<Model> f = o == null ? null : o.next();
    if (f == null) {
      return null;
    }
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (ExecutionException e) {
      return null;
    }
  }

  /** Withdraws the offer of run {@code runId} (at the run's end, taken or not). */
  static void withdraw(String runId) {
    OFFERED.remove(runId);
  }
}
