package blksim.kernel.sched;

/**
 * A schedulable entity: a user thread (a fio job), a kthread, a kworker, an io-wq worker; mirrors
 * {@code struct task_struct} as far as the scheduler sees it.
 *
 * <p>A task is a state machine the CPU drives: whenever the task holds the CPU and its previous
 * step ended, the CPU calls {@link #step}, and the task answers with exactly one action through
 * the {@link TaskCpu}: run for some time in user or system mode, go to sleep, reschedule if asked
 * ({@link TaskCpu#condResched}), or exit. It is woken by {@link CpuComponent#wake} (same CPU) or
 * {@link CpuComponent#wakeRemote} (another CPU). A burst cut by preemption is remembered here and
 * resumed, without a new step, when the task next runs.
 *
 * <p>Accounting mirrors {@code getrusage(RUSAGE_THREAD)}: user and system time of this task only,
 * voluntary ({@code nvcsw}: it blocked) and involuntary ({@code nivcsw}: it was preempted or
 * yielded while runnable) context switches.
 *
 * <p>Identity: a task gets a per-CPU id ({@link #taskId()}) when it is added to or spawned on a
 * {@link CpuComponent}, its home: 0, 1, 2... in order of addition. Remote wakeups name a task by
 * (home CPU component index, task id). A task stays on its home CPU unless it is
 * {@link #setUnbound unbound} and the scenario places wakeups in the LLC: then it may run on any
 * CPU of its home's LLC ({@link #cpu()}), and is still reported by its home. Owned by the
 * {@link CpuComponent} it runs on.
 */
public abstract class Task {
  private final String comm;
  private final int pid;
  private final int nice;
  /** Fair-scheduling state, owned by the CPU's {@link SchedPolicy}. */
  final SchedEntity se;
  TaskState state = TaskState.RUNNING;
  private Runnable exitListener;
  long utimeNs;
  long stimeNs;
  long nvcsw;
  long nivcsw;
  /** {@code sched_info.run_delay}: time spent runnable on the run queue, waiting for the CPU. */
  long runDelayNs;
  /** {@code sched_info.pcount}: times the task was switched in. */
  long pcount;
  /** {@code se.nr_migrations}: times it moved to another CPU. */
  long migrations;
  /** {@code p->recent_used_cpu}: the previous CPU of its last placed wakeup (rule SIS). */
  CpuComponent recentUsedCpu;
  /** {@code sched_info.last_queued}: when the task last joined the run queue. */
  long lastQueuedNs;
  /** When the task was last switched in (start of its current or last timeslice). */
  long lastSwitchInNs;
  /** When the task was last switched out (0 before its first timeslice). */
  long lastSwitchOutNs;
  /** How long it waited on the run queue before its current or last timeslice. */
  long sliceSchDelayNs;
  /** Per-CPU id, -1 until the task is placed on a CPU. */
  int taskId = -1;
  /** The CPU the task runs on or is queued on, {@code null} until placed. */
  CpuComponent rq;
  /** The CPU the task was placed on and is reported by; {@code rq} differs once it migrated. */
  CpuComponent home;
  /** Whether the task may move to another CPU of its LLC when woken (kernel-model.md §1.3). */
  boolean unbound;
  /**
   * Whether load balancing may move the task to another LLC or node (issue 15 item 3): only a
   * task whose state nothing outside its own CPU touches while it is runnable (see
   * {@link #setMovesAcrossLlc}).
   */
  boolean movesAcrossLlc;
  /** CPU ids it may run on ({@code cpus_ptr}), ascending; null: all. */
  int[] allowedCpus;
  /** A wakeup is on its way to a CPU chosen for it ({@code TASK_WAKING}). */
  boolean waking;
  /** Tie-break of equal vruntimes: home CPU id, then per-CPU id. */
  long orderKey;
  /** Mode of the burst to resume when the task next runs, {@code null} if none. */
  CpuMode pendingMode;
  /** Length of the burst to resume when the task next runs. */
  long pendingNs;
  /** Whether the pending burst never started (its SMT stretch is decided when it does). */
  boolean pendingFresh;
  /** Whether the task blocked since it last ran ({@code sched_update_worker()} is due). */
  boolean slept;
  /** Spawned with a creation delay and not yet runnable: wakeups are ignored. */
  boolean newborn;
  /**
   * The task's memory-management state ({@code nr_dirtied}, {@code nr_dirtied_pause},
   * {@code dirty_paused_when} of {@code task_struct}), owned by the mm package and opaque here.
   */
  private Object mmState;
  /** {@code current->plug}: the block plug the task holds, or null. */
  private blksim.kernel.block.Plug plug;
  /** Token of the optimistic spin in progress ({@link TaskCpu#spin}), 0 if none. */
  long spinToken;
  /** Told when the task leaves its CPU ({@code owner_on_cpu()} turns false), or null. */
  private OffCpuListener offCpuListener;
  /**
   * The sleeping lock the task waits on in {@code TASK_UNINTERRUPTIBLE} (the "D" state, its
   * {@code wchan}), or null.
   */
  private String wchan;
  /** Its waits on sleeping locks, per lock in order of first use; null before the first. */
  private java.util.LinkedHashMap<String, LockWaitStat.Account> lockWaits;

