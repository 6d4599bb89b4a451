/**
 * The per-CPU scheduler (kernel-model.md §1): run queues, the CFS policy, preemption models,
 * context switches and per-task CPU accounting as {@code getrusage(RUSAGE_THREAD)} reports it.
 *
 * <p>Glossary (kernel identifier ↔ Java):
 * <ul>
 *   <li>{@code struct rq}, {@code __schedule()}, {@code try_to_wake_up()},
 *       {@code scheduler_tick()}, {@code resched_curr()} ↔
 *       {@link blksim.kernel.sched.CpuComponent}
 *   <li>{@code struct cfs_rq}, {@code fair_sched_class} ↔
 *       {@link blksim.kernel.sched.SchedPolicy}, {@link blksim.kernel.sched.CfsPolicy}
 *   <li>{@code pick_next_task_fair()} ↔ {@link blksim.kernel.sched.SchedPolicy#pickNextTask}
 *   <li>{@code check_preempt_wakeup()} ↔
 *       {@link blksim.kernel.sched.SchedPolicy#checkPreemptWakeup}
 *   <li>{@code task_tick_fair()} / {@code check_preempt_tick()} ↔
 *       {@link blksim.kernel.sched.SchedPolicy#taskTick}
 *   <li>{@code place_entity()} ↔ {@link blksim.kernel.sched.SchedPolicy#enqueueWakeup},
 *       {@link blksim.kernel.sched.SchedPolicy#enqueueNew}
 *   <li>{@code struct task_struct} ↔ {@link blksim.kernel.sched.Task}; {@code struct
 *       sched_entity} ↔ {@code SchedEntity}
 *   <li>{@code sched_prio_to_weight[]}, {@code calc_delta_fair()} ↔
 *       {@link blksim.kernel.sched.LoadWeight}
 *   <li>{@code sysctl_sched_latency}, {@code sysctl_sched_min_granularity},
 *       {@code sysctl_sched_wakeup_granularity}, {@code HZ} ↔
 *       {@link blksim.kernel.sched.SchedParams}
 *   <li>{@code CONFIG_PREEMPT_NONE/VOLUNTARY/PREEMPT} ↔ {@link blksim.kernel.sched.PreemptModel}
 *   <li>{@code cond_resched()}, {@code might_resched()}, {@code need_resched()} ↔
 *       {@link blksim.kernel.sched.TaskCpu#condResched}, {@link
 *       blksim.kernel.sched.TaskCpu#mightResched}, {@link blksim.kernel.sched.TaskCpu#needResched}
 *   <li>{@code sched_submit_work()} / {@code sched_update_worker()} ↔
 *       {@code Task.schedSubmitWork} / {@code Task.schedUpdateWorker}
 *   <li>{@code ru_utime}, {@code ru_stime}, {@code ru_nvcsw}, {@code ru_nivcsw} ↔
 *       {@link blksim.kernel.sched.Task#utimeNs}, {@link blksim.kernel.sched.Task#stimeNs},
 *       {@link blksim.kernel.sched.Task#nvcsw}, {@link blksim.kernel.sched.Task#nivcsw}
 *   <li>the reschedule IPI of a remote wakeup ↔ {@link blksim.kernel.sched.TaskWakeup}
 * </ul>
 */
package blksim.kernel.sched;
