package blksim.kernel.workqueue;

/**
 * One queued instance of a work item on a pwq: what sits on a pool's {@code worklist}, a pwq's
 * {@code inactive_works} or a worker's {@code scheduled} list.
 *
 * @param ref the item
 * @param pwq the pwq it was queued on ({@code get_work_pwq()})
 * @param seq its queueing order among the owner's items of that wq (flush barriers)
 */
record QueuedWork(WorkRef ref, PoolWorkqueue pwq, long seq) {}
