package blksim.kernel.topology;

import java.util.ArrayList;
import java.util.List;

/**
 * The simulated machine's CPUs.
 *
 * <p>CPUs are numbered as x86 Linux usually enumerates them: first thread 0 of every core, in
 * socket/node/LLC order, then thread 1 of every core, and so on; so CPU {@code c} and
 * {@code c + cores} are SMT siblings.
 */
public final class Topology {
  private final TopologyParams params;
  private final List<Cpu> cpus;

  private Topology(TopologyParams params, List<Cpu> cpus) {
    this.params = params;
    this.cpus = List.copyOf(cpus);
  }

  /** Builds the CPUs of a machine shaped by {@code p}. */
  public static Topology of(TopologyParams p) {
    int cores = p.sockets() * p.nodesPerSocket() * p.llcsPerNode() * p.coresPerLlc();
    List<Cpu> cpus = new ArrayList<>();
    for (int t = 0; t < p.threadsPerCore(); t++) {
      for (int core = 0; core < cores; core++) {
        int llc = core / p.coresPerLlc();
        int node = llc / p.llcsPerNode();
        int socket = node / p.nodesPerSocket();
        cpus.add(new Cpu(t * cores + core, socket, node, llc, core));
      }
    }
    return new Topology(p, cpus);
  }

  /** The parameters this machine was built from. */
  public TopologyParams params() {
    return params;
  }

  /** All CPUs, by id. */
  public List<Cpu> cpus() {
    return cpus;
  }

  /** Number of logical CPUs. */
  public int cpuCount() {
    return cpus.size();
  }

  /** Number of NUMA nodes. */
  public int nodeCount() {
    return params.sockets() * params.nodesPerSocket();
  }

  /** Number of LLC domains. */
  public int llcCount() {
    return nodeCount() * params.llcsPerNode();
  }

  /** The CPU with the given id. */
  public Cpu cpu(int id) {
    return cpus.get(id);
  }
}