  /** Told when a task leaves its CPU (it blocked, was preempted or exited). */
  public interface OffCpuListener {
    /** {@code t} left CPU {@code on}, which handles the current message. */
    void offCpu(Task t, CpuComponent on);
  }

  /**
   * @param comm the task's name as {@code ps} shows it
   * @param pid its thread id
   * @param nice its nice value, -20..19
   */
  protected Task(String comm, int pid, int nice) {
    this.se = new SchedEntity(LoadWeight.ofNice(nice));
    this.comm = comm;
    this.pid = pid;
    this.nice = nice;
  }

  /** Called on the CPU when the task may act; must call exactly one action of {@code cpu}. */
  protected abstract void step(TaskCpu cpu);

  /**
   * Mirrors {@code sched_submit_work()}: called when the task is about to block in
   * {@code schedule()} (after {@link TaskCpu#sleep}, not when it is preempted and not at
   * {@link TaskCpu#condResched}). This is where the kernel calls {@code wq_worker_sleeping()},
   * {@code io_wq_worker_sleeping()} and {@code blk_flush_plug()}. Must not take an action; may
   * wake tasks. Returns the CPU time the work costs, charged as system time before the task
   * blocks. The default does nothing and costs nothing.
   */
  protected long schedSubmitWork(TaskCpu cpu) {
    return 0;
  }

  /**
   * Mirrors {@code sched_update_worker()}: called when a task that blocked runs again, after its
   * switch-in and before its next step ({@code wq_worker_running()},
   * {@code io_wq_worker_running()}). Must not take an action. The default does nothing.
   */
  protected void schedUpdateWorker(TaskCpu cpu) {}

  /**
   * Sets what runs when the task exits: called from its exit, on the CPU it ran on, before it
   * leaves the CPU (a parent's {@code wait()} seeing its child's exit). One listener; it may
   * wake other tasks, as a task's own step may.
   */
  public void setExitListener(Runnable listener) {
    this.exitListener = listener;
  }

  void exited() {
    if (exitListener != null) {
      exitListener.run();
    }
  }

  /** Whether the run lasts until this task exits (fio jobs: yes; kernel threads: no). */
  public boolean keepsRunAlive() {
    return false;
  }

  /** The task's results at the end of the run, or {@code null}. */
  public TaskReport report(long endNs) {
    return null;
  }

  /** {@code current->plug}: the block plug the task holds, or null. */
  public blksim.kernel.block.Plug plug() {
    return plug;
  }

  /** Sets {@code current->plug} ({@code blk_start_plug()} / {@code blk_finish_plug()}). */
  public void setPlug(blksim.kernel.block.Plug plug) {
    this.plug = plug;
  }

  /** Sets what is told when the task leaves its CPU (sleeping locks watch their owner). */
  public void setOffCpuListener(OffCpuListener l) {
    offCpuListener = l;
  }

  /** What is told when the task leaves its CPU, or null. */
  public OffCpuListener offCpuListener() {
    return offCpuListener;
  }

  void offCpu(CpuComponent on) {
    spinToken = 0;
    if (offCpuListener != null) {
      offCpuListener.offCpu(this, on);
    }
  }

  /** Whether the task is on a CPU now ({@code owner_on_cpu()}: {@code p->on_cpu}). */
  public boolean onCpu() {
    return rq != null && state == TaskState.RUNNING && rq.current() == this;
  }

  /**
   * Sets the lock the task sleeps on uninterruptibly ({@code TASK_UNINTERRUPTIBLE}, "D" in
   * {@code ps}), or null when it stops waiting.
   */
  public void setWchan(String lock) {
    wchan = lock;
  }

  /** The lock the task waits on, or null. */
  public String wchan() {
    return wchan;
  }

  /** The state {@code ps} shows: R (running or runnable), D (asleep on a lock), S, X (dead). */
  public char psState() {
    return switch (state) {
      case RUNNING -> 'R';
      case BLOCKED -> wchan != null ? 'D' : 'S';
      case DEAD -> 'X';
    };
  }

  /** The task's account of waits on lock {@code name}, created at first use. */
  public LockWaitStat.Account lockAccount(String name) {
    if (lockWaits == null) {
      lockWaits = new java.util.LinkedHashMap<>();
    }
    return lockWaits.computeIfAbsent(name, LockWaitStat.Account::new);
  }

  /** The mm package's per-task state, or null before the task first dirties a page. */
  public Object mmState() {
    return mmState;
  }

  /** Sets the mm package's per-task state. */
  public void setMmState(Object state) {
    mmState = state;
  }

  /** The task's name. */
  public String comm() {
    return comm;
  }

