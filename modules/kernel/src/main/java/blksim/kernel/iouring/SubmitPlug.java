package blksim.kernel.iouring;

import blksim.kernel.block.BlkMqRules;
import blksim.kernel.block.DriverCpu;
import blksim.kernel.block.Plug;
import blksim.kernel.sched.Task;

/**
 * The block plug a submission call holds on its kernel stack around its batch: libaio's
 * {@code io_submit()} ({@code fs/aio.c}: {@code if (nr > AIO_PLUG_THRESHOLD) blk_start_plug()}
 * around the {@code io_submit_one()} loop, {@code AIO_PLUG_THRESHOLD} 2, since 5.0) and
 * io_uring's {@code io_submit_sqes()} ({@code io_submit_state_start()}: {@code need_plug =
 * max_ios > 2}), on a block device ({@link SubmitCall}) or on files ({@code fs.FileAio}). It is
 * the task's {@code current->plug} while held, so a sleep flushes it from schedule and a direct
 * I/O's own {@code blk_start_plug()} inside the batch only nests in it ({@code fs.DioPlug}).
 *
 * <p>Simplified: 6.x plug rules ({@link BlkMqRules#V6}) in every kernel mode (before 5.0 libaio
 * plugged every {@code io_submit()}); a task that already holds a plug does not start one.
 */
public final class SubmitPlug {
  /**
   * A call plugs when it submits more than this many requests: {@code AIO_PLUG_THRESHOLD} in
   * {@code fs/aio.c} (2), and io_uring's {@code max_ios > 2} in {@code io_submit_state_start()}.
   */
  public static final int THRESHOLD = 2;

  private final Task task;
  private final Plug plug = new Plug(BlkMqRules.V6);
  private boolean held;

  /** The plug of {@code task}'s submission calls, one call at a time. */
  public SubmitPlug(Task task) {
    this.task = task;
  }

  /**
   * {@code blk_start_plug()} for a batch of {@code nr} requests: only above {@link #THRESHOLD}
   * and when the task holds no plug. Returns whether the plug is held.
   */
  public boolean start(int nr) {
    if (held) {
      throw new IllegalStateException(task.comm() + ": a submission plug started twice");
    }
    if (nr > THRESHOLD && task.plug() == null && plug.start()) {
      held = true;
      task.setPlug(plug);
    }
    return held;
  }

  /** Whether the plug is held (started, not finished). */
  public boolean held() {
    return held;
  }

  /** The plug to submit with while held, else null. */
  public Plug plug() {
    return held ? plug : null;
  }

  /**
   * {@code blk_finish_plug()} by the task, now on {@code cpu}: the plugged requests go to their
   * queues, which run here, in the caller's context. Nothing when not held.
   */
  public void finish(DriverCpu cpu) {
    if (!held) {
      return;
    }
    held = false;
    task.setPlug(null);
    plug.flush(cpu, false);
    plug.finish();
  }
}
