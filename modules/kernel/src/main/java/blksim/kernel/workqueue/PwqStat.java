package blksim.kernel.workqueue;

/**
 * {@code enum pool_workqueue_stats} (kernel/workqueue.c, kernel-model.md §4.11), in the kernel's
 * order: the counters wq_monitor sums over a wq's pwqs.
 */
public enum PwqStat {
  /** {@code PWQ_STAT_STARTED}: work items started execution. */
  STARTED,
  /** {@code PWQ_STAT_COMPLETED}: work items completed execution. */
  COMPLETED,
  /** {@code PWQ_STAT_CPU_TIME}: CPU time consumed, us, one tick added per tick sample. */
  CPU_TIME,
  /** {@code PWQ_STAT_CPU_INTENSIVE}: {@code wq_cpu_intensive_thresh_us} violations. */
  CPU_INTENSIVE,
  /** {@code PWQ_STAT_CM_WAKEUP}: concurrency-management worker wakeups. */
  CM_WAKEUP,
  /** {@code PWQ_STAT_REPATRIATED}: unbound workers brought back into their scope. */
  REPATRIATED,
  /** {@code PWQ_STAT_MAYDAY}: maydays to the rescuer. */
  MAYDAY,
  /** {@code PWQ_STAT_RESCUED}: work items executed by the rescuer. */
  RESCUED;

  /** {@code PWQ_NR_STATS}. */
  public static final int COUNT = values().length;
}
