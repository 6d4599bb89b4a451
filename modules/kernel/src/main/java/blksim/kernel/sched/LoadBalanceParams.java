package blksim.kernel.sched;

/**
 * CFS load balancing ({@code kernel.load-balance}, issue 15 item 3): whether it runs and its
 * tunables.
 *
 * @param enabled whether the periodic, new-idle and nohz idle balancing run
 * @param migrationCostNs {@code sysctl_sched_migration_cost} (debugfs
 *     {@code sched/migration_cost_ns}, 500 us by default, kernel/sched/fair.c): a task that ran
 *     less than this long ago is cache hot and is not pulled (unless balancing at that level has
 *     failed more than the domain's {@code cache_nice_tries} times); also the initial
 *     {@code rq->max_idle_balance_cost}
 * @param nrMigrate {@code sysctl_sched_nr_migrate}: at most this many tasks examined per
 *     balancing pass (32 by default)
 */
public record LoadBalanceParams(boolean enabled, long migrationCostNs, int nrMigrate) {

  /** {@code sysctl_sched_migration_cost}: 500 us (kernel/sched/fair.c). */
  public static final long DEFAULT_MIGRATION_COST_NS = 500_000L;
  /** {@code sysctl_sched_nr_migrate}: 32 (kernel/sched/core.c, non-RT kernels). */
  public static final int DEFAULT_NR_MIGRATE = 32;
  /**
   * Remote cache lines a migration touches, besides the balancing scan's reads: both run-queue
   * locks, the source's {@code cfs_rq}, the task's {@code sched_entity} and the
   * {@code task_struct} fields {@code set_task_cpu()} writes, the destination's {@code cfs_rq}.
   * [A] no source measures it; each costs {@code costs.sched.cacheline} (or -remote), as the
   * remote wakeup's five lines do. The refill of the task's working set in the new core's
   * caches is not modelled.
   */
  public static final int MIGRATE_LINES = 6;

  /** Load balancing off: tasks move only at wakeup (as before issue 15). */
  public static final LoadBalanceParams OFF =
      new LoadBalanceParams(false, DEFAULT_MIGRATION_COST_NS, DEFAULT_NR_MIGRATE);

  /** Load balancing on with the kernel's default tunables. */
  public static final LoadBalanceParams DEFAULT =
      new LoadBalanceParams(true, DEFAULT_MIGRATION_COST_NS, DEFAULT_NR_MIGRATE);

  public LoadBalanceParams {
    if (migrationCostNs < 0) {
      throw new IllegalArgumentException("migrationCostNs must be >= 0, was " + migrationCostNs);
    }
    if (nrMigrate < 1) {
      throw new IllegalArgumentException("nrMigrate must be >= 1, was " + nrMigrate);
    }
  }
}
