package blksim.kernel.iouring;

import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SystemCall;

/**
 * The waiting half of an asynchronous system call: {@code io_uring_enter(0, min_complete,
 * IORING_ENTER_GETEVENTS)} ({@code io_cqring_wait()}) or libaio's {@code io_getevents(min_nr)}
 * ({@code read_events()}). One entry cost; if fewer than {@code min} completions are in the ring
 * the task sleeps on the ring's wait queue until a posting brings them, then pays the return
 * cost. The completions are then reaped from the ring ({@link CompletionRing#reap}), which for
 * io_uring is user space reading the mapped CQ ring. For io_uring, completion task work queued
 * on the ring (requests completed by io-wq workers, {@link CompletionRing#addTaskWork}) is run
 * first and after every wakeup, posting one CQE each ({@code io_cqring_wait()} →
 * {@code io_run_local_work()}); the task sleeps again if that still leaves fewer than
 * {@code min}.
 *
 * <p>For libaio ({@code reenterAfterWake}) a call that slept enters again after the return cost
 * before it finds its events: one more entry cost per sleeping wait than the kernel's
 * {@code read_events()}, which collects right after the wakeup. Kept as the model had it when
 * the system-call layer was split out (its dm-delay figures were fitted with it); to be revisited
 * with the request layer.
 *
 * <p>A ring set up with IORING_SETUP_IOPOLL ({@link CompletionRing#iopoll()}, fio's
 * {@code hipri}) never sleeps here: {@code io_iopoll_check()} loops over
 * {@code io_do_iopoll()}, whose pass polls the queues of the ring's REQ_POLLED bios
 * ({@code bio_poll()}: a driver with poll queues completes what it has done, in this task, with
 * no interrupt) and posts the CQEs of every request found done, also those an interrupt
 * completed (a device without poll queues: {@code io_complete_rw_iopoll()} only marks them).
 * Each pass that finds something costs {@link IoUringParams#iopollNs} plus
 * {@link IoUringParams#cqePostNs} per CQE; while nothing is done the task spins on its CPU in
 * system time ({@link TaskCpu#spin}: no context switch, no wakeup) until a completion ends the
 * spin, then makes the pass that finds it. The call returns once {@code min} CQEs are ready,
 * with no wakeup cost. Simplified: the passes that find nothing are one spin (their time is
 * charged, their count is not modelled); a need-resched ends the spin and the task gives way
 * with {@code cond_resched()} and polls again (the kernel returns to user space, where fio
 * enters again); io-wq's completions are task work as without IOPOLL.
 *
 * <p>{@link #armPoll}: fio's getevents at {@code min} 0 while it polls a replay's delay away
 * ({@code iolog_delay()}), calls in a loop that never sleep: io_uring's
 * {@code fio_ioring_getevents()} (fio-3.41 and later) enters with {@code min_complete} 0 again
 * and again, each entry running the task work, until a CQE is there; libaio's
 * {@code io_getevents()} with a zero timeout returns at once, and fio's loop calls it until the
 * delay has passed. Both are modelled as one entry, then a spin in system time until a posting
 * ends it (or the deadline); simplified as the IOPOLL spin is (the calls' count is not
 * modelled, their time is charged as system time). An IOPOLL ring polls as above.
 */
public final class WaitCall extends SystemCall {
  private static final int ENTER = 0;
  private static final int CHECK = 1;
  private static final int WOKEN = 2;
  private static final int RETURN = 3;
  private static final int POLL = 4;
  private static final int POLLED = 5;
  private static final int SPUN = 6;
  private static final int POLL_CHECK = 7;
  private static final int POLL_SPUN = 8;

  private final Task task;
  private final CompletionRing ring;
  private final IoUringParams costs;
  private final long wakeReturnNs;
  private final boolean reenterAfterWake;
  private int phase;
  private int min;
  private boolean wokeUp;
  /** {@link #armPoll}'s deadline ({@code Long.MAX_VALUE}: none), or -1 for a waiting call. */
  private long pollDeadlineNs = -1;

  /**
   * @param wakeReturnNs the return cost after a wakeup
   * @param reenterAfterWake libaio's extra entry after a wakeup (class comment)
   */
  public WaitCall(Task task, CompletionRing ring, IoUringParams costs, long wakeReturnNs,
      boolean reenterAfterWake) {
    this.task = task;
    this.ring = ring;
    this.costs = costs;
    this.wakeReturnNs = wakeReturnNs;
    this.reenterAfterWake = reenterAfterWake;
  }

  /** Arms the call to wait for {@code minComplete} completions; returns it. */
  public WaitCall arm(int minComplete) {
    min = minComplete;
    wokeUp = false;
    pollDeadlineNs = -1;
    phase = ENTER;
    return this;
  }

