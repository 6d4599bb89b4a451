package blksim.kernel.iouring;

import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.WaitQueue;
import java.util.ArrayDeque;

/**
 * A completion queue a task reaps: io_uring's CQ ring, or a libaio context's event ring. Posting a
 * completion wakes the owner if it sleeps waiting for at least {@code minComplete} of them
 * ({@code io_cqring_wait()} / {@code read_events()}): the owner waits on the ring's wait queue
 * ({@code ctx->cq_wait}) with a wake function that checks the count ({@code io_wake_function()}).
 *
 * <p>Owned by the submitting task's CPU; completions are posted inline, from its interrupts, or
 * by io-wq workers: on that CPU, or with {@code kernel.wake-placement = llc} or {@code sis} on
 * another CPU of its LLC, which the loader keeps in the same partition, so the ring is touched
 * directly.
 */
public final class CompletionRing {
  private final ArrayDeque<IoRequest> entries = new ArrayDeque<>();
  private final Task owner;
  private final CpuComponent cpu;
  private final WaitQueue cqWait = new WaitQueue();
  /** How many entries the owner waits for; read by {@link #enough}. */
  private int waitingFor;
  /** Completions queued as task work on the owner, CQEs not yet posted. */
  private final ArrayDeque<IoRequest> taskWork = new ArrayDeque<>();
  private final ArrayDeque<Integer> taskWorkResults = new ArrayDeque<>();
  /**
   * Buffered reads whose page was unlocked, to issue again as task work of the owner
   * ({@code io_async_buf_func()} → {@code io_req_task_queue()}); see {@link BufferedSqe}.
   */
  private final ArrayDeque<BufferedSqe.Reissue> reissues = new ArrayDeque<>();
  /** The call that issues them in the owner's context (set with the ring's buffered path). */
  private BufferedSqe reissuer;
  /** A re-issue is in progress in {@link #reissuer} (it slept or spent CPU time). */
  private boolean reissuing;
  /**
   * {@code io_should_wake()}, or task work queued while the owner waits: one wake condition for
   * every wait, no allocation per wait.
   */
  private final java.util.function.BooleanSupplier enough =
      () -> entries.size() >= waitingFor || !taskWork.isEmpty() || !reissues.isEmpty();

  public CompletionRing(Task owner, CpuComponent cpu) {
    this.owner = owner;
    this.cpu = cpu;
  }

  /** Posts a completion; wakes the owner if it waits and enough entries are there. */
  public void post(IoRequest req, int result) {
    req.complete(result);
    if (iopoll) {
      // io_complete_rw_iopoll(): only marks the request done; the polling owner posts its CQE.
      iopolled.add(req);
      stopSpin();
      return;
    }
    entries.add(req);
    cqWait.wakeUp(cpu);
    stopSpin(); // an owner polling with a WaitCall armed by armPoll()
  }

  // ---- IORING_SETUP_IOPOLL --------------------------------------------------------------------

  /** The ring was set up with IORING_SETUP_IOPOLL: completions wait for the owner's poll. */
  private boolean iopoll;
  /** Requests done ({@code iopoll_completed}) whose CQEs the owner's poll has not posted. */
  private final ArrayDeque<IoRequest> iopolled = new ArrayDeque<>();
  /** The queues REQ_POLLED bios went to, in first-use order ({@code bio_poll()} targets). */
  private final java.util.ArrayList<blksim.kernel.block.BlockQueue> polledQueues =
      new java.util.ArrayList<>();
  /**
   * The owner spins in {@link WaitCall}'s poll loop (IOPOLL, or a call armed by
   * {@link WaitCall#armPoll}); a completion ends the spin.
   */
  private boolean ownerSpinning;

  /** Sets the ring up with IORING_SETUP_IOPOLL (before its first request). */
  public void iopoll(boolean on) {
    iopoll = on;
  }

  /** Whether the ring polls for completions (IORING_SETUP_IOPOLL). */
  public boolean iopoll() {
    return iopoll;
  }

  /** A REQ_POLLED bio was submitted to {@code q}: the owner's poll loop polls it. */
  public void polledOn(blksim.kernel.block.BlockQueue q) {
    if (!polledQueues.contains(q)) {
      polledQueues.add(q);
      q.pollWaker(this::stopSpin);
    }
  }

  /**
   * {@code bio_poll()} of every queue with REQ_POLLED bios of this ring, by the owner on
   * {@code on}: the requests found done complete there (their CQEs wait for
   * {@link #postPolled}). Returns how many the drivers completed.
   */
  public int pollQueues(blksim.kernel.block.DriverCpu on) {
    int n = 0;
    for (int i = 0; i < polledQueues.size(); i++) {
      n += polledQueues.get(i).poll(on);
    }
    return n;
  }

