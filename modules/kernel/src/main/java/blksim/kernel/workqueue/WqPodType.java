package blksim.kernel.workqueue;

import blksim.kernel.topology.Cpu;
import blksim.kernel.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code struct wq_pod_type}: how one {@link AffinityScope} splits the CPUs into pods
 * ({@code init_pod_type()}, kernel/workqueue.c, kernel-model.md §4.6). Pods are numbered in order
 * of their first CPU, as the kernel numbers them; {@code pod_node} is the node of a pod's first
 * CPU ({@code NUMA_NO_NODE} for the system scope). Immutable.
 */
public final class WqPodType {
  private final AffinityScope scope;
  private final int[][] podCpus;
  private final int[] podNode;
  private final int[] cpuPod;

  private WqPodType(AffinityScope scope, int[][] podCpus, int[] podNode, int[] cpuPod) {
    this.scope = scope;
    this.podCpus = podCpus;
    this.podNode = podNode;
    this.cpuPod = cpuPod;
  }

  /** The pods of {@code scope} on {@code topo}. */
  public static WqPodType of(Topology topo, AffinityScope scope) {
    int n = topo.cpuCount();
    int[] cpuPod = new int[n];
    Arrays.fill(cpuPod, -1);
    // Pods in the order of their first CPU, each CPU in the pod of the first CPU it shares one
    // with: one pass, a pod looked up by its key (linear in the CPUs; 4,096 CPUs made the pairwise
    // scan 16 million checks per scope, issue 15 item 1).
    List<List<Integer>> members = new ArrayList<>();
    List<Integer> nodes = new ArrayList<>();
    java.util.Map<Integer, Integer> podOfKey = new java.util.HashMap<>();
    for (Cpu c : topo.cpus()) {
      int pod = podOfKey.computeIfAbsent(podKey(scope, c), k -> {
        members.add(new ArrayList<>());
        nodes.add(scope == AffinityScope.SYSTEM ? WqConstants.NUMA_NO_NODE : c.node());
        return members.size() - 1;
      });
      cpuPod[c.id()] = pod;
      members.get(pod).add(c.id());
    }
    int[][] pods = new int[members.size()][];
    for (int p = 0; p < pods.length; p++) {
      pods[p] = members.get(p).stream().mapToInt(Integer::intValue).sorted().toArray();
    }
    return new WqPodType(scope, pods, nodes.stream().mapToInt(Integer::intValue).toArray(),
        cpuPod);
  }

  /** What CPUs of one pod of {@code scope} have in common ({@link #sharePod}). */
  private static int podKey(AffinityScope scope, Cpu c) {
    return switch (scope) {
      case CPU -> c.id();
      case SMT -> c.core();
      case CACHE -> c.llc();
      case NUMA -> c.node();
      case SYSTEM -> 0;
    };
  }

  /** {@code cpus_share_*()}: whether {@code a} and {@code b} belong to one pod of {@code scope}. */
  static boolean sharePod(AffinityScope scope, Cpu a, Cpu b) {
    return switch (scope) {
      case CPU -> a.id() == b.id();
      case SMT -> a.core() == b.core();
      case CACHE -> a.llc() == b.llc();
      case NUMA -> a.node() == b.node();
      case SYSTEM -> true;
    };
  }

  /** The scope. */
  public AffinityScope scope() {
    return scope;
  }

  /** {@code nr_pods}. */
  public int nrPods() {
    return podCpus.length;
  }

  /** {@code pod_cpus[pod]}: the pod's CPU ids, ascending. */
  public int[] podCpus(int pod) {
    return podCpus[pod].clone();
  }

  /** {@code pod_node[pod]}. */
  public int podNode(int pod) {
    return podNode[pod];
  }

  /** {@code cpu_pod[cpu]}. */
  public int cpuPod(int cpu) {
    return cpuPod[cpu];
  }
}
