package blksim.engine.pekko;

import blksim.engine.Model;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The launcher's model of a run, handed to the first partition of that run that starts in the
 * launcher's JVM, so that a run on an embedded node builds its model once instead of twice.
 *
 * <p>{@link ClusterRunner} builds (or is given) the model to place its components and count the
 * live ones; every {@link PartitionEntity} builds its own from the spec, since it may live in
 * another JVM. In the launcher's JVM the first partition {@link #take takes} the launcher's copy
 * instead: the set-up time and memory of a one-partition run halve (at 4,096 CPUs the two copies
 * were about 117 MB). Only one partition may take it, since partitions of one JVM run on
 * different threads and a model's shared structures are not thread-safe; the others build their
 * own as before. The launcher reads only the model's structure during the run and its state after
 * the run has ended, as the local host ({@code LocalRunner}) does with the one model it runs.
 */
final class ModelHandOff {
  private static final ConcurrentHashMap<String, Model> OFFERED = new ConcurrentHashMap<>();

  private ModelHandOff() {}

  /** Offers {@code model} to the partitions of run {@code runId} (until {@link #withdraw}). */
  static void offer(String runId, Model model) {
    OFFERED.put(runId, model);
  }

  /** The launcher's model of run {@code runId} if no partition has taken it yet, else null. */
  static Model take(String runId) {
    return OFFERED.remove(runId);
  }

  /** Withdraws the offer of run {@code runId} (at the run's end, taken or not). */
  static void withdraw(String runId) {
    OFFERED.remove(runId);
  }
}
