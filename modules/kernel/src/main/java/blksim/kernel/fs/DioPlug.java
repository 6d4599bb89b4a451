package blksim.kernel.fs;

import blksim.kernel.block.BlkMqRules;
import blksim.kernel.block.Plug;
import blksim.kernel.sched.Task;

/**
 * The {@code struct blk_plug} a direct I/O holds on its submitter's stack around its bios:
 * {@code blk_start_plug()} before the first, {@code blk_finish_plug()} after the last, as
 * {@code __blkdev_direct_IO()} ({@code block/fops.c}, {@link BlkdevDio}) and
 * {@code __iomap_dio_rw()} ({@code fs/iomap/direct-io.c}, around the {@code iomap_iter()} loop:
 * XFS's {@link DirectIo}, and btrfs's direct I/O, whose {@code btrfs_dio_write()} and
 * {@code btrfs_dio_read()} call {@code __iomap_dio_rw()} too, {@code blksim.kernel.fs.btrfs}) do.
 * One per submitting task and path; public for the filesystems of other packages.
 *
 * <ul>
 * <li>{@link #start}: the task's own plug if it holds one ({@code current->plug} already set, as
 *     under {@code io_submit()} of more than 2 iocbs: the nested {@code blk_start_plug()} only
 *     counts), else this object's, made {@code current->plug} so that a sleep for a tag flushes
 *     it from schedule ({@code sched_submit_work()}).
 * <li>{@link #finish}: the outermost finish flushes, in the caller's context; the task's plug
 *     is only un-nested and stays the caller's to finish.
 * </ul>
 *
 * <p>Simplified: 6.x plug rules ({@link BlkMqRules#V6}) in every kernel mode.
 */
public final class DioPlug {
  private final Task task;
  /** The plug on the submitter's stack. */
  private final Plug own = new Plug(BlkMqRules.V6);
  /** The plug the bios go through while held: {@link #own} or the task's; null when not. */
  private Plug held;

  /** The plug of direct I/Os submitted by {@code task}, one at a time. */
  public DioPlug(Task task) {
    this.task = task;
  }

  /** {@code blk_start_plug()}; returns the plug the bios are to be submitted with. */
  public Plug start() {
    if (held != null) {
      throw new IllegalStateException("blk_start_plug() twice for one direct I/O");
    }
    Plug current = task.plug();
    held = current != null && current.active() ? current : own;
    held.start();
    if (held == own) {
      task.setPlug(own);
    }
    return held;
  }

  /** The plug held since {@link #start}, or null. */
  public Plug held() {
    return held;
  }

  /** {@code blk_finish_plug()}: the outermost flushes, here, in the caller's context. */
  public void finish() {
    Plug p = held;
    held = null;
    if (p == own) {
      task.setPlug(null);
    }
    p.finish();
  }
}
