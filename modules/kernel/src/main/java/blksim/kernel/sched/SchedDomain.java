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
 * {@code sd_degenerate()} does. Simplified: no level above the LLC (see {@link CpuComponent}).
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
