package blksim.kernel.workqueue;

import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.timer.Jiffies;
import java.util.ArrayDeque;

/**
 * A kworker: {@code struct worker} and its task running {@code worker_thread()}, or a rescuer
 * running {@code rescuer_thread()} (kernel-model.md §2, §4.4, §4.5).
 *
 * <p>Three kinds:
 * <ul>
 *   <li><b>per-CPU</b> ({@code kworker/C:N}, {@code kworker/C:NH}): pulls from its
 *       {@link PerCpuPool} as {@code worker_thread()} does: leave idle; if
 *       {@code !need_more_worker()} sleep; if no other worker is idle become manager and create
 *       one; clear PREP (now counted in {@code nr_running}); take the first item, run it and
 *       continue while {@code keep_working()}; set PREP and go idle. Blocking inside an item
 *       reaches {@code wq_worker_sleeping()} through {@link #schedSubmitWork} and waking
 *       {@code wq_worker_running()} through {@link #schedUpdateWorker}. A CPU-hogging item is
 *       flagged CPU_INTENSIVE at the first tick after it used {@code cpu_intensive_thresh_us}
 *       without sleeping ({@code wq_worker_tick()}, 6.5+).
 *   <li><b>unbound</b> ({@code kworker/uP:N}): its pool lives in an {@link UnboundPoolHost},
 *       possibly in another partition, which hands it items by message
 *       ({@link WqMessage.RunWork}); it reports each end ({@link WqMessage.WorkDone}) and then
 *       sleeps until given the next. Permanently NOT_RUNNING (WORKER_UNBOUND).
 *   <li><b>rescuer</b> (named after its wq, nice -20, PREP forever so never concurrency-managed):
 *       for a per-CPU pool it pulls the maydayed pwq's items itself, up to
 *       {@code RESCUER_BATCH}; for unbound pools its host hands it the items.
 * </ul>
 *
 * <p>Simplified: a worker never migrates (kworkers are bound tasks here, even unbound ones), so
 * an unbound worker stays on the pod CPU it was created on and repatriation never happens; items are run by a
 * {@link WorkRun} state machine instead of a function call; CPU time is sampled at the ticks that
 * fall inside the item's bursts as issued. Owned by the {@link WorkqueueCpu} of its CPU.
 */
public final class Worker extends Task {
  /** {@code WORKER_IDLE}. */
  static final int WORKER_IDLE = 1 << 2;
  /** {@code WORKER_PREP}: preparing to run works. */
  static final int WORKER_PREP = 1 << 3;
  /** {@code WORKER_CPU_INTENSIVE}. */
  static final int WORKER_CPU_INTENSIVE = 1 << 6;
  /** {@code WORKER_UNBOUND}. */
  static final int WORKER_UNBOUND = 1 << 7;
  /** {@code WORKER_NOT_RUNNING}. */
  static final int WORKER_NOT_RUNNING = WORKER_PREP | WORKER_CPU_INTENSIVE | WORKER_UNBOUND;

  /** What the worker serves. */
  public enum Kind {
    PERCPU,
    UNBOUND,
    RESCUER
  }

  private enum Phase {
    INIT,
    INIT_READY,
    WOKE_UP,
    RECHECK,
    MANAGING,
    PROCESS,
    PUSH
  }

  /** One execution of an item. */
  static final class Exec {
    final WorkRef ref;
    final Workqueue wq;
    final int pwqKey;
    final int poolId;
    /** The local pwq (per-CPU pools), or null (unbound: the pwq lives in a host). */
    final PoolWorkqueue pwq;
    final long seq;
    final boolean rescued;
    WorkRun run;

    Exec(WorkRef ref, Workqueue wq, int pwqKey, int poolId, PoolWorkqueue pwq, long seq,
        boolean rescued) {
      this.ref = ref;
      this.wq = wq;
      this.pwqKey = pwqKey;
      this.poolId = poolId;
      this.pwq = pwq;
      this.seq = seq;
      this.rescued = rescued;
    }
  }