  /** Posts the CQEs of the requests found done ({@code io_iopoll_complete()}); how many. */
  public int postPolled() {
    int n = 0;
    IoRequest r;
    while ((r = iopolled.poll()) != null) {
      entries.add(r);
      n++;
    }
    return n;
  }

  /** Whether the owner's poll spin is on (set by {@link WaitCall}). */
  void ownerSpinning(boolean on) {
    ownerSpinning = on;
  }

  private void stopSpin() {
    if (ownerSpinning) {
      ownerSpinning = false;
      cpu.stopSpin(owner, 0);
    }
  }

  /**
   * A request issued by an io-wq worker completed ({@code io_complete_rw()} →
   * {@code __io_req_task_work_add()}): its completion becomes task work of the owner, which posts
   * the CQE when it runs it ({@link #runTaskWork}). An owner sleeping in the wait is woken
   * ({@code io_req_local_work_add()}'s {@code wake_up_state()} under DEFER_TASKRUN,
   * {@code task_work_add()}'s notify signal otherwise); a running owner is not interrupted
   * (see {@link IoRing} for the setup flags and what is simplified).
   */
  public void addTaskWork(IoRequest req, int result) {
    taskWork.add(req);
    taskWorkResults.add(result);
    cqWait.wakeUp(cpu);
    stopSpin();
  }

  /** Gives the ring the call that re-issues its buffered reads ({@link #runReissues}). */
  void reissuer(BufferedSqe call) {
    this.reissuer = call;
  }

  /** A buffered read's page was unlocked: re-issue it as task work of the owner, woken. */
  void addReissue(BufferedSqe.Reissue r) {
    reissues.add(r);
    cqWait.wakeUp(cpu);
  }

  /** Buffered reads queued for re-issue, or being re-issued. */
  public int reissuesPending() {
    return reissues.size() + (reissuing ? 1 : 0);
  }

  /**
   * The owner runs its queued buffered-read re-issues (task work, in {@code io_uring_enter()}
   * with GETEVENTS, before the CQE posts of {@link #runTaskWork}), one after the other. Returns
   * true when an action was taken (the caller returns and steps again); false when none is left.
   */
  public boolean runReissues(blksim.kernel.sched.TaskCpu on) {
    while (true) {
      if (!reissuing) {
        BufferedSqe.Reissue r = reissues.poll();
        if (r == null) {
          return false;
        }
        reissuer.arm(r);
        reissuing = true;
      }
      if (!reissuer.step(on)) {
        return true;
      }
      reissuing = false;
    }
  }

  /** Completions queued as task work, not yet posted. */
  public int taskWorkPending() {
    return taskWork.size();
  }

  /**
   * The owner runs its queued completion task work ({@code io_run_local_work()} /
   * {@code tctx_task_work()}): each request's CQE is posted. Returns how many were; the caller
   * charges {@link IoUringParams#cqePostNs()} for each.
   */
  public int runTaskWork() {
    return runTaskWork(null);
  }

  /** Cache-line transfer time of the last {@link #runTaskWork(CpuComponent)}, ns. */
  private long lastTransferNs;

  /**
   * {@link #runTaskWork()} on CPU {@code on} (or {@code null}: no transfer costs); the time
   * spent pulling the requests' lines from the workers' cores is then {@link #transferNs()}.
   */
  public int runTaskWork(CpuComponent on) {
    int n = 0;
    lastTransferNs = 0;
    IoRequest r;
    while ((r = taskWork.poll()) != null) {
      if (on != null) {
        lastTransferNs += r.handOver(on);
      }
      r.complete(taskWorkResults.poll());
      entries.add(r);
      n++;
    }
    return n;
  }

  /** The cache-line transfer time of the last {@link #runTaskWork(CpuComponent)}, ns. */
  public long transferNs() {
    return lastTransferNs;
  }

  /** Completions ready to reap. */
  public int ready() {
    return entries.size();
  }

  /** Takes the oldest completion, or {@code null}. */
  public IoRequest reap() {
    return entries.poll();
  }

  /**
   * The owner is about to sleep until {@code min} completions are ready. Returns false, and arms
   * nothing, if they already are or if task work is pending (it is run first:
   * {@code io_cqring_wait_schedule()} does not sleep with work on the list).
   */
  public boolean prepareWait(int min) {
    if (entries.size() >= min || !taskWork.isEmpty() || !reissues.isEmpty()) {
      cqWait.finishWait(owner);
      return false;
    }
    waitingFor = min;
    cqWait.prepareToWait(owner, enough);
    return true;
  }
}
