package blksim.kernel.sched;

import blksim.engine.Component;
import blksim.engine.ComponentReport;
import blksim.engine.Context;
import blksim.engine.Locality;
import blksim.engine.Message;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.topology.Cpu;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One logical CPU: its run queue, the task it runs, the interrupts it takes, and everything
 * per-CPU that runs synchronously on it (the hardware queues of devices mapped to it).
 *
 * <p>Mirrors the per-CPU {@code struct rq} together with the CPU's interrupt context. All state
 * here is owned by this component; other per-CPU objects (device queues) live inside it and act
 * only while it handles a message.
 *
 * <p>Simplified (issue 2 scope; the full scheduler of kernel-model.md §1 replaces this): the run
 * queue is FIFO without priorities, time slices or preemption, so a task keeps the CPU until it
 * sleeps or exits; tasks never migrate; interrupt time is charged to the interrupted task, as a
 * kernel without {@code CONFIG_IRQ_TIME_ACCOUNTING} does, and delays the task's current burst.
 */
public final class CpuComponent implements Component {
  private final Cpu cpu;
  private final String id;
  private final SchedParams params;
  private final Locality locality;
  private final ArrayDeque<Task> runqueue = new ArrayDeque<>();
  private final List<Task> tasks = new ArrayList<>();
  private final TaskCpu taskCpu = new TaskCpuImpl();
  private final List<BlockQueue> queues = new ArrayList<>();

  private Context ctx;
  private Runnable[] slots = new Runnable[64];
  private int[] freeSlots = new int[64];
  private int freeTop;
  private int slotHigh;

  private Task current;
  private boolean wakePending;
  private boolean actionTaken;
  private boolean switchingIn;
  private boolean dispatchPending;
  private CpuMode stepMode;
  private long stepLenNs;
  private long stolenNs;
  private long irqBusyUntil;
  private int liveTasks;

  private long userNs;
  private long sysNs;
  private long irqNs;
  private long contextSwitches;

  private final Runnable onStepEnd = this::stepEnd;
  private final Runnable onDispatch = this::dispatch;

  /** A CPU with no tasks yet; add them with {@link #addTask} before the run starts. */
  public CpuComponent(Cpu cpu, SchedParams params) {
    this.cpu = cpu;
    this.id = "cpu/" + cpu.id();
    this.params = params;
    this.locality = new Locality(cpu.node(), cpu.llc(), cpu.id());
  }

  /** The CPU this component simulates. */
  public Cpu cpu() {
    return cpu;
  }

  /** Scheduler costs in force. */
  public SchedParams params() {
    return params;
  }

  /** Places a runnable task on this CPU; only before the run starts. */
  public void addTask(Task t) {
    if (ctx != null) {
      throw new IllegalStateException(id + ": tasks are added before the run starts");
    }
    tasks.add(t);
    runqueue.add(t);
    if (t.keepsRunAlive()) {
      liveTasks++;
    }
  }

  /** Maps a device's hardware queue to this CPU; its statistics join this CPU's report. */
  public void attach(BlockQueue q) {
    queues.add(q);
  }

  /** The tasks placed on this CPU, in order of addition. */
  public List<Task> tasks() {
    return List.copyOf(tasks);
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
    if (!runqueue.isEmpty()) {
      scheduleDispatch();
    }
  }

  @Override
  public void handle(Message message, Context ctx) {
    this.ctx = ctx;
    if (message instanceof CpuTimer t) {
      Runnable r = slots[t.slot()];
      slots[t.slot()] = null;
      freeSlots[freeTop++] = t.slot();
      r.run();
    } else {
      throw new IllegalStateException(id + ": unexpected message " + message);
    }
  }

  /** Current virtual time, ns. */
  public long now() {
    return ctx.now();
  }

  /** The engine context of the message being handled (valid only while handling). */
  public Context context() {
    return ctx;
  }

