package blksim.kernel.sched;

/**
 * Where a woken task runs and what running apart costs ({@code kernel.wake-placement}, issue 12
 * items 3 and 4).
 *
 * @param rule the wakeup placement rule
 * @param smtSlowdown how much slower a CPU runs its work while its SMT sibling runs a task
 *     ({@link SmtCore}: rescaled when the sibling starts or stops; 1 = no SMT effect; a core
 *     whose two threads together do {@code t} times the work of one gives {@code 2 / t})
 * @param cachelineNs moving one modified cache line from another core of the same socket (an
 *     L2-to-L2 intervention)
 * @param cachelineRemoteNs the same from another NUMA node (another socket, or another die of
 *     the socket)
 * @param wakeRemoteNs the waker's CPU time for a wakeup onto another CPU, besides the scan:
 *     {@code ttwu_queue_wakelist()}'s IPI, or the remote run-queue lock and enqueue
 * @param wakeCrossLlcNs added to the wakeup latency of a cross-CPU wakeup into another LLC of
 *     the waker's NUMA node ({@link blksim.kernel.topology.CpuDistance#NODE})
 * @param wakeCrossNodeNs added to the wakeup latency of a cross-CPU wakeup onto another NUMA
 *     node ({@link blksim.kernel.topology.CpuDistance#REMOTE})
 */
public record PlacementParams(Rule rule, double smtSlowdown, long cachelineNs,
    long cachelineRemoteNs, long wakeRemoteNs, long wakeCrossLlcNs, long wakeCrossNodeNs) {

  /** No extra latency for wakeups across LLCs or nodes (as before issue 15 item 4). */
  public PlacementParams(Rule rule, double smtSlowdown, long cachelineNs,
      long cachelineRemoteNs, long wakeRemoteNs) {
    this(rule, smtSlowdown, cachelineNs, cachelineRemoteNs, wakeRemoteNs, 0, 0);
  }

  /** The wakeup placement rules of {@code kernel.wake-placement}. */
  public enum Rule {
    /** Tasks wake where they were placed (as if pinned). */
    NONE,
    /** kernel-model.md §1.3: previous CPU if idle, else the first idle CPU of the LLC. */
    LLC,
    /**
     * Linux 6.4's {@code select_task_rq_fair()} for a non-sync wakeup with {@code wake_wide()}
     * false: {@code wake_affine()} then {@code select_idle_sibling()} (see {@link CpuComponent}).
     */
    SIS
  }

  /** No placement, no running-apart costs: every figure as before issue 12. */
  public static final PlacementParams NONE = new PlacementParams(Rule.NONE, 1.0, 0, 0, 0);

  public PlacementParams {
    if (rule == null) {
      throw new IllegalArgumentException("rule must be set");
    }
    if (!(smtSlowdown >= 1.0 && smtSlowdown <= 4.0)) {
      throw new IllegalArgumentException("smtSlowdown must be in [1, 4], was " + smtSlowdown);
    }
    if (cachelineNs < 0 || cachelineRemoteNs < 0 || wakeRemoteNs < 0 || wakeCrossLlcNs < 0
        || wakeCrossNodeNs < 0) {
      throw new IllegalArgumentException("placement costs must be >= 0");
    }
  }

  /** The same with rule {@code r}. */
  public PlacementParams withRule(Rule r) {
    return new PlacementParams(r, smtSlowdown, cachelineNs, cachelineRemoteNs, wakeRemoteNs,
        wakeCrossLlcNs, wakeCrossNodeNs);
  }

  /**
   * What a cross-CPU wakeup from {@code from} to {@code to} takes beyond the same-LLC wakeup
   * latency: the IPI and the wakeup's cache lines cross the die fabric or the interconnect. An
   * SMT sibling's wakeup takes the same-LLC latency (it would save a few tens of ns of L2
   * misses, but that latency is also the run's lookahead).
   */
  public long wakeupExtraNs(blksim.kernel.topology.Cpu from, blksim.kernel.topology.Cpu to) {
    return switch (blksim.kernel.topology.CpuDistance.of(from, to)) {
      case NODE -> wakeCrossLlcNs;
      case REMOTE -> wakeCrossNodeNs;
      default -> 0;
    };
  }

  /** Whether a CPU must see its LLC's CPUs (placement, or its SMT sibling's state). */
  public boolean needsLlc() {
    return rule != Rule.NONE || smtSlowdown != 1.0;
  }
}
