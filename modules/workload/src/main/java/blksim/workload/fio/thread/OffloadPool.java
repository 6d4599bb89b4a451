package blksim.workload.fio.thread;

import blksim.kernel.iouring.IoRequest;
import blksim.kernel.sched.Completion;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;

/**
 * A job's submit workers for {@code io_submit_mode=offload} (fio's {@code td->io_wq}, set up by
 * {@code rate_submit_init()} with {@code iodepth} workers) and the job thread's side of it: the
 * hand-off ({@code workqueue_enqueue()}) and the wait for a free io_u
 * ({@code __get_io_u()} waits on {@code td->free_cond} when all {@code iodepth} io_us are out).
 * See {@link OffloadWorker} for what is simplified.
 */
final class OffloadPool {
  private final OffloadWorker[] workers;
  private final Completion free = new Completion();
  private boolean started;

  OffloadPool(Task parent, int n, OffloadWorker.Job job) {
    workers = new OffloadWorker[n];
    for (int i = 0; i < n; i++) {
      // fio's workers are threads of the job's process: same name, their own thread ids.
      workers[i] = new OffloadWorker(parent.comm(), parent.pid() * 1000 + 1 + i, parent.nice(),
          job);
    }
  }

  /** {@code workqueue_init()}: the workers are created on the job thread's CPU. */
  void start(Task parent, TaskCpu cpu) {
    if (started) {
      return;
    }
    started = true;
    for (OffloadWorker w : workers) {
      w.setUnbound(parent.unbound());
      cpu.cpu().spawn(w);
    }
  }

  /** {@code workqueue_enqueue()}: to the first idle worker, else the least loaded one. */
  void hand(IoRequest r, Object file, TaskCpu cpu) {
    OffloadWorker best = null;
    for (OffloadWorker w : workers) {
      if (w.idle()) {
        best = w;
        break;
      }
      if (best == null || w.load() < best.load()) {
        best = w;
      }
    }
    best.enqueue(r, file, cpu);
  }

  /**
   * Hands {@code r} to worker {@code w}: glibc's POSIX AIO queues a request behind the one
   * running for its file descriptor ({@code add_request_to_list()}), so one helper serves a file.
   */
  void handTo(int w, IoRequest r, Object file, TaskCpu cpu) {
    workers[w].enqueue(r, file, cpu);
  }

  /**
   * The job thread waits for a freed io_u: true if one was freed since it last looked (it goes
   * on), false if it is now queued and must sleep.
   */
  boolean tryWaitFree(Task parent) {
    return free.tryWait(parent);
  }

  /** A worker reaped an I/O: its io_u is free ({@code put_io_u()} signals free_cond). */
  void freed(TaskCpu cpu) {
    free.complete(cpu.cpu());
  }

  /** {@code workqueue_exit()}. */
  void exit(TaskCpu cpu) {
    for (OffloadWorker w : workers) {
      w.exit(cpu);
    }
  }

  /** The workers' user time, system time and context switches so far. */
  long[] cpu() {
    long[] a = new long[3];
    for (OffloadWorker w : workers) {
      a[0] += w.utimeNs();
      a[1] += w.stimeNs();
      a[2] += w.nvcsw() + w.nivcsw();
    }
    return a;
  }

  int size() {
    return workers.length;
  }
}
