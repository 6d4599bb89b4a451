package blksim.workload.fio.thread;

import blksim.kernel.sched.Completion;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import java.util.ArrayDeque;

/**
 * A job's verify threads for {@code verify_async=N} (verify.c {@code verify_async_init()},
 * {@code verify_io_u_async()}, {@code verify_async_thread()}), and the job thread's side of
 * them.
 *
 * <p>When a read that fio checks completes (a verify read, or any read of a job that only
 * reads), its io_u's {@code end_io} is {@code verify_io_u_async()}: the io_u leaves the job's
 * depth ({@code cur_depth--}) and goes on {@code td->verify_list}, and one waiting verify thread
 * is signalled ({@code pthread_cond_signal(&td->verify_cond)}). A verify thread takes the whole
 * list ({@code flist_splice_init()}), and for each io_u runs {@code verify_io_u()} (the
 * checksum, user time of that thread) and frees it ({@code put_io_u()}, which signals
 * {@code td->free_cond}). The io_u is held until then: the job has {@code iodepth} io_us in all
 * ({@code init_io_u()}), so when every one is in flight or with a verify thread,
 * {@code __get_io_u()} waits on {@code free_cond}.
 *
 * <p>fio takes a thread's CPU time with {@code getrusage(RUSAGE_THREAD)}
 * ({@code lib/getrusage.c}) and sums no verify thread into the job, so the checksum of a read
 * leaves the job's {@code cpu} line; the verify threads show in blksim's thread table
 * ({@code --threads}, {@code blksim.threads}).
 *
 * <p>Simplified: a hand-off wakes a verify thread as a completion does ({@link Completion}), the
 * futexes of fio's mutex and condition variables cost no system time of their own; the threads
 * start on the job thread's CPU and move within its LLC as the job's thread does; at the end the
 * job thread waits until every held io_u is checksummed ({@code verify_async_exit()} lets a
 * thread stop with io_us still listed, which only matters for a job cut short).
 */
final class VerifyPool {
  private final Worker[] workers;
  /** {@code td->verify_list}: the checksum time of each io_u waiting for a verify thread. */
  private final ArrayDeque<Long> list = new ArrayDeque<>();
  /** {@code td->verify_cond}. */
  private final Completion work = new Completion();
  /** {@code td->free_cond}. */
  private final Completion free = new Completion();
  private int held;
  private boolean started;
  private boolean exiting;

  VerifyPool(Task parent, int n) {
    workers = new Worker[n];
    for (int i = 0; i < n; i++) {
      // Threads of the job's process: its name, their own thread ids (after any offload
      // workers' parent*1000+1...).
      workers[i] = new Worker(parent.comm(), parent.pid() * 1000 + 999 - i, parent.nice());
    }
  }

  /** {@code verify_async_init()}: the threads are created on the job thread's CPU. */
  void start(Task parent, TaskCpu cpu) {
    if (started) {
      return;
    }
    started = true;
    for (Worker w : workers) {
      w.setUnbound(parent.unbound());
      cpu.cpu().spawn(w);
    }
  }

  /** {@code verify_io_u_async()}: a completed read whose check takes {@code checkNs}. */
  void hand(long checkNs, TaskCpu cpu) {
    held++;
    list.add(checkNs);
    work.complete(cpu.cpu());
  }

  /** io_us held by the verify threads (out of the job's {@code iodepth}). */
  int held() {
    return held;
  }

  /**
   * {@code __get_io_u()} on {@code free_cond}: true if an io_u was freed since the job last
   * looked (it goes on), false if it is now queued and must sleep.
   */
  boolean tryWaitFree(Task parent) {
    return free.tryWait(parent);
  }

  /** {@code verify_async_exit()}: the threads exit once the list is empty. */
  void exit(TaskCpu cpu) {
    exiting = true;
    work.completeAll(cpu.cpu());
  }

  /** The threads' user time, system time and context switches so far. */
  long[] cpu() {
    long[] a = new long[3];
    for (Worker w : workers) {
      a[0] += w.utimeNs();
      a[1] += w.stimeNs();
      a[2] += w.nvcsw() + w.nivcsw();
    }
    return a;
  }

  /** One verify thread ({@code verify_async_thread()}). */
  private final class Worker extends Task {
    /** The io_us this thread spliced off the list, not yet checksummed. */
    private final ArrayDeque<Long> mine = new ArrayDeque<>();
    /** The io_u whose checksum is running. */
    private boolean checking;

    Worker(String comm, int pid, int nice) {
      super(comm, pid, nice);
    }

    @Override
    protected void step(TaskCpu cpu) {
      while (true) {
        if (checking) {
          // put_io_u(): the io_u is free again.
          checking = false;
          held--;
          free.complete(cpu.cpu());
        }
        Long ns = mine.poll();
        if (ns != null && ns <= 0) {
          held--; // verify=null: nothing to compute
          free.complete(cpu.cpu());
          continue;
        }
        if (ns != null) {
          checking = true;
          cpu.runFor(CpuMode.USER, ns); // verify_io_u()
          return;
        }
        if (!list.isEmpty()) {
          mine.addAll(list); // flist_splice_init(&td->verify_list, &list)
          list.clear();
          continue;
        }
        if (exiting) {
          cpu.exit();
          return;
        }
        if (!work.tryWait(this)) {
          cpu.sleep();
          return;
        }
      }
    }
  }
}
