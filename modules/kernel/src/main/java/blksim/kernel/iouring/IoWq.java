package blksim.kernel.iouring;

import blksim.kernel.block.BlockQueue;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.TaskState;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The io-wq of one io_uring task context: its two accounting classes, their work lists, and the
 * worker threads (io_uring/io-wq.c of Linux 6.4, kernel-model.md §6.3).
 *
 * <p>Work is <em>bounded</em> (block and regular-file I/O, whose execution time is bounded) or
 * <em>unbounded</em> (I/O that may wait for ever: sockets, pipes); each class ({@code struct
 * io_wq_acct}) has its own work list, running count and worker limit: bounded
 * min(SQ entries, 4 × online CPUs), unbounded RLIMIT_NPROC. A worker serves one class.
 *
 * <p>Enqueue ({@code io_wq_enqueue()}) appends the work to its class, then walks the free list
 * from its head for a worker of the class that {@code wake_up_process()} actually wakes
 * ({@code io_wq_activate_free_worker()}: a worker woken earlier that has not run yet is skipped;
 * the gate on the wakeup's result was removed in August 2023, after 6.4). If none was activated,
 * no worker of the class is running ({@code nr_running == 0}) and the class is below its limit, a
 * worker is created synchronously in the caller's context ({@code io_wq_create_worker()} →
 * {@code create_io_worker()}), which the caller pays for ({@link #enqueue(IoRequest, WorkClass)}).
 * {@code nr_running} counts workers that are running in the scheduler's sense: it rises when a
 * worker is created and when a worker that blocked is scheduled in again
 * ({@code io_wq_worker_running()} from {@code sched_update_worker()}), not when it is woken, and
 * falls when a worker blocks ({@code io_wq_worker_sleeping()} from {@code sched_submit_work()})
 * or exits. Free workers of both classes sit on one LIFO list; a new worker joins its head at once
 * ({@code io_init_new_worker()}), a worker that runs out of work rejoins the head
 * ({@code __io_worker_idle()}) and leaves it when it takes work ({@code __io_worker_busy()}).
 * A worker drains its class's list before it sleeps ({@code io_wq_worker()}'s
 * {@code while (io_acct_run_queue())}). Whenever a class's running count drops to zero while it
 * has work pending, because a worker blocked or exited, another worker of the class is created if
 * the class is below its limit ({@code io_wq_dec_running()} → {@code create_worker_cb()}). A
 * worker that sleeps idle for the idle timeout (5 s) exits unless it is its class's last worker
 * ({@code io_wq_worker()}'s {@code last_timeout}).
 *
 * <p>Simplified: no hashed work (serialised buffered writes to one inode) and no linked
 * requests; workers are created on the CPU the io-wq was set up on and, like the submitter,
 * move within the LLC only if the scenario lets unbound threads migrate
 * ({@code kernel.wake-placement}); the creation that {@code io_wq_dec_running()} queues as
 * task_work on the submitter ({@code TWA_SIGNAL}) happens at once here, after the creation time,
 * and is charged to no task (it is rare: a worker blocks with work pending). Owned by the
 * submitting task's {@link CpuComponent}.
 */
public final class IoWq {
  /** An accounting class ({@code IO_WQ_ACCT_BOUND} / {@code IO_WQ_ACCT_UNBOUND}). */
  public enum WorkClass {
    /** Block and regular-file I/O. */
    BOUNDED,
    /** I/O that may block indefinitely ({@code IO_WQ_WORK_UNBOUND}). */
    UNBOUNDED
  }

  /** {@code struct io_wq_acct}. */
  private static final class Acct {
    final WorkClass kind;
    final int maxWorkers;
    final ArrayDeque<IoRequest> work = new ArrayDeque<>();
    int nrWorkers;
    int nrRunning;

    Acct(WorkClass kind, int maxWorkers) {
      this.kind = kind;
      this.maxWorkers = maxWorkers;
    }
  }

  private final CpuComponent cpu;
  private final IntFunction<BlockQueue> queues;
  private blksim.kernel.syscall.SyscallParams direct;
  private final CompletionRing ring;
  private final IoUringParams params;
  private final String ownerName;
  private final int ownerTid;
  private final boolean workersMayMove;
  private final Acct bounded;
  private final Acct unbounded;
  private final ArrayDeque<IoWqWorker> free = new ArrayDeque<>();
  private final List<IoWqWorker> workers = new ArrayList<>();
  private long workersCreated;
  private long workersExited;

  /**
   * @param queues the device's queue on each CPU, by CPU id (a worker submits on its own CPU's)
   * @param ownerTid thread id of the submitting task (workers are named {@code iou-wrk-<tid>})
   * @param maxBounded the bounded class's limit, min(SQ entries, 4 × online CPUs)
   * @param maxUnbounded the unbounded class's limit (RLIMIT_NPROC)
   * @param workersMayMove whether the workers, like the submitter, may move within their LLC
   */
  public IoWq(CpuComponent cpu, IntFunction<BlockQueue> queues, CompletionRing ring,
      IoUringParams params, int ownerTid, int maxBounded, int maxUnbounded,
      boolean workersMayMove) {
    if (maxBounded < 1 || maxUnbounded < 1) {
      throw new IllegalArgumentException("worker limits must be >= 1, were " + maxBounded
          + " and " + maxUnbounded);
    }
    this.cpu = cpu;
    this.queues = queues;
    this.ring = ring;
    this.params = params;
    this.ownerName = "iou-wrk-" + ownerTid;
    this.ownerTid = ownerTid;
    this.workersMayMove = workersMayMove;
    this.bounded = new Acct(WorkClass.BOUNDED, maxBounded);
    this.unbounded = new Acct(WorkClass.UNBOUNDED, maxUnbounded);
  }

  /**
   * The O_DIRECT per-page costs a worker pays for each request it issues (the user buffer pinned
   * again in blocking mode), {@code null} (the default) for a file opened without O_DIRECT.
   */
  public void direct(blksim.kernel.syscall.SyscallParams costs) {
    this.direct = costs;
  }

  /**
   * The ring's file when it was opened without O_DIRECT (null, the default, otherwise): each
   * worker then runs the blocking buffered read or write through its own view of it
   * ({@link blksim.kernel.fs.BlockDeviceFile#forTask}) instead of issuing a bio.
   */
  public void buffered(blksim.kernel.fs.BlockDeviceFile file) {
    this.bufferedFile = file;
  }

  private blksim.kernel.fs.BlockDeviceFile bufferedFile;

  /** The O_DIRECT per-page cost of issuing {@code bio} from a worker. */
  long dioPagesNs(blksim.kernel.block.Bio bio) {
    return SubmitCall.dioPagesNs(direct, bio);
  }

  /** The bounded limit for an io_uring with {@code sqEntries} SQ entries on {@code cpus} CPUs. */
  public static int boundedMax(int sqEntries, int cpus) {
    return Math.min(sqEntries, 4 * cpus);
  }

  private Acct acct(WorkClass c) {
    return c == WorkClass.BOUNDED ? bounded : unbounded;
  }

  /**
   * Queues a punted block request, bounded work (mirrors {@code io_wq_enqueue()}); returns the
   * CPU time the caller must spend now, see {@link #enqueue(IoRequest, WorkClass)}.
   */
  public long enqueue(IoRequest req) {
    return enqueue(req, WorkClass.BOUNDED);
  }

  /**
   * Queues a punted request of class {@code c} (mirrors 6.4's {@code io_wq_enqueue()}): the work
   * is appended to its class's list, then a free worker of the class is activated; if none was,
   * no worker of the class is running and the class is below its limit, a worker is created
   * synchronously, in the caller's context ({@code io_wq_create_worker()} →
   * {@code create_io_worker()} → {@code create_io_thread()}).
   *
   * <p>Returns the CPU time of that creation, {@link IoUringParams#workerCreateNs()}, or 0 if
   * nothing was created: the caller (the submitter's {@code io_uring_enter()}) must run it as
   * system time at once. The new worker joins the head of the free list and becomes runnable when
   * that time has passed ({@code io_init_new_worker()} → {@code wake_up_new_task()}).
   */
  public long enqueue(IoRequest req, WorkClass c) {
    Acct a = acct(c);
    a.work.add(req);
    if (activateFreeWorker(a)) {
      return 0;
    }
    if (a.nrRunning == 0 && a.nrWorkers < a.maxWorkers) {
      // io_wq_create_worker(): both counts rise before the thread exists.
      createWorker(a);
      return params.workerCreateNs();
    }
    return 0;
  }

  /**
   * {@code io_wq_activate_free_worker()} of 6.4 (io_uring/io-wq.c, before the August 2023 change
   * that stopped gating on the wakeup's result): walks the free list from its head and counts a
   * worker of the class as activated only if {@code wake_up_process()} actually woke it. A free
   * worker that was woken but has not run yet (runnable, still on the free list because it has
   * not taken work) is skipped, and so is one not yet started.
   */
  private boolean activateFreeWorker(Acct a) {
    for (IoWqWorker w : free) {
      if (w.workClass() == a.kind && cpu.wakeUpProcess(w)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code create_io_worker()} with the counts already raised: the worker goes on the head of
   * the free list and is runnable after the creation time.
   */
  private void createWorker(Acct a) {
    IoWqWorker w = new IoWqWorker(this, ownerName, ownerTid * 1000 + (int) workersCreated + 1,
        a.kind);
    w.setUnbound(workersMayMove);
    if (bufferedFile != null) {
      w.buffered(bufferedFile.forTask(w));
    }
    workers.add(w);
    workersCreated++;
    a.nrWorkers++;
    a.nrRunning++;
    free.push(w);
    cpu.spawn(w, params.workerCreateNs());
  }

  /** A worker takes its class's next request, leaving the free list; {@code null} if none. */
  IoRequest take(IoWqWorker w) {
    IoRequest r = acct(w.workClass()).work.poll();
    if (r != null) {
      free.remove(w);
    }
    return r;
  }

  /** A worker found no work and goes idle ({@code __io_worker_idle()}). */
  void idle(IoWqWorker w) {
    if (!free.contains(w)) {
      free.push(w);
    }
    w.idleSinceNs = cpu.now();
    long timeout = params.workerIdleTimeoutNs();
    if (timeout > 0 && !w.idleTimerArmed) {
      w.idleTimerArmed = true;
      cpu.callAfter(timeout, () -> idleTimer(w));
    }
  }

  /**
   * The worker's {@code schedule_timeout(WORKER_IDLE_TIMEOUT)} expiring. One timer per worker
   * stands for the kernel's one per sleep: it fires at the end of the first idle sleep that
   * could have timed out and re-arms for the sleep in progress.
   */
  private void idleTimer(IoWqWorker w) {
    w.idleTimerArmed = false;
    if (!free.contains(w) || w.state() != TaskState.BLOCKED) {
      return;
    }
    long due = w.idleSinceNs + params.workerIdleTimeoutNs();
    long now = cpu.now();
    if (now < due) {
      w.idleTimerArmed = true;
      cpu.callAfter(due - now, () -> idleTimer(w));
      return;
    }
    w.timedOut = true;
    cpu.wake(w);
  }

  /** Whether a worker whose idle sleep timed out exits: not its class's last worker. */
  boolean mayExit(IoWqWorker w) {
    return acct(w.workClass()).nrWorkers > 1;
  }

  /** A worker exits ({@code io_worker_exit()}): off the lists, then one fewer running. */
  void exited(IoWqWorker w) {
    free.remove(w);
    workers.remove(w);
    workersExited++;
    Acct a = acct(w.workClass());
    a.nrWorkers--;
    decRunning(a);
  }

  /** A worker blocks ({@code io_wq_worker_sleeping()} → {@code io_wq_dec_running()}). */
  void workerSleeping(IoWqWorker w) {
    decRunning(acct(w.workClass()));
  }

  /** {@code io_wq_dec_running()}: the last running worker leaves work behind: create one. */
  private void decRunning(Acct a) {
    a.nrRunning--;
    if (a.nrRunning == 0 && !a.work.isEmpty() && a.nrWorkers < a.maxWorkers) {
      createWorker(a);
    }
  }

  /** A worker that blocked runs again ({@code io_wq_worker_running()}). */
  void workerRunning(IoWqWorker w) {
    acct(w.workClass()).nrRunning++;
  }

  CpuComponent cpu() {
    return cpu;
  }

  /** The free list, head first (for tests). */
  List<IoWqWorker> freeList() {
    return List.copyOf(free);
  }

  /** The running count of class {@code c} ({@code acct->nr_running}). */
  public int running(WorkClass c) {
    return acct(c).nrRunning;
  }

  /** The device queue of CPU {@code c}: a worker submits on the CPU it runs on. */
  BlockQueue queue(CpuComponent c) {
    return queues.apply(c.cpu().id());
  }

  CompletionRing ring() {
    return ring;
  }

  IoUringParams params() {
    return params;
  }

  /** Workers created so far. */
  public long workersCreated() {
    return workersCreated;
  }

  /** Workers that exited after an idle timeout. */
  public long workersExited() {
    return workersExited;
  }

  /** The live workers, in creation order. */
  public List<IoWqWorker> workers() {
    return List.copyOf(workers);
  }

  /** The live workers of class {@code c}. */
  public int workers(WorkClass c) {
    return acct(c).nrWorkers;
  }

  /** Requests waiting for a worker, both classes. */
  public int pending() {
    return bounded.work.size() + unbounded.work.size();
  }
}
