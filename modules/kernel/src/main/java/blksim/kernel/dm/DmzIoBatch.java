package blksim.kernel.dm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.workqueue.WorkerCpu;
import java.util.ArrayDeque;
import java.util.function.IntFunction;

/**
 * Bios a dm-zoned work item submits and then waits for, as {@code submit_bio_wait()}, a plugged
 * batch followed by {@code wait_on_bit_io()} ({@code dmz_write_dirty_mblocks()}), or
 * {@code blkdev_issue_flush()} / {@code blkdev_zone_mgmt()} do: each {@link #step} takes one
 * action of the worker (pay a bio's submission, sleep for a tag, sleep for the completions) or
 * returns false when every bio completed. The worker pays each bio's
 * {@link BlockQueue#submitCostNs}. Owned by the work item running it.
 */
final class DmzIoBatch {
  private final ArrayDeque<Bio> toIssue = new ArrayDeque<>();
  private final IntFunction<BlockQueue> queues;
  private int inflight;
  private boolean paid;
  private Runnable waiter;
  private int error;

  /** A batch submitting to the zoned disk's queue of the worker's CPU ({@code queues}). */
  DmzIoBatch(IntFunction<BlockQueue> queues) {
    this.queues = queues;
  }

  /** Adds a bio to submit. */
  DmzIoBatch add(Bio b) {
    toIssue.add(b);
    return this;
  }

  /** The first error a bio completed with, 0 if none. */
  int error() {
    return error;
  }

  /** Whether nothing is left to submit or wait for. */
  boolean idle() {
    return toIssue.isEmpty() && inflight == 0;
  }

  /** One action, or false when every bio completed. */
  boolean step(WorkerCpu cpu) {
    BlockQueue q = queues.apply(cpu.cpu().cpu().id());
    while (!toIssue.isEmpty()) {
      Bio b = toIssue.peek();
      if (!paid) {
        paid = true;
        cpu.runFor(q.submitCostNs(b));
        return true;
      }
      inflight++;
      if (!q.issue(b, (bio, err) -> done(err), cpu.waker())) {
        inflight--;
        cpu.sleep();
        return true;
      }
      toIssue.poll();
      paid = false;
    }
    if (inflight > 0) {
      waiter = cpu.waker();
      cpu.sleep();
      return true;
    }
    return false;
  }

  private void done(int err) {
    if (err != 0 && error == 0) {
      error = err;
    }
    inflight--;
    if (inflight == 0 && waiter != null) {
      Runnable w = waiter;
      waiter = null;
      w.run();
    }
  }
}