  final Kind kind;
  final WorkqueueCpu owner;
  /** The per-CPU pool (per-CPU workers and per-CPU rescuers), else null. */
  final PerCpuPool pool;
  final int poolId;
  final int workerId;
  /** A per-CPU rescuer's workqueue. */
  final Workqueue rescuerWq;
  int flags = WORKER_PREP;
  /** {@code worker->sleeping}: went through {@code wq_worker_sleeping()}. */
  private boolean sleepingCm;
  boolean spawned;
  /** A culled worker: exits when it next runs. */
  boolean dying;
  /** {@code worker->last_active}: jiffies when it last went idle (per-CPU workers). */
  long lastActive;
  private Phase phase;
  private Exec cur;
  /** {@code worker->scheduled}: items handed to this worker (per-CPU kinds). */
  final ArrayDeque<QueuedWork> scheduled = new ArrayDeque<>();
  /** Items its host handed it (unbound and host rescuers). */
  final ArrayDeque<WqMessage.RunWork> assigned = new ArrayDeque<>();
  private PoolWorkqueue rescuing;
  private boolean firstIteration;
  private long cpuSinceWakeNs;
  private long cmGen;
  private long waitGen;
  private TaskCpu tc;
  private boolean acted;
  private boolean finished;
  private final CallbackCpu callbackCpu = new CallbackCpu();

  private Worker(Kind kind, WorkqueueCpu owner, PerCpuPool pool, int poolId, int workerId,
      Workqueue rescuerWq, String comm, int nice, Phase phase) {
    super(comm, owner.nextPid(), nice);
    this.kind = kind;
    this.owner = owner;
    this.pool = pool;
    this.poolId = poolId;
    this.workerId = workerId;
    this.rescuerWq = rescuerWq;
    this.phase = phase;
    if (kind == Kind.UNBOUND) {
      flags |= WORKER_UNBOUND;
    }
  }

  static Worker perCpu(WorkqueueCpu owner, PerCpuPool pool, int id, String comm, int nice) {
    return new Worker(Kind.PERCPU, owner, pool, pool.id, id, null, comm, nice, Phase.WOKE_UP);
  }

  static Worker perCpuRescuer(WorkqueueCpu owner, PerCpuPool pool, Workqueue wq) {
    return new Worker(Kind.RESCUER, owner, pool, pool.id, -1, wq, wq.name(),
        WqConstants.HIGHPRI_NICE_LEVEL, Phase.PROCESS);
  }

  /**
   * An unbound worker (or host rescuer) created by its host; {@code announce}: it reports
   * {@link WqMessage.WorkerReady} when it first runs (a new worker), else it was idle from boot.
   */
  static Worker pushed(Kind kind, WorkqueueCpu owner, int poolId, int workerId, String comm,
      int nice, boolean announce) {
    return new Worker(kind, owner, null, poolId, workerId, null, comm, nice,
        announce ? Phase.INIT : Phase.PUSH);
  }

  /** What the worker serves. */
  public Kind kind() {
    return kind;
  }

  /** The id of its pool (a host rescuer: its wq's rescuer key). */
  public int poolId() {
    return poolId;
  }

  /** Whether it is executing an item now (running or blocked inside it). */
  public boolean executing() {
    return cur != null;
  }

  /** The item it is executing, or null. */
  public WorkRef currentWork() {
    return cur == null ? null : cur.ref;
  }

  // ---- flags and concurrency management --------------------------------------------------

  /** {@code worker_set_flags()}. */
  void setFlags(int f) {
    if ((f & WORKER_NOT_RUNNING) != 0 && (flags & WORKER_NOT_RUNNING) == 0 && pool != null) {
      pool.nrRunning--;
    }
    flags |= f;
  }

  /** {@code worker_clr_flags()}. */
  void clrFlags(int f) {
    int old = flags;
    flags &= ~f;
    if ((f & WORKER_NOT_RUNNING) != 0 && (old & WORKER_NOT_RUNNING) != 0
        && (flags & WORKER_NOT_RUNNING) == 0 && pool != null) {
      pool.nrRunning++;
    }
  }

