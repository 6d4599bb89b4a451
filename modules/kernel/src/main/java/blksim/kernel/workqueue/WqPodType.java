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
    List<int[]> pods = new ArrayList<>();
    List<Integer> nodes = new ArrayList<>();
    for (Cpu c : topo.cpus()) {
      if (cpuPod[c.id()] >= 0) {
        continue;
      }
      int pod = pods.size();
      List<Integer> members = new ArrayList<>();
      for (Cpu o : topo.cpus()) {
        if (cpuPod[o.id()] < 0 && sharePod(scope, c, o)) {
          cpuPod[o.id()] = pod;
          members.add(o.id());
        }
      }
      pods.add(members.stream().mapToInt(Integer::intValue).sorted().toArray());
      nodes.add(scope == AffinityScope.SYSTEM ? WqConstants.NUMA_NO_NODE : c.node());
    }
    return new WqPodType(scope, pods.toArray(new int[0][]),
        nodes.stream().mapToInt(Integer::intValue).toArray(), cpuPod);
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
