package blksim.kernel.workqueue;

/**
 * A {@code struct work_struct}: a function and a PENDING bit (kernel-model.md §4.1, §4.3).
 *
 * <p><b>Ownership.</b> An item belongs to one CPU, its <em>home</em>, which owns its PENDING bit
 * and its record of where the item is executing. An item made before the run with
 * {@link WorkqueueSystem#newWorkItem} has a fixed home and may be queued from any CPU: a
 * {@code queue_work()} from another CPU is forwarded to the home (one IPI-like hop), which tests
 * and sets PENDING there. An item made during the run with the public constructor is homed on the
 * first CPU that queues it, and must always be queued from there.
 *
 * <p>PENDING is set by {@code queue_work()} and cleared just before the callback starts
 * ({@code set_work_pool_and_clear_pending()}), so the callback may re-queue its item. When the
 * item runs on another CPU (an unbound worker), the start and end are reported back to the home
 * with the run's lookahead; until the start report arrives, the home still sees PENDING. That lag
 * is the simplification that keeps every state with one owner.
 *
 * <p>A one-shot item ({@link #oneShot}) is queued once and never reported back: it saves two
 * messages per run for items allocated per request (btrfs's ordered-extent completions).
 */
public final class WorkItem {
  private final String name;
  private final WorkFn fn;
  private final boolean oneShot;
  int homeCpu;
  long key = -1;
  boolean pending;
  boolean queuedOnce;
  /** Runs started minus runs finished, as the home knows them. */
  int running;
  /** Component index of the pool owner executing it, its wq and pwq key (while running > 0). */
  int execOwner = -1;
  int execWq = -1;
  int execPwqKey;
  /**
   * The last queueing the home refused as PENDING while its news of the run's start was still on
   * its way ({@code -1}: none), and how to redo it: the kernel clears PENDING as the run starts,
   * so a queueing after that start must queue the item again (see
   * {@code WorkqueueCpu.homeStarted}).
   */
  long refusedQueueNs = -1;
  Runnable refusedQueue;

  /** An item homed on the first CPU that queues it (made during the run). */
  public WorkItem(String name, WorkFn fn) {
    this(name, fn, -1, false);
  }

  WorkItem(String name, WorkFn fn, int homeCpu, boolean oneShot) {
    if (name == null || fn == null) {
      throw new IllegalArgumentException("a work item needs a name and a function");
    }
    this.name = name;
    this.fn = fn;
    this.homeCpu = homeCpu;
    this.oneShot = oneShot;
  }

  /** A one-shot item: queued once, its execution not reported back to its home. */
  public static WorkItem oneShot(String name, WorkFn fn) {
    return new WorkItem(name, fn, -1, true);
  }

  /** The item's name. */
  public String name() {
    return name;
  }

  /** Its function. */
  public WorkFn fn() {
    return fn;
  }

  /** Its home CPU, -1 until first queued (for items made during the run). */
  public int homeCpu() {
    return homeCpu;
  }

  /** Whether it is a one-shot item. */
  public boolean isOneShot() {
    return oneShot;
  }

  /** {@code work_pending()}, as the home sees it; read it on the home CPU. */
  public boolean workPending() {
    return pending;
  }

  /** Its identity, -1 until assigned. */
  public long key() {
    return key;
  }

  WorkRef ref() {
    return new WorkRef(key, name, fn, homeCpu, !oneShot);
  }

  @Override
  public String toString() {
    return "work " + name + (key >= 0 ? "#" + Long.toHexString(key) : "");
  }
}
