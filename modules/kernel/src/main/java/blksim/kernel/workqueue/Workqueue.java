package blksim.kernel.workqueue;

import blksim.kernel.sched.CpuComponent;
import java.util.Arrays;

/**
 * A {@code struct workqueue_struct} as {@code alloc_workqueue()} makes it (kernel-model.md §4.1,
 * §4.2): a name, flags, {@code max_active} and {@code min_active}, and, for unbound wqs, the
 * attributes that pick its pools (affinity scope, strictness) and its pwq table. A workqueue owns
 * no threads and no mutable state: its pwqs live with the components that own their pools (see
 * the package comment). Immutable; made by {@link WorkqueueSystem.Builder}.
 *
 * <p>max_active is clamped to {@code [1, WQ_MAX_ACTIVE]} (an unbound wq up to 6.4:
 * {@code [1, WQ_UNBOUND_MAX_ACTIVE]}) and 0 means {@code WQ_DFL_ACTIVE}
 * ({@code wq_clamp_max_active()}); a scenario's {@code kernel.wq-max-active} replaces the value
 * passed ({@link MaxActiveOverride}); {@code __WQ_ORDERED} wqs are unbound with max_active 1 and
 * one pwq. min_active is {@code min(max_active, WQ_DFL_MIN_ACTIVE)} (6.9+, unbound only).
 */
public final class Workqueue {
  /** {@code WQ_UNBOUND}: not bound to any CPU; no concurrency management. */
  public static final int WQ_UNBOUND = 1 << 1;
  /** {@code WQ_FREEZABLE} (not modelled: accepted and ignored). */
  public static final int WQ_FREEZABLE = 1 << 2;
  /** {@code WQ_MEM_RECLAIM}: the wq has a rescuer. */
  public static final int WQ_MEM_RECLAIM = 1 << 3;
  /** {@code WQ_HIGHPRI}: served by highpri (nice -20) pools. */
  public static final int WQ_HIGHPRI = 1 << 4;
  /** {@code WQ_CPU_INTENSIVE}: its workers do not count for concurrency management. */
  public static final int WQ_CPU_INTENSIVE = 1 << 5;
  /** {@code WQ_SYSFS} (not modelled: accepted and ignored). */
  public static final int WQ_SYSFS = 1 << 6;
  /** {@code WQ_POWER_EFFICIENT} (not modelled: accepted and ignored). */
  public static final int WQ_POWER_EFFICIENT = 1 << 7;
  /** {@code __WQ_ORDERED}: one item at a time, in queueing order. */
  public static final int WQ_ORDERED = 1 << 17;
  /** Every flag the model accepts. */
  public static final int KNOWN_FLAGS = WQ_UNBOUND | WQ_FREEZABLE | WQ_MEM_RECLAIM | WQ_HIGHPRI
      | WQ_CPU_INTENSIVE | WQ_SYSFS | WQ_POWER_EFFICIENT | WQ_ORDERED;
  /** The pwq key of an unbound wq's default pwq ({@code wq->dfl_pwq}, ordered wqs' only pwq). */
  public static final int DFL_PWQ = -1;

  /** Set once by {@link WorkqueueSystem.Builder#build()}. */
  WorkqueueSystem system;
  private final int id;
  private final String name;
  private final int flags;
  private final int maxActive;
  private final int minActive;
  private final AffinityScope scope;
  private final boolean strict;
  /** Unbound: pwq key used by each CPU ({@code wq->cpu_pwq}); per-CPU: null. */
  final int[] cpuPwqKey;
  /** Unbound: distinct pwq keys, ascending, with their pool ids. */
  final int[] pwqKeys;
  final int[] pwqPools;
  /** Unbound: the default pwq's pool ({@code wq->dfl_pwq->pool}). */
  final int dflPool;
  /** 6.9+ unbound: {@code wq_node_nr_active[node]->max}, and the default counter's. */
  final int[] nodeMax;
  final int dflNodeMax;

  Workqueue(WorkqueueSystem system, int id, String name, int flags, int maxActive, int minActive,
      AffinityScope scope, boolean strict, int[] cpuPwqKey, int[] pwqKeys, int[] pwqPools,
      int dflPool, int[] nodeMax, int dflNodeMax) {
    this.system = system;
    this.id = id;
    this.name = name;
    this.flags = flags;
    this.maxActive = maxActive;
    this.minActive = minActive;
    this.scope = scope;
    this.strict = strict;
    this.cpuPwqKey = cpuPwqKey;
    this.pwqKeys = pwqKeys;
    this.pwqPools = pwqPools;
    this.dflPool = dflPool;
    this.nodeMax = nodeMax;
    this.dflNodeMax = dflNodeMax;
  }

