package blksim.kernel.iouring;

import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.WaitQueue;
import java.util.ArrayDeque;

/**
 * A completion queue a task reaps: io_uring's CQ ring, or a libaio context's event ring. Posting a
 * completion wakes the owner if it sleeps waiting for at least {@code minComplete} of them
 * ({@code io_cqring_wait()} / {@code read_events()}): the owner waits on the ring's wait queue
 * ({@code ctx->cq_wait}) with a wake function that checks the count ({@code io_wake_function()}).
 *
 * <p>Owned by the submitting task's CPU; completions are posted on that CPU (inline, from its
 * interrupts, or by io-wq workers, which run on the same CPU in this model).
 */
public final class CompletionRing {
  private final ArrayDeque<IoRequest> entries = new ArrayDeque<>();
  private final Task owner;
  private final CpuComponent cpu;
  private final WaitQueue cqWait = new WaitQueue();
  /** How many entries the owner waits for; read by {@link #enough}. */
  private int waitingFor;
  /** {@code io_should_wake()}: one wake condition for every wait, no allocation per wait. */
  private final java.util.function.BooleanSupplier enough = () -> entries.size() >= waitingFor;

  public CompletionRing(Task owner, CpuComponent cpu) {
    this.owner = owner;
    this.cpu = cpu;
  }

  /** Posts a completion; wakes the owner if it waits and enough entries are there. */
  public void post(IoRequest req, int result) {
    req.complete(result);
    entries.add(req);
    cqWait.wakeUp(cpu);
  }

  /** Completions ready to reap. */
  public int ready() {
    return entries.size();
  }

  /** Takes the oldest completion, or {@code null}. */
  public IoRequest reap() {
    return entries.poll();
  }

  /**
   * The owner is about to sleep until {@code min} completions are ready. Returns false, and arms
   * nothing, if they already are.
   */
  public boolean prepareWait(int min) {
    if (entries.size() >= min) {
      cqWait.finishWait(owner);
      return false;
    }
    waitingFor = min;
    cqWait.prepareToWait(owner, enough);
    return true;
  }
}
