package blksim.kernel.workqueue;

/**
 * The kernel version whose workqueue rules the model follows (kernel-model.md §0, §4.2, §4.7).
 *
 * <ul>
 *   <li>{@link #V4_3_RC1}: 4.3-rc1 (2015, thread 4 of kernel-model.md §12.4): the workqueue rules
 *       of {@link #PRE_6_5}; its block and writeback differences (the plug flushed at 16
 *       requests, nr_requests 128, 4.3's writeback and dirty throttling) are selected by
 *       {@link #isV4_3()}.
 *   <li>{@link #PRE_6_5}: up to 6.4. Unbound wqs have one pwq per NUMA node over per-node pools
 *       (workers confined to the node); max_active applies per pwq, so per node.
 *   <li>{@link #V6_5_TO_6_8}: 6.5 to 6.8 (636b927eba5b). Affinity scopes and pods; one pwq per
 *       CPU, max_active per pwq, so the system-wide total can reach max_active x CPUs.
 *   <li>{@link #V6_9_RC}: 6.9-rc1 to rc5 (5797b1c18919). max_active is system-wide, split into
 *       one {@code wq_node_nr_active} per node plus a default one for node-less pools, whose cap
 *       is min_active (the bug fixed by d40f92020c7a).
 *   <li>{@link #V6_9}: 6.9-rc6 and later: as {@link #V6_9_RC}, the default cap is max_active.
 *   <li>{@link #V6_13}: 6.13 and later: as {@link #V6_9} with {@code WQ_MAX_ACTIVE} 2048.
 * </ul>
 */
public enum KernelMode {
  V4_3_RC1,
  PRE_6_5,
  V6_5_TO_6_8,
  V6_9_RC,
  V6_9,
  V6_13;

  private static final java.util.regex.Pattern VERSION = java.util.regex.Pattern.compile(
      "(?i)v?(\\d+)[._](\\d+)(?:[._]\\d+)*(?:[-_]?(rc)\\d*)?");

  /**
   * The mode whose rules cover a kernel version written as a user might ({@code 6.6},
   * {@code v6.10}, {@code V6_6}, {@code 6.9-rc3}), or null when {@code version} is not one: up to
   * 6.4 {@link #PRE_6_5} (4.3-rc builds {@link #V4_3_RC1}), 6.5 to 6.8 {@link #V6_5_TO_6_8},
   * 6.9-rc {@link #V6_9_RC}, 6.9 to 6.12 {@link #V6_9}, 6.13 on {@link #V6_13}.
   */
  public static KernelMode forVersion(String version) {
    java.util.regex.Matcher m = VERSION.matcher(version.trim());
    if (!m.matches()) {
      return null;
    }
    int major = Integer.parseInt(m.group(1));
    int minor = Integer.parseInt(m.group(2));
    boolean rc = m.group(3) != null;
    int v = major * 1000 + Math.min(minor, 999);
    if (v == 4003 && rc) {
      return V4_3_RC1;
    }
    if (v < 6005) {
      return PRE_6_5;
    }
    if (v < 6009) {
      return V6_5_TO_6_8;
    }
    if (v == 6009 && rc) {
      return V6_9_RC;
    }
    return v < 6013 ? V6_9 : V6_13;
  }

  /** Whether unbound wqs follow the pre-6.5 rules: one pwq per node, no affinity scopes. */
  public boolean perNodeUnbound() {
    return this == V4_3_RC1 || this == PRE_6_5;
  }

  /** Whether this is the 4.3 kernel of the writeback experiment. */
  public boolean isV4_3() {
    return this == V4_3_RC1;
  }

  /** {@code WQ_MAX_ACTIVE}: 512 up to 6.12, 2048 from 6.13 (include/linux/workqueue.h). */
  public int wqMaxActive() {
    return this == V6_13 ? WqConstants.WQ_MAX_ACTIVE_6_13 : WqConstants.WQ_MAX_ACTIVE_PRE_6_13;
  }

  /**
   * The upper bound of {@code wq_clamp_max_active()} for a wq with or without {@code WQ_UNBOUND}
   * on a machine of {@code possibleCpus}: {@code WQ_MAX_ACTIVE} for a per-CPU wq; for an unbound
   * one {@code WQ_UNBOUND_MAX_ACTIVE}, which up to 6.4 was {@code max(WQ_MAX_ACTIVE,
   * num_possible_cpus() * WQ_MAX_UNBOUND_PER_CPU)} (4 per CPU) and from 6.5 (636b927eba5b,
   * "workqueue: Make unbound workqueues to use per-cpu pool_workqueues") equals
   * {@code WQ_MAX_ACTIVE}. The same clamp applies to {@code workqueue_set_max_active()}.
   */
  public int wqMaxActiveLimit(boolean unbound, int possibleCpus) {
    if (unbound && perNodeUnbound()) {
      return Math.max(wqMaxActive(), possibleCpus * WqConstants.WQ_MAX_UNBOUND_PER_CPU);
    }
    return wqMaxActive();
  }

  /** {@code WQ_DFL_ACTIVE}: {@code WQ_MAX_ACTIVE / 2}, used when max_active 0 is passed. */
  public int wqDflActive() {
    return wqMaxActive() / 2;
  }

  /** Whether unbound wqs have pods and affinity scopes (6.5+). */
  public boolean hasAffinityScopes() {
    return !perNodeUnbound();
  }

  /** Whether unbound wqs have one pwq per CPU (6.5+) rather than one per node. */
  public boolean perCpuUnboundPwqs() {
    return !perNodeUnbound();
  }

  /** Whether unbound max_active is enforced system-wide by per-node counters (6.9+). */
  public boolean nodeNrActive() {
    return this == V6_9_RC || this == V6_9 || this == V6_13;
  }

  /** Whether per-CPU pools detect CPU-hogging items automatically (6.5+, §4.8). */
  public boolean detectsCpuIntensive() {
    return !perNodeUnbound();
  }

  /**
   * The cap of the default {@code wq_node_nr_active} (pools with {@code NUMA_NO_NODE}):
   * min_active in {@link #V6_9_RC}, max_active after d40f92020c7a.
   */
  public int dflNodeMax(int minActive, int maxActive) {
    return this == V6_9_RC ? minActive : maxActive;
  }
}
