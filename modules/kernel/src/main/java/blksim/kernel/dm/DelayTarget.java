package blksim.kernel.dm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.Task;
import blksim.kernel.timer.HrtimerSleep;
import blksim.kernel.timer.TimerBase;
import blksim.kernel.timer.TimerList;
import blksim.kernel.timer.TimerParams;
import blksim.kernel.workqueue.WorkFn;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * dm-delay on one CPU ({@code drivers/md/dm-delay.c}, kernel-model.md §8.4): mirrors
 * {@code delay_map()}, {@code delay_bio()}, {@code flush_delayed_bios()}, and, by mode,
 * {@code flush_worker_fn()} or {@code queue_timeout()} / {@code handle_delayed_timer()} /
 * {@code flush_expired_bios()}.
 *
 * <p>Map: the clone's class is flush for a write with REQ_PREFLUSH (and an empty flush), write
 * for other writes and discards, read otherwise; it is remapped to the class's device at
 * {@code c->start + dm_target_offset()}. A class with delay 0 returns {@link DmMapio#REMAPPED}.
 * Otherwise the bio gets {@code expires = jiffies + msecs_to_jiffies(delay)}, is appended to the
 * target's one list, and the target returns {@link DmMapio#SUBMITTED} after waking its kthread
 * (kthread mode) or calling {@code queue_timeout(expires)} (timer mode).
 *
 * <p>Releasing ({@code flush_delayed_bios()}), in the releasing task's context: a walk over the
 * whole list ({@link DmCostParams#delayScanPerBioNs} per bio); the bios with
 * {@code time_after_eq(jiffies, expires)}, tested when the walk ends, leave the list in list
 * order; in timer mode the earliest {@code expires} left re-arms the timer; then each due bio is
 * resubmitted to its device ({@code dm_submit_bio_remap()}), its submission cost paid by the
 * releasing task. A device without a free tag makes the task sleep until one is freed.
 * <ul>
 *   <li>Kthread mode ({@link DelayFlushWorker}): the kthread loops while the list is not
 *       empty, a {@code cond_resched()} (or, in the {@link DelayVersion#FSLEEP} revision,
 *       {@code fsleep(worker_sleep_us)}) between passes; a pass costs
 *       {@link DmCostParams#delayPollNs} plus the walk. A bio is therefore released on the first
 *       pass that ends at or after the start of its jiffy: d jiffies at QD 1.</li>
 *   <li>Timer mode: one timer; {@code queue_timeout()} calls {@code mod_timer()} only if it is
 *       not pending or the new expiry is earlier. The timer fires at the tick after
 *       {@code expires} (level 0 of the wheel, §3.3); its softirq
 *       ({@link DmCostParams#delayTimerNs}) queues the target's work item on kdelayd
 *       ({@link Kdelayd}), whose kworker runs {@code flush_expired_bios()}
 *       ({@link DmCostParams#delayWorkNs} plus the walk): d+1 jiffies at QD 1.</li>
 * </ul>
 *
 * <p>Simplified:
 * <ul>
 *   <li>The target's state (list, timer, kthread or worker) exists once per CPU: each CPU's
 *       instance delays the bios submitted on that CPU. Exact on a one-CPU machine such as
 *       thread 3's BeagleBone; on several CPUs the kernel has one list and one kthread per
 *       target.</li>
 *   <li>Suspend ({@code presuspend} flushing everything, {@code may_delay}) is not modelled;
 *       the list locks cost CPU time (in the costs above) but are never contended.</li>
 *   <li>A write with data and REQ_PREFLUSH is one bio of the flush class (see
 *       {@link DmQueue}).</li>
 * </ul>
 * Owned by the {@link DmQueue} of its CPU, with its tasks on the same CPU.
 */
public final class DelayTarget implements DmTarget {
  /** The kthread's name in kthread mode ({@code kthread_run(..., "dm-delay-flush-worker")}). */
  public static final String FLUSH_WORKER_COMM = "dm-delay-flush-worker";
  /**
   * {@code delay_target.features} lacks {@code DM_TARGET_NOWAIT}: a table with a delay target
   * never takes REQ_NOWAIT bios.
   */
  public static final boolean FEATURE_NOWAIT = false;
  /** {@code ti->num_flush_bios} set by {@code delay_ctr()}. */
  public static final int NUM_FLUSH_BIOS = 1;
  /** The label the kernel threads of this model get as their pid. */
  public static final int WORKER_PID = 0;

  private final DmTableEntry entry;
  private final DmTargetArgs.Delay args;
  private final DelayClass read;
  private final DelayClass write;
  private final DelayClass flush;
  private final DelayMode mode;
  private final DelayVersion version;
  private final CpuComponent cpu;
  private final DmCostParams costs;
  private final long pollBatchNs;
  private final String device;
  /** {@code dc->delayed_bios}, in arrival order. */
  private final List<DelayedBio> delayed = new ArrayList<>();
  private final TimerBase timerBase;
  private final TimerParams timerParams;
  /** {@code dc->delay_timer} (timer mode). */
  private final TimerList timer;
  private final DelayFlushWorker worker;
  /** {@code queue_work(dc->kdelayd_wq, &dc->flush_expired_bios)} (timer mode). */
  private final Runnable queueWork;
  private DelayKworker standaloneWorker;
  private long released;
  private long workRuns;

  /**
   * Builds the target on {@code cpu}: in kthread mode its kthread, added to {@code cpu} (before
   * the run starts: the target exists before the workload does); in timer mode its timer and its
   * work item, bound to kdelayd by {@code kdelayd}.
   *
   * @param entry the table line
   * @param args its delay arguments
   * @param readDev the read class's device queue on {@code cpu}
   * @param writeDev the write class's
   * @param flushDev the flush class's
   * @param md the mapped device's parameters (name, costs, dm-delay version)
   * @param cpu the CPU
   * @param timers the machine's timer parameters (HZ, softirq latency)
   * @param kdelayd where the timer-mode work item runs
   */
  DelayTarget(DmTableEntry entry, DmTargetArgs.Delay args, BlockQueue readDev,
      BlockQueue writeDev, BlockQueue flushDev, DmParams md, CpuComponent cpu,
      TimerParams timers, Kdelayd kdelayd) {
    this.entry = entry;
    this.args = args;
    this.read = new DelayClass("read", readDev, args.read().offsetSectors(),
        args.read().delayMs());
    this.write = new DelayClass("write", writeDev, args.write().offsetSectors(),
        args.write().delayMs());
    this.flush = new DelayClass("flush", flushDev, args.flush().offsetSectors(),
        args.flush().delayMs());
    this.version = md.delayVersion();
    this.mode = version.mode(args.maxDelayMs());
    this.cpu = cpu;
    this.costs = md.costs();
    this.pollBatchNs = md.pollBatchNs();
    this.device = md.name();
    this.timerParams = timers;
    this.timerBase = TimerBase.onCpu(cpu, timers);
    // timer_setup(&dc->delay_timer, handle_delayed_timer, 0): the callback runs in the timer
    // softirq; handle_delayed_timer()'s own work is charged as more interrupt time.
    this.timer = new TimerList(timerBase,
        () -> cpu.interrupt(costs.delayTimerNs(), this::handleDelayedTimer));
    if (mode == DelayMode.KTHREAD) {
      this.worker = new DelayFlushWorker(this);
      this.queueWork = null;
      cpu.spawn(worker);
    } else {
      this.worker = null;
      this.queueWork = kdelayd.bind(this);
    }
  }

  @Override
  public DmTableEntry entry() {
    return entry;
  }

  /** The parsed arguments. */
  public DmTargetArgs.Delay args() {
    return args;
  }

  @Override
  public List<BlockQueue> devices() {
    LinkedHashSet<BlockQueue> s = new LinkedHashSet<>();
    s.add(read.dev());
    s.add(write.dev());
    s.add(flush.dev());
    return List.copyOf(s);
  }

  /** dm-delay is not nowait-capable: see {@link #FEATURE_NOWAIT}. */
  @Override
  public boolean supportsNowait() {
    return FEATURE_NOWAIT;
  }

  @Override
  public int numFlushBios() {
    return NUM_FLUSH_BIOS;
  }

  /** The mode the version's rule chose for this target's delays. */
  public DelayMode mode() {
    return mode;
  }

  /** The read class. */
  public DelayClass readClass() {
    return read;
  }

  /** The write class. */
  public DelayClass writeClass() {
    return write;
  }

  /** The flush class. */
  public DelayClass flushClass() {
    return flush;
  }

  /** Bios now delayed ({@code dc->delayed_bios}). */
  public int delayedCount() {
    return delayed.size();
  }

  /** Bios released (resubmitted) so far. */
  public long released() {
    return released;
  }

  /**
   * The kthread (kthread mode), or the target's own kdelayd worker (timer mode with
   * {@link Kdelayd#STANDALONE}); {@code null} when a workqueue system runs the work.
   */
  public Task worker() {
    return mode == DelayMode.KTHREAD ? worker : standaloneWorker;
  }

  /** Runs of the timer-mode work item so far. */
  public long workRuns() {
    return workRuns;
  }

  void setStandaloneWorker(DelayKworker w) {
    this.standaloneWorker = w;
  }

  /**
   * {@code flush_expired_bios()}, the timer-mode work function: one
   * {@code flush_delayed_bios(dc, false)}, its walk costing {@link DmCostParams#delayWorkNs} plus
   * the scan, run by a kworker of the workqueue model.
   */
  WorkFn flushExpiredBios() {
    return () -> {
      FlushDelayedBios run = beginWork();
      return w -> {
        if (!run.step(FlushActions.of(w))) {
          w.finish();
        }
      };
    };
  }

  /** One run of the work item begins. */
  FlushDelayedBios beginWork() {
    workRuns++;
    return FlushDelayedBios.withWalk(this, costs.delayWorkNs());
  }

  /** The target's timer ({@code dc->delay_timer}; armed in timer mode only). */
  public TimerList timer() {
    return timer;
  }

  /** The class {@code delay_map()} picks for {@code bio}. */
  public DelayClass classOf(Bio bio) {
    boolean writeDir = bio.op() == ReqOp.WRITE || bio.op() == ReqOp.DISCARD;
    if (bio.op() == ReqOp.FLUSH || (writeDir && bio.hasFlag(Bio.REQ_PREFLUSH))) {
      return flush;
    }
    return writeDir ? write : read;
  }

  private long mapSector(DelayClass c, Bio clone) {
    if (DmTarget.isEmptyFlush(clone)) {
      return clone.sector();
    }
    return c.startSectors() + (clone.sector() - entry.beginSectors());
  }

  /**
   * {@link DmCostParams#delayMapNs}, plus, for a class with delay 0, the clone's submission to
   * its device.
   */
  @Override
  public long mapCostNs(Bio clone) {
    DelayClass c = classOf(clone);
    long ns = costs.delayMapNs();
    if (c.delayMs() == 0) {
      ns += c.dev().submitCostNs(new Bio(clone.op(), mapSector(c, clone), clone.sizeBytes(),
          clone.flags()));
    }
    return ns;
  }

  /** {@code delay_map()} then {@code delay_bio()}. */
  @Override
  public DmMapio map(DmTargetIo tio) {
    DelayClass c = classOf(tio.bio());
    tio.remap(c.dev(), mapSector(c, tio.bio()));
    if (c.delayMs() == 0) {
      return DmMapio.REMAPPED;
    }
    long expires = timerBase.jiffies() + timerBase.clock().msecsToJiffies(c.delayMs());
    c.ops++;
    delayed.add(new DelayedBio(tio, c, expires));
    if (mode == DelayMode.KTHREAD) {
      cpu.wake(worker);
    } else {
      queueTimeout(expires);
    }
    return DmMapio.SUBMITTED;
  }

  /**
   * {@code queue_timeout()} (later {@code timer_reduce()}): arms the timer for {@code expires}
   * unless it is pending for an earlier jiffy.
   */
  private void queueTimeout(long expires) {
    timer.timerReduce(expires);
  }

  /** {@code handle_delayed_timer()}, in the timer softirq: queue the work on kdelayd. */
  private void handleDelayedTimer() {
    queueWork.run();
  }

  /** The CPU time of one walk over the list, plus {@code baseNs}. */
  long walkNs(long baseNs) {
    return baseNs + delayed.size() * costs.delayScanPerBioNs();
  }

  /**
   * How many passes of the kthread's busy poll to model as one burst of {@code passNs} each:
   * 1 if {@link DmParams#pollBatchNs} is 0 or a bio is due; otherwise as many as fit in it but no
   * more than end before the start of the earliest bio's jiffy, plus the pass that ends at or
   * after it.
   */
  long batchPasses(long passNs) {
    if (pollBatchNs == 0 || delayed.isEmpty()) {
      return 1;
    }
    long earliest = Long.MAX_VALUE;
    for (DelayedBio d : delayed) {
      earliest = Math.min(earliest, d.expires());
    }
    long dueAt = timerBase.clock().tickTimeNs(earliest);
    long now = cpu.now();
    if (dueAt <= now) {
      return 1;
    }
    long toDue = (dueAt - now + passNs - 1) / passNs;
    return Math.max(1, Math.min(toDue, pollBatchNs / passNs));
  }

  /**
   * The end of the walk of {@code flush_delayed_bios(dc, false)}: takes the due bios off the
   * list, in list order, and in timer mode re-arms the timer for the earliest left.
   */
  List<DelayedBio> takeDue() {
    long now = timerBase.jiffies();
    List<DelayedBio> due = new ArrayList<>();
    List<DelayedBio> keep = new ArrayList<>();
    long next = Long.MAX_VALUE;
    for (DelayedBio d : delayed) {
      if (now >= d.expires()) {
        d.delayClass().ops--;
        due.add(d);
      } else {
        keep.add(d);
        next = Math.min(next, d.expires());
      }
    }
    delayed.clear();
    delayed.addAll(keep);
    if (mode == DelayMode.TIMER && !keep.isEmpty()) {
      queueTimeout(next);
    }
    return due;
  }

  /** One more bio was resubmitted. */
  void countReleased() {
    released++;
  }

  /** Whether any bio is delayed ({@code !list_empty(&dc->delayed_bios)}). */
  boolean hasDelayed() {
    return !delayed.isEmpty();
  }

  /** The fsleep revision's {@code dc->worker_sleep_us}. */
  long workerSleepUs() {
    return DelayVersion.workerSleepUs(args.minNonZeroDelayMs());
  }

  /** A sleeper for the kthread's {@code fsleep()}, on this machine's timers. */
  HrtimerSleep newSleeper() {
    return new HrtimerSleep(timerParams);
  }

  DmCostParams costs() {
    return costs;
  }

  DelayVersion version() {
    return version;
  }

  CpuComponent cpu() {
    return cpu;
  }

  String device() {
    return device;
  }
}
