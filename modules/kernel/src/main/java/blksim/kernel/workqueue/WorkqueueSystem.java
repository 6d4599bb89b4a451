package blksim.kernel.workqueue;

import blksim.engine.Component;
import blksim.engine.ComponentReport;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuReport;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.sched.TaskReport;
import blksim.kernel.timer.TimerParams;
import blksim.kernel.topology.Cpu;
import blksim.kernel.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The workqueue subsystem of one simulated machine: its workqueues (the system ones and those the
 * scenario's subsystems allocate), the static layout of pools, pods and pwqs for a kernel mode,
 * the components that own the state at run time, and the kernel's entry points
 * ({@code queue_work()}, {@code queue_delayed_work()}, {@code flush_workqueue()}...).
 *
 * <p>Built identically on every node of a cluster from the same scenario: the layout is a pure
 * function of the topology, the parameters and the order of allocations. Usage:
 *
 * <pre>{@code
 * WorkqueueSystem.Builder b = WorkqueueSystem.builder(topo, sched, timerParams, wqParams);
 * Workqueue cwq = b.allocWorkqueue("dmz_cwq_dml_072", WQ_MEM_RECLAIM | WQ_UNBOUND, 0);
 * WorkqueueSystem wqs = b.build();
 * List<Component> components = wqs.components(cpuComponents); // replaces the CPUs in the model
 * }</pre>
 *
 * <p>Mirrors {@code alloc_workqueue()} + {@code apply_wqattrs_prepare()} (layout),
 * {@code get_unbound_pool()} (pool sharing by attributes, pool ids after the per-CPU ones), and
 * {@code wq_update_node_max_active()} (6.9+ node caps, computed once: no CPU hotplug).
 */
public final class WorkqueueSystem {
  /** {@code system_wq}'s name. */
  public static final String SYSTEM_WQ = "events";
  /** {@code system_highpri_wq}'s name. */
  public static final String SYSTEM_HIGHPRI_WQ = "events_highpri";
  /** {@code system_unbound_wq}'s name. */
  public static final String SYSTEM_UNBOUND_WQ = "events_unbound";
  /** {@code kblockd_workqueue}'s name (block/blk-core.c). */
  public static final String KBLOCKD = "kblockd";

  /**
   * One unbound pool's attributes and place.
   *
   * @param id pool id
   * @param nice workers' nice
   * @param podCpus the pod's CPUs ({@code attrs->__pod_cpumask})
   * @param strict {@code affn_strict}
   * @param node its node, {@code NUMA_NO_NODE} if its pod is not inside one node
   * @param hostId the component that owns it
   */
  record UnboundPoolSpec(int id, int nice, int[] podCpus, boolean strict, int node,
      String hostId) {}

  private final Topology topology;
  private final SchedParams sched;
  private final TimerParams timerParams;
  /** {@code timerParams.jiffies()}, made once: workers read it at every burst. */
  private final blksim.kernel.timer.Jiffies jiffies;
  private final WorkqueueParams params;
  private final List<Workqueue> workqueues;
  private final List<UnboundPoolSpec> unboundPools;
  private final Map<AffinityScope, WqPodType> podTypes;
  private final Map<Long, WorkItem> builtItems = new HashMap<>();
  private final int[] builtSerial;
  private WorkqueueCpu[] cpus;
  private final List<UnboundPoolHost> hosts = new ArrayList<>();
  private WqMonitorCollector monitor;

  private WorkqueueSystem(Builder b) {
    this.topology = b.topology;
    this.sched = b.sched;
    this.timerParams = b.timerParams;
    this.jiffies = b.timerParams.jiffies();
    this.params = b.params;
    this.workqueues = List.copyOf(b.wqs);
    this.unboundPools = List.copyOf(b.unboundPools);
    this.podTypes = b.podTypes;
    this.builtSerial = new int[topology.cpuCount()];
    for (Workqueue wq : workqueues) {
      wq.system = this;
    }
  }

  /** Starts the layout of a machine; the system workqueues are allocated first. */
  public static Builder builder(Topology topology, SchedParams sched, TimerParams timerParams,
      WorkqueueParams params) {
    return new Builder(topology, sched, timerParams, params);
  }

  /** Allocates workqueues, then {@link #build}s the system. */
  public static final class Builder {
    private final Topology topology;
    private final SchedParams sched;
    private final TimerParams timerParams;
    private final WorkqueueParams params;
    private final List<Workqueue> wqs = new ArrayList<>();
    private final List<UnboundPoolSpec> unboundPools = new ArrayList<>();
    private final Map<String, UnboundPoolSpec> poolByAttrs = new HashMap<>();
    private final Map<AffinityScope, WqPodType> podTypes = new EnumMap<>(AffinityScope.class);
    private boolean built;
    private final java.util.Set<MaxActiveOverride> matchedOverrides = new java.util.HashSet<>();

    private Builder(Topology topology, SchedParams sched, TimerParams timerParams,
        WorkqueueParams params) {
      if (sched.hz() != timerParams.hz()) {
        throw new IllegalArgumentException("timer HZ " + timerParams.hz()
            + " differs from the scheduler's HZ " + sched.hz());
      }
      this.topology = topology;
      this.sched = sched;
      this.timerParams = timerParams;
      this.params = params;
      for (AffinityScope s : AffinityScope.values()) {
        podTypes.put(s, WqPodType.of(topology, s));
      }
      allocWorkqueue(SYSTEM_WQ, 0, 0);
      allocWorkqueue(SYSTEM_HIGHPRI_WQ, Workqueue.WQ_HIGHPRI, 0);
      // WQ_UNBOUND_MAX_ACTIVE (kernel/workqueue.c, workqueue_init_early()).
      allocWorkqueue(SYSTEM_UNBOUND_WQ, Workqueue.WQ_UNBOUND,
          params.mode().wqMaxActiveLimit(true, topology.cpuCount()));
      allocWorkqueue(KBLOCKD, Workqueue.WQ_MEM_RECLAIM | Workqueue.WQ_HIGHPRI, 0);
    }

    /** {@code alloc_workqueue(name, flags, maxActive)} with the default affinity scope. */
    public Workqueue allocWorkqueue(String name, int flags, int maxActive) {
      return allocWorkqueue(name, flags, maxActive, params.defaultAffinityScope(), false);
    }

    /**
     * {@code alloc_workqueue()} and, for an unbound wq, its sysfs {@code affinity_scope} and
     * {@code affinity_strict}.
     */
    public Workqueue allocWorkqueue(String name, int flags, int maxActive, AffinityScope scope,
        boolean strict) {
      if (built) {
        throw new IllegalStateException("workqueue " + name + " allocated after build()");
      }
      if ((flags & ~Workqueue.KNOWN_FLAGS) != 0) {
        throw new IllegalArgumentException("workqueue " + name + ": unknown flags 0x"
            + Integer.toHexString(flags & ~Workqueue.KNOWN_FLAGS));
      }
      if (maxActive < 0) {
        throw new IllegalArgumentException("workqueue " + name
            + ": maxActive must be >= 0 (0: WQ_DFL_ACTIVE), was " + maxActive);
      }
      for (Workqueue w : wqs) {
        if (w.name().equals(name)) {
          throw new IllegalArgumentException("workqueue " + name + " allocated twice");
        }
      }
      KernelMode mode = params.mode();
      boolean ordered = (flags & Workqueue.WQ_ORDERED) != 0;
      if (ordered) {
        flags |= Workqueue.WQ_UNBOUND;
      }
      boolean unbound = (flags & Workqueue.WQ_UNBOUND) != 0;
      if (!ordered) {
        MaxActiveOverride o = MaxActiveOverride.first(params.maxActiveOverrides(), name);
        if (o != null) {
          maxActive = o.maxActive();
          matchedOverrides.add(o);
        }
      }
      int max = ordered ? 1
          : Workqueue.clampMaxActive(maxActive, flags, mode, topology.cpuCount());
      int min = unbound && mode.nodeNrActive() ? Math.min(max, WqConstants.WQ_DFL_MIN_ACTIVE)
          : max;
      int id = wqs.size();
      if (!unbound) {
        Workqueue wq = new Workqueue(null, id, name, flags, max, min, scope, strict, null, null,
            null, -1, null, 0);
        wqs.add(wq);
        return wq;
      }
      AffinityScope effScope = mode.hasAffinityScopes() ? scope : AffinityScope.NUMA;
      boolean effStrict = mode.hasAffinityScopes() ? strict : true;
      int nice = (flags & Workqueue.WQ_HIGHPRI) != 0 ? WqConstants.HIGHPRI_NICE_LEVEL
          : WqConstants.NICE_NORMAL;
      int n = topology.cpuCount();
      int[] all = new int[n];
      for (int c = 0; c < n; c++) {
        all[c] = c;
      }
      int dflPool = unboundPool(nice, all, effStrict).id();
      int[] cpuPwqKey = new int[n];
      TreeSet<Integer> keys = new TreeSet<>();
      Map<Integer, Integer> keyPool = new HashMap<>();
      if (ordered) {
        Arrays.fill(cpuPwqKey, Workqueue.DFL_PWQ);
      } else {
        WqPodType pt = podTypes.get(effScope);
        // The pool of each pod, looked up once per pod (by its attributes' key, which spells
        // the pod's CPUs) and not once per CPU: per-CPU pwqs made that quadratic in the CPUs.
        int[] podPool = new int[pt.nrPods()];
        Arrays.fill(podPool, -1);
        for (Cpu c : topology.cpus()) {
          int key = mode.perCpuUnboundPwqs() ? c.id() : c.node();
          cpuPwqKey[c.id()] = key;
          if (keys.add(key)) {
            int pod = pt.cpuPod(c.id());
            if (podPool[pod] < 0) {
              podPool[pod] = unboundPool(nice, pt.podCpus(pod), effStrict).id();
            }
            keyPool.put(key, podPool[pod]);
          }
        }
      }
      int[] pwqKeys = keys.stream().mapToInt(Integer::intValue).toArray();
      int[] pwqPools = Arrays.stream(pwqKeys).map(keyPool::get).toArray();
      int[] nodeMax = null;
      int dflMax = 0;
      if (mode.nodeNrActive()) {
        nodeMax = new int[topology.nodeCount()];
        for (int node = 0; node < nodeMax.length; node++) {
          int nodeCpus = 0;
          for (Cpu c : topology.cpus()) {
            nodeCpus += c.node() == node ? 1 : 0;
          }
          int share = (int) ((long) max * nodeCpus + n - 1) / n;
          nodeMax[node] = Math.max(min, Math.min(share, max));
        }
        dflMax = mode.dflNodeMax(min, max);
      }
      Workqueue wq = new Workqueue(null, id, name, flags, max, min, effScope, effStrict,
          cpuPwqKey, pwqKeys, pwqPools, dflPool, nodeMax, dflMax);
      wqs.add(wq);
      return wq;
    }

    /** {@code alloc_ordered_workqueue(name, flags)}: unbound, max_active 1, one pwq. */
    public Workqueue allocOrderedWorkqueue(String name, int flags) {
      return allocWorkqueue(name, flags | Workqueue.WQ_UNBOUND | Workqueue.WQ_ORDERED, 1,
          params.defaultAffinityScope(), false);
    }

    /** {@code get_unbound_pool()}: the pool with these attributes, created on first use. */
    private UnboundPoolSpec unboundPool(int nice, int[] podCpus, boolean strict) {
      String key = nice + "|" + strict + "|" + Arrays.toString(podCpus);
      UnboundPoolSpec s = poolByAttrs.get(key);
      if (s != null) {
        return s;
      }
      int node = WqConstants.NUMA_NO_NODE;
      if (params.nodeBoundPools()) {
        int first = topology.cpu(podCpus[0]).node();
        boolean inside = true;
        for (int c : podCpus) {
          inside &= topology.cpu(c).node() == first;
        }
        node = inside ? first : WqConstants.NUMA_NO_NODE;
      }
      int id = topology.cpuCount() * WqConstants.NR_STD_WORKER_POOLS + unboundPools.size();
      String host = node == WqConstants.NUMA_NO_NODE ? UnboundPoolHost.NODELESS_ID
          : UnboundPoolHost.nodeId(node);
      s = new UnboundPoolSpec(id, nice, podCpus, strict, node, host);
      poolByAttrs.put(key, s);
      unboundPools.add(s);
      return s;
    }

    /**
     * The entries of {@code kernel.wq-max-active} that named no workqueue allocated so far
     * (ordered workqueues keep max_active 1 and are never named), in the scenario's order.
     */
    public List<MaxActiveOverride> unmatchedMaxActiveOverrides() {
      List<MaxActiveOverride> out = new ArrayList<>();
      for (MaxActiveOverride o : params.maxActiveOverrides()) {
        if (!matchedOverrides.contains(o)) {
          out.add(o);
        }
      }
      return out;
    }

    /** The system, with every workqueue allocated so far. */
    public WorkqueueSystem build() {
      built = true;
      return new WorkqueueSystem(this);
    }
  }

  // ---- the components ----------------------------------------------------------------------

  /**
   * The model's components for the workqueue subsystem: one {@link WorkqueueCpu} wrapping each
   * CPU (use them in place of the CPUs, in the same order), one {@link UnboundPoolHost} per node
   * with unbound pools, one for node-less pools if any, and the wq_monitor collector if
   * sampling is on. Call once, after every task has been added to the CPUs or before (tasks may
   * still be added to the wrapped CPUs until the run starts).
   */
  public List<Component> components(List<CpuComponent> cpuComponents) {
    if (cpus != null) {
      throw new IllegalStateException("components() called twice");
    }
    if (cpuComponents.size() != topology.cpuCount()) {
      throw new IllegalArgumentException("expected " + topology.cpuCount() + " CPUs, got "
          + cpuComponents.size());
    }
    cpus = new WorkqueueCpu[topology.cpuCount()];
    List<Component> out = new ArrayList<>();
    for (CpuComponent c : cpuComponents) {
      WorkqueueCpu w = new WorkqueueCpu(this, c);
      cpus[c.cpu().id()] = w;
      out.add(w);
    }
    LinkedHashSet<String> hostIds = new LinkedHashSet<>();
    for (int node = 0; node < topology.nodeCount(); node++) {
      for (UnboundPoolSpec s : unboundPools) {
        if (s.node() == node) {
          hostIds.add(s.hostId());
        }
      }
    }
    for (UnboundPoolSpec s : unboundPools) {
      if (s.node() == WqConstants.NUMA_NO_NODE) {
        hostIds.add(s.hostId());
      }
    }
    Map<String, UnboundPoolHost> byId = new LinkedHashMap<>();
    int slot = 0;
    for (String hid : hostIds) {
      int node = hid.equals(UnboundPoolHost.NODELESS_ID) ? WqConstants.NUMA_NO_NODE
          : nodeOfHostId(hid);
      int rescuerCpu = 0;
      for (Cpu c : topology.cpus()) {
        if (c.node() == node) {
          rescuerCpu = c.id();
          break;
        }
      }
      UnboundPoolHost h = new UnboundPoolHost(this, node, slot++, rescuerCpu);
      byId.put(hid, h);
      hosts.add(h);
    }
    for (UnboundPoolSpec s : unboundPools) {
      byId.get(s.hostId()).addPool(s);
    }
    for (Workqueue wq : workqueues) {
      if (!wq.unbound()) {
        continue;
      }
      if (wq.ordered()) {
        byId.get(hostIdOfPool(wq.dflPool)).addPwq(wq, Workqueue.DFL_PWQ, wq.dflPool);
      } else {
        for (int i = 0; i < wq.pwqKeys.length; i++) {
          byId.get(hostIdOfPool(wq.pwqPools[i])).addPwq(wq, wq.pwqKeys[i], wq.pwqPools[i]);
        }
      }
    }
    out.addAll(hosts);
    if (params.monitorIntervalNs() > 0) {
      monitor = new WqMonitorCollector(this);
      out.add(monitor);
    }
    return out;
  }

  private static int nodeOfHostId(String hid) {
    return Integer.parseInt(hid.substring("node".length(), hid.indexOf('/')));
  }

  // ---- entry points for kernel code ----------------------------------------------------------

  /**
   * {@code queue_work(wq, work)} from code running on {@code cpu} (kernel-model.md §4.3): false if
   * the item is already pending. An item homed on another CPU is forwarded to its home, which
   * decides; this call then returns true.
   */
  public boolean queueWork(CpuComponent cpu, Workqueue wq, WorkItem work) {
    return cpuSide(cpu).queueWork(wq, work, -1);
  }

  /** {@code queue_work_on(targetCpu, wq, work)}. */
  public boolean queueWorkOn(CpuComponent cpu, int targetCpu, Workqueue wq, WorkItem work) {
    if (targetCpu < 0 || targetCpu >= topology.cpuCount()) {
      throw new IllegalArgumentException("no cpu " + targetCpu);
    }
    return cpuSide(cpu).queueWork(wq, work, targetCpu);
  }

  /**
   * {@code queue_delayed_work(wq, dwork, delay)}: arms the item's timer on its home CPU
   * ({@code cpu}) for {@code delay} jiffies; 0 queues at once. False if already pending.
   */
  public boolean queueDelayedWork(CpuComponent cpu, Workqueue wq, DelayedWork dwork,
      long delayJiffies) {
    requireDelay(delayJiffies);
    return cpuSide(cpu).queueDelayedWork(wq, dwork, delayJiffies);
  }

  /**
   * {@code mod_delayed_work(wq, dwork, delay)}: re-arms a pending timer (0: queue now), or queues
   * a delayed work that is not pending. Returns whether it was pending. Simplified: an item
   * already on a queue is left there (the kernel would steal it and re-arm).
   */
  public boolean modDelayedWork(CpuComponent cpu, Workqueue wq, DelayedWork dwork,
      long delayJiffies) {
    requireDelay(delayJiffies);
    return cpuSide(cpu).modDelayedWork(wq, dwork, delayJiffies);
  }

  /**
   * {@code cancel_delayed_work()}: deletes a pending timer and clears PENDING; an item already
   * queued is not cancelled (returns false).
   */
  public boolean cancelDelayedWork(CpuComponent cpu, DelayedWork dwork) {
    return cpuSide(cpu).cancelDelayedWork(dwork);
  }

  /**
   * {@code flush_workqueue(wq)}: {@code done} runs on {@code cpu} once every item queued before
   * the call has finished. The caller's task typically sleeps and {@code done} wakes it.
   * Simplified: items still travelling to their pool, or whose delayed-work timer is pending,
   * are not waited for.
   */
  public void flushWorkqueue(CpuComponent cpu, Workqueue wq, Runnable done) {
    cpuSide(cpu).flush(wq, false, done);
  }

  /** {@code drain_workqueue(wq)}: as flush, but waits until the wq has no item at all. */
  public void drainWorkqueue(CpuComponent cpu, Workqueue wq, Runnable done) {
    cpuSide(cpu).flush(wq, true, done);
  }

  /**
   * A work item homed on {@code homeCpu}, made before the run ({@code INIT_WORK()} in a
   * subsystem's setup): it may be queued from any CPU.
   */
  public WorkItem newWorkItem(String name, WorkFn fn, int homeCpu) {
    if (homeCpu < 0 || homeCpu >= topology.cpuCount()) {
      throw new IllegalArgumentException("no cpu " + homeCpu);
    }
    WorkItem w = new WorkItem(name, fn, homeCpu, false);
    w.key = ((long) homeCpu << 32) | builtSerial[homeCpu]++;
    builtItems.put(w.key, w);
    return w;
  }

  WorkItem builtItem(long key) {
    WorkItem w = builtItems.get(key);
    if (w == null) {
      throw new IllegalStateException("no built-in work item with key " + Long.toHexString(key));
    }
    return w;
  }

  private WorkqueueCpu cpuSide(CpuComponent cpu) {
    if (cpus == null) {
      throw new IllegalStateException("components() has not been called");
    }
    WorkqueueCpu w = cpus[cpu.cpu().id()];
    if (w.cpu() != cpu) {
      throw new IllegalStateException(cpu.id() + " is not the CPU wrapped by this system");
    }
    return w;
  }

  private static void requireDelay(long d) {
    if (d < 0) {
      throw new IllegalArgumentException("delay must be >= 0 jiffies, was " + d);
    }
  }

  // ---- layout queries ------------------------------------------------------------------------

  /** Every workqueue, in allocation order (the kernel's {@code workqueues} list). */
  public List<Workqueue> workqueues() {
    return workqueues;
  }

  /** The workqueue with id {@code id}. */
  public Workqueue workqueue(int id) {
    return workqueues.get(id);
  }

  /** The workqueue named {@code name}. */
  public Workqueue workqueue(String name) {
    for (Workqueue w : workqueues) {
      if (w.name().equals(name)) {
        return w;
      }
    }
    throw new IllegalArgumentException("no workqueue " + name);
  }

  /** {@code system_wq}. */
  public Workqueue systemWq() {
    return workqueue(0);
  }

  /** {@code system_highpri_wq}. */
  public Workqueue systemHighpriWq() {
    return workqueue(1);
  }

  /** {@code system_unbound_wq}. */
  public Workqueue systemUnboundWq() {
    return workqueue(2);
  }

  /** {@code kblockd_workqueue}: per-CPU, WQ_MEM_RECLAIM | WQ_HIGHPRI. */
  public Workqueue kblockd() {
    return workqueue(3);
  }

  /** The pods of {@code scope}. */
  public WqPodType podType(AffinityScope scope) {
    return podTypes.get(scope);
  }

  /** Number of pools: two per CPU, then the unbound ones. */
  public int poolCount() {
    return topology.cpuCount() * WqConstants.NR_STD_WORKER_POOLS + unboundPools.size();
  }

  /** Pool {@code id}'s node ({@code NUMA_NO_NODE} for a node-less unbound pool). */
  public int poolNode(int id) {
    int nPer = topology.cpuCount() * WqConstants.NR_STD_WORKER_POOLS;
    return id < nPer ? topology.cpu(id / WqConstants.NR_STD_WORKER_POOLS).node()
        : unboundPools.get(id - nPer).node();
  }

  /** Pool {@code id}'s pod CPUs (a per-CPU pool: its CPU). */
  public int[] poolCpus(int id) {
    int nPer = topology.cpuCount() * WqConstants.NR_STD_WORKER_POOLS;
    return id < nPer ? new int[] {id / WqConstants.NR_STD_WORKER_POOLS}
        : unboundPools.get(id - nPer).podCpus().clone();
  }

  /** Whether pool {@code id} is unbound with strict affinity. */
  public boolean poolStrict(int id) {
    int nPer = topology.cpuCount() * WqConstants.NR_STD_WORKER_POOLS;
    return id >= nPer && unboundPools.get(id - nPer).strict();
  }

  int poolNice(int id) {
    int nPer = topology.cpuCount() * WqConstants.NR_STD_WORKER_POOLS;
    if (id < nPer) {
      return id % 2 == 1 ? WqConstants.HIGHPRI_NICE_LEVEL : WqConstants.NICE_NORMAL;
    }
    return unboundPools.get(id - nPer).nice();
  }

  /** Pwqs using pool {@code id} ({@code pool->refcnt}, counting per-CPU and unbound pwqs). */
  public int poolRefcnt(int id) {
    int nPer = topology.cpuCount() * WqConstants.NR_STD_WORKER_POOLS;
    int ref = 0;
    for (Workqueue wq : workqueues) {
      if (!wq.unbound()) {
        ref += id < nPer && wq.poolOfCpu(id / WqConstants.NR_STD_WORKER_POOLS) == id ? 1 : 0;
      } else if (wq.ordered()) {
        ref += wq.dflPool == id ? 1 : 0;
      } else {
        for (int p : wq.pwqPools) {
          ref += p == id ? 1 : 0;
        }
        ref += wq.dflPool == id ? 1 : 0;
      }
    }
    return ref;
  }

  String hostIdOfPool(int poolId) {
    return unboundPools.get(poolId - topology.cpuCount() * WqConstants.NR_STD_WORKER_POOLS)
        .hostId();
  }

  /** The ids of the components that own pwqs of {@code wq} (flush and drain ask each). */
  List<String> ownersOf(Workqueue wq) {
    LinkedHashSet<String> out = new LinkedHashSet<>();
    if (!wq.unbound()) {
      for (Cpu c : topology.cpus()) {
        out.add("cpu/" + c.id());
      }
    } else if (wq.ordered()) {
      out.add(hostIdOfPool(wq.dflPool));
    } else {
      for (int p : wq.pwqPools) {
        out.add(hostIdOfPool(p));
      }
    }
    return new ArrayList<>(out);
  }

  /** The topology. */
  public Topology topology() {
    return topology;
  }

  /** The workqueue parameters. */
  public WorkqueueParams params() {
    return params;
  }

  /** The timer parameters. */
  public TimerParams timerParams() {
    return timerParams;
  }

  /** The jiffies clock of {@link #timerParams()} (one instance for the run). */
  blksim.kernel.timer.Jiffies jiffies() {
    return jiffies;
  }

  /** The scheduler parameters. */
  public SchedParams sched() {
    return sched;
  }

  /** The delay of every workqueue message: the run's lookahead (the wakeup/IPI latency). */
  public long lookaheadNs() {
    return sched.wakeupLatencyNs();
  }

  /** The CPU wrappers, by CPU id (after {@link #components}). */
  public List<WorkqueueCpu> cpus() {
    return cpus == null ? List.of() : Collections.unmodifiableList(Arrays.asList(cpus));
  }

  /** The unbound pool hosts (after {@link #components}). */
  public List<UnboundPoolHost> hosts() {
    return Collections.unmodifiableList(hosts);
  }

  // ---- statistics ----------------------------------------------------------------------------

  /**
   * The wq_monitor table now, read from this JVM's owners. Valid in a single-JVM run (tests,
   * local runs) between events or after the run; a clustered run uses {@link #fromReports}.
   */
  public WqMonitorSnapshot snapshot(long timeNs) {
    long[] sum = new long[workqueues.size() * PwqStat.COUNT];
    for (WorkqueueCpu c : cpus) {
      add(sum, c.counters());
    }
    for (UnboundPoolHost h : hosts) {
      add(sum, h.counters());
    }
    return WqMonitorSnapshot.of(this, timeNs, sum);
  }

  /** Every owner's state now, read from this JVM's owners (see {@link #snapshot}). */
  public List<WqOwnerReport> ownerReports(long timeNs) {
    List<WqOwnerReport> out = new ArrayList<>();
    for (WorkqueueCpu c : cpus) {
      out.add(c.ownerReport(timeNs));
    }
    for (UnboundPoolHost h : hosts) {
      out.add(h.ownerReport(timeNs));
    }
    return out;
  }

  static void add(long[] sum, long[] part) {
    for (int i = 0; i < sum.length; i++) {
      sum[i] += part[i];
    }
  }

  /** The owners' final states found in a run's component reports (CPUs and hosts). */
  public static List<WqOwnerReport> ownerReports(List<ComponentReport> reports) {
    List<WqOwnerReport> out = new ArrayList<>();
    for (ComponentReport r : reports) {
      if (r.kind().equals(WqOwnerReport.KIND)) {
        out.add(WqOwnerReport.decode(r.payload()));
      } else if (r.kind().equals(CpuReport.KIND)) {
        for (TaskReport t : CpuReport.decode(r.payload()).tasks()) {
          if (t.kind().equals(WqOwnerReport.KIND)) {
            out.add(WqOwnerReport.decode(t.payload()));
          }
        }
      }
    }
    return out;
  }

  /** The wq_monitor table at the end of a run, from its component reports. */
  public WqMonitorSnapshot fromReports(List<ComponentReport> reports, long endNs) {
    long[] sum = new long[workqueues.size() * PwqStat.COUNT];
    for (WqOwnerReport o : ownerReports(reports)) {
      add(sum, o.counters());
    }
    return WqMonitorSnapshot.of(this, endNs, sum);
  }

  /** The periodic wq_monitor samples collected during a run ({@code monitorIntervalNs > 0}). */
  public List<WqMonitorSnapshot> monitorSamples(List<ComponentReport> reports) {
    for (ComponentReport r : reports) {
      if (r.kind().equals(WqMonitorCollector.KIND)) {
        return WqMonitorCollector.decode(this, r.payload());
      }
    }
    return List.of();
  }
}
