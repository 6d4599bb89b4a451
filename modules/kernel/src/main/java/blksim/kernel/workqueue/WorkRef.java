package blksim.kernel.workqueue;

/**
 * A work item as it travels to the pool that runs it: its identity and its function. Immutable.
 *
 * @param key identity: {@code (home CPU << 32) | serial}, unique in the run
 * @param name the item's name (its {@code work_func_t}, for traces)
 * @param fn what it does
 * @param homeCpu the CPU that owns the item's PENDING bit
 * @param tracked whether the home follows the item's execution (start and end are reported to
 *     it); false for one-shot items
 */
public record WorkRef(long key, String name, WorkFn fn, int homeCpu, boolean tracked) {}
