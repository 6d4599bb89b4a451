package blksim.kernel.iouring;

import blksim.kernel.block.BlockQueue;
import blksim.kernel.sched.CpuComponent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The io-wq of one io_uring task context: its bounded work list and worker threads
 * ({@code io_uring/io-wq.c}, kernel-model.md §6.3).
 *
 * <p>Enqueue appends the work, then wakes a free (idle) worker if there is one
 * ({@code io_wq_activate_free_worker()}); if none is free, a new worker is created only when no
 * worker of the class is running ({@code nr_running == 0}) and the class is below its limit
 * ({@code io_wq_create_worker()}). Free workers sit on a LIFO list; a new worker joins it at once
 * ({@code io_init_new_worker()}) and leaves it when it takes work ({@code __io_worker_busy()}).
 * Whenever the class's running count drops to zero while work is pending, because a worker
 * blocked or went idle, another worker is created if the class is below its limit
 * ({@code io_wq_dec_running()} → {@code create_worker_cb()}). A worker that sleeps idle for the
 * idle timeout exits unless it is the class's last worker ({@code io_wq_worker()}'s
 * {@code last_timeout}).
 *
 * <p>Simplified: only the bounded class (block I/O) is modelled (the unbounded class serves
 * non-block files, which no workload here uses); workers are created on the CPU the io-wq was
 * set up on and, like the submitter, move within the LLC only if the scenario lets unbound
 * threads migrate ({@code kernel.wake-placement}); the creation that the
 * kernel queues as task_work on the submitter happens at once here, with the creation delay.
 * Owned by the submitting task's {@link CpuComponent}.
 */
public final class IoWq {
  private final CpuComponent cpu;
  private final BlockQueue queue;
  private final CompletionRing ring;
  private final IoUringParams params;
  private final String ownerName;
  private final int ownerTid;
  private final boolean unbound;
  private final int maxWorkers;
  private final ArrayDeque<IoRequest> work = new ArrayDeque<>();
  private final ArrayDeque<IoWqWorker> free = new ArrayDeque<>();
  private final List<IoWqWorker> workers = new ArrayList<>();
  private int nrRunning;
  private long workersCreated;
  private long workersExited;

  /**
   * @param ownerTid thread id of the submitting task (workers are named {@code iou-wrk-<tid>})
   * @param maxWorkers the bounded class's limit, min(SQ entries, 4 × online CPUs)
   * @param unbound whether the workers, like the submitter, may move within their LLC
   */
  public IoWq(CpuComponent cpu, BlockQueue queue, CompletionRing ring, IoUringParams params,
      int ownerTid, int maxWorkers, boolean unbound) {
    if (maxWorkers < 1) {
      throw new IllegalArgumentException("maxWorkers must be >= 1, was " + maxWorkers);
    }
    this.cpu = cpu;
    this.queue = queue;
    this.ring = ring;
    this.params = params;
    this.ownerName = "iou-wrk-" + ownerTid;
    this.ownerTid = ownerTid;
    this.unbound = unbound;
    this.maxWorkers = maxWorkers;
  }

  /** The bounded limit for an io_uring with {@code sqEntries} SQ entries on {@code cpus} CPUs. */
  public static int boundedMax(int sqEntries, int cpus) {
    return Math.min(sqEntries, 4 * cpus);
  }

  /** Queues a punted request (mirrors {@code io_wq_enqueue()}). */
  public void enqueue(IoRequest req) {
    work.add(req);
    if (activateFreeWorker()) {
      return;
    }
    if (nrRunning == 0 && workers.size() < maxWorkers) {
      createWorker();
    }
  }

  private boolean activateFreeWorker() {
    IoWqWorker w = free.peek();
    if (w == null) {
      return false;
    }
    cpu.wakeUp(w);
    return true;
  }

  private void createWorker() {
    IoWqWorker w = new IoWqWorker(this, ownerName, ownerTid * 1000 + (int) workersCreated + 1);
    w.setUnbound(unbound);
    workers.add(w);
    workersCreated++;
    nrRunning++;
    free.push(w);
    cpu.spawn(w, params.workerCreateNs());
  }

  /** A worker takes the next request, leaving the free list; {@code null} if there is none. */
  IoRequest take(IoWqWorker w) {
    IoRequest r = work.poll();
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
    if (!free.contains(w) || w.state() != blksim.kernel.sched.TaskState.BLOCKED) {
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

  /** Whether a worker whose idle sleep timed out exits: not the class's last worker. */
  boolean mayExit() {
    return workers.size() > 1;
  }

  /** A worker exits ({@code io_worker_exit()}): off the lists, then one fewer running. */
  void exited(IoWqWorker w) {
    free.remove(w);
    workers.remove(w);
    workersExited++;
    decRunning();
  }

  /** A worker blocks ({@code io_wq_worker_sleeping()} → {@code io_wq_dec_running()}). */
  void workerSleeping() {
    decRunning();
  }

  /** {@code io_wq_dec_running()}: the last running worker leaves work behind: create one. */
  private void decRunning() {
    nrRunning--;
    if (nrRunning == 0 && !work.isEmpty() && workers.size() < maxWorkers) {
      createWorker();
    }
  }

  /** A worker that blocked runs again ({@code io_wq_worker_running()}). */
  void workerRunning() {
    nrRunning++;
  }

  CpuComponent cpu() {
    return cpu;
  }

  BlockQueue queue() {
    return queue;
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

  /** Requests waiting for a worker. */
  public int pending() {
    return work.size();
  }
}
