package blksim.kernel.workqueue;

import blksim.engine.Component;
import blksim.engine.ComponentReport;
import blksim.engine.Context;
import blksim.engine.Locality;
import blksim.engine.Message;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuReport;
import blksim.kernel.sched.TaskReport;
import blksim.kernel.timer.TimerBase;
import blksim.kernel.timer.TimerList;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One CPU with its workqueue state: the {@link CpuComponent} it wraps (same id {@code cpu/N},
 * same locality, every non-workqueue message passed through) plus everything per-CPU in
 * kernel/workqueue.c: the normal and highpri {@link PerCpuPool}s and their workers, the per-CPU
 * pwqs of every per-CPU wq, the unbound workers and rescuers that run on this CPU, the PENDING bit
 * of every work item homed here, and this CPU's share of the wq_monitor counters.
 *
 * <p>Everything here is owned by this component and touched only while it (or its CPU) handles a
 * message; the per-CPU pools are reached by plain calls from code running on this CPU (zero
 * delay), everything else by {@link WqMessage}s of at least the lookahead.
 *
 * <p>It is a wrapper because {@link CpuComponent} rejects messages it does not know; a generic
 * per-CPU message hook in {@code CpuComponent} would let this become an attachment instead.
 */
public final class WorkqueueCpu implements Component {
  /** kworker pids are {@code KWORKER_PID_BASE + cpu * KWORKER_PIDS_PER_CPU + n} (identifiers only). */
  static final int KWORKER_PID_BASE = 1_000_000;
  /** pids reserved per CPU for its kworkers. */
  static final int KWORKER_PIDS_PER_CPU = 10_000;
  /** Serials of items made during the run start here; built-in items count from 0. */
  static final int RUNTIME_SERIAL_BASE = 1 << 30;

  final WorkqueueSystem system;
  private final CpuComponent cpu;
  private final int cpuId;
  final PerCpuPool[] pools = new PerCpuPool[WqConstants.NR_STD_WORKER_POOLS];
  private final PoolWorkqueue[] pwqs;
  private final Map<Long, Worker> pushed = new HashMap<>();
  private final Map<Long, WorkItem> homeItems = new HashMap<>();
  private final List<ArrayDeque<PoolWorkqueue>> maydays = new ArrayList<>();
  private final Worker[] rescuers;
  private final long[] counters;
  private final FlushBarriers flushes;
  private final Map<Long, PendingFlush> waits = new HashMap<>();
  private long nextFlushId;
  private int nextSerial = RUNTIME_SERIAL_BASE;
  private int nextPid;
  private boolean touched;
  private Context ctx;
  private int selfIndex = -1;
  private int[] cpuIndex;
  private final Map<String, Integer> hostIndex = new HashMap<>();
  /** {@link #poolOwnerIndex} of unbound pool {@code nPerCpu + i} at {@code [i]}, -1 unknown. */
  private int[] hostIndexOfPool = new int[0];

  private static final class PendingFlush {
    int remaining;
    final Runnable done;

    PendingFlush(int remaining, Runnable done) {
      this.remaining = remaining;
      this.done = done;
    }
  }

  WorkqueueCpu(WorkqueueSystem system, CpuComponent cpu) {
    this.system = system;
    this.cpu = cpu;
    this.cpuId = cpu.cpu().id();
    int node = cpu.cpu().node();
    for (int h = 0; h < WqConstants.NR_STD_WORKER_POOLS; h++) {
      pools[h] = new PerCpuPool(this, cpuId * WqConstants.NR_STD_WORKER_POOLS + h, cpuId, h == 1,
          node);
    }
    int nWq = system.workqueues().size();
    pwqs = new PoolWorkqueue[nWq];
    rescuers = new Worker[nWq];
    for (Workqueue wq : system.workqueues()) {
      maydays.add(new ArrayDeque<>());
      if (!wq.unbound()) {
        pwqs[wq.id()] = new PoolWorkqueue(wq, pools[wq.highpri() ? 1 : 0], cpuId, null);
      }
    }
    counters = new long[nWq * PwqStat.COUNT];
    flushes = new FlushBarriers(nWq);
  }

