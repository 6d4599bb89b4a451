package blksim.kernel.workqueue;

import blksim.engine.Component;
import blksim.engine.ComponentReport;
import blksim.engine.Context;
import blksim.engine.Locality;
import blksim.engine.Message;
import blksim.kernel.timer.TimerBase;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The owner of the unbound pools of one NUMA node ({@code node<N>/wq/unbound}, located on that
 * node) or of every node-less pool ({@code wq/unbound}, machine-wide): the pools, their worklists
 * and idle lists, the unbound pwqs that point at them with their {@code nr_active} and
 * {@code inactive_works}, the wqs' {@link NodeNrActive} counters for that node (or the default
 * counter), the host side of the rescuers, and the mayday timers.
 *
 * <p>Why one component per node rather than per pool: from 6.9 every pwq of a wq whose pool is
 * tied to node N shares node N's counter, and every node-less pool shares the default counter. A
 * pool's node decides both its host and its counter, so a counter and all of its users always
 * live in the same component, and {@code pwq_tryinc_nr_active()} / {@code pwq_dec_nr_active()}
 * stay plain calls. CPUs reach a host by messages of at least the lookahead (an IPI-like hop,
 * as a remote wakeup is).
 *
 * <p>Simplified: one rescuer per (wq, host) rather than one per wq, on the host's first CPU;
 * {@code RESCUED} and {@code MAYDAY} are counted here, execution statistics on the workers' CPUs.
 */
public final class UnboundPoolHost implements Component {
  /** Id of the host of node-less pools. */
  public static final String NODELESS_ID = "wq/unbound";

  final WorkqueueSystem system;
  private final String id;
  private final int node;
  private final Locality locality;
  private final int rescuerCpu;
  private final int hostSlot;
  private final TreeMap<Integer, UnboundPool> pools = new TreeMap<>();
  private final Map<Long, PoolWorkqueue> pwqs = new HashMap<>();
  private final NodeNrActive[] nna;
  private final HostRescuer[] rescuers;
  private final long[] counters;
  private final FlushBarriers flushes;
  private final List<Runnable> slots = new ArrayList<>();
  private final ArrayDeque<Integer> freeSlots = new ArrayDeque<>();
  private final Map<Integer, Integer> cpuIndex = new HashMap<>();
  /** The same as an array (the component index of cpu {@code c} at {@code [c]}, -1 unknown). */
  private int[] cpuIndexOf = new int[0];
  private TimerBase timerBase;
  private boolean touched;
  private Context ctx;

  /** The host side of a wq's rescuer. */
  private static final class HostRescuer {
    final Workqueue wq;
    final UnboundPool.HostWorker hw;
    final ArrayDeque<PoolWorkqueue> maydays = new ArrayDeque<>();
    PoolWorkqueue rescuing;
    boolean busy;

    HostRescuer(Workqueue wq, UnboundPool.HostWorker hw) {
      this.wq = wq;
      this.hw = hw;
    }
  }

  /** The component id of the host of node {@code node}'s unbound pools. */
  public static String nodeId(int node) {
    return "node" + node + "/wq/unbound";
  }

  UnboundPoolHost(WorkqueueSystem system, int node, int hostSlot, int rescuerCpu) {
    this.system = system;
    this.node = node;
    this.hostSlot = hostSlot;
    this.rescuerCpu = rescuerCpu;
    this.id = node == WqConstants.NUMA_NO_NODE ? NODELESS_ID : nodeId(node);
    this.locality = node == WqConstants.NUMA_NO_NODE ? Locality.MACHINE
        : new Locality(node, -1, -1);
    int nWq = system.workqueues().size();
    nna = new NodeNrActive[nWq];
    rescuers = new HostRescuer[nWq];
    counters = new long[nWq * PwqStat.COUNT];
    flushes = new FlushBarriers(nWq);
  }

  void addPool(WorkqueueSystem.UnboundPoolSpec s) {
    pools.put(s.id(), new UnboundPool(this, s.id(), s.nice(), s.node(), s.podCpus(), s.strict()));
  }

  void addPwq(Workqueue wq, int key, int poolId) {
    NodeNrActive n = null;
    if (system.params().mode().nodeNrActive()) {
      n = nna[wq.id()];
      if (n == null) {
        n = new NodeNrActive(node, wq.nodeMaxActive(node));
        nna[wq.id()] = n;
      }
    }
    pwqs.put(pwqKey(wq.id(), key), new PoolWorkqueue(wq, pools.get(poolId), key, n));
  }

