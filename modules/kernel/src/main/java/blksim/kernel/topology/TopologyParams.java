package blksim.kernel.topology;

/**
 * The shape of a simulated machine, as a scenario gives it.
 *
 * @param sockets physical packages
 * @param nodesPerSocket NUMA nodes per package
 * @param llcsPerNode last-level caches per node
 * @param coresPerLlc physical cores per LLC
 * @param threadsPerCore SMT threads per core (1 or 2 in practice)
 */
public record TopologyParams(
    int sockets, int nodesPerSocket, int llcsPerNode, int coresPerLlc, int threadsPerCore) {

  public TopologyParams {
    require("sockets", sockets, 1, 64);
    require("nodes-per-socket", nodesPerSocket, 1, 64);
    require("llcs-per-node", llcsPerNode, 1, 256);
    require("cores-per-llc", coresPerLlc, 1, 4096);
    require("threads-per-core", threadsPerCore, 1, 8);
    long cpus = (long) sockets * nodesPerSocket * llcsPerNode * coresPerLlc * threadsPerCore;
    if (cpus > 65536) {
      throw new IllegalArgumentException("the machine must have at most 65536 CPUs, had " + cpus);
    }
  }

  private static void require(String name, int v, int lo, int hi) {
    if (v < lo || v > hi) {
      throw new IllegalArgumentException(name + " must be in [" + lo + ", " + hi + "], was " + v);
    }
  }

  /** Number of logical CPUs. */
  public int cpuCount() {
    return sockets * nodesPerSocket * llcsPerNode * coresPerLlc * threadsPerCore;
  }
}