  /**
   * Arms the call as fio's polling getevents at {@code min} 0 (class comment): it spins until a
   * completion is ready, or until {@code deadlineNs} ({@code Long.MAX_VALUE}: none), and returns
   * what is ready then (possibly nothing). Returns it.
   */
  public WaitCall armPoll(long deadlineNs) {
    min = 1;
    wokeUp = false;
    pollDeadlineNs = deadlineNs;
    phase = ENTER;
    return this;
  }

  /**
   * Whether the call returned straight after a wakeup (io_uring), rather than after finding
   * enough completions on a check.
   */
  public boolean wokeUp() {
    return wokeUp;
  }

  @Override
  public boolean step(TaskCpu cpu) {
    while (true) {
      switch (phase) {
        case ENTER:
          phase = CHECK;
          cpu.runFor(CpuMode.SYSTEM, costs.enterNs());
          return false;
        case CHECK:
          if (ring.iopoll()) {
            phase = POLL;
            continue;
          }
          if (pollDeadlineNs >= 0) {
            phase = POLL_CHECK;
            continue;
          }
          if (runTaskWork(cpu)) {
            return false;
          }
          if (ring.prepareWait(min)) {
            phase = WOKEN;
            cpu.sleep();
            return false;
          }
          if (ring.taskWorkPending() > 0 || ring.reissuesPending() > 0) {
            continue;
          }
          return returned(ring.ready());
        case WOKEN:
          // io_cqring_wait()'s loop: run the task work that woke us, then io_should_wake().
          if (runTaskWork(cpu)) {
            return false;
          }
          if (!reenterAfterWake && ring.ready() < min) {
            if (ring.prepareWait(min)) {
              cpu.sleep();
              return false;
            }
            continue;
          }
          phase = reenterAfterWake ? ENTER : RETURN;
          cpu.runFor(CpuMode.SYSTEM, wakeReturnNs);
          return false;
        case RETURN:
          wokeUp = true;
          return returned(ring.ready());
        case POLL: {
          // io_iopoll_check() -> io_do_iopoll(): one pass.
          int found = ring.pollQueues(cpu.cpu());
          int posted = ring.postPolled();
          int work = ring.runTaskWork(cpu.cpu());
          if (found + posted + work > 0) {
            phase = POLLED;
            cpu.runFor(CpuMode.SYSTEM, costs.iopollNs() + (posted + work) * costs.cqePostNs()
                + ring.transferNs());
            return false;
          }
          if (ring.ready() >= min) {
            return returned(ring.ready());
          }
          if (cpu.needResched()) {
            cpu.condResched();
            return false;
          }
          phase = SPUN;
          ring.ownerSpinning(true);
          cpu.spin();
          return false;
        }
        case POLLED:
          if (ring.ready() >= min) {
            return returned(ring.ready());
          }
          phase = POLL;
          continue;
        case SPUN:
          ring.ownerSpinning(false);
          phase = POLL;
          continue;
        case POLL_CHECK: {
          if (runTaskWork(cpu)) {
            return false;
          }
          if (ring.ready() >= 1) {
            return returned(ring.ready());
          }
          if (ring.taskWorkPending() > 0 || ring.reissuesPending() > 0) {
            continue;
          }
          long now = cpu.now();
          if (now >= pollDeadlineNs) {
            return returned(0);
          }
          if (cpu.needResched()) {
            cpu.condResched();
            return false;
          }
          phase = POLL_SPUN;
          ring.ownerSpinning(true);
          cpu.spin();
          if (pollDeadlineNs != Long.MAX_VALUE) {
            cpu.cpu().stopSpin(task, pollDeadlineNs - now);
          }
          return false;
        }
        case POLL_SPUN:
          ring.ownerSpinning(false);
          phase = POLL_CHECK;
          continue;
        default:
          throw new IllegalStateException(task.comm() + ": wait in phase " + phase);
      }
    }
  }

  /**
   * Runs the completion task work queued on the ring ({@code io_run_local_work()} at the start
   * of {@code io_cqring_wait()} and after each wakeup): one CQE post per request. True when an
   * action was taken.
   */
  private boolean runTaskWork(TaskCpu cpu) {
    if (ring.runReissues(cpu)) {
      return true; // buffered reads woken by their page (BufferedSqe)
    }
    int n = ring.runTaskWork(cpu.cpu());
    if (n == 0) {
      return false;
    }
    cpu.runFor(CpuMode.SYSTEM, n * costs.cqePostNs() + ring.transferNs());
    return true;
  }
}
