package blksim.engine;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A fully built simulated machine: its components in a fixed order (their index is their position),
 * and the run-wide settings the engine needs.
 *
 * <p>The order of {@code components} is part of the total event order (ties break on the sender's
 * index), so the model builder must produce it deterministically from the scenario.
 *
 * @param components every component, index = position
 * @param lookaheadNs the minimum delay of any message between partitions (for example the
 *     cross-CPU wakeup latency); must be positive
 * @param maxTimeNs events at or after this virtual time are not run ({@link Long#MAX_VALUE}: none)
 * @param expectedEndNs an estimate of the run's end, for progress display only (0: unknown)
 * @param seed the run seed; every random stream derives from it and the component id
 * @param localityGroups locality groups (1: none): each partition runs its share of the CPUs'
 *     components as {@link Partitioning} {@code N} would place them in
 *     {@code localityGroups} partitions, one group after the other in each window of one
 *     lookahead, so that one group's state stays in the processor's caches while it runs (see
 *     {@link Partition}). Only a model that gives identical results in {@code localityGroups}
 *     partitions may ask for it; results never depend on it.
 */
public record Model(
    List<Component> components, long lookaheadNs, long maxTimeNs, long expectedEndNs, long seed,
    int localityGroups) {

  /** A model without locality groups. */
  public Model(List<Component> components, long lookaheadNs, long maxTimeNs, long expectedEndNs,
      long seed) {
    this(components, lookaheadNs, maxTimeNs, expectedEndNs, seed, 1);
  }

  public Model {
    if (localityGroups < 1) {
      throw new IllegalArgumentException("localityGroups must be at least 1, was "
          + localityGroups);
    }
    components = List.copyOf(components);
    if (lookaheadNs <= 0) {
      throw new IllegalArgumentException("lookaheadNs must be positive, was " + lookaheadNs);
    }
    if (maxTimeNs <= 0) {
      throw new IllegalArgumentException("maxTimeNs must be positive, was " + maxTimeNs);
    }
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < components.size(); i++) {
      Integer prev = seen.put(components.get(i).id(), i);
      if (prev != null) {
        throw new IllegalArgumentException("duplicate component id " + components.get(i).id());
      }
    }
  }
}