  /** The task's thread id. */
  public int pid() {
    return pid;
  }

  /** The task's nice value. */
  public int nice() {
    return nice;
  }

  /** Its load weight, from {@code sched_prio_to_weight[]}. */
  public long weight() {
    return se.weight;
  }

  /**
   * Lets the task move, when woken, to an idle CPU of its LLC (user threads and io-wq workers
   * are not pinned); only before it is placed, and only on a CPU that knows its LLC
   * ({@link CpuComponent#joinLlc}).
   */
  public void setUnbound(boolean unbound) {
    if (rq != null) {
      throw new IllegalStateException(comm + ": affinity is set before the task is placed");
    }
    this.unbound = unbound;
  }

  /**
   * Lets load balancing move the task, while it is runnable and not running, to a CPU of another
   * LLC or node (a message that takes the run's lookahead, as it may cross partitions); only
   * for an {@link #setUnbound unbound} task, before it is placed. Set it only for a task whose
   * state no other task, interrupt or device reads or writes while it is runnable (a
   * synchronous I/O or CPU-burning thread: its I/O completes while it sleeps, on the CPU it
   * slept on); wakeups reach it wherever it went ({@link CpuComponent#wakeUp}).
   */
  public void setMovesAcrossLlc(boolean moves) {
    if (rq != null) {
      throw new IllegalStateException(comm + ": affinity is set before the task is placed");
    }
    this.movesAcrossLlc = moves;
  }

  /** Whether load balancing may move the task to another LLC or node. */
  public boolean movesAcrossLlc() {
    return movesAcrossLlc;
  }

  /**
   * {@code sched_setaffinity()}: the CPU ids the task may run on (ascending), {@code null} for
   * all. Only before it is placed; wakeup placement never moves it outside the set.
   */
  public void setAllowedCpus(int[] cpuIds) {
    if (rq != null) {
      throw new IllegalStateException(comm + ": affinity is set before the task is placed");
    }
    allowedCpus = cpuIds == null ? null : cpuIds.clone();
  }

  /** Whether CPU {@code cpuId} is in the task's affinity mask. */
  boolean allowedOn(int cpuId) {
    return allowedCpus == null || java.util.Arrays.binarySearch(allowedCpus, cpuId) >= 0;
  }

  /** Whether the task may migrate within its LLC when woken. */
  public boolean unbound() {
    return unbound;
  }

  /** The CPU the task was placed on (where it is reported), {@code null} before. */
  public CpuComponent home() {
    return home;
  }

  /** The tie-break key among equal vruntimes. */
  long orderKey() {
    return orderKey;
  }

  /** The per-CPU id given when the task was placed on its CPU, -1 before. */
  public int taskId() {
    return taskId;
  }

  /** The CPU the task runs on or waits on (its home unless it migrated), {@code null} before. */
  public CpuComponent cpu() {
    return rq;
  }

  /** RUNNING, BLOCKED or DEAD. */
  public TaskState state() {
    return state;
  }

  /** User time consumed, ns (ru_utime). */
  public long utimeNs() {
    return utimeNs;
  }

  /** System time consumed, ns (ru_stime). */
  public long stimeNs() {
    return stimeNs;
  }

  /** Voluntary context switches (ru_nvcsw): the task blocked. */
  public long nvcsw() {
    return nvcsw;
  }

  /** Involuntary context switches (ru_nivcsw): the task was preempted while runnable. */
  public long nivcsw() {
    return nivcsw;
  }

  /**
   * {@code sched_info.run_delay} (the second field of {@code /proc/<tid>/schedstat}): time spent
   * runnable but waiting on the run queue, ns, up to its last switch-in.
   */
  public long runDelayNs() {
    return runDelayNs;
  }

  /** {@code sched_info.pcount}: times the task was switched in (its timeslices). */
  public long pcount() {
    return pcount;
  }

  /** {@code se.nr_migrations}: times the task moved to another CPU. */
  public long migrations() {
    return migrations;
  }

  /** The task's scheduler statistics now, as {@code /proc/<tid>/stat} and schedstat show them. */
  public TaskStat stat() {
    java.util.List<LockWaitStat> locks = new java.util.ArrayList<>();
    if (lockWaits != null) {
      lockWaits.values().forEach(a -> locks.add(a.snapshot()));
    }
    return new TaskStat(pid, comm, nice, utimeNs, stimeNs, nvcsw, nivcsw, runDelayNs, pcount,
        migrations, psState(), wchan == null ? "" : wchan, locks);
  }

  /** {@code se.vruntime}: virtual runtime, ns, as last charged. */
  public long vruntimeNs() {
    return se.vruntime;
  }

  /**
   * {@code se.sum_exec_runtime}: real time on the CPU, ns, as last charged (includes switch-in
   * and interrupt time, as the kernel's does without {@code CONFIG_IRQ_TIME_ACCOUNTING}).
   */
  public long sumExecRuntimeNs() {
    return se.sumExecRuntime;
  }
}
