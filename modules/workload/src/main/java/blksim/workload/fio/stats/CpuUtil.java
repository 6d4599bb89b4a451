package blksim.workload.fio.stats;

/**
 * Where one simulated CPU's time went over the run: what {@code /proc/stat} would show for it.
 * Unlike fio's per-thread {@code usr}/{@code sys}, it includes every task on the CPU: kworkers,
 * io-wq workers, kthreads.
 *
 * @param cpu CPU id
 * @param userNs time in user mode
 * @param sysNs time in system mode (tasks, context switches included)
 * @param irqNs time in interrupts and softirqs
 * @param idleNs time idle
 * @param contextSwitches tasks switched in
 */
public record CpuUtil(int cpu, long userNs, long sysNs, long irqNs, long idleNs,
    long contextSwitches) {

  /** The whole time accounted for. */
  public long totalNs() {
    return userNs + sysNs + irqNs + idleNs;
  }
}
