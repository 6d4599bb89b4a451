package blksim.kernel.workqueue;

import blksim.kernel.timer.TimerList;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An unbound {@code worker_pool}: one per pod of a set of attributes (nice, pod cpumask,
 * strictness), shared by every wq with those attributes (kernel-model.md §4.6).
 *
 * <p>Owned by its {@link UnboundPoolHost}; its workers are tasks on the pod's CPUs, possibly in
 * other partitions, so the pool hands them items by message instead of letting them take items
 * off the worklist: {@code kick_pool()} pops the most recently idled worker and gives it the first
 * item ({@code assign_work()}, with the non-reentrancy collision rule); a worker that reports an
 * item done gets the next one, as {@code worker_thread()}'s loop would take it, or goes idle.
 * Unbound workers are NOT_RUNNING, so {@code nr_running} is always 0: every active item gets a
 * worker as soon as one is idle or created. A worker that takes the last idle slot becomes the
 * manager: it creates the next worker (the pool keeps a spare) before taking an item, with the
 * mayday timer armed; creation is serial ({@code POOL_MANAGER_ACTIVE}).
 *
 * <p>New workers are placed round-robin on the pod's CPUs ({@code cpumask_any_distribute()}, the
 * kernel's choice of {@code wake_cpu}) and stay there: kworkers never migrate in this model, so
 * workers are never outside their pod and {@code REPATRIATED} stays 0. The pool's first worker
 * exists from creation ({@code get_unbound_pool()} creates it), with the spare a used pool keeps
 * ({@link WorkqueueParams#initialWorkers}); their tasks are made on first use.
 *
 * <p>Idle workers are culled as the kernel does ({@code worker_enter_idle()},
 * {@code idle_worker_timeout()}, {@code idle_cull_fn()}): while {@code too_many_workers()}, the
 * worker idle longest goes once it has been idle {@code IDLE_WORKER_TIMEOUT} (300 s); the idle
 * timer is armed when a worker goes idle with too many workers. Simplified: the cull runs in the
 * timer instead of in a work item on {@code system_unbound_wq}, and worker ids are not reused
 * (the kernel's {@code worker_ida} hands the lowest free one out again).
 */
final class UnboundPool extends WorkerPool {
  final UnboundPoolHost host;
  /** Idle worker ids; the head is the most recently idled. */
  final ArrayDeque<Integer> idle = new ArrayDeque<>();
  final List<HostWorker> workers = new ArrayList<>();
  final Map<Long, HostWorker> busyHash = new HashMap<>();
  boolean creating;
  /** The worker creating the next one ({@code POOL_MANAGER_ACTIVE}), or null. */
  private HostWorker manager;
  private int nextCpu;
  private int nrReady;
  private TimerList maydayTimer;
  private TimerList idleTimer;
  /** Workers culled so far. */
  private int nrCulled;

  /** The host's view of one worker of this pool (or of a rescuer). */
  static final class HostWorker {
    final int id;
    final int cpu;
    final long key;
    final ArrayDeque<QueuedWork> scheduled = new ArrayDeque<>();
    QueuedWork current;
    /** {@code worker->last_active}: jiffies when it last went idle. */
    long lastActive;
    /** Culled: its kthread has been told to exit. */
    boolean dead;

    HostWorker(int id, int cpu, long key) {
      this.id = id;
      this.cpu = cpu;
      this.key = key;
    }
  }

  UnboundPool(UnboundPoolHost host, int id, int nice, int node, int[] podCpus, boolean strict) {
    super(id, -1, nice, node, podCpus, strict);
    this.host = host;
    int n = host.system.params().initialWorkers();
    for (int i = 0; i < n; i++) {
      workers.add(new HostWorker(i, podCpus[nextCpu++ % podCpus.length], workerKey(i)));
      idle.addFirst(i);
    }
    nrReady = n;
  }

  long workerKey(int workerId) {
    return ((long) id << 32) | workerId;
  }

  @Override
  public int nrWorkers() {
    return nrReady;
  }

  @Override
  public int nrIdle() {
    return idle.size();
  }

  /** {@code need_to_create_worker()} with {@code nr_running == 0}. */
  boolean needToCreateWorker() {
    return !worklist.isEmpty() && idle.isEmpty();
  }

  /**
   * {@code kick_pool()} and the woken workers' first steps: each idle worker (most recent first)
   * takes the first item; one that would leave no idle worker becomes the manager instead and
   * takes an item only once it has created the next worker ({@code may_start_working()} fails,
   * {@code manage_workers()}), so the items stay on the worklist, where a rescuer can take them.
   */
  @Override
  boolean kick() {
    boolean woke = false;
    while (!worklist.isEmpty() && !idle.isEmpty()) {
      HostWorker w = workers.get(idle.pollFirst());
      woke = true;
      if (idle.isEmpty() && !creating) {
        manager = w;
        startCreate();
        break;
      }
      assignNext(w);
    }
    return woke;
  }

  /**
   * Gives worker {@code w} its next item: its scheduled list first, then the worklist (an item
   * executing on another worker goes to that worker's list); with nothing to do it goes idle.
   */
  boolean assignNext(HostWorker w) {
    QueuedWork next = w.scheduled.pollFirst();
    while (next == null && !worklist.isEmpty()) {
      QueuedWork q = worklist.pollFirst();
      HostWorker other = busyHash.get(q.ref().key());
      if (other != null && other != w) {
        other.scheduled.addLast(q);
        continue;
      }
      next = q;
    }
    if (next == null) {
      enterIdle(w);
      return false;
    }
    run(w, next, false);
    return true;
  }

  void run(HostWorker w, QueuedWork q, boolean rescue) {
    w.current = q;
    busyHash.put(q.ref().key(), w);
    host.sendToCpu(w.cpu, new WqMessage.RunWork(w.key, id, q.pwq().wq.id(), q.pwq().key,
        q.ref(), q.seq(), rescue));
  }

  /** {@code create_worker()}: a new worker on the next pod CPU, ready after its creation. */
  private void startCreate() {
    creating = true;
    armMayday();
    int workerId = workers.size();
    int cpu = podCpus[nextCpu++ % podCpus.length];
    workers.add(new HostWorker(workerId, cpu, workerKey(workerId)));
    host.sendToCpu(cpu, new WqMessage.SpawnWorker(id, workerId,
        host.system.params().kthreadCreateNs()));
  }

  /**
   * The worker created by {@link #startCreate} is ready: it joins the idle list, and the manager
   * goes back to work ({@code manage_workers()} returns, {@code worker_thread()} rechecks).
   */
  void workerReady(int workerId) {
    nrReady++;
    creating = false;
    disarmMayday();
    workers.get(workerId).lastActive = host.timerBase().jiffies();
    idle.addFirst(workerId);
    HostWorker m = manager;
    manager = null;
    if (m != null) {
      assignNext(m);
    }
    kick();
  }

  /** Workers culled since the run started. */
  int nrCulled() {
    return nrCulled;
  }

  /** {@code worker_enter_idle()}: arms the idle timer if the pool has too many workers. */
  private void enterIdle(HostWorker w) {
    long now = host.timerBase().jiffies();
    w.lastActive = now;
    idle.addFirst(w.id);
    if (tooManyWorkers() && (idleTimer == null || !idleTimer.timerPending())) {
      if (idleTimer == null) {
        idleTimer = new TimerList(host.timerBase(), this::idleWorkerTimeout);
      }
      idleTimer.modTimer(now + WqConstants.idleWorkerTimeout(host.system.timerParams().hz()));
    }
  }

  /**
   * {@code too_many_workers()}: more than 2 idle and at least one idle per
   * {@code MAX_IDLE_WORKERS_RATIO} busy beyond those 2; the manager counts as idle.
   */
  boolean tooManyWorkers() {
    int nrIdle = idle.size() + (manager != null ? 1 : 0);
    int nrBusy = nrReady - nrIdle;
    return nrIdle > 2 && (nrIdle - 2) * WqConstants.MAX_IDLE_WORKERS_RATIO >= nrBusy;
  }

  /** {@code idle_worker_timeout()} and {@code idle_cull_fn()}: cull the longest idle. */
  private void idleWorkerTimeout() {
    long timeout = WqConstants.idleWorkerTimeout(host.system.timerParams().hz());
    while (tooManyWorkers()) {
      HostWorker w = workers.get(idle.peekLast());
      long expires = w.lastActive + timeout;
      long now = host.timerBase().jiffies();
      if (now < expires) {
        idleTimer.modTimer(expires);
        return;
      }
      idle.pollLast();
      w.dead = true;
      nrReady--;
      nrCulled++;
      host.sendToCpu(w.cpu, new WqMessage.DestroyWorker(id, w.id));
    }
  }

  private void armMayday() {
    if (maydayTimer == null) {
      maydayTimer = new TimerList(host.timerBase(), this::maydayTimeout);
    }
    maydayTimer.modTimer(maydayTimer.base().jiffies()
        + WqConstants.maydayInitialTimeout(host.system.timerParams().hz()));
  }

  private void disarmMayday() {
    if (maydayTimer != null) {
      maydayTimer.delTimer();
    }
  }

  /** {@code pool_mayday_timeout()}. */
  private void maydayTimeout() {
    if (needToCreateWorker()) {
      for (QueuedWork w : new ArrayList<>(worklist)) {
        host.sendMayday(w.pwq());
      }
    }
    maydayTimer.modTimer(maydayTimer.base().jiffies()
        + WqConstants.maydayInterval(host.system.timerParams().hz()));
  }
}
