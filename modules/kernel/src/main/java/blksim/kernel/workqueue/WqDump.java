package blksim.kernel.workqueue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A tools/workqueue/wq_dump.py-style summary of the configuration and, from the owners' reports,
 * the pools' {@code idle/workers} and the 6.9+ {@code node_nr/max_active} counters
 * (kernel-model.md §10). Sections: Affinity Scopes, Worker Pools, Workqueue CPU -> pool,
 * Workqueue -> rescuer, Unbound workqueue -> node_nr/max_active (6.9+ modes only).
 *
 * <p>Simplified: the rescuer section shows no pid (a rescuer task exists in the model only once a
 * mayday woke it); cpumasks follow the script's {@code cpumask_str()}.
 */
public final class WqDump {
  private WqDump() {}

  /** {@code cpumask_str()}: 32-bit words, full ones as {@code hex()}, the last as {@code %08x}. */
  static String cpumaskStr(int[] cpus) {
    StringBuilder out = new StringBuilder();
    int base = 0;
    long v = 0;
    for (int cpu : cpus) {
      while (cpu - base >= 32) {
        out.append("0x").append(Long.toHexString(v)).append(' ');
        base += 32;
        v = 0;
      }
      v |= 1L << (cpu - base);
    }
    if (v > 0) {
      out.append(String.format("%08x", v));
    }
    return out.toString().strip();
  }

