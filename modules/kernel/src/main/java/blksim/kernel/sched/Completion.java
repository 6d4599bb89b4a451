package blksim.kernel.sched;

/**
 * A completion ({@code struct completion}, kernel/sched/completion.c): a count of
 * {@code complete()} calls not yet consumed, and the tasks waiting for one. Mirrors
 * {@code wait_for_completion()} (consume one if there is one, else wait exclusively until
 * there is), {@code complete()} (count one, wake the first waiter), {@code complete_all()}
 * (every wait from now on passes, all waiters woken), {@code reinit_completion()} and
 * {@code completion_done()}.
 *
 * <p>A task waits from its step: {@code if (!c.tryWait(this)) { cpu.sleep(); return; }} and
 * calls {@link #tryWait} again when it next runs. A {@code complete()} before the wait is
 * remembered, so the task does not sleep at all (an I/O completed inline).
 */
public final class Completion {
  /** {@code UINT_MAX}: completed for everybody. */
  private static final int ALL = Integer.MAX_VALUE;

  private final WaitQueue wait = new WaitQueue();
  private int done;

  /**
   * {@code wait_for_completion()} as a step: true if a completion was consumed (the task goes
   * on), false if {@code t} is now queued and must sleep.
   */
  public boolean tryWait(Task t) {
    if (done > 0) {
      if (done != ALL) {
        done--;
      }
      wait.finishWait(t);
      return true;
    }
    wait.prepareToWaitExclusive(t);
    return false;
  }

  /** {@code complete()} from CPU {@code on}: one more completion, the first waiter woken. */
  public void complete(CpuComponent on) {
    if (done != ALL) {
      done++;
    }
    wait.wakeUp(on, 1);
  }

  /** {@code complete_all()} from CPU {@code on}. */
  public void completeAll(CpuComponent on) {
    done = ALL;
    wait.wakeUpAll(on);
  }

  /** {@code reinit_completion()}: no completion pending. */
  public void reinit() {
    done = 0;
  }

  /** {@code completion_done()}: whether a wait would pass without sleeping. */
  public boolean isDone() {
    return done > 0;
  }

  /** Whether a task waits. */
  public boolean hasWaiters() {
    return wait.active();
  }
}