  private static long pwqKey(int wqId, int key) {
    return ((long) wqId << 32) | (key & 0xffffffffL);
  }

  /** The pwq {@code key} of {@code wq} owned here. */
  public PoolWorkqueue pwq(Workqueue wq, int key) {
    return pwqs.get(pwqKey(wq.id(), key));
  }

  /** Pool {@code poolId} owned here, or null. */
  public WorkerPool pool(int poolId) {
    return pools.get(poolId);
  }

  /** The node whose pools this host owns, {@code NUMA_NO_NODE} for node-less pools. */
  public int node() {
    return node;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public Locality locality() {
    return locality;
  }

  @Override
  public void start(Context ctx) {
    this.ctx = ctx;
    long interval = system.params().monitorIntervalNs();
    if (interval > 0) {
      callAfter(interval, this::sample);
    }
  }

  @Override
  public void handle(Message message, Context ctx) {
    this.ctx = ctx;
    if (message instanceof WqMessage.HostTimer t) {
      Runnable r = slots.get(t.slot());
      slots.set(t.slot(), null);
      freeSlots.addLast(t.slot());
      r.run();
    } else if (message instanceof WqMessage.QueueWork q) {
      touched = true;
      PoolWorkqueue pwq = pwqs.get(pwqKey(q.wqId(), q.pwqKey()));
      pwq.queue(new QueuedWork(q.work(), pwq, flushes.queued(q.wqId())));
    } else if (message instanceof WqMessage.WorkDone d) {
      workDone(d);
    } else if (message instanceof WqMessage.WorkerReady r) {
      pools.get(r.poolId()).workerReady(r.workerId());
    } else if (message instanceof WqMessage.Flush f) {
      FlushBarriers.Done d = flushes.add(f.flushId(), f.requester(), f.wqId(), f.drain());
      if (d != null) {
        ctx.send(d.requester(), new WqMessage.FlushDone(d.flushId()), system.lookaheadNs());
      }
    } else {
      throw new IllegalStateException(id + ": unexpected " + message + " at " + ctx.now()
          + " ns");
    }
  }

  /** An item finished on a worker: release its slot, give the worker its next item. */
  private void workDone(WqMessage.WorkDone d) {
    UnboundPool pool = pools.get(d.poolId());
    Workqueue wq = system.workqueue(d.wqId());
    PoolWorkqueue pwq = pwqs.get(pwqKey(d.wqId(), d.pwqKey()));
    UnboundPool.HostWorker w = d.rescue() ? rescuers[wq.id()].hw
        : pool.workers.get((int) d.workerKey());
    if (pool.busyHash.get(d.itemKey()) == w) {
      pool.busyHash.remove(d.itemKey());
    }
    w.current = null;
    for (FlushBarriers.Done f : flushes.completed(wq.id(), d.seq())) {
      ctx.send(f.requester(), new WqMessage.FlushDone(f.flushId()), system.lookaheadNs());
    }
    pwq.decNrActive();
    if (d.rescue()) {
      rescuerNext(rescuers[wq.id()]);
    } else {
      pool.assignNext(w);
    }
  }

  // ---- rescuer -------------------------------------------------------------------------------

  /** {@code send_mayday()}. */
  void sendMayday(PoolWorkqueue pwq) {
    Workqueue wq = pwq.wq;
    if (!wq.memReclaim() || pwq.onMayday) {
      return;
    }
    HostRescuer r = rescuer(wq);
    pwq.onMayday = true;
    r.maydays.addLast(pwq);
    stat(wq, pwq, PwqStat.MAYDAY, 1);
    if (!r.busy) {
      rescuerNext(r);
    }
  }

  private HostRescuer rescuer(Workqueue wq) {
    HostRescuer r = rescuers[wq.id()];
    if (r == null) {
      long key = ((long) (-1 - hostSlot) << 32) | wq.id();
      r = new HostRescuer(wq, new UnboundPool.HostWorker(-1, rescuerCpu, key));
      rescuers[wq.id()] = r;
    }
    return r;
  }

  /** {@code rescuer_thread()}'s loop, one item at a time. */
  private void rescuerNext(HostRescuer r) {
    while (true) {
      QueuedWork next = r.hw.scheduled.pollFirst();
      if (next != null) {
        r.busy = true;
        ((UnboundPool) next.pwq().pool).run(r.hw, next, true);
        return;
      }
      if (r.rescuing != null) {
        UnboundPool p = (UnboundPool) r.rescuing.pool;
        if (r.rescuing.nrActive > 0 && p.needToCreateWorker() && !r.rescuing.onMayday) {
          r.rescuing.onMayday = true;
          r.maydays.addLast(r.rescuing);
        }
        r.rescuing = null;
        p.kick();
        continue;
      }
      PoolWorkqueue pwq = r.maydays.pollFirst();
      if (pwq == null) {
        r.busy = false;
        return;
      }
      pwq.onMayday = false;
      r.rescuing = pwq;
      UnboundPool p = (UnboundPool) pwq.pool;
      int taken = 0;
      var it = p.worklist.iterator();
      while (it.hasNext() && taken < WqConstants.RESCUER_BATCH) {
        QueuedWork w = it.next();
        if (w.pwq() != pwq) {
          continue;
        }
        it.remove();
        UnboundPool.HostWorker other = p.busyHash.get(w.ref().key());
        if (other != null && other != r.hw) {
          other.scheduled.addLast(w);
          continue;
        }
        r.hw.scheduled.addLast(w);
        stat(pwq.wq, pwq, PwqStat.RESCUED, 1);
        taken++;
      }
    }
  }

  // ---- plumbing ------------------------------------------------------------------------------

  void sendToCpu(int cpu, WqMessage m) {
    if (cpu >= cpuIndexOf.length) {
      int n = cpuIndexOf.length;
      cpuIndexOf = java.util.Arrays.copyOf(cpuIndexOf, Math.max(cpu + 1, 2 * n));
      java.util.Arrays.fill(cpuIndexOf, n, cpuIndexOf.length, -1);
    }
    int idx = cpuIndexOf[cpu];
    if (idx < 0) {
      idx = cpuIndex.computeIfAbsent(cpu, c -> ctx.indexOf("cpu/" + c));
      cpuIndexOf[cpu] = idx;
    }
    ctx.send(idx, m, system.lookaheadNs());
  }

  void stat(Workqueue wq, PoolWorkqueue pwq, PwqStat s, long delta) {
    touched = true;
    counters[wq.id() * PwqStat.COUNT + s.ordinal()] += delta;
    if (pwq != null) {
      pwq.stats[s.ordinal()] += delta;
    }
  }

  /** Runs {@code r} in this component after {@code delayNs}. */
  void callAfter(long delayNs, Runnable r) {
    int slot;
    if (freeSlots.isEmpty()) {
      slot = slots.size();
      slots.add(r);
    } else {
      slot = freeSlots.pollFirst();
      slots.set(slot, r);
    }
    ctx.schedule(delayNs, new WqMessage.HostTimer(slot));
  }

  TimerBase timerBase() {
    if (timerBase == null) {
      timerBase = TimerBase.of(system.timerParams(), () -> ctx.now(), this::callAfter);
    }
    return timerBase;
  }

  private void sample() {
    if (touched) {
      ctx.send(ctx.indexOf(WqMonitorCollector.ID), new WqMessage.Sample(ctx.now(),
          counters.clone()), system.lookaheadNs());
    }
    callAfter(system.params().monitorIntervalNs(), this::sample);
  }

  /** This host's workqueue state at {@code timeNs}. */
  public WqOwnerReport ownerReport(long timeNs) {
    List<WqOwnerReport.PoolState> ps = new ArrayList<>();
    for (UnboundPool p : pools.values()) {
      ps.add(new WqOwnerReport.PoolState(p.id, p.nrWorkers(), p.nrIdle()));
    }
    List<WqOwnerReport.NnaState> ns = new ArrayList<>();
    for (int w = 0; w < nna.length; w++) {
      if (nna[w] != null) {
        ns.add(new WqOwnerReport.NnaState(w, node, nna[w].nr, nna[w].max));
      }
    }
    return new WqOwnerReport(id, timeNs, counters.clone(), ps, ns);
  }

  long[] counters() {
    return counters;
  }

  @Override
  public ComponentReport report(long endNs) {
    return new ComponentReport(id, WqOwnerReport.KIND, ownerReport(endNs).encode());
  }
}
