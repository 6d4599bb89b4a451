package blksim.engine;

/**
 * Where a component sits in the simulated machine, used to place it in a partition.
 *
 * <p>A component tied to a CPU gives its CPU, LLC and NUMA node; one tied only to a node gives
 * {@code cpu = -1}; a machine-wide component gives all three as -1 and lives in partition 0
 * unless placed by the model.
 */
public record Locality(int node, int llc, int cpu) {

  /** A component not tied to any part of the machine. */
  public static final Locality MACHINE = new Locality(-1, -1, -1);
}