  /** The CPU this wraps. */
  public CpuComponent cpu() {
    return cpu;
  }

  /** The per-CPU pool: normal ({@code highpri} false) or highpri. */
  public PerCpuPool pool(boolean highpri) {
    return pools[highpri ? 1 : 0];
  }

  /** This CPU's pwq of per-CPU wq {@code wq}. */
  public PoolWorkqueue pwq(Workqueue wq) {
    return pwqs[wq.id()];
  }

  @Override
  public String id() {
    return cpu.id();
  }

  @Override
  public Locality locality() {
    return cpu.locality();
  }

  @Override
  public boolean keepsRunAlive() {
    return cpu.keepsRunAlive();
  }

  @Override
  public void start(Context ctx) {
    this.ctx = ctx;
    cpu.start(ctx);
    for (PerCpuPool p : pools) {
      p.live = true;
    }
    long interval = system.params().monitorIntervalNs();
    if (interval > 0) {
      cpu.callAfter(interval, this::sample);
    }
  }

  @Override
  public void handle(Message message, Context ctx) {
    this.ctx = ctx;
    if (!(message instanceof WqMessage m)) {
      cpu.handle(message, ctx);
      return;
    }
    if (m instanceof WqMessage.QueueWork q) {
      insertPerCpu(system.workqueue(q.wqId()), q.work());
    } else if (m instanceof WqMessage.RunWork r) {
      Worker w = pushed.get(r.workerKey());
      if (w == null) {
        w = createPushed(r.workerKey(), false, 0);
      }
      w.assigned.addLast(r);
      wakeWorker(w);
    } else if (m instanceof WqMessage.WorkStarted s) {
      homeStarted(s.itemKey(), s.owner(), s.wqId(), s.pwqKey(), s.startNs());
    } else if (m instanceof WqMessage.WorkFinished f) {
      homeFinished(f.itemKey());
    } else if (m instanceof WqMessage.QueueAtHome q) {
      WorkItem item = homeItems.get(q.itemKey());
      if (item == null) {
        item = system.builtItem(q.itemKey());
      }
      queueAtHome(item, system.workqueue(q.wqId()), q.fromCpu(), q.targetCpu());
    } else if (m instanceof WqMessage.DestroyWorker d) {
      Worker w = pushed.remove(((long) d.poolId() << 32) | d.workerId());
      if (w != null) {
        w.dying = true;
        wakeWorker(w);
      }
    } else if (m instanceof WqMessage.SpawnWorker s) {
      createPushed(((long) s.poolId() << 32) | s.workerId(), true, s.creationDelayNs());
    } else if (m instanceof WqMessage.Flush f) {
      FlushBarriers.Done d = flushes.add(f.flushId(), f.requester(), f.wqId(), f.drain());
      if (d != null) {
        send(d.requester(), new WqMessage.FlushDone(d.flushId()));
      }
    } else if (m instanceof WqMessage.FlushDone d) {
      PendingFlush p = waits.get(d.flushId());
      if (--p.remaining == 0) {
        waits.remove(d.flushId());
        p.done.run();
      }
    } else {
      throw new IllegalStateException(id() + ": unexpected " + m + " at " + ctx.now() + " ns");
    }
  }

  // ---- queueing (called on the home CPU) --------------------------------------------------

  private void requireRunning() {
    if (ctx == null) {
      throw new IllegalStateException(id() + ": work can only be queued during the run");
    }
  }

  private void adopt(WorkItem item) {
    if (item.homeCpu < 0) {
      item.homeCpu = cpuId;
      item.key = ((long) cpuId << 32) | nextSerial++;
    }
  }

