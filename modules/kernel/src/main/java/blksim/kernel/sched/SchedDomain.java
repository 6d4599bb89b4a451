package blksim.kernel.sched;

import java.util.List;

/**
 * One CPU's {@code struct sched_domain} at one level (kernel/sched/topology.c {@code sd_init()}):
 * its span, its groups (shared by the CPUs of the span, as the kernel's {@code sched_group}s
 * are) and the per-CPU balancing state ({@code balance_interval}, {@code last_balance},
 * {@code nr_balance_failed}, {@code max_newidle_lb_cost}).
 *
 * <p>Levels built: SMT (the CPU's core, groups of one CPU, {@code imbalance_pct} 110,
 * {@code SD_SHARE_CPUCAPACITY}: never cache hot) when the core has several threads, and MC (the
 * LLC, groups of one core, {@code imbalance_pct} 117, {@code cache_nice_tries} 1) when the LLC
 * has more than one core; a level whose span equals its child's is degenerate and left out, as
 * {@code sd_degenerate()} does.
 *
 * <p>Above the LLC ({@link #above}): DIE, the CPUs of the node ({@code cpu_cpu_mask()}) in
 * groups of one LLC, {@code imbalance_pct} 117, {@code cache_nice_tries} 1,
 * {@code SD_PREFER_SIBLING}, built when the node has several LLCs; and one NUMA level per
 * distance ({@code sched_init_numa()}): the nodes of the socket in groups of one node (when a
 * socket has several nodes), then the whole machine in groups of one socket (or of one node
 * with one node per socket), {@code SD_NUMA}: {@code cache_nice_tries} 2, no
 * {@code SD_PREFER_SIBLING} (so a level above a NUMA level does not prefer siblings), {@code imb_numa_nr} from {@code build_sched_domains()}. Groups above
 * the LLC are read from the LLCs' published summaries, never directly (see {@link
 * CpuComponent#loadBalanceAcross}). Simplified: {@code SD_SERIALIZE} (one NUMA balancer at a
 * time, a global trylock) is not modelled, as it would need state shared across partitions.
 */
final class SchedDomain {
  /** {@code sd->busy_factor} (sd_init(), 16). */
  static final int BUSY_FACTOR = 16;
  /** {@code MAX_PINNED_INTERVAL} (fair.c, 512 ms). */
  static final long MAX_PINNED_INTERVAL_MS = 512;

  final String name;
  final List<CpuComponent> span;
  final List<List<CpuComponent>> groups;
  /** Index in {@link #groups} of the group holding the domain's CPU. */
  final int local;
  final int imbalancePct;
  final int cacheNiceTries;
  /** {@code SD_SHARE_CPUCAPACITY}: SMT siblings, whose tasks are never cache hot. */
  final boolean shareCpuCapacity;
  /** {@code sds->prefer_sibling}: the child level (SMT) has {@code SD_PREFER_SIBLING}. */
  final boolean preferSibling;
  final long minIntervalMs;
  final long maxIntervalMs;

  /** Above the LLC: the LLC ids of each group (null for SMT and MC). */
  final List<List<Integer>> llcGroups;
  /** {@code SD_NUMA}. */
  final boolean numa;
  /** {@code sd->imb_numa_nr} (0 below the first level above the LLC). */
  int imbNumaNr;
  /** A pull request of this level is on its way and not yet answered. */
  boolean pullPending;

  long balanceIntervalMs = 1;
  long lastBalanceNs;
  int nrBalanceFailed;
  long maxNewidleLbCostNs;
  long lastDecayNs;

  SchedDomain(String name, List<CpuComponent> span, List<List<CpuComponent>> groups, int local,
      boolean smt, boolean preferSibling) {
    this.name = name;
    this.span = List.copyOf(span);
    this.groups = List.copyOf(groups);
    this.local = local;
    this.shareCpuCapacity = smt;
    this.imbalancePct = smt ? 110 : 117;
    this.cacheNiceTries = smt ? 0 : 1;
    this.preferSibling = preferSibling;
    this.minIntervalMs = span.size();
    this.maxIntervalMs = 2L * span.size();
    this.llcGroups = null;
    this.numa = false;
  }

  private SchedDomain(String name, List<CpuComponent> span, List<List<Integer>> llcGroups,
      int local, boolean numa, boolean preferSibling, Void above) {
    this.name = name;
    this.span = List.copyOf(span);
    this.groups = List.of();
    this.llcGroups = List.copyOf(llcGroups);
    this.local = local;
    this.shareCpuCapacity = false;
    this.numa = numa;
    this.imbalancePct = 117;
    this.cacheNiceTries = numa ? 2 : 1;
    this.preferSibling = preferSibling;
    this.minIntervalMs = span.size();
    this.maxIntervalMs = 2L * span.size();
  }

  /**
   * A level above the LLC: {@code span} its CPUs, {@code llcGroups} the LLC ids of each group,
   * {@code local} the group of the domain's CPU; DIE ({@code numa} false) or NUMA;
   * {@code preferSibling}: the child level has {@code SD_PREFER_SIBLING} (every level but
   * NUMA has it), which makes {@code sds->prefer_sibling} (6.4).
   */
  static SchedDomain above(String name, List<CpuComponent> span, List<List<Integer>> llcGroups,
      int local, boolean numa, boolean preferSibling) {
    return new SchedDomain(name, span, llcGroups, local, numa, preferSibling, null);
  }

  /** Whether the level is above the LLC (its groups are LLCs, read from summaries). */
  boolean aboveLlc() {
    return llcGroups != null;
  }

  /** {@code get_sd_balance_interval()}, in ns on the tick grid ({@code msecs_to_jiffies}). */
  long intervalNs(boolean busy, long tickNs, long maxJiffies) {
    long ms = balanceIntervalMs;
    if (busy) {
      ms *= BUSY_FACTOR;
    }
    long jiffies = (ms * 1_000_000L + tickNs - 1) / tickNs;
    if (busy) {
      jiffies -= 1;
    }
    jiffies = Math.max(1, Math.min(jiffies, maxJiffies));
    return jiffies * tickNs;
  }
}
