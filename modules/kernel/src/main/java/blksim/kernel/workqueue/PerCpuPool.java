package blksim.kernel.workqueue;

import blksim.kernel.timer.TimerBase;
import blksim.kernel.timer.TimerList;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A per-CPU {@code worker_pool} (normal or highpri) with concurrency management, exactly as
 * kernel-model.md §4.4: {@code nr_running} counts workers that execute work, are runnable and
 * are not NOT_RUNNING; {@code need_more_worker()} is "worklist not empty and nr_running == 0";
 * {@code kick_pool()} wakes the first idle worker (idle list is LIFO); a woken worker with no
 * other idle worker first becomes manager and creates one ({@code maybe_create_worker()}, taking
 * {@link WorkqueueParams#kthreadCreateNs} with a mayday timer armed).
 *
 * <p>Owned by the {@link WorkqueueCpu} of its CPU; its workers are tasks of that CPU, so every
 * operation is a plain call made while that CPU handles a message.
 *
 * <p>The pool starts with {@link WorkqueueParams#initialWorkers} idle workers (the kernel's boot
 * worker, plus the spare a used pool keeps), whose tasks are created on their first wakeup (with
 * no creation delay) so that idle pools cost nothing. Idle workers are culled as the kernel does
 * ({@code worker_enter_idle()} arms the idle timer when {@code too_many_workers()};
 * {@code idle_worker_timeout()} / {@code idle_cull_fn()} cull the longest-idle worker once idle
 * {@code IDLE_WORKER_TIMEOUT}); simplified: the cull runs in the timer, not in a work item on
 * {@code system_unbound_wq}. Worker ids come from the lowest free one, as {@code worker_ida}.
 */
final class PerCpuPool extends WorkerPool {
  final WorkqueueCpu owner;
  final boolean highpri;
  final ArrayDeque<Worker> idleList = new ArrayDeque<>();
  final List<Worker> workers = new ArrayList<>();
  /** {@code pool->busy_hash}: the worker executing each item, by item key. */
  final Map<Long, Worker> busyHash = new HashMap<>();
  int nrRunning;
  boolean managerActive;
  private TimerList maydayTimer;
  private TimerList idleTimer;
  private TimerBase timerBase;
  /** {@code pool->worker_ida}: ids in use. */
  private final java.util.BitSet ids = new java.util.BitSet();

  PerCpuPool(WorkqueueCpu owner, int id, int cpu, boolean highpri, int node) {
    super(id, cpu, highpri ? WqConstants.HIGHPRI_NICE_LEVEL : WqConstants.NICE_NORMAL, node,
        new int[] {cpu}, true);
    this.owner = owner;
    this.highpri = highpri;
    for (int i = 0; i < owner.system.params().initialWorkers(); i++) {
      createWorkerObject();
    }
  }

  @Override
  public int nrWorkers() {
    return workers.size();
  }

  @Override
  public int nrIdle() {
    return idleList.size();
  }

  /** {@code pool->nr_running}. */
  public int nrRunning() {
    return nrRunning;
  }

  /** {@code need_more_worker()}. */
  boolean needMoreWorker() {
    return !worklist.isEmpty() && nrRunning == 0;
  }

  /** {@code may_start_working()}. */
  boolean mayStartWorking() {
    return !idleList.isEmpty();
  }

  /** {@code keep_working()}. */
  boolean keepWorking() {
    return !worklist.isEmpty() && nrRunning <= 1;
  }

  /** {@code need_to_create_worker()}. */
  boolean needToCreateWorker() {
    return needMoreWorker() && !mayStartWorking();
  }

  @Override
  boolean kick() {
    Worker w = idleList.peekFirst();
    if (!needMoreWorker() || w == null) {
      return false;
    }
    owner.wakeWorker(w);
    return true;
  }

  /**
   * {@code worker_enter_idle()}: the most recently idled worker is woken first; with too many
   * workers the idle timer is armed (not for the boot workers, made before the run).
   */
  void enterIdle(Worker w) {
    w.flags |= Worker.WORKER_IDLE;
    idleList.addFirst(w);
    if (!live) {
      return;
    }
    long now = timerBase().jiffies();
    w.lastActive = now;
    if (tooManyWorkers() && (idleTimer == null || !idleTimer.timerPending())) {
      if (idleTimer == null) {
        idleTimer = new TimerList(timerBase(), this::idleWorkerTimeout);
      }
      idleTimer.modTimer(now + WqConstants.idleWorkerTimeout(owner.system.timerParams().hz()));
    }
  }

  /** Set once the run has started (boot workers are made before). */
  boolean live;

  /** {@code too_many_workers()}; the manager counts as idle. */
  boolean tooManyWorkers() {
    int nrIdle = idleList.size() + (managerActive ? 1 : 0);
    int nrBusy = workers.size() - nrIdle;
    return nrIdle > 2 && (nrIdle - 2) * WqConstants.MAX_IDLE_WORKERS_RATIO >= nrBusy;
  }

  /** {@code idle_worker_timeout()} and {@code idle_cull_fn()}. */
  private void idleWorkerTimeout() {
    long timeout = WqConstants.idleWorkerTimeout(owner.system.timerParams().hz());
    while (tooManyWorkers()) {
      Worker w = idleList.peekLast();
      long expires = w.lastActive + timeout;
      if (timerBase().jiffies() < expires) {
        idleTimer.modTimer(expires);
        return;
      }
      // set_worker_dying(): off the idle list and the pool; its kthread exits when woken.
      idleList.pollLast();
      w.flags &= ~Worker.WORKER_IDLE;
      workers.remove(w);
      ids.clear(w.workerId);
      w.dying = true;
      if (w.spawned) {
        owner.cpu().wake(w);
      }
    }
  }

  private TimerBase timerBase() {
    if (timerBase == null) {
      timerBase = TimerBase.onCpu(owner.cpu(), owner.system.timerParams());
    }
    return timerBase;
  }

  /** {@code worker_leave_idle()}. */
  void leaveIdle(Worker w) {
    if ((w.flags & Worker.WORKER_IDLE) != 0) {
      w.flags &= ~Worker.WORKER_IDLE;
      idleList.remove(w);
    }
  }

  private Worker createWorkerObject() {
    int n = ids.nextClearBit(0);
    ids.set(n);
    String comm = "kworker/" + cpu + ":" + n + (highpri ? "H" : "");
    Worker w = Worker.perCpu(owner, this, n, comm, nice);
    workers.add(w);
    enterIdle(w);
    return w;
  }

  /**
   * {@code create_worker()} once its kthread exists: the worker joins the pool idle and is woken
   * ({@code worker_enter_idle()} + {@code wake_up_process()}).
   */
  void createWorker() {
    owner.wakeWorker(createWorkerObject());
  }

  /** Arms the mayday timer for {@code MAYDAY_INITIAL_TIMEOUT} ({@code maybe_create_worker()}). */
  void armMayday() {
    TimerList t = maydayTimer();
    t.modTimer(t.base().jiffies()
        + WqConstants.maydayInitialTimeout(owner.system.timerParams().hz()));
  }

  /** {@code del_timer_sync(&pool->mayday_timer)}. */
  void disarmMayday() {
    if (maydayTimer != null) {
      maydayTimer.delTimer();
    }
  }

  private TimerList maydayTimer() {
    if (maydayTimer == null) {
      maydayTimer = new TimerList(timerBase(), this::maydayTimeout);
    }
    return maydayTimer;
  }

  /** {@code pool_mayday_timeout()}: while creation is stuck, mayday every pwq with work here. */
  private void maydayTimeout() {
    if (needToCreateWorker()) {
      for (QueuedWork w : worklist) {
        owner.sendMayday(w.pwq());
      }
    }
    maydayTimer.modTimer(maydayTimer.base().jiffies()
        + WqConstants.maydayInterval(owner.system.timerParams().hz()));
  }
}
