package blksim.kernel.workqueue;

import java.util.Locale;

/**
 * {@code enum wq_affn_scope} (6.5+, kernel-model.md §4.6): how an unbound wq groups CPUs into
 * pods, one unbound pool per pod. {@link #CACHE} is the kernel's default
 * ({@code workqueue.default_affinity_scope}).
 */
public enum AffinityScope {
  /** {@code WQ_AFFN_CPU}: one CPU per pod. */
  CPU,
  /** {@code WQ_AFFN_SMT}: the SMT siblings of one core. */
  SMT,
  /** {@code WQ_AFFN_CACHE}: the CPUs of one last-level cache. */
  CACHE,
  /** {@code WQ_AFFN_NUMA}: the CPUs of one NUMA node. */
  NUMA,
  /** {@code WQ_AFFN_SYSTEM}: every CPU. */
  SYSTEM;

  /** The kernel's default scope. */
  public static final AffinityScope DEFAULT = CACHE;

  /** The name as sysfs and wq_dump show it ({@code wq_affn_names}). */
  public String kernelName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a sysfs name ({@code cpu}, {@code smt}, {@code cache}, {@code numa}, {@code system}). */
  public static AffinityScope parse(String s) {
    for (AffinityScope a : values()) {
      if (a.kernelName().equals(s.trim().toLowerCase(Locale.ROOT))) {
        return a;
      }
    }
    throw new IllegalArgumentException("affinity scope must be cpu|smt|cache|numa|system, was '"
        + s + "'");
  }
}
