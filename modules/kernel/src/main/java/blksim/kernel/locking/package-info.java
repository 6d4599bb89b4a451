/**
 * Sleeping locks (kernel/locking, 6.5-6.8), usable by any model: {@link
 * blksim.kernel.locking.RwSemaphore} ({@code struct rw_semaphore}) and {@link
 * blksim.kernel.locking.Mutex} ({@code struct mutex}) on the common {@link
 * blksim.kernel.locking.SleepingLock}: optimistic spinning on a running owner
 * ({@code rwsem_optimistic_spin()}, {@code mutex_optimistic_spin()}, {@code osq_lock()}), FIFO
 * sleepers in {@code TASK_UNINTERRUPTIBLE}, readers behind a sleeping writer, the anti-starvation
 * hand-off ({@code RWSEM_WAIT_TIMEOUT}, {@code MUTEX_FLAG_HANDOFF}). Costs: {@link
 * blksim.kernel.locking.LockParams}. Each task keeps its waits per lock
 * ({@link blksim.kernel.sched.LockWaitStat}), reported with its scheduler statistics; a task
 * asleep on a lock shows state D and the lock as its {@code wchan}.
 *
 * <p>Spinlocks: {@link blksim.kernel.locking.SpinLock} is a contended qspinlock as a queueing
 * reservation (FIFO, a cache-line hand-off per waiter costed by CPU distance,
 * {@link blksim.kernel.locking.SpinLockParams}), with no events; its users are listed there.
 */
package blksim.kernel.locking;