  /** {@code wq_worker_sleeping()}, from {@code sched_submit_work()}. */
  @Override
  protected long schedSubmitWork(TaskCpu cpu) {
    if (kind != Kind.PERCPU || (flags & WORKER_NOT_RUNNING) != 0 || sleepingCm) {
      return 0;
    }
    sleepingCm = true;
    pool.nrRunning--;
    if (pool.kick() && cur != null) {
      owner.stat(cur.wq, cur.pwq, PwqStat.CM_WAKEUP, 1);
    }
    return 0;
  }

  /** {@code wq_worker_running()}, from {@code sched_update_worker()}. */
  @Override
  protected void schedUpdateWorker(TaskCpu cpu) {
    if (!sleepingCm) {
      return;
    }
    if ((flags & WORKER_NOT_RUNNING) == 0) {
      pool.nrRunning++;
    }
    cpuSinceWakeNs = 0;
    cmGen++;
    sleepingCm = false;
  }

  // ---- the thread function -----------------------------------------------------------------

  @Override
  protected void step(TaskCpu cpu) {
    tc = cpu;
    acted = false;
    if (dying && cur == null) {
      // A culled worker (set_worker_dying()): its kthread returns.
      acted = true;
      tc.exit();
      return;
    }
    while (!acted) {
      if (cur != null) {
        stepCallback();
      } else if (kind == Kind.PERCPU) {
        stepWorkerThread();
      } else if (kind == Kind.RESCUER && pool != null) {
        stepPerCpuRescuer();
      } else {
        stepPushed();
      }
    }
  }

  private void sleep() {
    acted = true;
    tc.sleep();
  }

  /** One pass of {@code worker_thread()} for a per-CPU worker. */
  private void stepWorkerThread() {
    switch (phase) {
      case WOKE_UP -> {
        pool.leaveIdle(this);
        phase = Phase.RECHECK;
      }
      case RECHECK -> {
        if (!pool.needMoreWorker()) {
          enterIdleAndSleep();
          return;
        }
        if (!pool.mayStartWorking() && manageWorkers()) {
          return;
        }
        clrFlags(WORKER_PREP);
        phase = Phase.PROCESS;
        firstIteration = true;
      }
      case MANAGING -> {
        pool.disarmMayday();
        if (pool.needToCreateWorker()) {
          startCreate();
          sleep();
          return;
        }
        pool.managerActive = false;
        phase = Phase.RECHECK;
      }
      case PROCESS -> {
        QueuedWork next = scheduled.pollFirst();
        if (next == null) {
          if ((!firstIteration && !pool.keepWorking()) || pool.worklist.isEmpty()) {
            setFlags(WORKER_PREP);
            enterIdleAndSleep();
            return;
          }
          firstIteration = false;
          QueuedWork w = pool.worklist.pollFirst();
          if (!assignWork(w)) {
            return;
          }
          next = scheduled.pollFirst();
        }
        processOneWork(next, false);
      }
      default -> throw new IllegalStateException(comm() + " in phase " + phase);
    }
  }

  private void enterIdleAndSleep() {
    pool.enterIdle(this);
    phase = Phase.WOKE_UP;
    sleep();
  }

  /** {@code manage_workers()}: returns false if another worker is already managing. */
  private boolean manageWorkers() {
    if (pool.managerActive) {
      return false;
    }
    pool.managerActive = true;
    startCreate();
    phase = Phase.MANAGING;
    sleep();
    return true;
  }

  /** {@code maybe_create_worker()}: arm the mayday timer, create a worker (kthread creation). */
  private void startCreate() {
    pool.armMayday();
    CpuComponent c = owner.cpu();
    c.callAfter(owner.system.params().kthreadCreateNs(), () -> {
      pool.createWorker();
      c.wake(this);
    });
  }

