package blksim.kernel.workqueue;

import java.util.List;

/**
 * Tunables and costs of the workqueue model.
 *
 * @param mode the kernel version whose rules apply ({@code kernelMode}, kernel-model.md §0)
 * @param kthreadCreateNs [A] time for a manager to create a kworker ({@code create_worker()}:
 *     {@code kthread_create_on_node()} through kthreadd); tens to hundreds of us (§2)
 * @param cpuIntensiveThreshUs {@code workqueue.cpu_intensive_thresh_us} (6.5+); 0 disables
 *     detection
 * @param defaultAffinityScope {@code workqueue.default_affinity_scope}
 * @param nodeBoundPools whether an unbound pool whose pod lies inside one NUMA node is tied to that
 *     node (the kernel's rule); false makes every unbound pool node-less ({@code NUMA_NO_NODE}),
 *     the [U] configuration of thread 1 on 6.9-rc2 (kernel-model.md §12.1, §13 item 1)
 * @param monitorIntervalNs the wq_monitor sampling interval of simulated time, 0 for none
 * @param initialWorkers idle workers each pool has when the run starts (at least 1: the worker
 *     {@code workqueue_init()} / {@code get_unbound_pool()} creates)
 * @param createWorkerCpuNs [A] CPU time of one unbound worker's creation ({@code copy_process()}
 *     in kthreadd and the new thread's {@code kthread()} start, charged as system time to the
 *     new worker on its CPU after {@link #kthreadCreateNs}, before it joins the pool); per-CPU
 *     pools' workers are created with the latency alone. 0 charges nothing
 * @param maxActiveOverrides the scenario's {@code kernel.wq-max-active}: max_active passed by
 *     a changed {@code alloc_workqueue()} call for the workqueues each entry names (the first
 *     matching entry wins)
 */