  /**
   * {@code wq_clamp_max_active()} after {@code max_active ?: WQ_DFL_ACTIVE}: the effective
   * max_active of a wq allocated with {@code requested} in {@code mode}.
   */
  public static int clampMaxActive(int requested, KernelMode mode) {
    int v = requested == 0 ? mode.wqDflActive() : requested;
    return Math.max(1, Math.min(v, mode.wqMaxActive()));
  }

  /**
   * The same for a wq with {@code flags} on {@code possibleCpus} CPUs: an unbound wq of a
   * {@link KernelMode#perNodeUnbound()} kernel may go up to {@code WQ_UNBOUND_MAX_ACTIVE}
   * ({@link KernelMode#wqMaxActiveLimit}).
   */
  public static int clampMaxActive(int requested, int flags, KernelMode mode, int possibleCpus) {
    int v = requested == 0 ? mode.wqDflActive() : requested;
    return Math.max(1, Math.min(v, mode.wqMaxActiveLimit((flags & WQ_UNBOUND) != 0,
        possibleCpus)));
  }

  /** Index of this wq in its system, in allocation order. */
  public int id() {
    return id;
  }

  /** {@code wq->name}. */
  public String name() {
    return name;
  }

  /** {@code wq->flags}. */
  public int flags() {
    return flags;
  }

  /** {@code wq->max_active} (saved_max_active), after clamping. */
  public int maxActive() {
    return maxActive;
  }

  /** {@code wq->min_active} (6.9+ unbound; equal to max_active otherwise). */
  public int minActive() {
    return minActive;
  }

  /** Whether {@code WQ_UNBOUND} is set. */
  public boolean unbound() {
    return (flags & WQ_UNBOUND) != 0;
  }

  /** Whether {@code __WQ_ORDERED} is set. */
  public boolean ordered() {
    return (flags & WQ_ORDERED) != 0;
  }

  /** Whether {@code WQ_HIGHPRI} is set. */
  public boolean highpri() {
    return (flags & WQ_HIGHPRI) != 0;
  }

  /** Whether {@code WQ_CPU_INTENSIVE} is set. */
  public boolean cpuIntensive() {
    return (flags & WQ_CPU_INTENSIVE) != 0;
  }

  /** Whether {@code WQ_MEM_RECLAIM} is set (the wq has a rescuer). */
  public boolean memReclaim() {
    return (flags & WQ_MEM_RECLAIM) != 0;
  }

  /** The unbound wq's affinity scope ({@code NUMA} in {@link KernelMode#PRE_6_5}). */
  public AffinityScope affinityScope() {
    return scope;
  }

  /** Whether the unbound wq's affinity is strict ({@code affinity_strict}). */
  public boolean affinityStrict() {
    return strict;
  }

  /** Unbound: the pwq key CPU {@code cpu} queues to (a CPU, a node, or {@link #DFL_PWQ}). */
  public int pwqKeyOf(int cpu) {
    return cpuPwqKey[cpu];
  }

  /** Unbound: the pool id of pwq {@code key}. */
  public int poolOfPwq(int key) {
    if (key == DFL_PWQ) {
      return dflPool;
    }
    int i = Arrays.binarySearch(pwqKeys, key);
    if (i < 0) {
      throw new IllegalArgumentException(name + " has no pwq " + key);
    }
    return pwqPools[i];
  }

  /** The pool id CPU {@code cpu} uses (per-CPU wq: that CPU's normal or highpri pool). */
  public int poolOfCpu(int cpu) {
    if (!unbound()) {
      return cpu * WqConstants.NR_STD_WORKER_POOLS + (highpri() ? 1 : 0);
    }
    return poolOfPwq(pwqKeyOf(cpu));
  }

  /** 6.9+ unbound: the cap of node {@code node}'s counter ({@code NUMA_NO_NODE}: default). */
  public int nodeMaxActive(int node) {
    if (nodeMax == null) {
      throw new IllegalStateException(name + " has no per-node nr_active in this mode");
    }
    return node == WqConstants.NUMA_NO_NODE ? dflNodeMax : nodeMax[node];
  }

  /** {@code queue_work(this, work)} from code running on {@code cpu}. */
  public boolean queueWork(CpuComponent cpu, WorkItem work) {
    return system.queueWork(cpu, this, work);
  }

  @Override
  public String toString() {
    return "workqueue " + name;
  }
}
