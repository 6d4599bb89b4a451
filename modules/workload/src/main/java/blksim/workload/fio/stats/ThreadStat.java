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
 */
public record ThreadStat(int cpu, int tid, String comm, int nice, long utimeNs, long stimeNs,
    long nvcsw, long nivcsw, long runDelayNs, long pcount, long migrations) {

  /** Group name: the name with its numbers replaced by {@code N} ({@code iou-wrk-N}). */
  public String group() {
    return comm.replaceAll("[0-9]+", "N");
  }
}
