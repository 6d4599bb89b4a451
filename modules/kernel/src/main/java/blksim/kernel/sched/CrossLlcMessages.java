package blksim.kernel.sched;

import blksim.engine.Message;
import java.util.List;

/**
 * The messages of load balancing above the LLC (issue 15 item 3; see {@link
 * CpuComponent#loadBalanceAcross}). Every one is sent with at least the run's lookahead
 * ({@link SchedParams#wakeupLatencyNs()}), so the LLCs of a machine may sit in different
 * partitions and no balancer ever reads another LLC's CPUs.
 */
public final class CrossLlcMessages {
  private CrossLlcMessages() {}

  /** One of these messages (one branch in {@link CpuComponent#handle}). */
  public interface Msg extends Message {}

  /**
   * An LLC's load as its balancer published it, to the first CPU of every other LLC: what
   * {@code update_sg_lb_stats()} would read of its CPUs, a lookahead old when it arrives (the
   * kernel reads remote run queues without their locks, so its view is racy too).
   *
   * @param llc the LLC's id
   * @param weight its CPUs
   * @param nr its runnable tasks ({@code sum_nr_running})
   * @param load their weights ({@code group_load}, from weights rather than PELT)
   * @param idle its idle CPUs
   * @param overloaded whether a CPU of it has two runnable tasks ({@code rd->overload})
   * @param busiestIndex component index of its CPU with the most runnable tasks (then load)
   * @param busiestNr that CPU's runnable tasks
   * @param busiestLoad that CPU's load
   */
  public record LlcSummary(int llc, int weight, int nr, long load, int idle, boolean overloaded,
      int busiestIndex, int busiestNr, long busiestLoad) implements Msg {}

  /**
   * {@code load_balance()} of a level above the LLC found the sender's group the less busy: the
   * CPU that the summary named busiest detaches up to {@code imbalance} tasks (or that much
   * load) that may run on {@code dstCpuId}, as {@code detach_tasks()} would.
   *
   * @param dstIndex component index of the balancing CPU ({@code env->dst_cpu})
   * @param dstCpuId its CPU id (affinity)
   * @param level index of the domain in the destination's domains
   * @param imbalance tasks, load or utilisation, by {@code migrationType}
   * @param migrationType {@code enum migration_type}: 0 {@code migrate_task}, 1
   *     {@code migrate_load}, 2 {@code migrate_util}
   * @param idle the destination's {@code enum cpu_idle_type}
   * @param nrBalanceFailed the domain's {@code nr_balance_failed}
   * @param cacheNiceTries the domain's {@code cache_nice_tries}
   */
  public record PullRequest(int dstIndex, int dstCpuId, int level, long imbalance,
      int migrationType, int idle, int nrBalanceFailed, int cacheNiceTries)
      implements Msg {}

  /**
   * A task a {@link PullRequest} detached, on its way to the destination, which attaches it
   * ({@code attach_task()}); {@code srcMinVruntime} is the source's {@code min_vruntime} at
   * detach time, {@code srcCpuId} the source CPU (the migration's remote cache lines). Carries
   * the task object itself: the local host only (see {@code checkClusterPartitioning}).
   */
  public record TaskArrives(Task task, long srcMinVruntime, int srcCpuId) implements Msg {}

  /**
   * The answer to a {@link PullRequest}, after its {@link TaskArrives} (if any): {@code moved}
   * tasks, for the destination domain's {@code nr_balance_failed} and balance interval;
   * {@code allPinned}: no task examined could run on the destination ({@code LBF_ALL_PINNED}).
   */
  public record PullReply(int level, int moved, int idle, boolean allPinned) implements Msg {}

  /**
   * {@code nohz_balancer_kick()} across LLCs: a busy CPU of an LLC with several busy CPUs asks
   * an LLC whose summary shows idle CPUs to run its nohz idle balance.
   */
  public record NohzKick(int fromLlc) implements Msg {}

  /** A wakeup of an unbound task that left this LLC, sent on to where it went. */
  public record WakeForward(Task task) implements Msg {}
}
