package blksim.kernel.sched;

/**
 * The per-CPU policy that orders runnable tasks: the {@code fair_sched_class} hooks of one
 * {@code struct cfs_rq}. The {@link CpuComponent} owns one instance and calls it; the policy never
 * schedules events or touches tasks' accounting beyond their {@link SchedEntity}.
 *
 * <p>Implemented by {@link CfsPolicy} (CFS, kernels up to 6.5) and {@link EevdfPolicy} (EEVDF,
 * 6.6 and later; chosen with {@link SchedParams#withScheduler}): EEVDF picks by eligible virtual
 * deadline, and its tick and wakeup checks answer the same two questions (should the current task
 * give way?). Implementations live in this package because they work on the package-private
 * entity.
 *
 * <p>Terms: the <em>current</em> task is the one on the CPU and is not in the ordered timeline;
 * {@link #nrRunning()} counts it while it is runnable ({@code cfs_rq->nr_running}).
 */
public interface SchedPolicy {

  /** Enqueues a task present when the run starts (placed at {@code min_vruntime}). */
  void enqueueInitial(Task t);

  /**
   * Enqueues a task created during the run: {@code task_fork_fair()} with {@code parent} as the
   * forking task (or {@code null}), then {@code wake_up_new_task()}'s enqueue.
   */
  void enqueueNew(Task t, Task parent, long now);

  /** Enqueues a task woken from sleep: {@code enqueue_entity(ENQUEUE_WAKEUP)}. */
  void enqueueWakeup(Task t, long now);

  /**
   * {@code pick_next_task_fair()}: takes the next task off the timeline and makes it current,
   * or returns {@code null} if none is runnable. There must be no current task.
   */
  Task pickNextTask(long now);

  /** {@code put_prev_task_fair()}: the current task, still runnable, goes back in the timeline. */
  void putPrevTask(long now);

  /** {@code dequeue_task_fair(DEQUEUE_SLEEP)}: the current task blocks or exits. */
  void dequeueCurr(long now);

  /** {@code update_curr()}: charges the current task's runtime up to {@code now}. */
  void updateCurr(long now);

  /**
   * {@code task_tick_fair()}: charges runtime and answers whether the current task should be
   * preempted ({@code resched_curr()}). Called only while {@link #nrRunning()} &gt; 1.
   */
  boolean taskTick(long now);

  /**
   * {@code check_preempt_wakeup()}: whether the just enqueued {@code woken} task should preempt
   * the current one. The caller has checked that the current task's need-resched is clear.
   */
  boolean checkPreemptWakeup(Task woken, long now);

  /** Runnable tasks, the current one included. */
  int nrRunning();

  /**
   * The queue's virtual-time reference ({@code cfs_rq->min_vruntime}): a task that migrates
   * keeps its distance to it.
   */
  long minVruntime();

  /** The current task, or {@code null}. */
  Task curr();

  /** {@code cfs_rq->load.weight}: the runnable tasks' weights, the current one included. */
  long loadWeight();

  /**
   * The runnable tasks waiting in the timeline (not the current one), in timeline order: the
   * candidates of {@code detach_tasks()}.
   */
  java.util.List<Task> queued();

  /**
   * {@code dequeue_task_fair()} without {@code DEQUEUE_SLEEP} of a runnable task that is not
   * current: load balancing detaches it ({@code detach_task()}).
   */
  void dequeueQueued(Task t, long now);

  /**
   * {@code enqueue_task_fair()} of a task that load balancing moved here ({@code ENQUEUE_MIGRATED}):
   * it keeps its distance to {@code min_vruntime} ({@code srcMinVruntime} is the source queue's),
   * or under EEVDF its lag.
   */
  void enqueueMigrated(Task t, long srcMinVruntime, long now);
}
