package blksim.kernel.topology;

/**
 * How far apart two CPUs are, for the costs that grow with distance (issue 15 item 4): a
 * cross-CPU wakeup's IPI and a cache line or a lock word pulled from where it was last written.
 * The classes follow the cache hierarchy and the interconnect: SMT siblings share L1 and L2, the
 * cores of an LLC share it, the LLCs of a NUMA node share its memory controller and die-level
 * fabric, other nodes are one or more interconnect hops away (another die of the socket, or
 * another socket).
 */
public enum CpuDistance {
  /** The same CPU. */
  SAME,
  /** Another hardware thread of the same core. */
  SMT,
  /** Another core of the same LLC. */
  LLC,
  /** Another LLC of the same NUMA node. */
  NODE,
  /** Another NUMA node. */
  REMOTE;

  /** The class of {@code a} and {@code b}. */
  public static CpuDistance of(Cpu a, Cpu b) {
    if (a.id() == b.id()) {
      return SAME;
    }
    if (a.node() != b.node()) {
      return REMOTE;
    }
    if (a.llc() != b.llc()) {
      return NODE;
    }
    return a.core() == b.core() ? SMT : LLC;
  }
}
