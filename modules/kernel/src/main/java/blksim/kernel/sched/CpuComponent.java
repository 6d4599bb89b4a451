package blksim.kernel.sched;

import blksim.engine.Component;
import blksim.engine.ComponentReport;
import blksim.engine.Context;
import blksim.engine.Locality;
import blksim.engine.Message;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.block.DriverCpu;
import blksim.kernel.topology.Cpu;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * One logical CPU: its run queue, the task it runs, the interrupts it takes, its scheduler tick,
 * and everything per-CPU that runs synchronously on it (the hardware queues of devices mapped to
 * it).
 *
 * <p>Mirrors the per-CPU {@code struct rq} with the core scheduler around the fair class
 * (kernel/sched/core.c), kernel-model.md §1:
 * <ul>
 *   <li>{@code __schedule()}: picks the next task through the {@link SchedPolicy} ({@link
 *       CfsPolicy}); a switch to another task costs {@link SchedParams#ctxSwitchNs()} of system
 *       time, charged to the incoming task, with preemption disabled. Switching out a task that
 *       blocked counts a voluntary switch ({@code nvcsw}), one that was preempted or yielded while
 *       runnable an involuntary one ({@code nivcsw}); picking the same task again counts nothing.
 *   <li>{@code resched_curr()} and the preemption points of {@link PreemptModel}: need-resched is
 *       set by the tick and by wakeup preemption, and acts at the end of a switch-in
 *       ({@code schedule()}'s loop), at the return to user, at {@code cond_resched()} /
 *       {@code might_resched()}, immediately in user mode and, under FULL, immediately in kernel
 *       mode. A running burst is cut at that instant (or when the interrupts in progress end), the
 *       time run is charged, and the remainder is kept for the task's next turn.
 *   <li>{@code scheduler_tick()}: a per-CPU event every {@code TICK_NSEC}, on the global tick grid
 *       (multiples of {@link SchedParams#tickNs()} from time 0), that runs only while the CPU has
 *       more than one runnable task. The kernel's tick (periodic, or NO_HZ_IDLE) also runs with
 *       one task, but {@code entity_tick()} then never preempts, so the scheduling outcome is the
 *       same with far fewer events. The tick's own CPU cost is not modelled.
 *   <li>{@code try_to_wake_up()}: {@link #wake} for a task of this CPU (enqueue, then
 *       {@code check_preempt_curr()}, or leave idle); {@link #wakeRemote} for a task of another
 *       CPU, delivered after {@link SchedParams#wakeupLatencyNs()} (the IPI, the run's lookahead).
 *   <li>{@code kthread_run()} / {@code create_io_thread()} + {@code wake_up_new_task()}:
 *       {@link #spawn} adds a task during the run, runnable at once or after a creation delay.
 * </ul>
 *
 * <p>Wakeup placement (kernel-model.md §1.3): a CPU that {@link #joinLlc joined its LLC} places
 * woken {@link Task#setUnbound unbound} tasks (user threads, io-wq workers) on their previous CPU
 * if idle, else on the first idle CPU of the LLC after it, else on the previous CPU; a move costs
 * the wakeup latency and renormalises the vruntime. The CPUs of an LLC then call each other
 * directly, so a partitioning must keep each LLC whole. Bound tasks (kworkers, kthreads) always
 * wake where they were placed. With {@link PlacementParams.Rule#SIS} the choice is instead 6.4's
 * {@code select_task_rq_fair()} ({@link #selectTaskRqFair}), and the waker pays the scan's remote
 * reads and the remote wakeup. {@link PlacementParams} also carries the costs of running apart:
 * the SMT slowdown of a burst whose sibling is busy ({@link #begin}) and cache-line transfers
 * ({@link #lineTransferNs}).
 *
 * <p>Autogroup is not modelled: fio's jobs each get their own group and their io-wq workers share
 * it, so on a CPU that holds one job's threads the group level changes no decision (see
 * scenarios/nowait/README.md).
 *
 * <p>Load balancing ({@code kernel.load-balance}, kernel/sched/fair.c as of 6.4; see {@link
 * #loadBalance}): each CPU of an LLC whose tasks may move has its {@link SchedDomain}s (SMT,
 * MC); {@code load_balance()} pulls runnable tasks that are not cache hot and whose affinity
 * allows it, from the busiest queue of the busiest group, periodically from a busy CPU at its
 * {@code rq->next_balance}, from the nohz idle-balance CPU kicked by an overloaded CPU's tick
 * for the idle CPUs, and when a CPU goes idle (new-idle). Simplified: loads are the runnable
 * tasks' weights, not PELT averages; group types are has-spare, fully-busy and overloaded only
 * (no misfit, asymmetric or imbalanced groups); no active balancing (a queue's only, running task
 * is never pushed); {@code rd->overload} is exact rather than sticky. Above the LLC
 * ({@link #loadBalanceAcross}: DIE across the LLCs of a node, NUMA across nodes) no CPU reads
 * another LLC: LLCs publish load summaries and pull tasks by request and reply, each message a
 * lookahead on its way, and only tasks that {@link Task#movesAcrossLlc() may leave their LLC}
 * move; a moved task's wakeups are placed in its new LLC.
 *
 * <p>Simplified also: under the §1.3 rule no {@code wake_affine()} pull towards the waker's
 * CPU and no SMT or cache-hotness preference in the idle scan (rule SIS has the first two); new tasks
 * start on the CPU that creates them (io-wq workers on their submitter's first CPU); a task
 * submits to the device queues of the CPU it runs on, a migrated one to its new CPU's (its home
 * CPU stays its owner for reports); interrupt time is charged to the interrupted
 * task and delays its current burst, as a kernel without {@code CONFIG_IRQ_TIME_ACCOUNTING}
 * does; interrupts on one CPU are serialised; a burst is never cut while an interrupt is in
 * progress (need-resched acts on the interrupt's exit). All state here is owned by this
 * component or, with wakeup placement, by its LLC; other per-CPU objects (device queues) live
 * inside it.
 */
public final class CpuComponent implements Component, DriverCpu {
  /** The nominal length of an open-ended spin burst (no event is armed for it; see beginSpin). */
  private static final long SPIN_LIMIT_NS = 3_600_000_000_000L;
  /** Placeholder for a cancelled callback slot. */
  private static final Runnable CANCELLED = () -> { };

  private final Cpu cpu;
  private final String id;
  private final SchedParams params;
  private final Locality locality;
  private final SchedPolicy policy;
  private final long tickNs;
  private final List<Task> tasks = new ArrayList<>();
  private final TaskCpu taskCpu = new TaskCpuImpl();
  private final List<BlockQueue> queues = new ArrayList<>();

  private Context ctx;
  /**
   * The free timers, linked through {@link CpuTimer#nextFree}: a timer is in the queue only while
   * armed, so it is reused rather than allocated per timer (the replay's hot path), and it carries
   * its callback (one object per event, not a callback table, a free-slot stack and a message
   * table besides).
   */
  private CpuTimer freeTimers;
  private int slotHigh;

  private Task current;
  private boolean needResched;
  private boolean wakePending;
  private boolean actionTaken;
  private boolean inHook;
  private boolean dispatchPending;
  private boolean tickArmed;
  private boolean cutArmed;
  /** The current task's burst is an optimistic spin ({@link TaskCpu#spin}), open-ended. */
  private boolean spinning;
  private long spinTokens;
  private int liveTasks;

  // The burst now running on the CPU: a task's runFor(), a switch-in, or a sleep's submit work.
  private boolean inBurst;
  private boolean switchingIn;
  private boolean sleepAfterBurst;
  private CpuMode burstMode;
  private long burstLenNs;
  private long burstStartNs;
  /** Interrupt time inside the burst since {@link #burstStartNs}. */
  private long stolenNs;
  /** Interrupt time not yet added to the pending end event. */
  private long stolenPendingNs;
  private CpuTimer endSlot;
  private long irqBusyUntil;
  /**
   * Idle states deeper than C1 ({@link #useIdleStates}): exit latency and target residency of
   * each, shallowest first; empty when off. {@link #idleSinceNs}: when this CPU last went idle
   * (or an interrupt on it ended while it was idle).
   */
  private long[] idleExitNs = new long[0];
  private long[] idleResidencyNs = new long[0];
  private long idleSinceNs;
  /** Wakeups and interrupts that found this CPU in each deeper state. */
  private long[] idleExits = new long[0];

  private long userNs;
  private long sysNs;
  private long irqNs;
  private long contextSwitches;
  private long nvcsw;
  private long nivcsw;
  private long ticks;
  private List<CpuComponent> llc = List.of();
  /** The component indices of {@link #llc}, sorted; built on first use. */
  private int[] llcIndices;
  private int selfIndex = -1;
  /** The other CPUs of this CPU's SMT core ({@code cpu_smt_mask()} less this one). */
  private List<CpuComponent> smtSiblings = List.of();
  /** This CPU's SMT core when two busy siblings slow each other ({@link SmtCore}), else null. */
  private SmtCore smt;
  /** The SMT slowdown the running burst runs at (1: alone on its core). */
  private double burstFactor = 1.0;
  /** Placed wakeups (rule SIS) this CPU's tasks or interrupts did, and CPUs they tested. */
  private long placements;
  private long placementTests;
  private int incoming;
  private long migrationsIn;
  private TimehistParams timehist = TimehistParams.NONE;
  /** Interrupts taken while switches are traced: start and duration, in pairs. */
  private long[] irqTrace = new long[0];
  private int irqCount;
  /** Busy time and completions per interval ({@code run --report}), null when off. */
  private CpuSamples samples;
  private List<SwitchRecord> trace;
  private long traceDropped;

  private final Runnable onBurstEnd = this::burstEnd;
  private final Runnable onDispatch = this::dispatch;
  private final Runnable onTick = this::tick;
  private final Runnable onCut = this::cut;
  private final Runnable onBalance = this::balanceTimer;

  // Load balancing (null / empty when off).
  private LoadBalanceParams lb;
  private LlcBalance lbLlc;
  private SchedDomain[] domains = new SchedDomain[0];
  /** {@code rq->next_balance}. */
  private long nextBalanceNs;
  private boolean balanceArmed;
  /** Counted in {@link LlcBalance#nrOverloaded} ({@code nr_running >= 2}). */
  private boolean overloadCounted;
  /** {@code rq->avg_idle}, {@code rq->idle_stamp} (-1: none), {@code max_idle_balance_cost}. */
  private long avgIdleNs;
  private long idleStampNs = -1;
  private long maxIdleBalanceCostNs;
  /** CPU time the balancing passes run by this CPU charged it (the scan's reads, migrations). */
  private long lbChargedNs;
  /** Tasks load balancing pulled to this CPU, and balancing passes this CPU ran. */
  private long lbPulled;
  private long lbPasses;
  private boolean lbContinue;
  /** The last {@link #loadBalanceAbove} sent a pull request. */
  private boolean lbRequested;

  /** A CPU with no tasks yet; add them with {@link #addTask} before the run starts. */
  public CpuComponent(Cpu cpu, SchedParams params) {
    this.cpu = cpu;
    this.id = "cpu/" + cpu.id();
    this.params = params;
    this.locality = new Locality(cpu.node(), cpu.llc(), cpu.id());
    this.policy = params.scheduler() == SchedParams.SchedClass.EEVDF ? new EevdfPolicy(params)
        : new CfsPolicy(params);
    this.tickNs = params.tickNs();
  }

  /** The CPU this component simulates. */
  public Cpu cpu() {
    return cpu;
  }

  @Override
  public int cpuId() {
    return cpu.id();
  }

  /** Scheduler costs and tunables in force. */
  public SchedParams params() {
    return params;
  }

  /** The scheduling policy of this CPU's run queue. */
  public SchedPolicy policy() {
    return policy;
  }

  /**
   * Places a runnable task on this CPU; only before the run starts. It gets the next per-CPU id
   * ({@link Task#taskId()}) and the queue's {@code min_vruntime}, so tasks added together start in
   * order of addition.
   */
  public void addTask(Task t) {
    if (ctx != null) {
      throw new IllegalStateException(id + ": tasks are added before the run starts; use spawn()");
    }
    register(t);
    t.state = TaskState.RUNNING;
    policy.enqueueInitial(t);
    if (t.keepsRunAlive()) {
      liveTasks++;
    }
  }

  /**
   * Creates a task during the run, runnable at once ({@code kthread_run()}, io-wq's
   * {@code create_io_thread()}): placed as a forked task ({@code START_DEBIT}) with the current
   * task as parent, then checked for wakeup preemption. Returns its per-CPU id.
   */
  public int spawn(Task t) {
    return spawn(t, 0);
  }

  /**
   * Creates a task during the run that becomes runnable after {@code creationDelayNs} (the
   * kthreadd hop, {@code copy_process()}); until then wakeups of it are ignored. The delay is not
   * charged to any task here: a creator that pays the creation CPU time in its own context runs
   * that burst itself. Returns the task's per-CPU id, valid at once.
   */
  public int spawn(Task t, long creationDelayNs) {
    if (creationDelayNs < 0) {
      throw new IllegalArgumentException(id + ": creationDelayNs must be >= 0, was "
          + creationDelayNs);
    }
    if (ctx == null) {
      addTask(t);
      return t.taskId;
    }
    if (t.keepsRunAlive()) {
      if (liveTasks == 0) {
        throw new IllegalStateException(id + ": task " + t.comm() + " keeps the run alive but"
            + " was spawned on a CPU that no longer does");
      }
      liveTasks++;
    }
    register(t);
    if (creationDelayNs == 0) {
      wakeUpNewTask(t);
    } else {
      t.newborn = true;
      t.state = TaskState.BLOCKED;
      callAfter(creationDelayNs, () -> wakeUpNewTask(t));
    }
    return t.taskId;
  }

  private void register(Task t) {
    if (t.rq != null) {
      throw new IllegalStateException(id + ": task " + t.comm() + " is already on "
          + t.rq.id());
    }
    t.rq = this;
    t.home = this;
    t.taskId = tasks.size();
    t.orderKey = ((long) cpu.id() << 32) | t.taskId;
    if (!t.allowedOn(cpu.id())) {
      throw new IllegalStateException(id + ": task " + t.comm() + " is not allowed on CPU "
          + cpu.id());
    }
    if (t.unbound && llc.isEmpty()) {
      throw new IllegalStateException(id + ": task " + t.comm() + " is unbound but this CPU"
          + " knows no LLC to place it in (joinLlc)");
    }
    tasks.add(t);
  }

  /** {@code wake_up_new_task()}. */
  private void wakeUpNewTask(Task t) {
    t.newborn = false;
    t.state = TaskState.RUNNING;
    long now = ctx.now();
    t.lastQueuedNs = now;
    policy.enqueueNew(t, current, now);
    nrChanged();
    checkPreemptCurr(t, now);
  }

  /** Maps a device's hardware queue to this CPU; its statistics join this CPU's report. */
  public void attach(BlockQueue q) {
    queues.add(q);
    if (samples != null) {
      q.counters().sampleInto(samples);
    }
  }

  /**
   * Records busy time and device completions per {@code intervalNs} of simulated time for the
   * report's plots ({@link CpuSamples}); only before the run starts. Changes no result.
   */
  public void sample(long intervalNs) {
    if (ctx != null) {
      throw new IllegalStateException(id + ": sampling is set up before the run starts");
    }
    samples = new CpuSamples(intervalNs);
    for (BlockQueue q : queues) {
      q.counters().sampleInto(samples);
    }
  }

  /** The tasks placed on this CPU, in order of addition (index = per-CPU id). */
  public List<Task> tasks() {
    return List.copyOf(tasks);
  }

  /** The task with per-CPU id {@code taskId}. */
  public Task task(int taskId) {
    if (taskId < 0 || taskId >= tasks.size()) {
      throw new IllegalStateException(id + ": no task with id " + taskId + " (" + tasks.size()
          + " tasks)");
    }
    return tasks.get(taskId);
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
  public boolean keepsRunAlive() {
    return liveTasks > 0;
  }

  @Override
  public void start(Context ctx) {
    this.ctx = ctx;
    nrChanged();
    if (policy.nrRunning() > 0) {
      scheduleDispatch();
    }
    armTick();
  }

  @Override
  public void handle(Message message, Context ctx) {
    if (this.ctx != ctx) {
      this.ctx = ctx; // once: a reference store per event would cost a GC write barrier
    }
    if (message instanceof CpuTimer t) {
      Runnable r = t.callback;
      t.callback = null;
      t.nextFree = freeTimers;
      freeTimers = t;
      r.run();
    } else if (message instanceof TaskWakeup w) {
      wake(task(w.taskId()));
    } else if (message instanceof MigrateWake m) {
      arriveWaking(m.task());
    } else if (message instanceof LiveTaskExited) {
      liveTaskGone();
    } else if (message instanceof SpinStop s) {
      endSpin(s.token());
    } else if (message instanceof BalanceKick) {
      nohzIdleBalance();
    } else if (message instanceof CrossLlcMessages.Msg m) {
      crossLlc(m);
    } else {
      throw new IllegalStateException(id + ": unexpected message " + message);
    }
  }

  /** Current virtual time, ns. */
  @Override
  public long now() {
    return ctx.now();
  }

  /** The engine context of the message being handled (valid only while handling). */
  public Context context() {
    return ctx;
  }

  /** Runs {@code callback} on this CPU after {@code delayNs} (an hrtimer or a local event). */
  @Override
  public void callAfter(long delayNs, Runnable callback) {
    arm(delayNs, callback);
  }

  private CpuTimer arm(long delayNs, Runnable callback) {
    CpuTimer t = freeTimers;
    if (t != null) {
      freeTimers = t.nextFree;
      t.nextFree = null;
    } else {
      t = new CpuTimer(slotHigh++);
    }
    t.callback = callback;
    // To this CPU, not to the component running: a task that migrated may arm timers here.
    ctx.send(index(), t, delayNs);
    return t;
  }


  /**
   * Takes an interrupt costing {@code costNs} of CPU time, then runs {@code handler} in interrupt
   * context (it may wake tasks). Interrupts are serialised. A running task is delayed by the cost
   * and charged for it; an idle CPU first pays its idle-exit latency.
   */
  @Override
  public void interrupt(long costNs, Runnable handler) {
    if (smt != null) {
      costNs = smt.stretch(this, costNs);
    }
    irqNs += costNs;
    long now = ctx.now();
    if (samples != null) {
      samples.busy(Math.max(now, irqBusyUntil) + costNs, costNs);
    }
    long start;
    if (current != null) {
      current.stimeNs += costNs;
      if (inBurst) {
        stolenNs += costNs;
        stolenPendingNs += costNs;
      }
      start = Math.max(now, irqBusyUntil);
    } else {
      boolean awake = dispatchPending || irqBusyUntil > now;
      start = Math.max(awake ? now : now + params.idleExitNs() + deepExitNs(now), irqBusyUntil);
      if (!awake && idleExitNs.length > 0) {
        idleSinceNs = start + costNs;
      }
    }
    irqBusyUntil = start + costNs;
    if (trace != null && timehist.inWindow(start) && irqCount / 2 < timehist.maxLines()) {
      // run --perfetto: start and duration (bounded as the switches are)
      if (irqTrace.length < irqCount + 2) {
        irqTrace = java.util.Arrays.copyOf(irqTrace, Math.max(64, irqTrace.length * 2));
      }
      irqTrace[irqCount++] = start;
      irqTrace[irqCount++] = costNs;
    }
    callAfter(irqBusyUntil - now, handler);
  }

  /**
   * Wakes {@code t}, a task of this CPU (mirrors {@code try_to_wake_up()}): a blocked task becomes
   * runnable (placed by the policy) and may preempt the current task; waking the running task
   * before it sleeps cancels its next sleep; waking a runnable task does nothing.
   */
  public void wake(Task t) {
    if (t.unbound) {
      wakeUnbound(t);
      return;
    }
    if (t.rq != this) {
      throw new IllegalStateException(id + ": task " + t.comm() + " belongs to "
          + (t.rq == null ? "no CPU" : t.rq.id()) + "; wake it with wakeRemote() or wakeUp()");
    }
    wakeHere(t);
  }

  /** The wakeup on the CPU the task is on: enqueue and check preemption, or mark it pending. */
  private void wakeHere(Task t) {
    if (t.newborn) {
      return;
    }
    if (t.state == TaskState.BLOCKED) {
      t.state = TaskState.RUNNING;
      long now = ctx.now();
      t.lastQueuedNs = now;
      policy.enqueueWakeup(t, now);
      nrChanged();
      if (idleStampNs >= 0) {
        updateAvgIdle(now);
      }
      checkPreemptCurr(t, now);
    } else if (t == current) {
      wakePending = true;
    }
  }

  /**
   * Wakes task {@code taskId} of the CPU component with index {@code targetCpuComponentIndex}:
   * a {@link TaskWakeup} message that arrives after {@link SchedParams#wakeupLatencyNs()}, where
   * the target CPU calls {@link #wake}.
   */
  public void wakeRemote(int targetCpuComponentIndex, int taskId) {
    ctx.send(targetCpuComponentIndex, new TaskWakeup(taskId), params.wakeupLatencyNs());
  }

  /**
   * {@code wake_up_process()} for any task: {@link #wake} if it belongs to this CPU, otherwise
   * {@link #wakeRemote} to its CPU.
   */
  public void wakeUp(Task t) {
    if (t.unbound) {
      wakeUnbound(t);
    } else if (t.rq == this) {
      wake(t);
    } else if (t.rq == null) {
      throw new IllegalStateException(id + ": task " + t.comm() + " is on no CPU");
    } else {
      wakeRemoteTo(t.rq, ctx.indexOf(t.rq.id()), t.taskId);
    }
  }

  /**
   * {@link #wakeRemote} to {@code target} from this CPU, after the wakeup latency of their
   * distance ({@link PlacementParams#wakeupExtraNs}: longer across LLCs and NUMA nodes).
   */
  private void wakeRemoteTo(CpuComponent target, int targetIndex, int taskId) {
    ctx.send(targetIndex, new TaskWakeup(taskId),
        params.wakeupLatencyNs() + params.placement().wakeupExtraNs(cpu, target.cpu));
  }

  /**
   * {@code wake_up_process()} with its result: wakes {@code t} as {@link #wakeUp} does and returns
   * whether this call woke it, {@code try_to_wake_up()}'s success (kernel/sched/core.c): true
   * only if the task was blocked. A task that is runnable (woken but not yet run), running,
   * already being woken ({@code TASK_WAKING}: a placed wakeup on its way) or not yet started
   * ({@code TASK_NEW}: spawned with a creation delay) is not woken again, and the answer is false.
   *
   * <p>The task's state is read directly, so {@code t} must run on this CPU or, if unbound, in the
   * LLC of the CPU handling the current message (io-wq workers always do).
   */
  public boolean wakeUpProcess(Task t) {
    if (t.rq == null) {
      throw new IllegalStateException(id + ": task " + t.comm() + " is on no CPU");
    }
    boolean local = t.unbound ? t.home.inLlcOfRunning() : t.rq == this;
    if (!local) {
      throw new IllegalStateException(id + ": wake_up_process() of " + t.comm() + " on "
          + t.rq.id() + " cannot see its state from here");
    }
    boolean woke = t.state == TaskState.BLOCKED && !t.newborn && !t.waking;
    wakeUp(t);
    return woke;
  }

  // ---- optimistic spinning (kernel/locking) -------------------------------------------------

  /**
   * Ends the optimistic spin of {@code t} (started by {@link TaskCpu#spin}) after
   * {@code delayNs}: the spinner sees the lock word change (a cache-line transfer) and its next
   * step runs. Called on the CPU handling the current message; a spin that already ended is left
   * alone. The message goes to the CPU the spinner runs on, which must be in this partition
   * unless {@code delayNs} is at least the lookahead (sleeping locks need one partition).
   */
  public void stopSpin(Task t, long delayNs) {
    if (t.rq == null || t.spinToken == 0) {
      return;
    }
    ctx.send(t.rq.index(), new SpinStop(t.spinToken), delayNs);
  }

  /** Ends the current spin if {@code token} names it: its time is charged, then the next step. */
  private void endSpin(long token) {
    if (!spinning || current == null || current.spinToken != token) {
      return;
    }
    long now = ctx.now();
    if (irqBusyUntil > now) {
      // An interrupt runs on this CPU: the spin loop resumes when it returns.
      callAfter(irqBusyUntil - now, () -> endSpin(token));
      return;
    }
    spinning = false;
    current.spinToken = 0;
    cancelBurstEnd();
    inBurst = false;
    long done = Math.max(0, now - burstStartNs - stolenNs);
    charge(current, CpuMode.SYSTEM, done);
    callStep();
  }

  /** "Your optimistic spin is over" ({@link #stopSpin}). */
  public record SpinStop(long token) implements Message {}

  // ---- wakeup placement (kernel-model.md §1.3) ---------------------------------------------

  /**
   * Lets this CPU place woken unbound tasks on {@code peers}, the CPUs of its LLC (this one
   * included, in CPU order), which must all share a partition: the placement reads their state
   * and moves tasks between them directly. Only before the run starts.
   */
  public void joinLlc(List<CpuComponent> peers) {
    if (ctx != null) {
      throw new IllegalStateException(id + ": the LLC is set before the run starts");
    }
    if (!peers.contains(this)) {
      throw new IllegalArgumentException(id + ": an LLC's CPUs include this one");
    }
    for (CpuComponent c : peers) {
      if (c.cpu.llc() != cpu.llc()) {
        throw new IllegalArgumentException(id + ": " + c.id + " is not in LLC " + cpu.llc());
      }
    }
    List<CpuComponent> sib = new ArrayList<>();
    for (CpuComponent c : peers) {
      if (c != this && c.cpu.core() == cpu.core()) {
        sib.add(c);
      }
    }
    joined(List.copyOf(peers), sib);
  }

  /**
   * {@link #joinLlc} for every CPU of {@code llc} at once, in time linear in the LLC's size: one
   * check of the list and the SMT siblings grouped by core, where a {@code joinLlc} per CPU
   * walks the whole LLC each time (quadratic, with a cache miss per CPU visited: 56 of 3,174 JFR
   * samples, the largest item of the model build, at 4 LLCs of 1,024 CPUs; issue 15 item 1).
   * The same result.
   */
  public static void joinLlcAll(List<CpuComponent> llc) {
    List<CpuComponent> l = List.copyOf(llc);
    if (l.isEmpty()) {
      return;
    }
    int id0 = l.get(0).cpu.llc();
    java.util.Map<Integer, List<CpuComponent>> byCore = new java.util.HashMap<>();
    java.util.Set<CpuComponent> seen = java.util.Collections.newSetFromMap(
        new java.util.IdentityHashMap<>());
    for (CpuComponent c : l) {
      if (c.ctx != null) {
        throw new IllegalStateException(c.id + ": the LLC is set before the run starts");
      }
      if (c.cpu.llc() != id0) {
        throw new IllegalArgumentException(l.get(0).id + ": " + c.id + " is not in LLC " + id0);
      }
      if (!seen.add(c)) {
        throw new IllegalArgumentException(c.id + ": listed twice in LLC " + id0);
      }
      byCore.computeIfAbsent(c.cpu.core(), k -> new ArrayList<>()).add(c);
    }
    for (CpuComponent c : l) {
      List<CpuComponent> sib = new ArrayList<>();
      for (CpuComponent o : byCore.get(c.cpu.core())) {
        if (o != c) {
          sib.add(o);
        }
      }
      c.joined(l, sib);
    }
  }

  private void joined(List<CpuComponent> peers, List<CpuComponent> sib) {
    llc = peers;
    smtSiblings = List.copyOf(sib);
    double f = params.placement().smtSlowdown();
    if (f != 1.0 && !sib.isEmpty()) {
      // Shared by the core's threads (the first to join makes it), as LlcBalance by an LLC's.
      for (CpuComponent c : sib) {
        smt = smt == null ? c.smt : smt;
      }
      if (smt == null) {
        smt = new SmtCore(f);
      }
      smt.add(this);
    }
  }

  /** This component's index in the run. */
  private int index() {
    if (selfIndex < 0) {
      selfIndex = ctx.indexOf(id);
    }
    return selfIndex;
  }

  /** Whether the component now handling a message is a CPU of this CPU's LLC. */
  private boolean inLlcOfRunning() {
    if (llcIndices == null) {
      llcIndices = llc.stream().mapToInt(CpuComponent::index).sorted().toArray();
    }
    return Arrays.binarySearch(llcIndices, ctx.self()) >= 0;
  }

  /**
   * {@code available_idle_cpu()} / {@code idle_cpu()}: nothing runs or waits, and no wakeup is on
   * its way ({@code ttwu_pending}). An interrupt in progress does not count: the kernel's test
   * looks at {@code rq->curr}, which is still the idle task while an interrupt runs on it.
   */
  private boolean idleForPlacement() {
    return current == null && policy.nrRunning() == 0 && !dispatchPending && incoming == 0;
  }

  /**
   * {@code try_to_wake_up()} for an unbound task, called while a CPU of its LLC handles a
   * message: a blocked task goes to its previous CPU if idle, else to the first idle CPU of the
   * LLC after it ({@code select_idle_cpu()}'s scan), else back to its previous CPU; the chosen
   * CPU gets it at once if it is the CPU running this code, else after the wakeup latency (the
   * IPI). A task already being woken, runnable or running is left to that.
   */
  private void tryToWakeUp(Task t) {
    if (!ownedByRunningLlc(t)) {
      throw new IllegalStateException(id + ": unbound task " + t.comm() + " of "
          + t.home.id + " woken from outside its LLC without wakeUp()");
    }
    if (t.newborn || t.waking) {
      return;
    }
    if (t.state != TaskState.BLOCKED) {
      t.rq.wakeHere(t);
      return;
    }
    CpuComponent target;
    if (params.placement().rule() == PlacementParams.Rule.SIS) {
      CpuComponent waker = running();
      target = t.rq.selectTaskRqFair(t, waker);
      if (target != waker) {
        // ttwu_queue_wakelist()'s IPI to an idle CPU, or the remote rq lock and enqueue.
        waker.chargeWakeup(params.placement().wakeRemoteNs());
      }
    } else {
      target = t.rq.selectTaskRq(t);
    }
    if (target.index() == ctx.self()) {
      target.migrateIn(t);
      target.wakeHere(t);
      return;
    }
    t.waking = true;
    target.incoming++;
    ctx.send(target.index(), new MigrateWake(t), params.wakeupLatencyNs());
  }

  /**
   * {@code select_task_rq_fair()} as kernel-model.md §1.3 states it, within the task's affinity;
   * called on the prev CPU.
   */
  private CpuComponent selectTaskRq(Task t) {
    if (idleForPlacement()) {
      return this;
    }
    int n = llc.size();
    int start = llc.indexOf(this);
    for (int i = 1; i < n; i++) {
      CpuComponent c = llc.get((start + i) % n);
      if (t.allowedOn(c.cpu.id()) && c.idleForPlacement()) {
        return c;
      }
    }
    return this;
  }

  /** The CPU of this one's LLC that handles the current message. */
  private CpuComponent running() {
    int self = ctx.self();
    for (CpuComponent c : llc) {
      if (c.index() == self) {
        return c;
      }
    }
    throw new IllegalStateException(id + ": the running component is not in LLC " + cpu.llc());
  }

  /** {@code sd->imbalance_pct} of the LLC (MC) domain: 117 ({@code sd_init()}, topology.c). */
  static final int LLC_IMBALANCE_PCT = 117;
  /** {@code SCHED_CAPACITY_SCALE}. */
  static final long SCHED_CAPACITY_SCALE = 1024;

  /**
   * {@code select_task_rq_fair()} of Linux 6.4 for a wakeup ({@code WF_TTWU}, not sync) with
   * {@code wake_wide()} false, called on the task's previous CPU, {@code waker} being the CPU
   * that runs the wakeup (kernel/sched/fair.c):
   * <ol>
   *   <li>{@code wake_affine()} when the waker's CPU is another CPU of the LLC:
   *       {@code wake_affine_idle()} (the waker's CPU if it is idle and the previous one is not,
   *       the previous CPU if idle), else {@code wake_affine_weight()}, simplified to run-queue
   *       lengths instead of PELT loads: the waker's CPU if {@code (nr_running + 1) * 100 <
   *       nr_running(prev) * (100 + (117 - 100) / 2)}; else the previous CPU.
   *   <li>{@code select_idle_sibling(p, prev, target)}: the target if idle; the previous CPU if
   *       idle; {@code recent_used_cpu} if idle (and it becomes the previous CPU); with SMT, if no
   *       core of the LLC is wholly idle, an idle CPU of the previous CPU's core
   *       ({@code select_idle_smt()}); then {@code select_idle_cpu()} from the CPU after the target:
   *       with an idle core the first wholly idle core ({@code select_idle_core()}, falling back
   *       to the first idle CPU seen), else at most {@code nr_idle_scan} CPUs (SIS_UTIL); else
   *       the target.
   * </ol>
   * Simplified: {@code has_idle_cores} is computed exactly instead of the kernel's hint;
   * SIS_UTIL's {@code nr_idle_scan} is computed at each wakeup from the LLC's busy CPUs (each
   * counted as {@code SCHED_CAPACITY_SCALE}) instead of from PELT utilisation at load balancing;
   * the per-CPU kthread stacking rule and asymmetric capacity are left out (no per-CPU kthread
   * wakes an unbound task here). Every idle test of a CPU other than the waker's reads that
   * CPU's run queue: one cache-line transfer each, charged to the waker.
   */
  private CpuComponent selectTaskRqFair(Task t, CpuComponent waker) {
    CpuComponent prev = this;
    waker.placements++;
    long before = waker.placementTests;
    CpuComponent target = prev;
    if (waker != prev && t.allowedOn(waker.cpu.id())) {
      target = wakeAffine(waker, prev);
    }
    CpuComponent chosen = selectIdleSibling(t, prev, target, waker);
    long tests = waker.placementTests - before;
    waker.chargeWakeup(tests * params.placement().cachelineNs());
    return chosen;
  }

  private boolean idleTest(CpuComponent c, CpuComponent waker) {
    if (c != waker) {
      waker.placementTests++;
    }
    return c.idleForPlacement();
  }

  /** {@code wake_affine()}: {@code wake_affine_idle()}, then the simplified weight test. */
  private CpuComponent wakeAffine(CpuComponent waker, CpuComponent prev) {
    boolean prevIdle = idleTest(prev, waker);
    if (idleTest(waker, waker)) {
      return prevIdle ? prev : waker;
    }
    if (prevIdle) {
      return prev;
    }
    long thisEff = (waker.policy.nrRunning() + 1L) * 100;
    long prevEff = prev.policy.nrRunning() * (100L + (LLC_IMBALANCE_PCT - 100) / 2);
    return thisEff < prevEff ? waker : prev;
  }

  private CpuComponent selectIdleSibling(Task t, CpuComponent prev, CpuComponent target,
      CpuComponent waker) {
    if (idleTest(target, waker)) {
      return target;
    }
    if (prev != target && idleTest(prev, waker)) {
      return prev;
    }
    CpuComponent recent = t.recentUsedCpu;
    t.recentUsedCpu = prev;
    if (recent != null && recent != prev && recent != target
        && recent.cpu.llc() == target.cpu.llc() && t.allowedOn(recent.cpu.id())
        && idleTest(recent, waker)) {
      return recent;
    }
    boolean smt = !smtSiblings.isEmpty();
    boolean hasIdleCore = false;
    if (smt) {
      hasIdleCore = llcHasIdleCore();
      if (!hasIdleCore) {
        // select_idle_smt(p, prev): cpu_smt_mask(prev) & p->cpus_ptr, prev included.
        for (CpuComponent c : prev.smtMask()) {
          if (t.allowedOn(c.cpu.id()) && idleTest(c, waker)) {
            return c;
          }
        }
      }
    }
    CpuComponent i = selectIdleCpu(t, hasIdleCore, target, waker);
    return i != null ? i : target;
  }

  /** This CPU and its SMT siblings, in CPU order. */
  private List<CpuComponent> smtMask() {
    List<CpuComponent> m = new ArrayList<>();
    for (CpuComponent c : llc) {
      if (c == this || smtSiblings.contains(c)) {
        m.add(c);
      }
    }
    return m;
  }

  /** Whether a core of this LLC has every CPU idle (the kernel's {@code has_idle_cores}). */
  private boolean llcHasIdleCore() {
    for (CpuComponent c : llc) {
      boolean idle = c.idleForPlacement();
      for (CpuComponent s : c.smtSiblings) {
        idle &= s.idleForPlacement();
      }
      if (idle) {
        return true;
      }
    }
    return false;
  }

  /**
   * SIS_UTIL's {@code nr_idle_scan} ({@code update_idle_cpu_scan()}): with {@code x} the LLC's
   * utilisation per CPU (of 1024), {@code llc_weight * (1024 - min(1024, x^2 * pct^2 / (10000 *
   * 1024))) / 1024}, so no scan from 85 % busy on.
   */
  int nrIdleScan() {
    long busy = 0;
    for (CpuComponent c : llc) {
      if (!c.idleForPlacement()) {
        busy++;
      }
    }
    return nrIdleScanOf(busy, llc.size());
  }

  private static int nrIdleScanOf(long busy, long weight) {
    long x = busy * SCHED_CAPACITY_SCALE / weight;
    long tmp = x * x * LLC_IMBALANCE_PCT * LLC_IMBALANCE_PCT / (10000 * SCHED_CAPACITY_SCALE);
    tmp = Math.min(tmp, SCHED_CAPACITY_SCALE);
    long y = (SCHED_CAPACITY_SCALE - tmp) * weight / SCHED_CAPACITY_SCALE;
    return (int) y;
  }

  /** {@link #nrIdleScan()} with {@code busy} CPUs busy in this LLC, for tests. */
  int nrIdleScanForTest(int busy) {
    return nrIdleScanOf(busy, llc.size());
  }

  /** {@code select_idle_cpu()}: null for -1. */
  private CpuComponent selectIdleCpu(Task t, boolean hasIdleCore, CpuComponent target,
      CpuComponent waker) {
    int nr = Integer.MAX_VALUE;
    if (!hasIdleCore) {
      nr = target.nrIdleScan() + 1;
      if (nr == 1) {
        return null;
      }
    }
    int n = llc.size();
    int start = llc.indexOf(target);
    boolean[] skip = new boolean[n];
    CpuComponent idleCpu = null;
    // for_each_cpu_wrap(cpu, cpus, target + 1)
    for (int k = 1; k <= n; k++) {
      int j = (start + k) % n;
      CpuComponent c = llc.get(j);
      if (skip[j] || !t.allowedOn(c.cpu.id())) {
        continue;
      }
      if (hasIdleCore) {
        // select_idle_core(p, cpu, cpus, &idle_cpu)
        // A busy thread ends the core's test once an idle CPU is known, else the test goes on
        // to find one among the core's other threads.
        boolean idle = true;
        for (CpuComponent s : c.smtMask()) {
          if (!idleTest(s, waker)) {
            idle = false;
            if (idleCpu == null) {
              continue;
            }
            break;
          }
          if (idleCpu == null && t.allowedOn(s.cpu.id())) {
            idleCpu = s;
          }
        }
        if (idle) {
          return c;
        }
        for (CpuComponent s : c.smtMask()) {
          skip[llc.indexOf(s)] = true;
        }
      } else {
        if (--nr == 0) {
          return null;
        }
        if (idleTest(c, waker)) {
          return c;
        }
      }
    }
    return idleCpu;
  }

  /**
   * CPU time the wakeup path spends on this CPU (the idle scan's remote reads, the remote
   * wakeup): system time of the task it runs, or interrupt time if it runs none; not preemptible
   * (it runs with the run-queue lock or interrupts off), so it delays the task's burst the way an
   * interrupt does.
   */
  private void chargeWakeup(long ns) {
    if (ns <= 0) {
      return;
    }
    lbChargedNs += ns;
    if (samples != null) {
      samples.busy(Math.max(ctx.now(), irqBusyUntil) + ns, ns);
    }
    if (current != null) {
      current.stimeNs += ns;
      sysNs += ns;
      if (inBurst) {
        stolenNs += ns;
        stolenPendingNs += ns;
      }
    } else {
      irqNs += ns;
    }
    irqBusyUntil = Math.max(ctx.now(), irqBusyUntil) + ns;
  }

  /**
   * CPU time to pull {@code lines} modified cache lines last written on {@code from} to this
   * CPU: nothing on the same core (SMT siblings share L1 and L2) or with no last writer,
   * {@link PlacementParams#cachelineNs} each within a NUMA node, {@link
   * PlacementParams#cachelineRemoteNs} from another node (the remote access of issue 15 item 4).
   */
  public long lineTransferNs(Cpu from, int lines) {
    if (from == null || from.core() == cpu.core()) {
      return 0;
    }
    PlacementParams p = params.placement();
    return lines * (from.node() == cpu.node() ? p.cachelineNs() : p.cachelineRemoteNs());
  }

  /** Placed wakeups (rule SIS) run on this CPU, and the CPUs their idle search tested. */
  public long[] placementStats() {
    return new long[] {placements, placementTests};
  }

  /** A placed wakeup arrives ({@code ttwu_queue_wakelist()}'s IPI). */
  private void arriveWaking(Task t) {
    incoming--;
    t.waking = false;
    if (t.state == TaskState.BLOCKED && !t.newborn) {
      migrateIn(t);
      wakeHere(t);
    } else {
      t.rq.wakeHere(t);
    }
  }

  /**
   * Moves a blocked task to this CPU ({@code migrate_task_rq_fair()} +
   * {@code enqueue_entity()}): its vruntime keeps its distance to {@code min_vruntime}.
   */
  private void migrateIn(Task t) {
    CpuComponent from = t.rq;
    if (from == this) {
      return;
    }
    t.se.vruntime = t.se.vruntime - from.policy.minVruntime() + policy.minVruntime();
    t.rq = this;
    t.migrations++;
    migrationsIn++;
    if (samples != null) {
      samples.migration(ctx.now());
    }
  }

  /** A wakeup of an unbound task on its way to this CPU. */
  public record MigrateWake(Task task) implements Message {}

  /** A task that kept the run alive exited on another CPU of this one's LLC. */
  public record LiveTaskExited() implements Message {}

  private void liveTaskGone() {
    if (--liveTasks == 0) {
      ctx.done();
    }
  }

  // ---- load balancing (kernel/sched/fair.c, issue 15 item 3) --------------------------------

  /** {@code enum cpu_idle_type}. */
  private static final int CPU_IDLE = 0;
  private static final int CPU_NOT_IDLE = 1;
  private static final int CPU_NEWLY_IDLE = 2;
  /** {@code enum group_type} (the three modelled). */
  private static final int GROUP_HAS_SPARE = 0;
  private static final int GROUP_FULLY_BUSY = 1;
  private static final int GROUP_OVERLOADED = 2;
  /** {@code NICE_0_LOAD} as a group's capacity per CPU ({@code SCHED_CAPACITY_SCALE}). */
  private static final long CAPACITY_PER_CPU = SCHED_CAPACITY_SCALE;
  /** {@code update_newidle_cost()}'s decay period: 1 s. */
  private static final long NEWIDLE_DECAY_NS = 1_000_000_000L;

  /** State the CPUs of one LLC share for balancing ({@code rd->overload}, {@code nohz}). */
  static final class LlcBalance {
    /** CPUs of the LLC with {@code nr_running >= 2} ({@code rd->overload} when non-zero). */
    int nrOverloaded;
    /** {@code nohz.next_balance}. */
    long nohzNextBalanceNs;
    /** An idle-balance kick is on its way ({@code NOHZ_BALANCE_KICK} set). */
    boolean kickPending;
    /** Balancing above the LLC, null when off or the machine has one LLC. */
    AboveLlc above;
  }

  /** "Run the nohz idle balance" ({@code kick_ilb()}'s IPI), within the LLC only. */
  public record BalanceKick() implements Message {}

  /**
   * Turns load balancing on for the CPUs of one LLC ({@code llc}: all of them, in CPU order,
   * already joined with {@link #joinLlc}); only before the run starts. Builds each CPU's
   * {@link SchedDomain}s from the topology. Off ({@code p.enabled()} false) does nothing.
   */
  public static void loadBalance(List<CpuComponent> llc, LoadBalanceParams p) {
    if (!p.enabled()) {
      return;
    }
    LlcBalance shared = new LlcBalance();
    for (CpuComponent c : llc) {
      if (c.ctx != null) {
        throw new IllegalStateException(c.id + ": load balancing is set before the run starts");
      }
      if (!c.llc.equals(llc)) {
        throw new IllegalArgumentException(c.id + ": joinLlc with the same CPUs first");
      }
    }
    for (CpuComponent c : llc) {
      c.lb = p;
      c.lbLlc = shared;
      c.avgIdleNs = 2 * p.migrationCostNs();
      c.maxIdleBalanceCostNs = p.migrationCostNs();
      c.domains = c.buildDomains();
    }
  }

  /** {@code build_sched_domains()} for this CPU within its LLC: SMT, then MC. */
  private SchedDomain[] buildDomains() {
    List<SchedDomain> d = new ArrayList<>();
    List<CpuComponent> core = smtMask();
    if (core.size() > 1) {
      List<List<CpuComponent>> g = new ArrayList<>();
      for (CpuComponent c : core) {
        g.add(List.of(c));
      }
      d.add(new SchedDomain("SMT", core, g, core.indexOf(this), true, false));
    }
    if (llc.size() > core.size()) {
      List<List<CpuComponent>> g = new ArrayList<>();
      int local = -1;
      for (CpuComponent c : llc) {
        List<CpuComponent> m = c.smtMask();
        if (m.get(0) == c) {
          if (m.contains(this)) {
            local = g.size();
          }
          g.add(List.copyOf(m));
        }
      }
      d.add(new SchedDomain("MC", llc, g, local, false, core.size() > 1));
    }
    return d.toArray(new SchedDomain[0]);
  }

  /** The scheduling domains of this CPU, lowest first (names and spans, for tests and reports). */
  public List<String> schedDomains() {
    List<String> r = new ArrayList<>();
    for (SchedDomain sd : domains) {
      StringBuilder b = new StringBuilder(sd.name).append(':');
      List<List<CpuComponent>> groups = sd.groups;
      if (sd.aboveLlc()) {
        groups = new ArrayList<>();
        for (List<Integer> ids : sd.llcGroups) {
          List<CpuComponent> g = new ArrayList<>();
          for (CpuComponent c : sd.span) {
            if (ids.contains(c.cpu.llc())) {
              g.add(c);
            }
          }
          g.sort(java.util.Comparator.comparingInt(c -> c.cpu.id()));
          groups.add(g);
        }
      }
      for (List<CpuComponent> g : groups) {
        b.append(" {");
        for (int i = 0; i < g.size(); i++) {
          b.append(i == 0 ? "" : ",").append(g.get(i).cpu.id());
        }
        b.append('}');
      }
      r.add(b.toString());
    }
    return r;
  }

  /** Tasks load balancing pulled to this CPU, and the balancing passes it ran. */
  public long[] loadBalanceStats() {
    return new long[] {lbPulled, lbPasses};
  }

  /** After any change of {@code nr_running}: the samples and {@code rd->overload}. */
  private void nrChanged() {
    int nr = policy.nrRunning();
    if (samples != null) {
      samples.nrRunning(ctx.now(), nr);
    }
    if (lbLlc != null) {
      boolean o = nr >= 2;
      if (o != overloadCounted) {
        overloadCounted = o;
        lbLlc.nrOverloaded += o ? 1 : -1;
      }
      if (lbLlc.above != null) {
        summaryChanged();
      }
    }
  }

  /** {@code ttwu_do_activate()}: the idle period that ends feeds {@code rq->avg_idle}. */
  private void updateAvgIdle(long now) {
    long delta = now - idleStampNs;
    idleStampNs = -1;
    if (lb == null) {
      return;
    }
    avgIdleNs += (delta - avgIdleNs) / 8;
    long max = 2 * maxIdleBalanceCostNs;
    if (avgIdleNs > max) {
      avgIdleNs = max;
    }
  }

  private long maxBalanceJiffies() {
    // max_load_balance_interval = HZ * num_online_cpus() / 10, over the LLC's CPUs here.
    int n = lbLlc != null && lbLlc.above != null ? lbLlc.above.machineCpus : llc.size();
    return Math.max(1, (long) params.hz() * n / 10);
  }

  /** The busy CPU's balancing at the first tick at or after {@code rq->next_balance}. */
  private void armBalance() {
    if (domains.length == 0) {
      return;
    }
    balanceArmed = true;
    long now = ctx.now();
    long at = Math.max(nextBalanceNs, now);
    at = (at + tickNs - 1) / tickNs * tickNs;
    callAfter(at - now, onBalance);
  }

  /**
   * {@code trigger_load_balance()} → {@code run_rebalance_domains()} on a busy CPU; an idle CPU
   * does not tick (nohz) and is balanced by the idle-balance CPU instead.
   */
  private void balanceTimer() {
    balanceArmed = false;
    if (current == null) {
      return;
    }
    if (ctx.now() >= nextBalanceNs) {
      rebalanceDomains(this, true);
    }
    if (lbLlc.above != null) {
      kickRemoteIdle();
    }
    armBalance();
  }

  /**
   * {@code nohz_balancer_kick()} from the tick of a CPU with {@code nr_running >= 2}: at most
   * once per {@code nohz.next_balance}, the first idle CPU of the LLC gets an IPI to balance for
   * the idle CPUs.
   */
  private void nohzBalancerKick() {
    long now = ctx.now();
    if (lbLlc.above != null) {
      kickRemoteIdle();
    }
    if (lbLlc.kickPending || now < lbLlc.nohzNextBalanceNs || policy.nrRunning() < 2) {
      return;
    }
    for (CpuComponent c : llc) {
      if (c != this && c.idleForPlacement()) {
        lbLlc.kickPending = true;
        ctx.send(c.index(), new BalanceKick(), params.wakeupLatencyNs());
        return;
      }
    }
    // No idle CPU (nohz.idle_cpus_mask empty): the next look is a jiffy later, so a saturated
    // LLC scans itself at most once per tick, not once per overloaded CPU's tick.
    lbLlc.nohzNextBalanceNs = now + tickNs;
  }

  /**
   * {@code _nohz_idle_balance()} on the kicked CPU: {@code rebalance_domains(CPU_IDLE)} for each
   * idle CPU of the LLC whose {@code next_balance} is due, paid by this CPU; then
   * {@code nohz.next_balance} is the earliest of theirs.
   */
  private void nohzIdleBalance() {
    lbLlc.kickPending = false;
    long now = ctx.now();
    long next = Long.MAX_VALUE;
    // The other idle CPUs first, this one last (as _nohz_idle_balance() does).
    for (int i = 0; i <= llc.size(); i++) {
      CpuComponent c = i < llc.size() ? llc.get(i) : this;
      if ((c == this) != (i == llc.size()) || !c.idleForPlacement()) {
        continue;
      }
      if (!idleForPlacement()) {
        break; // this CPU got work: need_resched() ends the pass
      }
      if (now >= c.nextBalanceNs) {
        c.rebalanceDomains(this, false);
      }
      next = Math.min(next, c.nextBalanceNs);
    }
    lbLlc.nohzNextBalanceNs = next == Long.MAX_VALUE ? now + tickNs : Math.max(next, now + 1);
  }

  /**
   * {@code rebalance_domains()}: each domain whose interval has passed is balanced, lowest
   * first, until a level where this CPU is not the one to balance; sets {@code
   * rq->next_balance}. {@code payer} runs the pass and pays its CPU time.
   */
  private void rebalanceDomains(CpuComponent payer, boolean busy) {
    long now = ctx.now();
    // Balancing times are jiffies: on the tick grid.
    long next = now + 60L * params.hz() * tickNs;
    int idle = busy ? CPU_NOT_IDLE : CPU_IDLE;
    lbContinue = true;
    for (SchedDomain sd : domains) {
      long interval = sd.intervalNs(busy, tickNs, maxBalanceJiffies());
      if (now >= sd.lastBalanceNs + interval) {
        if (loadBalance(sd, idle, payer) > 0) {
          idle = idleForPlacement() ? CPU_IDLE : CPU_NOT_IDLE;
          busy = idle != CPU_IDLE;
        }
        sd.lastBalanceNs = now / tickNs * tickNs; // jiffies
        interval = sd.intervalNs(busy, tickNs, maxBalanceJiffies());
      }
      next = Math.min(next, sd.lastBalanceNs + interval);
      if (!lbContinue) {
        break;
      }
    }
    nextBalanceNs = next;
  }

  /**
   * {@code newidle_balance()} as this CPU goes idle: skipped when no CPU of the LLC is
   * overloaded or the average idle period is shorter than the domain's balancing cost; else the
   * domains are balanced lowest first until a task is pulled.
   */
  private void newidleBalance() {
    long now = ctx.now();
    idleStampNs = now;
    if (domains.length == 0) {
      return;
    }
    long next = now + (long) params.hz() * tickNs;
    SchedDomain first = domains[0];
    boolean overload = lbLlc.nrOverloaded > 0
        || lbLlc.above != null && lbLlc.above.remoteOverloaded > 0;
    if (!overload || avgIdleNs < first.maxNewidleLbCostNs) {
      nextBalanceNs = Math.min(nextBalanceNs,
          first.lastBalanceNs + first.intervalNs(false, tickNs, maxBalanceJiffies()));
      return;
    }
    long currCost = 0;
    boolean pulled = false;
    lbContinue = true;
    for (SchedDomain sd : domains) {
      next = Math.min(next, sd.lastBalanceNs + sd.intervalNs(false, tickNs,
          maxBalanceJiffies()));
      if (avgIdleNs < currCost + sd.maxNewidleLbCostNs) {
        break;
      }
      long before = lbChargedNs;
      pulled = loadBalance(sd, CPU_NEWLY_IDLE, this) > 0;
      long cost = lbChargedNs - before;
      // update_newidle_cost(): the model's CPU time of the pass stands for its sched_clock time.
      if (cost > sd.maxNewidleLbCostNs) {
        sd.maxNewidleLbCostNs = Math.min(cost, lb.migrationCostNs() + 200);
        sd.lastDecayNs = now;
      } else if (now > sd.lastDecayNs + NEWIDLE_DECAY_NS) {
        sd.maxNewidleLbCostNs = sd.maxNewidleLbCostNs * 253 / 256;
        sd.lastDecayNs = now;
      }
      currCost += cost;
      if (pulled || policy.nrRunning() > 0 || incoming > 0
          || sd.aboveLlc() && lbRequested) {
        break;
      }
    }
    if (currCost > maxIdleBalanceCostNs) {
      maxIdleBalanceCostNs = currCost;
    }
    nextBalanceNs = Math.min(nextBalanceNs, next);
    if (pulled) {
      idleStampNs = -1;
    }
  }

  /** {@code should_we_balance()}. */
  private boolean shouldWeBalance(SchedDomain sd, int idle) {
    if (idle == CPU_NEWLY_IDLE) {
      return policy.nrRunning() == 0 && incoming == 0;
    }
    List<CpuComponent> g = sd.groups.get(sd.local);
    for (CpuComponent c : g) {
      if (c.idleForPlacement()) {
        return c == this;
      }
    }
    return g.get(0) == this;
  }

  /** {@code struct sg_lb_stats}, the fields modelled. */
  private static final class GroupStats {
    long load;
    int nr;
    int idle;
    int weight;
    int type;
    long avgLoad;
  }

  /** {@code update_sg_lb_stats()}: CPUs in {@code excluded} are left out ({@code env->cpus}). */
  private GroupStats groupStats(List<CpuComponent> g, List<CpuComponent> excluded,
      CpuComponent payer, long[] reads) {
    GroupStats s = new GroupStats();
    for (CpuComponent c : g) {
      if (excluded != null && excluded.contains(c)) {
        continue;
      }
      if (c != payer) {
        reads[0] += payer.lineTransferNs(c.cpu, 1);
      }
      s.weight++;
      s.nr += c.policy.nrRunning();
      s.load += c.policy.loadWeight();
      if (c.idleForPlacement()) {
        s.idle++;
      }
    }
    if (s.nr > s.weight) {
      s.type = GROUP_OVERLOADED;
      s.avgLoad = s.load * SCHED_CAPACITY_SCALE / (s.weight * CAPACITY_PER_CPU);
    } else if (s.idle == 0) {
      s.type = GROUP_FULLY_BUSY;
    } else {
      s.type = GROUP_HAS_SPARE;
    }
    return s;
  }

  /** {@code update_sd_pick_busiest()}. */
  private static boolean pickBusiest(GroupStats sg, GroupStats busiest) {
    if (sg.nr == 0) {
      return false;
    }
    if (busiest == null || sg.type > busiest.type) {
      return true;
    }
    if (sg.type < busiest.type) {
      return false;
    }
    switch (sg.type) {
      case GROUP_OVERLOADED:
      case GROUP_FULLY_BUSY:
        return sg.avgLoad > busiest.avgLoad;
      default:
        if (sg.idle > busiest.idle) {
          return false;
        }
        return sg.idle != busiest.idle || sg.nr > busiest.nr;
    }
  }

  /**
   * {@code load_balance()} of {@code sd} into this CPU ({@code env->dst_cpu}): find the busiest
   * group and queue, compute the imbalance, detach up to that many (or that much load of)
   * migratable tasks and attach them here. Returns the number of tasks moved.
   */
  int loadBalance(SchedDomain sd, int idle, CpuComponent payer) {
    if (sd.aboveLlc()) {
      return loadBalanceAbove(sd, idle, payer);
    }
    lbPasses++;

    if (!shouldWeBalance(sd, idle)) {
      lbContinue = false;
      return balanced(sd, idle, false);
    }
    long now = ctx.now();
    long[] reads = new long[1];
    List<CpuComponent> excluded = null;
    boolean allPinned = false;
    int moved = 0;
    boolean found = false;
    try {
      while (true) {
        // find_busiest_group()
        GroupStats local = null;
        GroupStats busiest = null;
        List<CpuComponent> busiestGroup = null;
        long totalLoad = 0;
        long totalCap = 0;
        for (int i = 0; i < sd.groups.size(); i++) {
          GroupStats s = groupStats(sd.groups.get(i), excluded, payer, reads);
          totalLoad += s.load;
          totalCap += s.weight * CAPACITY_PER_CPU;
          if (i == sd.local) {
            local = s;
          } else if (s.weight > 0 && pickBusiest(s, busiest)) {
            busiest = s;
            busiestGroup = sd.groups.get(i);
          }
        }
        if (busiest == null || local.type > busiest.type) {
          return balanced(sd, idle, allPinned);
        }
        long sdsAvg = totalCap == 0 ? 0 : totalLoad * SCHED_CAPACITY_SCALE / totalCap;
        if (nothingToPull(sd, idle, local, busiest, sdsAvg)) {
          return balanced(sd, idle, allPinned);
        }
        // calculate_imbalance()
        boolean migrateLoad;
        long imbalance;
        if (local.type == GROUP_HAS_SPARE) {
          migrateLoad = false;
          if (busiest.weight == 1 || sd.preferSibling) {
            imbalance = Math.max(0, busiest.nr - local.nr);
          } else {
            imbalance = Math.max(0, local.idle - busiest.idle);
          }
          imbalance >>= 1;
        } else {
          if (local.type < GROUP_OVERLOADED) {
            local.avgLoad = local.load * SCHED_CAPACITY_SCALE / (local.weight * CAPACITY_PER_CPU);
            if (local.avgLoad >= busiest.avgLoad) {
              return balanced(sd, idle, allPinned);
            }
          }
          migrateLoad = true;
          imbalance = Math.min((busiest.avgLoad - sdsAvg) * busiest.weight * CAPACITY_PER_CPU,
              (sdsAvg - local.avgLoad) * local.weight * CAPACITY_PER_CPU) / SCHED_CAPACITY_SCALE;
        }
        if (imbalance <= 0) {
          return balanced(sd, idle, allPinned);
        }
        found = true;
        // find_busiest_queue()
        CpuComponent src = null;
        long best = 0;
        for (CpuComponent c : busiestGroup) {
          if (excluded != null && excluded.contains(c)) {
            continue;
          }
          int nr = c.policy.nrRunning();
          if (nr == 0) {
            continue;
          }
          long v;
          if (migrateLoad) {
            v = c.policy.loadWeight();
            if (nr == 1 && v > imbalance) {
              continue;
            }
          } else {
            v = nr;
          }
          if (v > best) {
            best = v;
            src = c;
          }
        }
        if (src == null) {
          return balanced(sd, idle, allPinned);
        }
        if (src.policy.nrRunning() <= 1) {
          break; // the running task only: active balancing is not modelled
        }
        allPinned = true;
        int[] pinned = new int[1];
        moved = detachAttach(sd, idle, src, migrateLoad, imbalance, payer, now, pinned);
        allPinned = pinned[0] != 0;
        if (moved == 0 && allPinned) {
          // LBF_ALL_PINNED: try the other queues, unless only the local group is left.
          if (excluded == null) {
            excluded = new ArrayList<>();
          }
          excluded.add(src);
          boolean outside = false;
          for (CpuComponent c : sd.span) {
            if (!excluded.contains(c) && !sd.groups.get(sd.local).contains(c)) {
              outside = true;
              break;
            }
          }
          if (outside) {
            found = false;
            continue;
          }
          return balanced(sd, idle, true);
        }
        break;
      }
    } finally {
      payer.chargeWakeup(reads[0]);
    }
    if (moved == 0) {
      if (idle != CPU_NEWLY_IDLE) {
        sd.nrBalanceFailed++;
      }
    } else {
      sd.nrBalanceFailed = 0;
    }
    if (found) {
      sd.balanceIntervalMs = sd.minIntervalMs;
    }
    return moved;
  }

  /** {@code out_balanced} / {@code out_all_pinned}: the interval backs off. */
  private static int balanced(SchedDomain sd, int idle, boolean allPinned) {
    sd.nrBalanceFailed = 0;
    if (idle != CPU_NEWLY_IDLE && (allPinned
        && sd.balanceIntervalMs < SchedDomain.MAX_PINNED_INTERVAL_MS
        || sd.balanceIntervalMs < sd.maxIntervalMs)) {
      sd.balanceIntervalMs *= 2;
    }
    return 0;
  }

  /**
   * {@code detach_tasks()} + {@code attach_tasks()}: the source's tasks from the least recently
   * run on ({@code cfs_tasks}' tail; simplified to the later of the last enqueue and the last
   * switch-in), each tested by {@code can_migrate_task()}. {@code pinned[0]} ends non-zero if
   * every task examined was pinned away from this CPU ({@code LBF_ALL_PINNED}).
   */
  private int detachAttach(SchedDomain sd, int idle, CpuComponent src, boolean migrateLoad,
      long imbalance, CpuComponent payer, long now, int[] pinned) {
    List<Task> tasks = src.policy.queued();
    if (src.current != null && src.current.state == TaskState.RUNNING) {
      tasks.add(src.current);
    }
    tasks.sort((a, b) -> {
      int c = Long.compare(recency(a), recency(b));
      return c != 0 ? c : Long.compare(a.orderKey, b.orderKey);
    });
    int loopMax = Math.min(lb.nrMigrate(), src.policy.nrRunning());
    int loop = 0;
    int moved = 0;
    pinned[0] = 1;
    for (Task p : tasks) {
      if (idle != CPU_NOT_IDLE && src.policy.nrRunning() <= 1) {
        break;
      }
      if (++loop > loopMax) {
        break;
      }
      if (!canMigrate(p, sd, src, now, pinned)) {
        continue;
      }
      if (migrateLoad) {
        long load = Math.max(1, p.weight());
        if ((load >> Math.min(sd.nrBalanceFailed, 62)) > imbalance) {
          continue;
        }
        imbalance -= load;
      } else {
        imbalance--;
      }
      pull(p, src, payer, now);
      moved++;
      if (idle == CPU_NEWLY_IDLE || imbalance <= 0) {
        break;
      }
    }
    return moved;
  }

  private static long recency(Task t) {
    return Math.max(t.lastQueuedNs, t.lastSwitchInNs);
  }

  /**
   * {@code can_migrate_task()}: not a per-CPU (bound) task, allowed on this CPU, not running,
   * and not cache hot ({@code task_hot()}: ran less than {@code sysctl_sched_migration_cost}
   * ago; SMT siblings share the caches) unless the domain failed more than its
   * {@code cache_nice_tries} times.
   */
  private boolean canMigrate(Task p, SchedDomain sd, CpuComponent src, long now, int[] pinned) {
    if (!p.unbound) {
      return false;
    }
    if (!p.allowedOn(cpu.id())) {
      return false;
    }
    pinned[0] = 0;
    if (p == src.current) {
      return false;
    }
    boolean hot = !sd.shareCpuCapacity && lb.migrationCostNs() > 0
        && now - p.se.execStart < lb.migrationCostNs();
    return !hot || sd.nrBalanceFailed > sd.cacheNiceTries;
  }

  /**
   * {@code detach_task()} on {@code src} and {@code attach_task()} here: the task keeps its
   * place relative to the queue ({@link SchedPolicy#enqueueMigrated}), may preempt this CPU's
   * task, and {@code payer} pays the migration's remote cache lines.
   */
  private void pull(Task p, CpuComponent src, CpuComponent payer, long now) {
    long srcMin = src.policy.minVruntime();
    src.policy.dequeueQueued(p, now);
    src.nrChanged();
    p.rq = this;
    p.migrations++;
    migrationsIn++;
    lbPulled++;
    if (samples != null) {
      samples.migration(now);
    }
    policy.enqueueMigrated(p, srcMin, now);
    nrChanged();
    payer.chargeWakeup(payer.lineTransferNs(src.cpu, LoadBalanceParams.MIGRATE_LINES));
    checkPreemptCurr(p, now);
  }

  // ---- load balancing above the LLC (DIE, NUMA; issue 15 item 3) --------------------------

  /**
   * What the CPUs of one LLC know of the other LLCs for balancing above it: their published
   * summaries (a lookahead old), where this LLC sent tasks it gave away (for their wakeups), and
   * its own publishing state. Owned by the LLC's partition; nothing here is read by another.
   */
  static final class AboveLlc {
    /** The machine's LLCs (immutable CPU lists, read for their ids and sizes only). */
    final List<List<CpuComponent>> llcs;
    final int machineCpus;
    /** The last summary received of each LLC, by LLC id (null: none yet, read as idle). */
    final CrossLlcMessages.LlcSummary[] remote;
    /** Remote LLCs whose last summary says overloaded ({@code rd->overload} of the machine). */
    int remoteOverloaded;
    /** Tasks this LLC detached for another LLC: the component index they went to. */
    final java.util.IdentityHashMap<Task, Integer> forwarded = new java.util.IdentityHashMap<>();
    CrossLlcMessages.LlcSummary lastSent;
    boolean publishArmed;
    /** The next time a busy CPU of this LLC may kick remote idle LLCs. */
    long nextRemoteKickNs;
    /** Component index of the first CPU of each LLC (by LLC id), built on first use. */
    int[] firstIndex;

    AboveLlc(List<List<CpuComponent>> llcs, int machineCpus) {
      this.llcs = llcs;
      this.machineCpus = machineCpus;
      int max = 0;
      for (List<CpuComponent> l : llcs) {
        max = Math.max(max, l.get(0).cpu.llc() + 1);
      }
      this.remote = new CrossLlcMessages.LlcSummary[max];
    }
  }

  /**
   * Turns on load balancing above the LLC for the whole machine ({@code llcs}: every LLC's CPUs,
   * each list already given to {@link #loadBalance(List, LoadBalanceParams)}); only before the
   * run starts, and only when balancing is on and there are several LLCs. Adds to each CPU's
   * domains DIE (the LLCs of its node) and the NUMA levels (see {@link SchedDomain}).
   *
   * <p>No CPU reads another LLC's state: each LLC publishes its load ({@link
   * CrossLlcMessages.LlcSummary}) to the others at the first tick after its run queues change,
   * arriving a lookahead later; a balancer above the LLC uses its own LLC's live state and the
   * others' summaries; a pull is a request to the busiest CPU named by a summary and a reply
   * carrying the detached tasks, each a lookahead on the way (two in all: the kernel's
   * {@code load_balance()} does it at once, under both run-queue locks). So the LLCs may be in
   * different partitions and a run is the same whatever the partitioning. A task moves to
   * another LLC only if {@link Task#movesAcrossLlc()} (per-CPU kworkers, pinned tasks and tasks
   * whose state others touch never do). Wakeups of a task that left an LLC follow it: the LLC it
   * left sends them on ({@link CrossLlcMessages.WakeForward}), a wakeup that finds it in transit
   * is dropped as a wakeup of a runnable task is. An idle LLC is kicked into its nohz idle balance
   * when another LLC's summary says overloaded (the kernel's kick from that LLC's busy tick).
   *
   * <p>Simplified: summaries are published at most once per tick and only when they changed;
   * the busiest queue is chosen by the summary (its CPU with the most runnable tasks) and the
   * source, not the destination, runs {@code detach_tasks()} on its state at the request's
   * arrival; one pull of a level is outstanding at a time; newidle balancing stops at the first
   * level that sent a request; no {@code SD_SERIALIZE}, no NUMA-balancing locality
   * ({@code migrate_degrades_locality()}), no active balancing.
   */
  public static void loadBalanceAcross(List<List<CpuComponent>> llcs, LoadBalanceParams p) {
    if (!p.enabled() || llcs.size() < 2) {
      return;
    }
    int n = 0;
    for (List<CpuComponent> l : llcs) {
      n += l.size();
      for (CpuComponent c : l) {
        if (c.lbLlc == null || c.ctx != null) {
          throw new IllegalStateException(c.id + ": loadBalance() each LLC before the run starts"
              + " and before loadBalanceAcross()");
        }
      }
    }
    List<List<CpuComponent>> all = List.copyOf(llcs);
    for (List<CpuComponent> l : all) {
      AboveLlc a = new AboveLlc(all, n);
      for (CpuComponent c : l) {
        c.lbLlc.above = a;
      }
    }
    for (List<CpuComponent> l : all) {
      for (CpuComponent c : l) {
        c.domains = c.buildDomainsAbove(all);
      }
    }
  }

  /** This CPU's domains with DIE and NUMA levels added above its LLC ones. */
  private SchedDomain[] buildDomainsAbove(List<List<CpuComponent>> all) {
    List<SchedDomain> d = new ArrayList<>(Arrays.asList(domains));
    List<List<CpuComponent>> nodeLlcs = new ArrayList<>();
    List<List<CpuComponent>> socketLlcs = new ArrayList<>();
    for (List<CpuComponent> l : all) {
      Cpu c0 = l.get(0).cpu;
      if (c0.node() == cpu.node()) {
        nodeLlcs.add(l);
      }
      if (c0.socket() == cpu.socket()) {
        socketLlcs.add(l);
      }
    }
    int childSpan = llc.size();
    // DIE: the node's LLCs, one group each.
    if (nodeLlcs.size() > 1) {
      d.add(aboveLevel(d, "DIE", nodeLlcs, l -> l.get(0).cpu.llc(), false));
      childSpan = spanOf(nodeLlcs).size();
    }
    // NUMA: the socket's nodes, then the machine's sockets (sched_init_numa(): one level per
    // distance).
    long socketNodes = socketLlcs.stream().map(l -> l.get(0).cpu.node()).distinct().count();
    if (socketNodes > 1) {
      d.add(aboveLevel(d, "NUMA", socketLlcs, l -> l.get(0).cpu.node(), true));
      childSpan = spanOf(socketLlcs).size();
    }
    int sockets = (int) all.stream().map(l -> l.get(0).cpu.socket()).distinct().count();
    int nodes = (int) all.stream().map(l -> l.get(0).cpu.node()).distinct().count();
    if (sockets > 1) {
      d.add(aboveLevel(d, "NUMA", all, l -> socketNodes > 1 ? l.get(0).cpu.socket()
          : l.get(0).cpu.node(), true));
    } else if (nodes > 1 && socketNodes <= 1) {
      d.add(aboveLevel(d, "NUMA", all, l -> l.get(0).cpu.node(), true));
    }
    // imb_numa_nr (build_sched_domains()): from the first level above the LLC.
    int imb = 0;
    int imbSpan = 1;
    boolean first = true;
    for (int i = domains.length; i < d.size(); i++) {
      SchedDomain sd = d.get(i);
      if (first) {
        int nrLlcs = sd.span.size() / llc.size();
        imb = Math.max(1, nrLlcs == 1 ? sd.span.size() >> 3 : nrLlcs);
        sd.imbNumaNr = imb;
        SchedDomain top = null;
        for (int k = i + 1; k < d.size(); k++) {
          if (d.get(k).numa) {
            top = d.get(k);
            break;
          }
        }
        imbSpan = top != null ? top.span.size() : sd.span.size();
        first = false;
      } else {
        sd.imbNumaNr = imb * Math.max(1, sd.span.size() / imbSpan);
      }
    }
    return d.toArray(new SchedDomain[0]);
  }

  private SchedDomain aboveLevel(List<SchedDomain> child, String name,
      List<List<CpuComponent>> llcsOfSpan,
      java.util.function.ToIntFunction<List<CpuComponent>> groupOf, boolean numa) {
    java.util.TreeMap<Integer, List<Integer>> groups = new java.util.TreeMap<>();
    for (List<CpuComponent> l : llcsOfSpan) {
      groups.computeIfAbsent(groupOf.applyAsInt(l), k -> new ArrayList<>())
          .add(l.get(0).cpu.llc());
    }
    List<List<Integer>> g = new ArrayList<>(groups.values());
    int local = -1;
    for (int i = 0; i < g.size(); i++) {
      if (g.get(i).contains(cpu.llc())) {
        local = i;
      }
    }
    return SchedDomain.above(name, spanOf(llcsOfSpan), g, local, numa,
        !child.isEmpty() && !child.get(child.size() - 1).numa);
  }

  private static List<CpuComponent> spanOf(List<List<CpuComponent>> llcs) {
    List<CpuComponent> s = new ArrayList<>();
    llcs.forEach(s::addAll);
    return s;
  }

  /** Whether {@code t} is on a CPU of this CPU's LLC, this CPU's LLC handling the message. */
  private boolean ownedByRunningLlc(Task t) {
    CpuComponent r = t.rq;
    // t.rq holds a CPU of this LLC only if this LLC's partition wrote it (an arrival or a move
    // inside the LLC): other partitions write CPUs of theirs, or null while the task travels.
    return r != null && r.cpu.llc() == cpu.llc() && inLlcOfRunning();
  }

  /**
   * The wakeup of an unbound task ({@code try_to_wake_up()}): placed here if it is on this LLC,
   * sent on if this LLC gave it to another, dropped if it is on its way here (it is runnable),
   * else sent to its home CPU, which knows more.
   */
  private void wakeUnbound(Task t) {
    if (ownedByRunningLlc(t)) {
      tryToWakeUp(t);
      return;
    }
    AboveLlc a = lbLlc == null ? null : lbLlc.above;
    if (a != null && inLlcOfRunning()) {
      Integer to = a.forwarded.get(t);
      if (to != null) {
        ctx.send(to, new CrossLlcMessages.WakeForward(t), params.wakeupLatencyNs());
        return;
      }
      if (t.home.cpu.llc() == cpu.llc()) {
        return; // on its way back here: a runnable task
      }
    }
    if (t.home.cpu.llc() == cpu.llc() && inLlcOfRunning()) {
      tryToWakeUp(t); // throws: the task should be here
      return;
    }
    wakeRemoteTo(t.home, ctx.indexOf(t.home.id), t.taskId);
  }

  private void crossLlc(CrossLlcMessages.Msg m) {
    if (m instanceof CrossLlcMessages.LlcSummary s) {
      summaryArrived(s);
    } else if (m instanceof CrossLlcMessages.PullRequest r) {
      detachForRemote(r);
    } else if (m instanceof CrossLlcMessages.TaskArrives r) {
      attachFromRemote(r);
    } else if (m instanceof CrossLlcMessages.PullReply r) {
      pullAnswered(r);
    } else if (m instanceof CrossLlcMessages.WakeForward w) {
      wakeUnbound(w.task());
    } else if (m instanceof CrossLlcMessages.NohzKick) {
      kickIdleHere();
    }
  }

  /** After a run-queue change: the LLC's summary goes out at the next tick. */
  private void summaryChanged() {
    AboveLlc a = lbLlc.above;
    if (a.publishArmed) {
      return;
    }
    a.publishArmed = true;
    long now = ctx.now();
    long at = (now / tickNs + 1) * tickNs;
    callAfter(at - now, this::publishSummary);
  }

  /** This LLC's live summary. */
  private CrossLlcMessages.LlcSummary liveSummary() {
    int nr = 0;
    int idle = 0;
    long load = 0;
    boolean over = false;
    CpuComponent busiest = null;
    for (CpuComponent c : llc) {
      int n = c.policy.nrRunning();
      nr += n;
      load += c.policy.loadWeight();
      if (c.idleForPlacement()) {
        idle++;
      }
      over |= n >= 2;
      if (busiest == null || n > busiest.policy.nrRunning()
          || n == busiest.policy.nrRunning()
          && c.policy.loadWeight() > busiest.policy.loadWeight()) {
        busiest = c;
      }
    }
    return new CrossLlcMessages.LlcSummary(cpu.llc(), llc.size(), nr, load, idle, over,
        ctx.indexOf(busiest.id), busiest.policy.nrRunning(), busiest.policy.loadWeight());
  }

  private void publishSummary() {
    AboveLlc a = lbLlc.above;
    a.publishArmed = false;
    CrossLlcMessages.LlcSummary s = liveSummary();
    if (s.equals(a.lastSent)) {
      return;
    }
    a.lastSent = s;
    if (a.firstIndex == null) {
      a.firstIndex = new int[a.remote.length];
      for (List<CpuComponent> l : a.llcs) {
        a.firstIndex[l.get(0).cpu.llc()] = ctx.indexOf(l.get(0).id);
      }
    }
    for (List<CpuComponent> l : a.llcs) {
      int id = l.get(0).cpu.llc();
      if (id != cpu.llc()) {
        ctx.send(a.firstIndex[id], s, params.wakeupLatencyNs());
      }
    }
  }

  /** A summary arrives: stored; an overloaded LLC kicks this one's idle balance. */
  private void summaryArrived(CrossLlcMessages.LlcSummary s) {
    AboveLlc a = lbLlc.above;
    CrossLlcMessages.LlcSummary old = a.remote[s.llc()];
    if (old != null && old.overloaded()) {
      a.remoteOverloaded--;
    }
    a.remote[s.llc()] = s;
    if (s.overloaded()) {
      a.remoteOverloaded++;
      kickIdleHere();
    }
  }

  /** A remote LLC asks for an idle balance: kick this LLC's first idle CPU, if due. */
  private void kickIdleHere() {
    long now = ctx.now();
    if (lbLlc.kickPending || now < lbLlc.nohzNextBalanceNs) {
      return;
    }
    for (CpuComponent c : llc) {
      if (c.idleForPlacement()) {
        lbLlc.kickPending = true;
        ctx.send(c.index(), new BalanceKick(), params.wakeupLatencyNs());
        return;
      }
    }
  }

  /**
   * {@code nohz_balancer_kick()}'s test across LLCs, from a busy CPU's tick or balancing: if
   * this CPU has two tasks or its LLC two busy CPUs ({@code sds->nr_busy_cpus > 1}), the LLCs
   * whose summaries show idle CPUs are asked to balance; at most once per tick per LLC.
   */
  private void kickRemoteIdle() {
    AboveLlc a = lbLlc.above;
    long now = ctx.now();
    if (now < a.nextRemoteKickNs) {
      return;
    }
    int busy = 0;
    for (CpuComponent c : llc) {
      if (!c.idleForPlacement()) {
        busy++;
      }
    }
    if (busy < 2 && policy.nrRunning() < 2) {
      return;
    }
    a.nextRemoteKickNs = now + tickNs;
    for (List<CpuComponent> l : a.llcs) {
      int id = l.get(0).cpu.llc();
      CrossLlcMessages.LlcSummary r = a.remote[id];
      if (id != cpu.llc() && (r == null || r.idle() > 0)) {
        ctx.send(ctx.indexOf(l.get(0).id), new CrossLlcMessages.NohzKick(cpu.llc()),
            params.wakeupLatencyNs());
      }
    }
  }

  /** The stats of one group above the LLC: this LLC live, the others from summaries. */
  private GroupStats groupAbove(List<Integer> llcIds, CpuComponent payer, long[] reads) {
    GroupStats s = new GroupStats();
    AboveLlc a = lbLlc.above;
    for (int id : llcIds) {
      if (id == cpu.llc()) {
        GroupStats own = groupStats(llc, null, payer, reads);
        s.weight += own.weight;
        s.nr += own.nr;
        s.load += own.load;
        s.idle += own.idle;
        continue;
      }
      List<CpuComponent> l = llcOf(a, id);
      // Reading a remote LLC's run queues: one line per CPU, as within the LLC.
      reads[0] += payer.lineTransferNs(l.get(0).cpu, l.size());
      CrossLlcMessages.LlcSummary r = a.remote[id];
      s.weight += l.size();
      if (r == null) {
        s.idle += l.size();
      } else {
        s.nr += r.nr();
        s.load += r.load();
        s.idle += r.idle();
      }
    }
    if (s.nr > s.weight) {
      s.type = GROUP_OVERLOADED;
      s.avgLoad = s.load * SCHED_CAPACITY_SCALE / (s.weight * CAPACITY_PER_CPU);
    } else if (s.idle == 0) {
      s.type = GROUP_FULLY_BUSY;
    } else {
      s.type = GROUP_HAS_SPARE;
    }
    return s;
  }

  private static List<CpuComponent> llcOf(AboveLlc a, int id) {
    for (List<CpuComponent> l : a.llcs) {
      if (l.get(0).cpu.llc() == id) {
        return l;
      }
    }
    throw new IllegalStateException("no LLC " + id);
  }

  /** {@code should_we_balance()} above the LLC: the first idle CPU of the local group. */
  private boolean shouldWeBalanceAbove(SchedDomain sd, int idle) {
    if (idle == CPU_NEWLY_IDLE) {
      return policy.nrRunning() == 0 && incoming == 0;
    }
    AboveLlc a = lbLlc.above;
    List<Integer> g = sd.llcGroups.get(sd.local);
    for (int id : g) {
      if (id == cpu.llc()) {
        for (CpuComponent c : llc) {
          if (c.idleForPlacement()) {
            return c == this;
          }
        }
      } else if (a.remote[id] == null || a.remote[id].idle() > 0) {
        return false;
      }
    }
    return llcOf(a, g.get(0)).get(0) == this;
  }

  /**
   * find_busiest_group()'s early "balanced" exits once the groups' statistics are known (fair.c
   * 6.4): an overloaded local group at or above the busiest's or the domain's average load, or
   * within {@code imbalance_pct} of the busiest; otherwise, unless SD_PREFER_SIBLING forces a
   * spread, a busiest group that is not overloaded and leaves nothing worth moving. Shared by the
   * levels inside the LLC and those above it.
   */
  private static boolean nothingToPull(SchedDomain sd, int idle, GroupStats local,
      GroupStats busiest, long sdsAvg) {
    if (local.type == GROUP_OVERLOADED) {
      if (local.avgLoad >= busiest.avgLoad || local.avgLoad >= sdsAvg
          || 100 * busiest.avgLoad <= sd.imbalancePct * local.avgLoad) {
        return true;
      }
    }
    boolean force = sd.preferSibling && local.type == GROUP_HAS_SPARE
        && busiest.nr > local.nr + 1;
    return !force && busiest.type != GROUP_OVERLOADED
        && (idle == CPU_NOT_IDLE || busiest.weight > 1 && local.idle <= busiest.idle + 1
            || busiest.nr == 1);
  }

  /**
   * {@code load_balance()} of a level above the LLC into this CPU: the busiest group from the
   * summaries, the imbalance ({@code calculate_imbalance()}, with {@code adjust_numa_imbalance()}
   * at a NUMA level), then a {@link CrossLlcMessages.PullRequest} to the busiest LLC's busiest
   * CPU. Returns 0 (tasks arrive later); {@link #lbRequested} says whether a request left.
   */
  private int loadBalanceAbove(SchedDomain sd, int idle, CpuComponent payer) {
    lbPasses++;
    lbRequested = false;
    if (sd.pullPending) {
      return 0;
    }
    if (!shouldWeBalanceAbove(sd, idle)) {
      lbContinue = false;
      return balanced(sd, idle, false);
    }
    long[] reads = new long[1];
    try {
      GroupStats local = null;
      GroupStats busiest = null;
      int busiestIdx = -1;
      long totalLoad = 0;
      long totalCap = 0;
      for (int i = 0; i < sd.llcGroups.size(); i++) {
        GroupStats s = groupAbove(sd.llcGroups.get(i), payer, reads);
        totalLoad += s.load;
        totalCap += s.weight * CAPACITY_PER_CPU;
        if (i == sd.local) {
          local = s;
        } else if (s.weight > 0 && pickBusiest(s, busiest)) {
          busiest = s;
          busiestIdx = i;
        }
      }
      if (busiest == null || local.type > busiest.type) {
        return balanced(sd, idle, false);
      }
      long sdsAvg = totalCap == 0 ? 0 : totalLoad * SCHED_CAPACITY_SCALE / totalCap;
      if (nothingToPull(sd, idle, local, busiest, sdsAvg)) {
        return balanced(sd, idle, false);
      }
      int type = MIGRATE_TASK;
      long imbalance;
      if (local.type == GROUP_HAS_SPARE && busiest.type > GROUP_FULLY_BUSY) {
        // No SD_SHARE_PKG_RESOURCES above the LLC: fill the local group's spare capacity
        // (migrate_util; a busy CPU's utilisation counted as full, a runnable task's as one CPU).
        type = MIGRATE_UTIL;
        imbalance = local.idle * CAPACITY_PER_CPU;
        if (idle != CPU_NOT_IDLE && imbalance == 0) {
          type = MIGRATE_TASK;
          imbalance = 1;
        }
      } else if (local.type == GROUP_HAS_SPARE) {
        if (busiest.weight == 1 || sd.preferSibling) {
          imbalance = Math.max(0, busiest.nr - local.nr);
        } else {
          imbalance = Math.max(0, local.idle - busiest.idle);
        }
        if (sd.numa) {
          imbalance = adjustNumaImbalance(imbalance, local.nr + 1, sd.imbNumaNr);
        }
        imbalance >>= 1;
      } else {
        if (local.type < GROUP_OVERLOADED) {
          local.avgLoad = local.load * SCHED_CAPACITY_SCALE / (local.weight * CAPACITY_PER_CPU);
          if (local.avgLoad >= busiest.avgLoad) {
            return balanced(sd, idle, false);
          }
        }
        type = MIGRATE_LOAD;
        imbalance = Math.min((busiest.avgLoad - sdsAvg) * busiest.weight * CAPACITY_PER_CPU,
            (sdsAvg - local.avgLoad) * local.weight * CAPACITY_PER_CPU) / SCHED_CAPACITY_SCALE;
      }
      if (imbalance <= 0) {
        return balanced(sd, idle, false);
      }
      boolean migrateLoad = type == MIGRATE_LOAD;
      // find_busiest_queue(), from the summaries: the busiest CPU of the busiest LLC.
      AboveLlc a = lbLlc.above;
      CrossLlcMessages.LlcSummary src = null;
      for (int id : sd.llcGroups.get(busiestIdx)) {
        CrossLlcMessages.LlcSummary r = a.remote[id];
        if (r == null || r.busiestNr() < 2) {
          continue; // its only task runs: active balancing is not modelled
        }
        long v = migrateLoad ? r.busiestLoad() : r.busiestNr();
        if (src == null || v > (migrateLoad ? src.busiestLoad() : src.busiestNr())) {
          src = r;
        }
      }
      if (src == null) {
        return balanced(sd, idle, false);
      }
      int level = Arrays.asList(domains).indexOf(sd);
      sd.pullPending = true;
      lbRequested = true;
      ctx.send(src.busiestIndex(), new CrossLlcMessages.PullRequest(index(), cpu.id(), level,
          imbalance, type, idle, sd.nrBalanceFailed, sd.cacheNiceTries),
          params.wakeupLatencyNs());
      return 0;
    } finally {
      payer.chargeWakeup(reads[0]);
    }
  }

  /** {@code enum migration_type}, the three used above the LLC. */
  static final int MIGRATE_LOAD = 1;
  static final int MIGRATE_TASK = 0;
  static final int MIGRATE_UTIL = 2;

  /** {@code NUMA_IMBALANCE_MIN} (fair.c). */
  static final int NUMA_IMBALANCE_MIN = 2;

  /**
   * {@code adjust_numa_imbalance()} (fair.c 6.4): while the destination would run at most
   * {@code imb_numa_nr} tasks ({@code allow_numa_imbalance()}), an imbalance of up to
   * {@link #NUMA_IMBALANCE_MIN} tasks is left alone (a pair of communicating tasks stays local).
   */
  static long adjustNumaImbalance(long imbalance, int dstRunning, int imbNumaNr) {
    if (dstRunning > imbNumaNr) {
      return imbalance;
    }
    return imbalance <= NUMA_IMBALANCE_MIN ? 0 : imbalance;
  }

  /**
   * A pull request arrives at the CPU a summary named busiest: {@code detach_tasks()} on this
   * CPU's state now, with {@code can_migrate_task()}'s rules (movable across LLCs, allowed on
   * the destination, not running, not cache hot unless the destination's domain failed more
   * than its {@code cache_nice_tries}); the tasks leave at once and arrive a lookahead later.
   */
  private void detachForRemote(CrossLlcMessages.PullRequest r) {
    long now = ctx.now();
    int moved = 0;
    boolean allPinned = true;
    long srcMin = policy.minVruntime();
    if (policy.nrRunning() > 1) {
      List<Task> cand = policy.queued();
      cand.sort((x, y) -> {
        int c = Long.compare(recency(x), recency(y));
        return c != 0 ? c : Long.compare(x.orderKey, y.orderKey);
      });
      int loopMax = Math.min(lb.nrMigrate(), policy.nrRunning());
      int loop = 0;
      long imbalance = r.imbalance();
      for (Task p : cand) {
        if (r.idle() != CPU_NOT_IDLE && policy.nrRunning() <= 1) {
          break;
        }
        if (++loop > loopMax) {
          break;
        }
        if (!p.unbound || !p.movesAcrossLlc || !p.allowedOn(r.dstCpuId())) {
          continue;
        }
        allPinned = false;
        if (p == current || p.waking) {
          continue;
        }
        boolean hot = lb.migrationCostNs() > 0 && now - p.se.execStart < lb.migrationCostNs();
        if (hot && r.nrBalanceFailed() <= r.cacheNiceTries()) {
          continue;
        }
        if (r.migrationType() == MIGRATE_LOAD) {
          long load = Math.max(1, p.weight());
          if ((load >> Math.min(r.nrBalanceFailed(), 62)) > imbalance) {
            continue;
          }
          imbalance -= load;
        } else if (r.migrationType() == MIGRATE_UTIL) {
          // task_util_est(): a runnable task counted as a whole CPU (no PELT here).
          if (CAPACITY_PER_CPU > imbalance) {
            continue;
          }
          imbalance -= CAPACITY_PER_CPU;
        } else {
          imbalance--;
        }
        policy.dequeueQueued(p, now);
        nrChanged();
        p.rq = null; // travelling: no LLC's to read
        lbLlc.above.forwarded.put(p, r.dstIndex());
        ctx.send(r.dstIndex(), new CrossLlcMessages.TaskArrives(p, srcMin, cpu.id()),
            params.wakeupLatencyNs());
        moved++;
        if (r.idle() == CPU_NEWLY_IDLE || imbalance <= 0) {
          break;
        }
      }
    }
    ctx.send(r.dstIndex(), new CrossLlcMessages.PullReply(r.level(), moved, r.idle(),
        moved == 0 && allPinned), params.wakeupLatencyNs());
  }

  /** A task pulled from another LLC arrives: {@code attach_task()}. */
  private void attachFromRemote(CrossLlcMessages.TaskArrives r) {
    long now = ctx.now();
    Task p = r.task();
    Cpu src = null;
    for (List<CpuComponent> l : lbLlc.above.llcs) {
      for (CpuComponent c : l) {
        if (c.cpu.id() == r.srcCpuId()) {
          src = c.cpu;
        }
      }
    }
    lbLlc.above.forwarded.remove(p);
    p.rq = this;
    p.migrations++;
    migrationsIn++;
    lbPulled++;
    if (samples != null) {
      samples.migration(now);
    }
    policy.enqueueMigrated(p, r.srcMinVruntime(), now);
    nrChanged();
    // The destination runs detach and attach in the kernel: it pays the remote lines.
    chargeWakeup(lineTransferNs(src, LoadBalanceParams.MIGRATE_LINES));
    checkPreemptCurr(p, now);
  }

  /** The answer to this CPU's pull request: the domain's {@code nr_balance_failed}. */
  private void pullAnswered(CrossLlcMessages.PullReply r) {
    SchedDomain sd = domains[r.level()];
    sd.pullPending = false;
    if (r.allPinned()) {
      balanced(sd, r.idle(), true); // out_all_pinned: the interval backs off
      return;
    }
    // We were unbalanced, so reset the balancing interval.
    sd.balanceIntervalMs = sd.minIntervalMs;
    if (r.moved() == 0) {
      if (r.idle() != CPU_NEWLY_IDLE) {
        sd.nrBalanceFailed++;
      }
    } else {
      sd.nrBalanceFailed = 0;
    }
  }

  /** {@code check_preempt_curr()} after {@code t} became runnable, or leave idle. */
  private void checkPreemptCurr(Task t, long now) {
    if (current == null) {
      scheduleDispatch();
    } else if (!needResched && policy.checkPreemptWakeup(t, now)) {
      reschedCurr();
    }
    armTick();
  }

  /** {@code resched_curr()}: sets need-resched; a preemptible burst is cut at once. */
  private void reschedCurr() {
    if (current == null) {
      return;
    }
    needResched = true;
    if (spinning) {
      // The spin loops test need_resched() and give up (rwsem_spin_on_owner(), mutex's
      // mutex_spin_on_owner()): the spin ends (as its own event, not inside the caller) and the
      // task decides what to do next.
      long token = current.spinToken;
      callAfter(0, () -> endSpin(token));
      return;
    }
    if (!cutArmed && burstPreemptible()) {
      cutArmed = true;
      callAfter(Math.max(0, irqBusyUntil - ctx.now()), onCut);
    }
  }

  private boolean burstPreemptible() {
    return inBurst && !switchingIn && !sleepAfterBurst
        && (burstMode == CpuMode.USER || params.preempt().preemptsKernel());
  }

  /** Preemption of a running burst, on the exit of the interrupt that set need-resched. */
  private void cut() {
    cutArmed = false;
    if (current == null || !needResched || !burstPreemptible()) {
      return;
    }
    long now = ctx.now();
    if (irqBusyUntil > now) {
      cutArmed = true;
      callAfter(irqBusyUntil - now, onCut);
      return;
    }
    long done = now - burstStartNs - stolenNs;
    if (done < 0 || done > burstLenNs) {
      throw new IllegalStateException(id + ": burst of " + current.comm() + " ran " + done
          + " of " + burstLenNs + " ns when cut at " + now + " ns");
    }
    cancelBurstEnd();
    inBurst = false;
    charge(current, burstMode, done);
    current.pendingMode = burstMode;
    current.pendingNs = burstLenNs - done;
    if (smt != null) {
      // The work left, stretched again by the sibling's state when it resumes.
      current.pendingNs = SmtCore.rescale(burstLenNs - done, burstFactor, 1.0);
      current.pendingFresh = true;
    }
    preempt(true);
  }

  /** The HZ tick ({@code scheduler_tick()} → {@code task_tick_fair()}). */
  private void tick() {
    tickArmed = false;
    if (policy.nrRunning() <= 1) {
      return;
    }
    ticks++;
    if (lbLlc != null) {
      nohzBalancerKick();
    }
    if (current != null && policy.taskTick(ctx.now())) {
      reschedCurr();
    }
    armTick();
  }

  private void armTick() {
    if (tickArmed || policy.nrRunning() <= 1) {
      return;
    }
    tickArmed = true;
    long now = ctx.now();
    callAfter((now / tickNs + 1) * tickNs - now, onTick);
  }

  private void scheduleDispatch() {
    if (!dispatchPending) {
      dispatchPending = true;
      long now = ctx.now();
      callAfter(current == null && irqBusyUntil <= now ? deepExitNs(now) : 0, onDispatch);
    }
  }

  /**
   * Uses idle states deeper than C1 (kernel-model.md §1.5; {@code kernel.cpuidle}): an idle CPU
   * woken after an idle period of at least {@code residencyNs[i]} (the state's target residency)
   * was in state {@code i} and takes {@code exitNs[i]} more than C1's exit ({@link
   * SchedParams#idleExitNs()}) to run the woken task or the interrupt. Simplified: the governor
   * is an oracle that picks the deepest state whose target residency the idle period reached
   * (menu / teo aim at that; they also mispredict, which is not modelled). Only before the run.
   */
  public void useIdleStates(long[] exitNs, long[] residencyNs) {
    if (ctx != null) {
      throw new IllegalStateException(id + ": idle states are set before the run starts");
    }
    if (exitNs.length != residencyNs.length) {
      throw new IllegalArgumentException(id + ": one residency per idle state");
    }
    idleExitNs = exitNs.clone();
    idleResidencyNs = residencyNs.clone();
    idleExits = new long[exitNs.length];
  }

  /** Extra exit latency of the idle state this idle CPU is in at {@code now} (0: C1 or off). */
  private long deepExitNs(long now) {
    long idle = now - idleSinceNs;
    for (int i = idleExitNs.length - 1; i >= 0; i--) {
      if (idle >= idleResidencyNs[i]) {
        idleExits[i]++;
        return idleExitNs[i];
      }
    }
    return 0;
  }

  /** Wakeups and interrupts that found this CPU in each state of {@link #useIdleStates}. */
  public long[] idleStateExits() {
    return idleExits.clone();
  }

  /** {@code __schedule()} on an idle CPU: picks a task once no interrupt is in progress. */
  private void dispatch() {
    dispatchPending = false;
    if (current != null) {
      return;
    }
    long now = ctx.now();
    if (irqBusyUntil > now) {
      dispatchPending = true;
      callAfter(irqBusyUntil - now, onDispatch);
      return;
    }
    Task t = policy.pickNextTask(now);
    if (t != null) {
      switchTo(t, true);
    }
  }

  /**
   * {@code __schedule()} from a preemption point: the current task stays runnable. If the policy
   * picks it again nothing is switched or counted ({@code prev == next}).
   *
   * @param inEvent whether called from an event handler (else from inside the task's step, where
   *     the next step must not be called re-entrantly)
   */
  private void preempt(boolean inEvent) {
    Task prev = current;
    long now = ctx.now();
    prev.lastQueuedNs = now;
    policy.putPrevTask(now);
    Task next = policy.pickNextTask(now);
    needResched = false;
    if (next == prev) {
      if (inEvent) {
        resume(prev);
      } else if (prev.pendingMode != null) {
        resume(prev);
      } else {
        begin(CpuMode.SYSTEM, 0);
      }
      return;
    }
    prev.nivcsw++;
    nivcsw++;
    switchedOut(prev, 'R');
    switchTo(next, inEvent);
  }

  /** {@code context_switch()}: the incoming task pays the switch as system time. */
  private void switchTo(Task next, boolean inEvent) {
    boolean wasIdle = current == null;
    current = next;
    if (smt != null && wasIdle) {
      smt.busyChanged(this, true);
    }
    // sched_info_arrive(): the wait on the run queue ends.
    long now = ctx.now();
    next.sliceSchDelayNs = now - next.lastQueuedNs;
    next.runDelayNs += next.sliceSchDelayNs;
    next.pcount++;
    next.lastSwitchInNs = now;
    contextSwitches++;
    if (lb != null && !balanceArmed) {
      armBalance();
    }
    if (params.ctxSwitchNs() == 0 && inEvent) {
      switchedIn();
      return;
    }
    switchingIn = true;
    begin(CpuMode.SYSTEM, params.ctxSwitchNs());
  }

  /** End of {@code __schedule()} in the incoming task: {@code schedule()}'s need-resched loop. */
  private void switchedIn() {
    Task t = current;
    if (needResched) {
      preempt(true);
      return;
    }
    if (t.slept) {
      t.slept = false;
      inHook = true;
      try {
        t.schedUpdateWorker(taskCpu);
      } finally {
        inHook = false;
      }
    }
    resume(t);
  }

  /** Continues a task that holds the CPU: its cut burst, else its next step. */
  private void resume(Task t) {
    if (t.pendingMode != null) {
      CpuMode m = t.pendingMode;
      t.pendingMode = null;
      // The rest of a cut burst was stretched (or not) when it began.
      if (t.pendingFresh) {
        t.pendingFresh = false;
        begin(m, t.pendingNs);
      } else {
        burstFactor = 1.0;
        beginRaw(m, t.pendingNs);
      }
      return;
    }
    callStep();
  }

  /**
   * Starts a burst of {@code ns} of work: stretched by the SMT slowdown while a sibling of this
   * core runs a task, and rescaled when that changes during the burst ({@link SmtCore}).
   */
  private void begin(CpuMode mode, long ns) {
    burstFactor = smt == null || ns <= 0 ? 1.0 : smt.factorFor(this);
    beginRaw(mode, burstFactor == 1.0 ? ns : Math.round(ns * burstFactor));
  }

  /**
   * A sibling of this core started or stopped running a task ({@link SmtCore#busyChanged}): the
   * running burst's work still to do runs from now on at slowdown {@code f}. Its part done is
   * charged and the rest re-armed, as {@link #cut} and {@link #settle} split a burst. An
   * open-ended spin is left alone.
   */
  void smtRateChanged(double f) {
    if (!inBurst || spinning || f == burstFactor || current == null) {
      return;
    }
    long now = ctx.now();
    long irqAhead = Math.max(0, irqBusyUntil - now);
    long done = Math.max(0, Math.min(now - burstStartNs - (stolenNs - irqAhead), burstLenNs));
    if (done > 0) {
      charge(current, burstMode, done);
    }
    long left = SmtCore.rescale(burstLenNs - done, burstFactor, f);
    endSlot.callback = CANCELLED;
    burstFactor = f;
    beginRaw(burstMode, left);
  }

  /**
   * Starts an optimistic spin: an open-ended burst with no end event. The spin ends only by
   * {@link #endSpin} (the lock's {@link SpinStop}, need-resched); no timer is armed, since a
   * cancelled one would stay in the event queue and the slot table until it fell due, one per
   * spin (36,000 per simulated second in the btrfs runs, growing the heap for the whole run).
   * {@code burstLenNs} is {@link #SPIN_LIMIT_NS} only to bound {@link #settle}'s arithmetic.
   */
  private void beginSpin() {
    long now = ctx.now();
    burstFactor = 1.0;
    inBurst = true;
    burstMode = CpuMode.SYSTEM;
    burstLenNs = SPIN_LIMIT_NS;
    burstStartNs = now;
    stolenNs = Math.max(0, irqBusyUntil - now);
    stolenPendingNs = 0;
    endSlot = null;
    spinning = true;
  }

  /** Drops the running burst's end event, if it has one (a spin has none). */
  private void cancelBurstEnd() {
    if (endSlot != null) {
      endSlot.callback = CANCELLED;
      endSlot = null;
    }
  }

  private void beginRaw(CpuMode mode, long ns) {
    long now = ctx.now();
    long irqAhead = Math.max(0, irqBusyUntil - now);
    inBurst = true;
    burstMode = mode;
    burstLenNs = ns;
    burstStartNs = now;
    stolenNs = irqAhead;
    stolenPendingNs = 0;
    endSlot = arm(ns + irqAhead, onBurstEnd);
  }

  private void burstEnd() {
    endSlot = null;
    if (stolenPendingNs > 0) {
      long s = stolenPendingNs;
      stolenPendingNs = 0;
      endSlot = arm(s, onBurstEnd);
      return;
    }
    inBurst = false;
    Task t = current;
    charge(t, burstMode, burstLenNs);
    if (switchingIn) {
      switchingIn = false;
      switchedIn();
      return;
    }
    if (sleepAfterBurst) {
      sleepAfterBurst = false;
      if (wakePending) {
        wakePending = false;
        callStep();
      } else {
        block();
      }
      return;
    }
    if (needResched
        && (burstMode == CpuMode.USER || params.preempt().preemptsKernel())) {
      // Need-resched was set at the very instant the burst ended: still a preemptible point.
      preempt(true);
      return;
    }
    callStep();
  }

  private void charge(Task t, CpuMode mode, long ns) {
    if (samples != null) {
      samples.busy(ctx.now(), ns);
    }
    if (mode == CpuMode.USER) {
      t.utimeNs += ns;
      userNs += ns;
    } else {
      t.stimeNs += ns;
      sysNs += ns;
    }
  }

  private void callStep() {
    Task t = current;
    actionTaken = false;
    // A wakeup only cancels a sleep taken in the same step (the kernel's set_current_state()
    // before the condition check); tasks test their own wait condition before sleeping.
    wakePending = false;
    t.step(taskCpu);
    if (!actionTaken) {
      throw new IllegalStateException(id + ": task " + t.comm() + " returned from step() at "
          + ctx.now() + " ns without an action");
    }
  }

  private void taken() {
    if (inHook) {
      throw new IllegalStateException(id + ": task " + current.comm() + " took an action in a"
          + " scheduler hook at " + ctx.now() + " ns");
    }
    if (actionTaken) {
      throw new IllegalStateException(id + ": task " + current.comm() + " took two actions in one"
          + " step at " + ctx.now() + " ns");
    }
    actionTaken = true;
  }

  /** {@code __schedule()} for a task that blocks: dequeued, a voluntary switch. */
  private void block() {
    Task t = current;
    policy.dequeueCurr(ctx.now());
    nrChanged();
    t.state = TaskState.BLOCKED;
    t.slept = true;
    t.nvcsw++;
    nvcsw++;
    switchedOut(t, 'S');
    leaveCpu();
  }

  /** The task leaves the CPU ({@code sched_switch}): recorded if this CPU traces switches. */
  private void switchedOut(Task t, char state) {
    t.offCpu(this);
    long now = ctx.now();
    if (trace != null && timehist.inWindow(now)) {
      if (trace.size() < timehist.maxLines()) {
        trace.add(new SwitchRecord(now, cpu.id(), t.pid(), t.comm(),
            t.lastSwitchInNs - t.lastSwitchOutNs, t.sliceSchDelayNs, now - t.lastSwitchInNs,
            state));
      } else {
        traceDropped++;
      }
    }
    t.lastSwitchOutNs = now;
  }

  /**
   * Records every context switch on this CPU within {@code p}'s window ({@code perf sched
   * timehist}); only before the run starts.
   */
  public void traceSwitches(TimehistParams p) {
    if (ctx != null) {
      throw new IllegalStateException(id + ": tracing is set up before the run starts");
    }
    timehist = p;
    trace = new ArrayList<>();
  }

  private void leaveCpu() {
    current = null;
    idleSinceNs = ctx.now();
    if (smt != null) {
      smt.busyChanged(this, false);
    }
    needResched = false;
    if (policy.nrRunning() > 0) {
      scheduleDispatch();
    } else if (lb != null) {
      newidleBalance();
    }
  }

  /**
   * Charges the burst in progress up to {@code endNs}, so that the report covers the whole run.
   * Idempotent for a given end time.
   */
  private void settle(long endNs) {
    if (current == null || !inBurst) {
      return;
    }
    long irqAfterEnd = Math.max(0, irqBusyUntil - endNs);
    long done = endNs - burstStartNs - (stolenNs - irqAfterEnd);
    done = Math.max(0, Math.min(done, burstLenNs));
    if (done == 0) {
      return;
    }
    charge(current, burstMode, done);
    burstLenNs -= done;
    burstStartNs = endNs;
    stolenNs = irqAfterEnd;
  }

  @Override
  public ComponentReport report(long endNs) {
    settle(endNs);
    List<TaskReport> reports = new ArrayList<>();
    for (Task t : tasks) {
      TaskReport r = t.report(endNs);
      if (r != null) {
        reports.add(r);
      }
    }
    List<DiskCounters.Snapshot> disks = new ArrayList<>();
    for (BlockQueue q : queues) {
      disks.add(q.counters().snapshot(endNs));
    }
    List<TaskStat> threads = new ArrayList<>(tasks.size());
    for (Task t : tasks) {
      threads.add(t.stat());
    }
    CpuReport r = new CpuReport(cpu.id(), userNs, sysNs, irqNs, contextSwitches, nvcsw, nivcsw,
        endNs, reports, disks, threads, trace == null ? List.of() : trace, traceDropped,
        samples == null ? null : samples.series(endNs),
        java.util.Arrays.copyOf(irqTrace, irqCount));
    return new ComponentReport(id, CpuReport.KIND, r.encode());
  }

  /** CPU time spent in user mode, ns. */
  public long userNs() {
    return userNs;
  }

  /** CPU time spent in system mode by tasks (context switches included), ns. */
  public long sysNs() {
    return sysNs;
  }

  /** CPU time spent in interrupts, ns. */
  public long irqNs() {
    return irqNs;
  }

  /** Switches to a task ({@code rq->nr_switches}, switches to idle excluded). */
  public long contextSwitches() {
    return contextSwitches;
  }

  /** Voluntary switches of this CPU's tasks (they blocked). */
  public long nvcsw() {
    return nvcsw;
  }

  /** Involuntary switches of this CPU's tasks (they were preempted or yielded). */
  public long nivcsw() {
    return nivcsw;
  }

  /** Scheduler ticks run (only while more than one task was runnable). */
  public long ticks() {
    return ticks;
  }

  /** Runnable tasks, the current one included ({@code rq->nr_running}). */
  public int nrRunning() {
    return policy.nrRunning();
  }

  /** Whether need-resched is set for the current task. */
  public boolean needResched() {
    return needResched;
  }

  /** The task now on the CPU, or {@code null}. */
  public Task current() {
    return current;
  }

  private final class TaskCpuImpl implements TaskCpu {
    @Override
    public long now() {
      return ctx.now();
    }

    @Override
    public CpuComponent cpu() {
      return CpuComponent.this;
    }

    @Override
    public void runFor(CpuMode mode, long ns) {
      taken();
      if (ns < 0) {
        throw new IllegalArgumentException(id + ": negative burst " + ns + " ns");
      }
      if (needResched && (mode == CpuMode.USER || params.preempt().preemptsKernel())) {
        // Return to user (or, under FULL, preempt_enable()) with need-resched set.
        current.pendingMode = mode;
        current.pendingNs = ns;
        current.pendingFresh = true;
        preempt(false);
        return;
      }
      begin(mode, ns);
    }

    @Override
    public void sleep() {
      taken();
      if (wakePending) {
        wakePending = false;
        begin(CpuMode.SYSTEM, 0);
        return;
      }
      // sched_submit_work(): a task that blocks with plugged I/O flushes it, the queue run
      // deferred to kblockd (blk_schedule_flush_plug()).
      blksim.kernel.block.Plug plug = current.plug();
      if (plug != null && plug.active()) {
        Task self = current;
        hook(() -> {
          plug.flush(CpuComponent.this, true);
          return 0;
        });
        if (current != self) {
          throw new IllegalStateException(id + ": a plug flush switched tasks");
        }
      }
      long cost = hook(() -> current.schedSubmitWork(taskCpu));
      if (cost < 0) {
        throw new IllegalStateException(id + ": task " + current.comm()
            + " returned a negative submit-work cost " + cost);
      }
      if (wakePending) {
        // Woken by its own submit work (a flushed plug completed inline): it does not block.
        wakePending = false;
        begin(CpuMode.SYSTEM, cost);
        return;
      }
      if (cost > 0) {
        sleepAfterBurst = true;
        begin(CpuMode.SYSTEM, cost);
        return;
      }
      block();
    }

    private long hook(LongSupplier h) {
      inHook = true;
      try {
        return h.getAsLong();
      } finally {
        inHook = false;
      }
    }

    @Override
    public void exit() {
      taken();
      Task t = current;
      t.exited();
      policy.dequeueCurr(ctx.now());
      nrChanged();
      t.state = TaskState.DEAD;
      switchedOut(t, 'X');
      if (t.keepsRunAlive()) {
        if (t.home == CpuComponent.this) {
          liveTaskGone();
        } else {
          // A task balanced to another LLC may exit in another partition than its home's.
          ctx.send(t.home.index(), new LiveTaskExited(),
              t.home.inLlcOfRunning() ? 0 : params.wakeupLatencyNs());
        }
      }
      leaveCpu();
    }

    @Override
    public void spin() {
      taken();
      if (needResched) {
        begin(CpuMode.SYSTEM, 0);
        return;
      }
      Task t = current;
      t.spinToken = ++spinTokens;
      beginSpin();
    }

    @Override
    public void condResched() {
      taken();
      if (needResched) {
        preempt(false);
        return;
      }
      begin(CpuMode.SYSTEM, 0);
    }

    @Override
    public void mightResched() {
      taken();
      if (needResched && params.preempt() != PreemptModel.NONE) {
        preempt(false);
        return;
      }
      begin(CpuMode.SYSTEM, 0);
    }

    @Override
    public boolean needResched() {
      return needResched;
    }

    @Override
    public SplittableRandom random() {
      return ctx.random();
    }
  }
}