  /** {@code queue_work_on(targetCpu, wq, item)} from code on this CPU ({@code -1}: any). */
  boolean queueWork(Workqueue wq, WorkItem item, int targetCpu) {
    requireRunning();
    adopt(item);
    if (item.homeCpu != cpuId) {
      if ((item.key & 0xffffffffL) >= RUNTIME_SERIAL_BASE) {
        throw new IllegalStateException(id() + ": " + item + " was made during the run on cpu/"
            + item.homeCpu + " and must be queued from there");
      }
      send(cpuIndex(item.homeCpu), new WqMessage.QueueAtHome(item.key, wq.id(), cpuId,
          targetCpu));
      return true;
    }
    return queueAtHome(item, wq, cpuId, targetCpu);
  }

  private boolean queueAtHome(WorkItem item, Workqueue wq, int fromCpu, int targetCpu) {
    if (item.pending) {
      refused(item, () -> queueAtHome(item, wq, fromCpu, targetCpu));
      return false;
    }
    if (item.isOneShot() && item.queuedOnce) {
      throw new IllegalStateException(id() + ": one-shot " + item + " queued twice");
    }
    item.pending = true;
    item.queuedOnce = true;
    if (!item.isOneShot()) {
      homeItems.put(item.key, item);
    }
    dispatch(wq, item, fromCpu, targetCpu);
    return true;
  }

  /** {@code __queue_work()} of a pending item: picks the pwq and sends the item to its owner. */
  private void dispatch(Workqueue wq, WorkItem item, int fromCpu, int targetCpu) {
    touched = true;
    WorkRef ref = item.ref();
    if (item.running > 0 && item.execWq == wq.id()) {
      // Non-reentrancy: queue it where it is executing.
      WqMessage.QueueWork q = new WqMessage.QueueWork(wq.id(), item.execPwqKey, ref);
      if (item.execOwner == selfIndex()) {
        insertPerCpu(wq, ref);
      } else {
        send(item.execOwner, q);
      }
      return;
    }
    int from = targetCpu >= 0 ? targetCpu : fromCpu;
    if (!wq.unbound()) {
      if (from == cpuId) {
        insertPerCpu(wq, ref);
      } else {
        send(cpuIndex(from), new WqMessage.QueueWork(wq.id(), from, ref));
      }
    } else {
      int key = wq.pwqKeyOf(from);
      send(poolOwnerIndex(wq.poolOfPwq(key)), new WqMessage.QueueWork(wq.id(), key, ref));
    }
  }

  private void insertPerCpu(Workqueue wq, WorkRef ref) {
    touched = true;
    PoolWorkqueue pwq = pwqs[wq.id()];
    pwq.queue(new QueuedWork(ref, pwq, flushes.queued(wq.id())));
  }

  /** {@code queue_delayed_work()} of an item homed here. */
  boolean queueDelayedWork(Workqueue wq, DelayedWork dw, long delayJiffies) {
    requireRunning();
    WorkItem item = dw.work();
    adopt(item);
    requireHome(item);
    if (item.pending) {
      if (!dw.timerPending()) {
        refused(item, () -> queueDelayedWork(wq, dw, delayJiffies));
      }
      return false;
    }
    item.pending = true;
    homeItems.put(item.key, item);
    if (delayJiffies == 0) {
      dispatch(wq, item, cpuId, -1);
    } else {
      armDelayed(wq, dw, delayJiffies);
    }
    return true;
  }

  /** {@code mod_delayed_work()}: see {@link WorkqueueSystem#modDelayedWork}. */
  boolean modDelayedWork(Workqueue wq, DelayedWork dw, long delayJiffies) {
    requireRunning();
    WorkItem item = dw.work();
    adopt(item);
    requireHome(item);
    if (dw.timerPending()) {
      if (delayJiffies == 0) {
        dw.timer.delTimer();
        dispatch(wq, item, cpuId, -1);
      } else {
        armDelayed(wq, dw, delayJiffies);
      }
      return true;
    }
    if (item.pending) {
      refused(item, () -> modDelayedWork(wq, dw, delayJiffies));
      return true;
    }
    queueDelayedWork(wq, dw, delayJiffies);
    return false;
  }

