package blksim.kernel.workqueue;

/**
 * The workqueue constants of kernel-model.md §4.2, with their kernel names and sources
 * (include/linux/workqueue.h, kernel/workqueue.c). Those in jiffies are functions of HZ.
 */
public final class WqConstants {
  /** {@code WQ_MAX_ACTIVE} up to 6.12. */
  public static final int WQ_MAX_ACTIVE_PRE_6_13 = 512;
  /** {@code WQ_MAX_ACTIVE} from 6.13. */
  public static final int WQ_MAX_ACTIVE_6_13 = 2048;
  /** {@code WQ_MAX_UNBOUND_PER_CPU} (up to 6.4): unbound max_active may reach 4 x CPUs. */
  public static final int WQ_MAX_UNBOUND_PER_CPU = 4;
  /** {@code WQ_DFL_MIN_ACTIVE} (6.9+): min_active is min(max_active, 8). */
  public static final int WQ_DFL_MIN_ACTIVE = 8;
  /** {@code MAX_IDLE_WORKERS_RATIO}: one idle worker per 4 busy ones may be kept (reaping). */
  public static final int MAX_IDLE_WORKERS_RATIO = 4;
  /** {@code RESCUER_BATCH}: items a rescuer runs from one pwq before serving others. */
  public static final int RESCUER_BATCH = 16;
  /** {@code wq_cpu_intensive_thresh_us} default (6.5+): 10 ms. */
  public static final long CPU_INTENSIVE_THRESH_US_DEFAULT = 10_000L;
  /** {@code WQ_NAME_LEN} up to 6.11, the width of wq_dump's name column. */
  public static final int WQ_NAME_LEN = 24;
  /** wq_monitor shows the last 24 characters of a wq name. */
  public static final int WQ_MONITOR_NAME_WIDTH = 24;
  /** Nice value of per-CPU normal pools. */
  public static final int NICE_NORMAL = 0;
  /** {@code HIGHPRI_NICE_LEVEL}: nice of highpri pools and of rescuers. */
  public static final int HIGHPRI_NICE_LEVEL = -20;
  /** {@code NUMA_NO_NODE}: a pool not tied to one node. */
  public static final int NUMA_NO_NODE = -1;
  /** {@code NR_STD_WORKER_POOLS}: normal and highpri pools per CPU. */
  public static final int NR_STD_WORKER_POOLS = 2;

  private WqConstants() {}

  /** {@code MAYDAY_INITIAL_TIMEOUT}: HZ / 100 jiffies (10 ms), at least 2. */
  public static long maydayInitialTimeout(int hz) {
    return Math.max(hz / 100, 2);
  }

  /** {@code MAYDAY_INTERVAL}: HZ / 10 jiffies (100 ms). */
  public static long maydayInterval(int hz) {
    return hz / 10;
  }

  /** {@code CREATE_COOLDOWN}: HZ jiffies (1 s) after a failed worker creation. */
  public static long createCooldown(int hz) {
    return hz;
  }

  /** {@code IDLE_WORKER_TIMEOUT}: 300 x HZ jiffies (5 min). */
  public static long idleWorkerTimeout(int hz) {
    return 300L * hz;
  }
}