  /**
   * {@code assign_work()}: takes {@code w} unless another worker of the pool is executing the same
   * item, in which case it goes to that worker's scheduled list (non-reentrancy).
   */
  private boolean assignWork(QueuedWork w) {
    Worker other = pool.busyHash.get(w.ref().key());
    if (other != null && other != this) {
      other.scheduled.addLast(w);
      return false;
    }
    scheduled.addLast(w);
    return true;
  }

  /** One pass of {@code rescuer_thread()} on a per-CPU pool. */
  private void stepPerCpuRescuer() {
    QueuedWork next = scheduled.pollFirst();
    if (next != null) {
      processOneWork(next, true);
      return;
    }
    if (rescuing != null) {
      if (rescuing.nrActive > 0 && pool.needToCreateWorker()) {
        owner.addMayday(rescuing);
      }
      rescuing = null;
      pool.kick();
      return;
    }
    PoolWorkqueue pwq = owner.pollMayday(rescuerWq);
    if (pwq == null) {
      sleep();
      return;
    }
    rescuing = pwq;
    int taken = 0;
    var it = pool.worklist.iterator();
    while (it.hasNext() && taken < WqConstants.RESCUER_BATCH) {
      QueuedWork w = it.next();
      if (w.pwq() != pwq) {
        continue;
      }
      it.remove();
      if (assignWork(w)) {
        owner.stat(pwq.wq, pwq, PwqStat.RESCUED, 1);
        taken++;
      }
    }
  }

  /** An unbound worker or host rescuer: run what the host hands over. */
  private void stepPushed() {
    if (phase == Phase.INIT) {
      // create_worker(): the creation's CPU time (copy_process() in kthreadd, kthread()'s
      // start), charged to the new worker on its CPU before it joins the pool.
      phase = Phase.INIT_READY;
      long cpuNs = owner.system.params().createWorkerCpuNs();
      if (cpuNs > 0) {
        acted = true;
        tc.runFor(blksim.kernel.sched.CpuMode.SYSTEM, cpuNs);
        return;
      }
    }
    if (phase == Phase.INIT_READY) {
      phase = Phase.PUSH;
      owner.workerReady(this);
      sleep();
      return;
    }
    WqMessage.RunWork a = assigned.pollFirst();
    if (a == null) {
      sleep();
      return;
    }
    processOneWork(owner.execOf(a), a.rescue());
  }

  // ---- process_one_work() ------------------------------------------------------------------

  private void processOneWork(QueuedWork w, boolean rescued) {
    processOneWork(owner.execOf(w, pool.id, rescued), rescued);
  }

  private void processOneWork(Exec e, boolean rescued) {
    cur = e;
    if (pool != null) {
      pool.busyHash.put(e.ref.key(), this);
      if (kind == Kind.PERCPU && e.wq.cpuIntensive()) {
        setFlags(WORKER_CPU_INTENSIVE);
      }
      pool.kick();
    }
    cmGen++;
    cpuSinceWakeNs = 0;
    owner.workStarted(e);
    e.run = e.ref.fn().begin();
  }

  private void stepCallback() {
    finished = false;
    cur.run.step(callbackCpu);
    if (acted) {
      if (finished) {
        throw new IllegalStateException(comm() + ": " + cur.ref.name()
            + " took an action and finished in one step");
      }
      return;
    }
    if (!finished) {
      throw new IllegalStateException(comm() + ": " + cur.ref.name()
          + " returned from a step without an action or finish()");
    }
    Exec e = cur;
    cur = null;
    if (pool != null) {
      pool.busyHash.remove(e.ref.key());
      if (kind == Kind.PERCPU) {
        clrFlags(WORKER_CPU_INTENSIVE);
      }
    }
    owner.workCompleted(e, this);
  }

  private void sleepFor(long ns) {
    CpuComponent c = owner.cpu();
    long gen = ++waitGen;
    c.callAfter(ns, () -> {
      if (gen == waitGen) {
        c.wake(this);
      }
    });
    sleep();
  }

