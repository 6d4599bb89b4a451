/**
 * Kernel threads (kernel-model.md §2): the canonical kthread sleep loop on top of
 * {@link blksim.kernel.sched.Task}.
 *
 * <p>Glossary (kernel identifier ↔ Java):
 * <ul>
 *   <li>{@code kthread()} + thread function ↔ {@link blksim.kernel.kthread.Kthread#step}
 *   <li>{@code kthread_should_stop()} ↔ {@link blksim.kernel.kthread.Kthread#kthreadShouldStop}
 *   <li>{@code kthread_stop()} ↔ {@link blksim.kernel.kthread.Kthread#kthreadStop}
 *   <li>{@code kthread_run()} ↔ {@link blksim.kernel.sched.CpuComponent#spawn(
 *       blksim.kernel.sched.Task, long)}
 *   <li>{@code wake_up_process()} ↔ {@link blksim.kernel.sched.CpuComponent#wake} /
 *       {@link blksim.kernel.sched.CpuComponent#wakeUp}
 * </ul>
 */
package blksim.kernel.kthread;