  /** The dump of {@code sys} with pool and counter states from {@code owners}. */
  public static String render(WorkqueueSystem sys, List<WqOwnerReport> owners) {
    Map<Integer, WqOwnerReport.PoolState> poolState = new HashMap<>();
    Map<String, WqOwnerReport.NnaState> nna = new HashMap<>();
    for (WqOwnerReport o : owners) {
      for (WqOwnerReport.PoolState p : o.pools()) {
        poolState.put(p.id(), p);
      }
      for (WqOwnerReport.NnaState n : o.nodeNrActive()) {
        nna.put(n.wqId() + ":" + n.node(), n);
      }
    }
    int n = sys.topology().cpuCount();
    int[] all = new int[n];
    for (int c = 0; c < n; c++) {
      all[c] = c;
    }
    StringBuilder b = new StringBuilder();
    b.append("Affinity Scopes\n===============\n");
    b.append("wq_unbound_cpumask=").append(cpumaskStr(all)).append('\n');
    for (AffinityScope a : AffinityScope.values()) {
      WqPodType pt = sys.podType(a);
      b.append('\n').append(a.name())
          .append(a == sys.params().defaultAffinityScope() ? " (default)" : "").append('\n');
      b.append("  nr_pods  ").append(pt.nrPods()).append('\n');
      b.append("  pod_cpus");
      for (int p = 0; p < pt.nrPods(); p++) {
        b.append(" [").append(p).append("]=").append(cpumaskStr(pt.podCpus(p)));
      }
      b.append("\n  pod_node");
      for (int p = 0; p < pt.nrPods(); p++) {
        b.append(" [").append(p).append("]=").append(pt.podNode(p));
      }
      b.append("\n  cpu_pod ");
      for (int c = 0; c < n; c++) {
        b.append(" [").append(c).append("]=").append(pt.cpuPod(c));
      }
      b.append('\n');
    }
    b.append("\nWorker Pools\n============\n");
    int pools = sys.poolCount();
    int idLen = Integer.toString(pools - 1).length();
    int refLen = 1;
    for (int p = 0; p < pools; p++) {
      refLen = Math.max(refLen, Integer.toString(sys.poolRefcnt(p)).length());
    }
    for (int p = 0; p < pools; p++) {
      WqOwnerReport.PoolState s = poolState.getOrDefault(p,
          new WqOwnerReport.PoolState(p, sys.params().initialWorkers(),
              sys.params().initialWorkers()));
      b.append(String.format("pool[%0" + idLen + "d] ref=%" + refLen + "d nice=%3d ", p,
          sys.poolRefcnt(p), sys.poolNice(p)));
      b.append(String.format("idle/workers=%3d/%3d ", s.nrIdle(), s.nrWorkers()));
      int nPer = n * WqConstants.NR_STD_WORKER_POOLS;
      if (p < nPer) {
        b.append(String.format("cpu=%3d", p / WqConstants.NR_STD_WORKER_POOLS));
      } else {
        b.append("cpus=").append(cpumaskStr(all)).append(" pod_cpus=")
            .append(cpumaskStr(sys.poolCpus(p)));
        if (sys.poolStrict(p)) {
          b.append(" strict");
        }
      }
      b.append('\n');
    }
    b.append("\nWorkqueue CPU -> pool\n=====================\n");
    int w = WqConstants.WQ_NAME_LEN;
    b.append('[').append(center("workqueue", w - 2)).append("\\ ")
        .append(String.format("%-9s", "type   CPU"));
    for (int c = 0; c < n; c++) {
      b.append(String.format(" %" + idLen + "d", c));
    }
    b.append(" dfl]\n");
    for (Workqueue wq : sys.workqueues()) {
      b.append(String.format("%-" + w + "s %-10s", wq.name(), typeStr(wq)));
      for (int c = 0; c < n; c++) {
        int len = Math.max(Integer.toString(c).length(), idLen);
        b.append(String.format(" %" + len + "d", wq.poolOfCpu(c)));
      }
      if (wq.unbound()) {
        b.append(String.format(" %" + idLen + "d", wq.dflPool));
      }
      b.append('\n');
    }
    b.append("\nWorkqueue -> rescuer\n====================\n");
    String mask = cpumaskStr(all);
    int ucpus = Math.max(mask.length(), "unbound_cpus".length());
    int rcpus = Math.max(mask.length(), "rescuer_cpus".length());
    b.append('[').append(center("workqueue", w - 2)).append("\\ ")
        .append(String.format("%-" + ucpus + "s    pid %-" + rcpus + "s ]", "unbound_cpus",
            "rescuer_cpus"))
        .append('\n');
    for (Workqueue wq : sys.workqueues()) {
      if (!wq.memReclaim()) {
        continue;
      }
      b.append(String.format("%-" + w + "s %-" + ucpus + "s %6s %-" + rcpus + "s", wq.name(),
          wq.unbound() ? mask : "", "-", mask)).append('\n');
    }
    if (sys.params().mode().nodeNrActive()) {
      b.append("\nUnbound workqueue -> node_nr/max_active\n")
          .append("=======================================\n");
      b.append("online_cpus=").append(mask).append('\n');
      int nodes = sys.topology().nodeCount();
      for (int node = 0; node < nodes; node++) {
        int finalNode = node;
        int[] cpus = sys.topology().cpus().stream().filter(c -> c.node() == finalNode)
            .mapToInt(c -> c.id()).toArray();
        b.append(String.format("NODE[%02d]=%s%n", node, cpumaskStr(cpus)));
      }
      b.append('\n');
      b.append('[').append(center("workqueue", w - 2)).append("\\ min max");
      for (int node = 0; node < nodes; node++) {
        b.append(node == 0 ? "  NODE " + node : String.format(" %7d", node));
      }
      b.append(String.format(" %7s ]%n%n", "dfl"));
      for (Workqueue wq : sys.workqueues()) {
        if (!wq.unbound()) {
          continue;
        }
        b.append(String.format("%-" + w + "s %3d %3d", wq.name(), wq.minActive(),
            wq.maxActive()));
        for (int node = 0; node <= nodes; node++) {
          int key = node == nodes ? WqConstants.NUMA_NO_NODE : node;
          WqOwnerReport.NnaState s = nna.get(wq.id() + ":" + key);
          int nr = s == null ? 0 : s.nr();
          b.append(String.format(" %3d/%3d", nr, wq.nodeMaxActive(key)));
        }
        b.append('\n');
      }
    }
    return b.toString();
  }

  private static String typeStr(Workqueue wq) {
    if (!wq.unbound()) {
      return "percpu";
    }
    if (wq.ordered()) {
      return "ordered";
    }
    return wq.affinityStrict() ? "unbound,S" : "unbound";
  }

  /** Python's {@code f'{s:^{width}}'}. */
  static String center(String s, int width) {
    int pad = Math.max(0, width - s.length());
    int left = pad / 2;
    return " ".repeat(left) + s + " ".repeat(pad - left);
  }
}