  /** CPU time sampled at ticks, and the CPU-intensive check ({@code wq_worker_tick()}). */
  private void accountBurst(long ns) {
    Jiffies j = owner.system.jiffies();
    long now = tc.now();
    long ticks = j.at(now + ns) - j.at(now);
    if (ticks > 0) {
      owner.stat(cur.wq, cur.pwq, PwqStat.CPU_TIME, ticks * j.tickUs());
    }
    long threshNs = owner.system.params().cpuIntensiveThreshUs() * Jiffies.NSEC_PER_USEC;
    if (kind == Kind.PERCPU && threshNs > 0 && owner.system.params().mode().detectsCpuIntensive()
        && (flags & WORKER_NOT_RUNNING) == 0) {
      long cross = now + Math.max(0, threshNs - cpuSinceWakeNs);
      long tick = j.tickTimeNs(Math.max(j.at(cross - 1) + 1, j.at(now) + 1));
      if (tick <= now + ns) {
        long gen = cmGen;
        Exec e = cur;
        owner.cpu().callAfter(tick - now, () -> cpuIntensiveTick(e, gen));
      }
    }
    cpuSinceWakeNs += ns;
  }

  private void cpuIntensiveTick(Exec e, long gen) {
    if (cur != e || gen != cmGen || sleepingCm || (flags & WORKER_NOT_RUNNING) != 0
        || owner.cpu().current() != this) {
      return;
    }
    setFlags(WORKER_CPU_INTENSIVE);
    owner.stat(e.wq, e.pwq, PwqStat.CPU_INTENSIVE, 1);
    if (pool.kick()) {
      owner.stat(e.wq, e.pwq, PwqStat.CM_WAKEUP, 1);
    }
  }

  private void act() {
    if (acted) {
      throw new IllegalStateException(comm() + ": " + cur.ref.name()
          + " took two actions in one step");
    }
    if (finished) {
      throw new IllegalStateException(comm() + ": " + cur.ref.name()
          + " took an action after finish()");
    }
    acted = true;
  }

  /** The callback's view of the worker. */
  private final class CallbackCpu implements WorkerCpu {
    @Override
    public long now() {
      return tc.now();
    }

    @Override
    public CpuComponent cpu() {
      return owner.cpu();
    }

    @Override
    public Worker worker() {
      return Worker.this;
    }

    @Override
    public WorkRef work() {
      return cur.ref;
    }

    @Override
    public Workqueue workqueue() {
      return cur.wq;
    }

    @Override
    public void runFor(long ns) {
      if (ns < 0) {
        throw new IllegalArgumentException(comm() + ": negative burst " + ns);
      }
      act();
      accountBurst(ns);
      tc.runFor(CpuMode.SYSTEM, ns);
    }

    @Override
    public void sleep() {
      act();
      waitGen++;
      tc.sleep();
    }

    @Override
    public void sleepFor(long ns) {
      if (ns < 0) {
        throw new IllegalArgumentException(comm() + ": negative wait " + ns);
      }
      act();
      acted = false;
      Worker.this.sleepFor(ns);
    }

    @Override
    public void condResched() {
      act();
      tc.condResched();
    }

    @Override
    public boolean needResched() {
      return tc.needResched();
    }

    @Override
    public void finish() {
      if (acted) {
        throw new IllegalStateException(comm() + ": " + cur.ref.name()
            + " finished after taking an action");
      }
      finished = true;
    }

    @Override
    public Runnable waker() {
      Exec e = cur;
      CpuComponent c = owner.cpu();
      return () -> {
        if (cur == e) {
          c.wake(Worker.this);
        }
      };
    }

    @Override
    public boolean acquire(LockStep lock) {
      if (acted) {
        throw new IllegalStateException(comm() + ": " + cur.ref.name()
            + " took two actions in one step");
      }
      if (lock.step(Worker.this, tc)) {
        return true;
      }
      // The lock spun or slept the worker: that was the step's action.
      act();
      waitGen++;
      return false;
    }

    @Override
    public boolean queueWork(Workqueue wq, WorkItem item) {
      return owner.system.queueWork(owner.cpu(), wq, item);
    }

    @Override
    public void requeue() {
      owner.requeue(cur.ref, cur.wq);
    }
  }
}
