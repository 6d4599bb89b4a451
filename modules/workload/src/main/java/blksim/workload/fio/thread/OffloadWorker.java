package blksim.workload.fio.thread;

import blksim.kernel.iouring.CompletionRing;
import blksim.kernel.iouring.IoRequest;
import blksim.kernel.iouring.WaitCall;
import blksim.kernel.sched.Completion;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SystemCall;
import java.util.ArrayDeque;

/**
 * One of fio's submit workers for {@code io_submit_mode=offload} (rate-submit.c,
 * workqueue.c): a thread of the job, with its own engine at depth 1
 * ({@code io_workqueue_init_worker_fn()} sets {@code iodepth = 1}), that takes the I/Os the job
 * thread hands it and, for each, queues and commits it ({@code td_io_queue()}, the engine's
 * submit system call) and then waits for its completion ({@code io_u_queued_complete(td, 1)},
 * as {@code min_evts} is 1 at depth 1). A job has {@code iodepth} workers
 * ({@code rate_submit_init()}: {@code workqueue_init(..., td->o.iodepth, ...)}).
 *
 * <p>The I/O's slat runs from the job thread's hand-off to the return of the worker's submit
 * call, its clat from there to the worker's reap, as fio's start and issue times are taken.
 *
 * <p>Simplified: a hand-off wakes the worker as a completion ({@link Completion}) does, the
 * futex of fio's {@code pthread_cond_signal()} costs no system time of its own; a worker is
 * chosen as fio's {@code get_submit_worker()} does only in its first rule (an idle worker, the
 * lowest-numbered one), else the one with the fewest I/Os pending; fio's per-worker statistics
 * summing ({@code sum_thread_stats()}) is direct: the worker records into the job's statistics
 * as it reaps; {@code serialize_overlap} is not modelled.
 */
public final class OffloadWorker extends Task {
  /** A worker's engine: the asynchronous engine of the job, opened by the worker. */
  public interface Engine {
    /** The engine's submit call for one I/O on {@code file} (the job's file handle). */
    SystemCall submit(IoRequest r, Object file);

    /** The engine's wait for at least {@code min} completions. */
    WaitCall getevents(int min);

    /** Its completion ring. */
    CompletionRing ring();

    /** Whether completions already in the ring are reaped without a call (io_uring). */
    boolean reapsInUserSpace();
  }

  /** What the job thread provides to its workers. */
  public interface Job {
    /** The worker's engine, set up by the worker on its CPU. */
    Engine setUp(OffloadWorker w, TaskCpu cpu);

    /** fio's user time per I/O for the engine's queue and commit (the job's second half). */
    long userNsPerIo();

    /** The submit call returned for {@code r}: fio's issue time. */
    void issued(IoRequest r, long now);

    /** {@code r} was reaped by the worker (and its io_u freed: the job thread may go on). */
    void reaped(IoRequest r, TaskCpu cpu);
  }

  private enum Phase {
    IDLE,
    SUBMIT,
    RETURNED,
    REAP
  }

  private record Work(IoRequest req, Object file) {}

  private final Job job;
  private final ArrayDeque<Work> pending = new ArrayDeque<>();
  private final Completion work = new Completion();
  private Engine engine;
  private Phase phase = Phase.IDLE;
  private Work cur;
  private SystemCall call;
  private boolean exiting;
  private WaitCall waitCall;

  /**
   * @param comm the job's name (fio's workers are threads of the job's process)
   * @param pid the worker's thread id
   */
  public OffloadWorker(String comm, int pid, int nice, Job job) {
    super(comm, pid, nice);
    this.job = job;
  }

  /** Whether the worker has no I/O pending or in progress. */
  public boolean idle() {
    return pending.isEmpty() && cur == null;
  }

  /** I/Os handed to this worker and not yet reaped. */
  public int load() {
    return pending.size() + (cur == null ? 0 : 1);
  }

  /** {@code workqueue_enqueue()}: hands {@code r} on {@code file} to this worker. */
  public void enqueue(IoRequest r, Object file, TaskCpu from) {
    pending.add(new Work(r, file));
    work.complete(from.cpu());
  }

  /** {@code workqueue_exit()}: the worker exits once it has nothing left to do. */
  public void exit(TaskCpu from) {
    exiting = true;
    work.complete(from.cpu());
  }

  @Override
  protected void step(TaskCpu cpu) {
    if (engine == null) {
      engine = job.setUp(this, cpu);
    }
    while (true) {
      switch (phase) {
        case IDLE:
          if (!work.tryWait(this)) {
            cpu.sleep();
            return;
          }
          cur = pending.poll();
          if (cur == null) {
            if (exiting) {
              cpu.exit();
              return;
            }
            continue;
          }
          call = engine.submit(cur.req(), cur.file());
          phase = Phase.SUBMIT;
          if (call.step(cpu)) {
            submitted(cpu);
          }
          return;
        case SUBMIT:
          if (call.step(cpu)) {
            submitted(cpu);
          }
          return;
        case RETURNED:
          if (engine.reapsInUserSpace() && engine.ring().ready() > 0) {
            reap(cpu);
            continue;
          }
          waitCall = engine.getevents(1);
          phase = Phase.REAP;
          if (waitCall.step(cpu)) {
            throw new IllegalStateException(comm() + ": a wait call returned without its entry");
          }
          return;
        case REAP:
          if (!waitCall.step(cpu)) {
            return;
          }
          if (waitCall.wokeUp() && engine.ring().ready() == 0) {
            phase = Phase.RETURNED;
            continue;
          }
          reap(cpu);
          continue;
        default:
          throw new IllegalStateException(comm() + ": phase " + phase);
      }
    }
  }

  /** The submit call returned: fio's issue time; the engine ends the commit in user space. */
  private void submitted(TaskCpu cpu) {
    call = null;
    job.issued(cur.req(), cpu.now());
    phase = Phase.RETURNED;
    cpu.runFor(CpuMode.USER, job.userNsPerIo());
  }

  private void reap(TaskCpu cpu) {
    IoRequest done = engine.ring().reap();
    if (done == null) {
      phase = Phase.RETURNED;
      return;
    }
    cur = null;
    phase = Phase.IDLE;
    job.reaped(done, cpu);
  }
}