  /** Runs {@code callback} on this CPU after {@code delayNs} (an hrtimer or a local event). */
  public void callAfter(long delayNs, Runnable callback) {
    int slot;
    if (freeTop > 0) {
      slot = freeSlots[--freeTop];
    } else {
      if (slotHigh == slots.length) {
        slots = Arrays.copyOf(slots, slotHigh * 2);
        freeSlots = Arrays.copyOf(freeSlots, slotHigh * 2);
      }
      slot = slotHigh++;
    }
    slots[slot] = callback;
    ctx.schedule(delayNs, new CpuTimer(slot));
  }

  /**
   * Takes an interrupt costing {@code costNs} of CPU time, then runs {@code handler} in interrupt
   * context (it may wake tasks). A running task is delayed by the cost and charged for it; an idle
   * CPU first pays its idle-exit latency.
   */
  public void interrupt(long costNs, Runnable handler) {
    irqNs += costNs;
    long now = ctx.now();
    if (current != null) {
      stolenNs += costNs;
      current.stimeNs += costNs;
      callAfter(costNs, handler);
      return;
    }
    boolean awake = dispatchPending || irqBusyUntil > now;
    long start = Math.max(awake ? now : now + params.idleExitNs(), irqBusyUntil);
    irqBusyUntil = start + costNs;
    callAfter(irqBusyUntil - now, handler);
  }

  /**
   * Wakes {@code t} (mirrors {@code try_to_wake_up()}): a blocked task becomes runnable on this CPU;
   * waking the running task before it sleeps cancels its next sleep; waking a runnable task does
   * nothing.
   */
  public void wake(Task t) {
    if (t.state == TaskState.BLOCKED) {
      t.state = TaskState.RUNNING;
      runqueue.add(t);
      if (current == null) {
        scheduleDispatch();
      }
    } else if (t == current) {
      wakePending = true;
    }
  }

  private void scheduleDispatch() {
    if (!dispatchPending) {
      dispatchPending = true;
      callAfter(0, onDispatch);
    }
  }

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
    Task t = runqueue.poll();
    if (t == null) {
      return;
    }
    current = t;
    wakePending = false;
    contextSwitches++;
    if (params.ctxSwitchNs() > 0) {
      switchingIn = true;
      begin(CpuMode.SYSTEM, params.ctxSwitchNs());
    } else {
      callStep();
    }
  }

  private void begin(CpuMode mode, long ns) {
    stepMode = mode;
    stepLenNs = ns;
    stolenNs = 0;
    callAfter(ns, onStepEnd);
  }

  private void stepEnd() {
    if (stolenNs > 0) {
      long s = stolenNs;
      stolenNs = 0;
      callAfter(s, onStepEnd);
      return;
    }
    Task t = current;
    if (stepMode == CpuMode.USER) {
      t.utimeNs += stepLenNs;
      userNs += stepLenNs;
    } else {
      t.stimeNs += stepLenNs;
      sysNs += stepLenNs;
    }
    switchingIn = false;
    callStep();
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
    if (actionTaken) {
      throw new IllegalStateException(id + ": task " + current.comm() + " took two actions in one"
          + " step at " + ctx.now() + " ns");
    }
    actionTaken = true;
  }

  @Override
  public ComponentReport report(long endNs) {
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
    CpuReport r = new CpuReport(cpu.id(), userNs, sysNs, irqNs, contextSwitches, endNs, reports,
        disks);
    return new ComponentReport(id, CpuReport.KIND, r.encode());
  }

  /** CPU time spent in user mode, ns. */
  public long userNs() {
    return userNs;
  }

  /** CPU time spent in system mode by tasks, ns. */
  public long sysNs() {
    return sysNs;
  }

  /** CPU time spent in interrupts, ns. */
  public long irqNs() {
    return irqNs;
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
      Task t = current;
      t.state = TaskState.BLOCKED;
      t.nvcsw++;
      current = null;
      if (!runqueue.isEmpty()) {
        scheduleDispatch();
      }
    }

    @Override
    public void exit() {
      taken();
      Task t = current;
      t.state = TaskState.DEAD;
      current = null;
      if (t.keepsRunAlive() && --liveTasks == 0) {
        ctx.done();
      }
      if (!runqueue.isEmpty()) {
        scheduleDispatch();
      }
    }

    @Override
    public SplittableRandom random() {
      return ctx.random();
    }
  }
}