public record WorkqueueParams(KernelMode mode, long kthreadCreateNs, long cpuIntensiveThreshUs,
    AffinityScope defaultAffinityScope, boolean nodeBoundPools, long monitorIntervalNs,
    int initialWorkers, long createWorkerCpuNs, List<MaxActiveOverride> maxActiveOverrides) {

  /** [A] Default {@link #kthreadCreateNs}: 100 us, within kernel-model.md §2's range. */
  public static final long DEFAULT_KTHREAD_CREATE_NS = 100_000L;
  /**
   * [A] Default {@link #initialWorkers}: a machine that has been up a while keeps two idle
   * workers in a pool it has used ({@code too_many_workers()} reaps only beyond
   * {@code nr_idle > 2}); a freshly booted pool has one.
   */
  public static final int DEFAULT_INITIAL_WORKERS = 2;

  public WorkqueueParams {
    if (mode == null) {
      throw new IllegalArgumentException("mode must be set");
    }
    if (kthreadCreateNs < 0) {
      throw new IllegalArgumentException("kthreadCreateNs must be >= 0, was " + kthreadCreateNs);
    }
    if (cpuIntensiveThreshUs < 0) {
      throw new IllegalArgumentException("cpuIntensiveThreshUs must be >= 0, was "
          + cpuIntensiveThreshUs);
    }
    if (defaultAffinityScope == null) {
      throw new IllegalArgumentException("defaultAffinityScope must be set");
    }
    if (monitorIntervalNs < 0) {
      throw new IllegalArgumentException("monitorIntervalNs must be >= 0, was "
          + monitorIntervalNs);
    }
    if (initialWorkers < 1) {
      throw new IllegalArgumentException("initialWorkers must be >= 1, was " + initialWorkers);
    }
    if (createWorkerCpuNs < 0) {
      throw new IllegalArgumentException("createWorkerCpuNs must be >= 0, was "
          + createWorkerCpuNs);
    }
    maxActiveOverrides = List.copyOf(maxActiveOverrides);
  }

  /** Backwards-compatible form: no creation CPU cost, no max_active overrides. */
  public WorkqueueParams(KernelMode mode, long kthreadCreateNs, long cpuIntensiveThreshUs,
      AffinityScope defaultAffinityScope, boolean nodeBoundPools, long monitorIntervalNs,
      int initialWorkers) {
    this(mode, kthreadCreateNs, cpuIntensiveThreshUs, defaultAffinityScope, nodeBoundPools,
        monitorIntervalNs, initialWorkers, 0, List.of());
  }

  /** The kernel's defaults for {@code mode}, no monitor. */
  public static WorkqueueParams defaults(KernelMode mode) {
    return new WorkqueueParams(mode, DEFAULT_KTHREAD_CREATE_NS,
        WqConstants.CPU_INTENSIVE_THRESH_US_DEFAULT, AffinityScope.DEFAULT, true, 0,
        DEFAULT_INITIAL_WORKERS);
  }

  /** The same with {@code kthreadCreateNs}. */
  public WorkqueueParams withKthreadCreateNs(long ns) {
    return new WorkqueueParams(mode, ns, cpuIntensiveThreshUs, defaultAffinityScope,
        nodeBoundPools, monitorIntervalNs, initialWorkers, createWorkerCpuNs, maxActiveOverrides);
  }

  /** The same with node-bound or node-less unbound pools. */
  public WorkqueueParams withNodeBoundPools(boolean bound) {
    return new WorkqueueParams(mode, kthreadCreateNs, cpuIntensiveThreshUs, defaultAffinityScope,
        bound, monitorIntervalNs, initialWorkers, createWorkerCpuNs, maxActiveOverrides);
  }

  /** The same with the default affinity scope {@code scope}. */
  public WorkqueueParams withDefaultAffinityScope(AffinityScope scope) {
    return new WorkqueueParams(mode, kthreadCreateNs, cpuIntensiveThreshUs, scope,
        nodeBoundPools, monitorIntervalNs, initialWorkers, createWorkerCpuNs, maxActiveOverrides);
  }

  /** The same with wq_monitor sampling every {@code intervalNs}. */
  public WorkqueueParams withMonitorIntervalNs(long intervalNs) {
    return new WorkqueueParams(mode, kthreadCreateNs, cpuIntensiveThreshUs, defaultAffinityScope,
        nodeBoundPools, intervalNs, initialWorkers, createWorkerCpuNs, maxActiveOverrides);
  }

  /** The same with {@code n} idle workers per pool at the start. */
  public WorkqueueParams withInitialWorkers(int n) {
    return new WorkqueueParams(mode, kthreadCreateNs, cpuIntensiveThreshUs, defaultAffinityScope,
        nodeBoundPools, monitorIntervalNs, n, createWorkerCpuNs, maxActiveOverrides);
  }

  /** The same with {@code cpu_intensive_thresh_us}. */
  public WorkqueueParams withCpuIntensiveThreshUs(long us) {
    return new WorkqueueParams(mode, kthreadCreateNs, us, defaultAffinityScope, nodeBoundPools,
        monitorIntervalNs, initialWorkers, createWorkerCpuNs, maxActiveOverrides);
  }

  /** The same with {@code createWorkerCpuNs}. */
  public WorkqueueParams withCreateWorkerCpuNs(long ns) {
    return new WorkqueueParams(mode, kthreadCreateNs, cpuIntensiveThreshUs, defaultAffinityScope,
        nodeBoundPools, monitorIntervalNs, initialWorkers, ns, maxActiveOverrides);
  }

  /** The same with the {@code kernel.wq-max-active} entries {@code overrides}. */
  public WorkqueueParams withMaxActiveOverrides(List<MaxActiveOverride> overrides) {
    return new WorkqueueParams(mode, kthreadCreateNs, cpuIntensiveThreshUs, defaultAffinityScope,
        nodeBoundPools, monitorIntervalNs, initialWorkers, createWorkerCpuNs, overrides);
  }
}
