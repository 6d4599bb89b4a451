package blksim.workload.fio.stats;

/**
 * One simulated thread's CPU and scheduler statistics over the run, for every task on the machine
 * (fio's threads, io-wq workers, kworkers, kthreads): {@code /proc/<tid>/stat} utime and stime,
 * {@code /proc/<tid>/status} context switches and {@code /proc/<tid>/schedstat} run delay and
 * timeslice count. blksim's addition; fio itself reports only its own threads' usr/sys/ctx.
 *
 * @param cpu the CPU the thread was placed on (an unbound thread may have run on others of its
 *     LLC, see {@code migrations})
 * @param tid thread id
 * @param comm thread name
 * @param nice nice value
 * @param utimeNs user time, ns
 * @param stimeNs system time, ns
 * @param nvcsw voluntary context switches (it blocked)
 * @param nivcsw involuntary context switches (it was preempted)
 * @param runDelayNs time runnable but waiting on the run queue, ns
 * @param pcount times switched in
 * @param migrations times it moved to another CPU
 * @param state its state at the end as {@code ps} shows it: R, S, D (asleep on a lock), X
 * @param wchan the lock a thread in D state waits on, else empty
 * @param locks its waits on sleeping locks, per lock in order of first use
 */
public record ThreadStat(int cpu, int tid, String comm, int nice, long utimeNs, long stimeNs,
    long nvcsw, long nivcsw, long runDelayNs, long pcount, long migrations, char state,
    String wchan, java.util.List<blksim.kernel.sched.LockWaitStat> locks) {

  /** Copies the list. */
  public ThreadStat {
    locks = java.util.List.copyOf(locks);
  }

  /** A running thread that never took a sleeping lock. */
  public ThreadStat(int cpu, int tid, String comm, int nice, long utimeNs, long stimeNs,
      long nvcsw, long nivcsw, long runDelayNs, long pcount, long migrations) {
    this(cpu, tid, comm, nice, utimeNs, stimeNs, nvcsw, nivcsw, runDelayNs, pcount, migrations,
        'R', "", java.util.List.of());
  }

  /** Group name: the name with its numbers replaced by {@code N} ({@code iou-wrk-N}). */
  public String group() {
    return comm.replaceAll("[0-9]+", "N");
  }
}
