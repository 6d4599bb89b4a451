package blksim.kernel.dm;

import java.util.List;

/**
 * One call of {@code flush_delayed_bios(dc, false)} followed by {@code flush_bios()}
 * ({@code drivers/md/dm-delay.c}), as steps of the task that runs it (kernel-model.md §8.4):
 * <ol>
 *   <li>the walk over the target's list, a system-mode burst of a base cost plus
 *       {@link DmCostParams#delayScanPerBioNs} per bio;</li>
 *   <li>when it ends, the bios with {@code time_after_eq(jiffies, expires)} leave the list, in
 *       list order, and in timer mode the earliest expiry left re-arms the timer
 *       ({@link DelayTarget#takeDue});</li>
 *   <li>each due bio is resubmitted to its device ({@code dm_submit_bio_remap()}): a burst of
 *       its submission cost, then the issue; a device without a free tag makes the task sleep
 *       until one is freed, then the issue is retried.</li>
 * </ol>
 * {@link #step} takes one action, or returns false when every due bio went out. Owned by the task
 * running it, on its target's CPU.
 */
final class FlushDelayedBios {
  private final DelayTarget target;
  private final long walkBaseNs;
  private boolean walked;
  private List<DelayedBio> due;
  private int next;
  private boolean paid;

  private FlushDelayedBios(DelayTarget target, long walkBaseNs, boolean walked) {
    this.target = target;
    this.walkBaseNs = walkBaseNs;
    this.walked = walked;
  }

  /** A call whose walk costs {@code walkBaseNs} plus the per-bio scan. */
  static FlushDelayedBios withWalk(DelayTarget target, long walkBaseNs) {
    return new FlushDelayedBios(target, walkBaseNs, false);
  }

  /** A call whose walk the caller already ran: it starts by taking the due bios. */
  static FlushDelayedBios afterWalk(DelayTarget target) {
    return new FlushDelayedBios(target, 0, true);
  }

  /** One action of the call through {@code a}; false, with no action, when it is over. */
  boolean step(FlushActions a) {
    if (!walked) {
      walked = true;
      a.runFor(target.walkNs(walkBaseNs));
      return true;
    }
    if (due == null) {
      due = target.takeDue();
    }
    while (next < due.size()) {
      DmTargetIo tio = due.get(next).tio();
      if (!paid) {
        paid = true;
        a.runFor(tio.submitCostNs());
        return true;
      }
      if (!tio.submit(a.waker())) {
        a.sleep();
        return true;
      }
      paid = false;
      next++;
      target.countReleased();
    }
    return false;
  }
}