  /** {@code cancel_delayed_work()} of a delayed work whose timer is pending. */
  boolean cancelDelayedWork(DelayedWork dw) {
    requireRunning();
    if (!dw.timerPending()) {
      return false;
    }
    requireHome(dw.work());
    dw.timer.delTimer();
    dw.work().pending = false;
    return true;
  }

  private void requireHome(WorkItem item) {
    if (item.homeCpu != cpuId) {
      throw new IllegalStateException(id() + ": delayed " + item + " belongs to cpu/"
          + item.homeCpu + "; arm it from there");
    }
  }

  private void armDelayed(Workqueue wq, DelayedWork dw, long delayJiffies) {
    if (dw.timer == null) {
      WorkItem item = dw.work();
      dw.timer = new TimerList(TimerBase.onCpu(cpu, system.timerParams()),
          () -> dispatch(dw.timerWq, item, cpuId, -1));
    }
    dw.timerWq = wq;
    dw.timer.modTimer(dw.timer.base().jiffies() + delayJiffies);
  }

  /** {@code queue_work()} of a running item from its own callback on this CPU. */
  void requeue(WorkRef ref, Workqueue wq) {
    if (!ref.tracked()) {
      throw new IllegalStateException(id() + ": one-shot work " + ref.name() + " re-queued");
    }
    if (ref.homeCpu() == cpuId) {
      queueAtHome(homeItems.get(ref.key()), wq, cpuId, -1);
    } else {
      send(cpuIndex(ref.homeCpu()), new WqMessage.QueueAtHome(ref.key(), wq.id(), cpuId, -1));
    }
  }

  /** {@code flush_workqueue()} / {@code drain_workqueue()}: {@code done} runs here when done. */
  void flush(Workqueue wq, boolean drain, Runnable done) {
    requireRunning();
    List<String> owners = system.ownersOf(wq);
    long id = ((long) cpuId << 32) | nextFlushId++;
    waits.put(id, new PendingFlush(owners.size(), done));
    for (String o : owners) {
      send(ctx.indexOf(o), new WqMessage.Flush(id, selfIndex(), wq.id(), drain));
    }
  }

  // ---- home side ---------------------------------------------------------------------------

  /**
   * The home learns that a run of the item started at {@code startNs} (a lookahead later when
   * the pool is elsewhere). PENDING is cleared as the kernel clears it at the start; a queueing
   * the home refused as PENDING at or after {@code startNs} found, in the kernel, the bit already
   * clear, so it is redone now (late by the message's delay, never lost).
   */
  private void homeStarted(long key, int owner, int wqId, int pwqKey, long startNs) {
    WorkItem item = homeItems.get(key);
    item.pending = false;
    item.running++;
    item.execOwner = owner;
    item.execWq = wqId;
    item.execPwqKey = pwqKey;
    Runnable redo = item.refusedQueueNs >= startNs ? item.refusedQueue : null;
    item.refusedQueueNs = -1;
    item.refusedQueue = null;
    if (redo != null) {
      redo.run();
    }
  }

  private void refused(WorkItem item, Runnable redo) {
    item.refusedQueueNs = ctx.now();
    item.refusedQueue = redo;
  }

  private void homeFinished(long key) {
    WorkItem item = homeItems.get(key);
    item.running--;
    if (item.running == 0 && !item.pending && (key & 0xffffffffL) >= RUNTIME_SERIAL_BASE) {
      homeItems.remove(key);
    }
  }

  // ---- worker side -------------------------------------------------------------------------

  int nextPid() {
    return KWORKER_PID_BASE + cpuId * KWORKER_PIDS_PER_CPU + nextPid++;
  }

  /** {@code wake_up_process()} of a worker of this CPU (its task is created on first use). */
  void wakeWorker(Worker w) {
    if (!w.spawned) {
      w.spawned = true;
      cpu.spawn(w);
    } else {
      cpu.wake(w);
    }
  }

