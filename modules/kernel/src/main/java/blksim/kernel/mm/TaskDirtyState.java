package blksim.kernel.mm;

/**
 * A task's dirty-throttling fields of {@code struct task_struct}: {@code nr_dirtied},
 * {@code nr_dirtied_pause} and {@code dirty_paused_when} (kernel-model.md §15.4.2; set up by
 * {@code copy_process()} in kernel/fork.c, updated by {@code balance_dirty_pages()}).
 *
 * <p>The kernel marks "never paused" with {@code dirty_paused_when == 0}; its jiffies start five
 * minutes before the wrap, so 0 is otherwise a time long past. The model's jiffies start at 0, so
 * it uses {@link #NEVER_PAUSED}, a time far in the past that stays in the past when a period is
 * added to it (the debt path), which is how 0 behaves in a kernel that has been up for more than
 * five minutes.
 *
 * @param nrDirtied {@code nr_dirtied}: pages dirtied since the last throttling decision, >= 0
 * @param nrDirtiedPause {@code nr_dirtied_pause}: pages to dirty before the next check, >= 0
 * @param dirtyPausedWhen {@code dirty_paused_when}: jiffies the task's last pause ended (or was
 *     accounted to end), or {@link #NEVER_PAUSED}
 */
public record TaskDirtyState(long nrDirtied, int nrDirtiedPause, long dirtyPausedWhen) {

  /** "Never paused": the model's form of the kernel's {@code dirty_paused_when = 0}. */
  public static final long NEVER_PAUSED = Long.MIN_VALUE / 4;

  /**
   * {@code copy_process()}: a new task has dirtied nothing and checks after
   * {@code 128 >> (PAGE_SHIFT - 10)} = 32 pages (128 KiB).
   */
  public static final TaskDirtyState FORK =
      new TaskDirtyState(0, 128 >> (BalanceDirtyPages.PAGE_SHIFT - 10), NEVER_PAUSED);

  public TaskDirtyState {
    if (nrDirtied < 0) {
      throw new IllegalArgumentException("nrDirtied must be >= 0, was " + nrDirtied);
    }
    if (nrDirtiedPause < 0) {
      throw new IllegalArgumentException("nrDirtiedPause must be >= 0, was " + nrDirtiedPause);
    }
  }

  /** Whether the task has a pause time to measure against ({@code dirty_paused_when != 0}). */
  public boolean hasPaused() {
    return dirtyPausedWhen != NEVER_PAUSED;
  }

  /** This state after {@code pages} more pages were dirtied ({@code account_page_dirtied()}). */
  public TaskDirtyState dirtied(long pages) {
    return new TaskDirtyState(nrDirtied + pages, nrDirtiedPause, dirtyPausedWhen);
  }
}
