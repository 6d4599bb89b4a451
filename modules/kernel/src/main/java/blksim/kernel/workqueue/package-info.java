/**
 * Concurrency-managed workqueues (kernel-model.md §4, §10): workqueues and their flags and
 * limits, per-CPU pools with concurrency management, unbound pools with pods and affinity scopes,
 * max_active enforcement for every {@link blksim.kernel.workqueue.KernelMode}, rescuers and
 * maydays, CPU-intensive detection, ordered and delayed work, flush and drain, and the
 * wq_monitor / wq_dump views.
 *
 * <h2>Who owns what</h2>
 * Every piece of mutable state has one owning component and is touched only while that component
 * handles a message; components reach each other only by {@link
 * blksim.kernel.workqueue.WqMessage}s delayed by the run's lookahead (the wakeup/IPI latency), so
 * results do not depend on the partitioning.
 * <table>
 *   <caption>Ownership</caption>
 *   <tr><th>component (id)</th><th>owns</th></tr>
 *   <tr><td>{@link blksim.kernel.workqueue.WorkqueueCpu} ({@code cpu/N}, wrapping the
 *       {@code CpuComponent})</td>
 *       <td>the CPU's normal and highpri {@link blksim.kernel.workqueue.PerCpuPool}s with their
 *       workers, idle lists and {@code nr_running}; the per-CPU
 *       {@link blksim.kernel.workqueue.PoolWorkqueue}s of every per-CPU wq; the unbound workers
 *       and rescuers whose tasks run on this CPU; PENDING and the execution record of every
 *       {@link blksim.kernel.workqueue.WorkItem} homed here; delayed-work timers; this CPU's share
 *       of the statistics (including execution statistics of unbound items run here)</td></tr>
 *   <tr><td>{@link blksim.kernel.workqueue.UnboundPoolHost} ({@code node<N>/wq/unbound},
 *       locality node N)</td>
 *       <td>every unbound pool whose pod lies inside node N, their worklists and idle lists, the
 *       unbound pwqs pointing at them ({@code nr_active}, {@code inactive_works}), the 6.9+
 *       {@code wq_node_nr_active} of node N for every unbound wq, their mayday timers and the host
 *       side of the rescuers</td></tr>
 *   <tr><td>{@link blksim.kernel.workqueue.UnboundPoolHost} ({@code wq/unbound},
 *       machine-wide)</td>
 *       <td>the same for node-less pools ({@code NUMA_NO_NODE}: pods spanning nodes, the default
 *       pools of multi-node machines, every pool when {@code nodeBoundPools} is off) and the
 *       default {@code wq_node_nr_active}</td></tr>
 *   <tr><td>{@link blksim.kernel.workqueue.WqMonitorCollector} ({@code wq/monitor})</td>
 *       <td>the periodic wq_monitor samples (only when sampling is on)</td></tr>
 * </table>
 * A pool's node decides both its host and the counter it uses from 6.9, so every counter lives
 * with all of its users. {@link blksim.kernel.workqueue.Workqueue},
 * {@link blksim.kernel.workqueue.WqPodType} and the layout in
 * {@link blksim.kernel.workqueue.WorkqueueSystem} are immutable and built identically on every
 * node of a cluster.
 *
 * <h2>Paths and their hops</h2>
 * <ul>
 *   <li>Per-CPU wq, queued on the item's home CPU: plain calls into the local pool (no hop).
 *   <li>Unbound wq: the home sends {@link blksim.kernel.workqueue.WqMessage.QueueWork} to the
 *       pool's host (one hop); the host takes a slot and sends
 *       {@link blksim.kernel.workqueue.WqMessage.RunWork} to an idle worker's CPU (one hop); the
 *       worker reports {@link blksim.kernel.workqueue.WqMessage.WorkDone} (one hop) and gets its
 *       next item by another RunWork. The kernel needs a single wakeup; the extra hops are the
 *       price of a pool shared by CPUs that may sit in other partitions.
 *   <li>An item queued from a CPU other than its home goes home first
 *       ({@link blksim.kernel.workqueue.WqMessage.QueueAtHome}); an item running on another CPU
 *       reports its start (PENDING cleared) and end to its home.
 * </ul>
 *
 * <h2>Wiring a scenario</h2>
 * <pre>{@code
 * WorkqueueSystem.Builder b = WorkqueueSystem.builder(topology, sched, timerParams,
 *     WorkqueueParams.defaults(kernelMode));       // allocates events, events_highpri,
 *                                                  // events_unbound, kblockd
 * Workqueue kdelayd = b.allocWorkqueue("kdelayd", Workqueue.WQ_MEM_RECLAIM, 0);
 * WorkqueueSystem wqs = b.build();
 * List<Component> components = wqs.components(cpus); // in place of the CpuComponents
 * }</pre>
 *
 * <h2>Glossary (kernel identifier ↔ Java)</h2>
 * <ul>
 *   <li>{@code struct workqueue_struct}, {@code alloc_workqueue()},
 *       {@code alloc_ordered_workqueue()}, {@code wq_clamp_max_active()} ↔
 *       {@link blksim.kernel.workqueue.Workqueue},
 *       {@link blksim.kernel.workqueue.WorkqueueSystem.Builder}
 *   <li>{@code WQ_UNBOUND}, {@code WQ_HIGHPRI}, {@code WQ_CPU_INTENSIVE}, {@code WQ_MEM_RECLAIM},
 *       {@code __WQ_ORDERED} ↔ {@link blksim.kernel.workqueue.Workqueue#WQ_UNBOUND} etc.
 *   <li>{@code WQ_MAX_ACTIVE}, {@code WQ_DFL_ACTIVE}, {@code WQ_DFL_MIN_ACTIVE},
 *       {@code MAYDAY_INITIAL_TIMEOUT}, {@code MAYDAY_INTERVAL}, {@code CREATE_COOLDOWN},
 *       {@code RESCUER_BATCH} ↔ {@link blksim.kernel.workqueue.WqConstants},
 *       {@link blksim.kernel.workqueue.KernelMode}
 *   <li>{@code struct work_struct}, {@code work_pending()} ↔
 *       {@link blksim.kernel.workqueue.WorkItem}; {@code work_func_t} ↔
 *       {@link blksim.kernel.workqueue.WorkFn} / {@link blksim.kernel.workqueue.WorkRun} /
 *       {@link blksim.kernel.workqueue.WorkScript}
 *   <li>{@code struct delayed_work}, {@code delayed_work_timer_fn()} ↔
 *       {@link blksim.kernel.workqueue.DelayedWork}
 *   <li>{@code queue_work()}, {@code queue_work_on()}, {@code queue_delayed_work()},
 *       {@code mod_delayed_work()}, {@code cancel_delayed_work()}, {@code flush_workqueue()},
 *       {@code drain_workqueue()} ↔ methods of {@link blksim.kernel.workqueue.WorkqueueSystem}
 *   <li>{@code __queue_work()} ↔ {@code WorkqueueCpu.dispatch} +
 *       {@link blksim.kernel.workqueue.PoolWorkqueue}{@code .queue}
 *   <li>{@code struct pool_workqueue}, {@code pwq_tryinc_nr_active()},
 *       {@code pwq_dec_nr_active()}, {@code pwq_activate_first_inactive()} ↔
 *       {@link blksim.kernel.workqueue.PoolWorkqueue}
 *   <li>{@code struct wq_node_nr_active}, {@code node_activate_pending_pwq()} ↔
 *       {@code NodeNrActive}
 *   <li>{@code struct worker_pool}, {@code kick_pool()}, {@code need_more_worker()},
 *       {@code keep_working()}, {@code may_start_working()}, {@code maybe_create_worker()},
 *       {@code pool_mayday_timeout()} ↔ {@link blksim.kernel.workqueue.WorkerPool},
 *       {@link blksim.kernel.workqueue.PerCpuPool}, {@link blksim.kernel.workqueue.UnboundPool}
 *   <li>{@code struct worker}, {@code worker_thread()}, {@code process_one_work()},
 *       {@code assign_work()}, {@code rescuer_thread()}, {@code wq_worker_sleeping()},
 *       {@code wq_worker_running()}, {@code wq_worker_tick()} ↔
 *       {@link blksim.kernel.workqueue.Worker}
 *   <li>{@code send_mayday()} ↔ {@code WorkqueueCpu.sendMayday},
 *       {@code UnboundPoolHost.sendMayday}
 *   <li>{@code struct wq_pod_type}, {@code enum wq_affn_scope} ↔
 *       {@link blksim.kernel.workqueue.WqPodType}, {@link blksim.kernel.workqueue.AffinityScope}
 *   <li>{@code enum pool_workqueue_stats} ↔ {@link blksim.kernel.workqueue.PwqStat}
 *   <li>tools/workqueue/wq_monitor.py ↔ {@link blksim.kernel.workqueue.WqMonitorSnapshot},
 *       {@link blksim.kernel.workqueue.WqMonitorRenderer},
 *       {@link blksim.kernel.workqueue.WqMonitorCollector}; tools/workqueue/wq_dump.py ↔
 *       {@link blksim.kernel.workqueue.WqDump}
 * </ul>
 *
 * <h2>Simplified or left out</h2>
 * Kworkers never migrate (wakeup placement moves only user threads and io-wq workers), so
 * unbound workers stay on the pod CPU they were created on and {@code REPATRIATED} stays 0;
 * one rescuer per (wq, owner) instead of one per wq; CPU hotplug,
 * {@code workqueue_set_max_active()} at run time (a scenario's {@code kernel.wq-max-active}
 * changes the value {@code alloc_workqueue()} passes instead, see
 * {@link blksim.kernel.workqueue.MaxActiveOverride}), freezing, BH workqueues,
 * {@code cancel_work_sync()} of a queued item and the stealing in {@code mod_delayed_work()} are
 * not modelled; worker creation never fails, it can only be slow
 * ({@link blksim.kernel.workqueue.WorkqueueParams#kthreadCreateNs}, serial per pool, plus
 * {@link blksim.kernel.workqueue.WorkqueueParams#createWorkerCpuNs} of system time on a new
 * unbound worker's CPU). Idle workers are culled after {@code IDLE_WORKER_TIMEOUT} while
 * {@code too_many_workers()}, in the idle timer itself rather than in the kernel's
 * {@code idle_cull_work} on {@code system_unbound_wq}.
 */
package blksim.kernel.workqueue;