  private Worker createPushed(long workerKey, boolean announce, long delayNs) {
    int poolId = (int) (workerKey >> 32);
    int workerId = (int) workerKey;
    Worker w;
    if (poolId >= 0) {
      w = Worker.pushed(Worker.Kind.UNBOUND, this, poolId, workerId,
          "kworker/u" + poolId + ":" + workerId, system.poolNice(poolId), announce);
    } else {
      Workqueue wq = system.workqueue(workerId);
      w = Worker.pushed(Worker.Kind.RESCUER, this, poolId, workerId, wq.name(),
          WqConstants.HIGHPRI_NICE_LEVEL, announce);
    }
    pushed.put(workerKey, w);
    w.spawned = true;
    cpu.spawn(w, delayNs);
    return w;
  }

  Worker.Exec execOf(WqMessage.RunWork a) {
    return new Worker.Exec(a.work(), system.workqueue(a.wqId()), a.pwqKey(), a.poolId(), null,
        a.seq(), a.rescue());
  }

  Worker.Exec execOf(QueuedWork w, int poolId, boolean rescued) {
    return new Worker.Exec(w.ref(), w.pwq().wq, w.pwq().key, poolId, w.pwq(), w.seq(), rescued);
  }

  void workerReady(Worker w) {
    send(poolOwnerIndex(w.poolId), new WqMessage.WorkerReady(w.poolId, w.workerId));
  }

  /** {@code process_one_work()} begins: count it, clear PENDING at the item's home. */
  void workStarted(Worker.Exec e) {
    stat(e.wq, e.pwq, PwqStat.STARTED, 1);
    if (!e.ref.tracked()) {
      return;
    }
    int owner = poolOwnerIndex(e.poolId);
    if (e.ref.homeCpu() == cpuId) {
      homeStarted(e.ref.key(), owner, e.wq.id(), e.pwqKey, ctx.now());
    } else {
      send(cpuIndex(e.ref.homeCpu()),
          new WqMessage.WorkStarted(e.ref.key(), owner, e.wq.id(), e.pwqKey, ctx.now()));
    }
  }

  /** {@code process_one_work()} ends: count it, release the slot, report to host and home. */
  void workCompleted(Worker.Exec e, Worker w) {
    stat(e.wq, e.pwq, PwqStat.COMPLETED, 1);
    if (e.ref.tracked()) {
      if (e.ref.homeCpu() == cpuId) {
        homeFinished(e.ref.key());
      } else {
        send(cpuIndex(e.ref.homeCpu()), new WqMessage.WorkFinished(e.ref.key()));
      }
    }
    if (e.pwq != null) {
      for (FlushBarriers.Done d : flushes.completed(e.wq.id(), e.seq)) {
        send(d.requester(), new WqMessage.FlushDone(d.flushId()));
      }
      e.pwq.decNrActive();
    } else {
      long workerKey = ((long) w.poolId << 32) | (w.workerId & 0xffffffffL);
      send(poolOwnerIndex(e.poolId), new WqMessage.WorkDone(workerKey, e.poolId, e.wq.id(),
          e.pwqKey, e.ref.key(), e.seq, e.rescued));
    }
  }

  /** Adds {@code delta} to statistic {@code s} of {@code wq} (and of its local pwq, if any). */
  void stat(Workqueue wq, PoolWorkqueue pwq, PwqStat s, long delta) {
    touched = true;
    counters[wq.id() * PwqStat.COUNT + s.ordinal()] += delta;
    if (pwq != null) {
      pwq.stats[s.ordinal()] += delta;
    }
  }

  // ---- rescuer (per-CPU wqs) ---------------------------------------------------------------

  /** {@code send_mayday()}: wake the wq's rescuer for {@code pwq}, counting one mayday. */
  void sendMayday(PoolWorkqueue pwq) {
    Workqueue wq = pwq.wq;
    if (!wq.memReclaim() || pwq.onMayday) {
      return;
    }
    addMayday(pwq);
    stat(wq, pwq, PwqStat.MAYDAY, 1);
    Worker r = rescuers[wq.id()];
    if (r == null) {
      r = Worker.perCpuRescuer(this, pwq.pool instanceof PerCpuPool p ? p : pools[0], wq);
      rescuers[wq.id()] = r;
    }
    wakeWorker(r);
  }

  void addMayday(PoolWorkqueue pwq) {
    if (!pwq.onMayday) {
      pwq.onMayday = true;
      maydays.get(pwq.wq.id()).addLast(pwq);
    }
  }

  PoolWorkqueue pollMayday(Workqueue wq) {
    PoolWorkqueue p = maydays.get(wq.id()).pollFirst();
    if (p != null) {
      p.onMayday = false;
    }
    return p;
  }

  // ---- monitor and report ------------------------------------------------------------------

  private void sample() {
    if (touched) {
      send(ctx.indexOf(WqMonitorCollector.ID),
          new WqMessage.Sample(ctx.now(), counters.clone()));
    }
    cpu.callAfter(system.params().monitorIntervalNs(), this::sample);
  }

  /** This CPU's workqueue state at {@code timeNs}. */
  public WqOwnerReport ownerReport(long timeNs) {
    List<WqOwnerReport.PoolState> ps = new ArrayList<>();
    for (PerCpuPool p : pools) {
      ps.add(new WqOwnerReport.PoolState(p.id, p.nrWorkers(), p.nrIdle()));
    }
    return new WqOwnerReport(id(), timeNs, counters.clone(), ps, List.of());
  }

  /** This CPU's counters, {@code [wqId * PWQ_NR_STATS + stat]}. */
  long[] counters() {
    return counters;
  }

  @Override
  public ComponentReport report(long endNs) {
    ComponentReport r = cpu.report(endNs);
    if (!touched) {
      return r;
    }
    CpuReport c = CpuReport.decode(r.payload());
    List<TaskReport> tasks = new ArrayList<>(c.tasks());
    tasks.add(new TaskReport(WqOwnerReport.TASK_NAME, WqOwnerReport.KIND,
        ownerReport(endNs).encode()));
    return new ComponentReport(r.componentId(), r.kind(), c.withTasks(tasks).encode());
  }

  // ---- addressing --------------------------------------------------------------------------

  private int selfIndex() {
    if (selfIndex < 0) {
      selfIndex = ctx.indexOf(id());
    }
    return selfIndex;
  }

  private int cpuIndex(int c) {
    if (cpuIndex == null) {
      cpuIndex = new int[system.topology().cpuCount()];
      Arrays.fill(cpuIndex, -1);
    }
    if (cpuIndex[c] < 0) {
      cpuIndex[c] = ctx.indexOf("cpu/" + c);
    }
    return cpuIndex[c];
  }

  /** The component index of the owner of pool {@code poolId}: a CPU or an unbound pool host. */
  int poolOwnerIndex(int poolId) {
    int nPerCpu = system.topology().cpuCount() * WqConstants.NR_STD_WORKER_POOLS;
    if (poolId >= 0 && poolId < nPerCpu) {
      return cpuIndex(poolId / WqConstants.NR_STD_WORKER_POOLS);
    }
    // Cached per pool: the host's id is a string looked up by name, and this runs for every
    // unbound work queued and finished.
    int i = poolId - nPerCpu;
    if (i >= hostIndexOfPool.length) {
      int n = hostIndexOfPool.length;
      hostIndexOfPool = Arrays.copyOf(hostIndexOfPool, Math.max(i + 1, 2 * n));
      Arrays.fill(hostIndexOfPool, n, hostIndexOfPool.length, -1);
    }
    int idx = hostIndexOfPool[i];
    if (idx < 0) {
      idx = hostIndex.computeIfAbsent(system.hostIdOfPool(poolId), ctx::indexOf);
      hostIndexOfPool[i] = idx;
    }
    return idx;
  }

  private void send(int target, WqMessage m) {
    ctx.send(target, m, system.lookaheadNs());
  }
}
