package blksim.kernel.sched;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.function.BooleanSupplier;

/**
 * A wait queue head ({@code struct wait_queue_head}, include/linux/wait.h): tasks queue
 * themselves and sleep; a waker wakes them. Mirrors:
 * <ul>
 *   <li>{@code prepare_to_wait()}: a non-exclusive entry, added at the head;
 *       {@code prepare_to_wait_exclusive()}: an exclusive entry, added at the tail. A task
 *       queues itself once; queuing again changes nothing.
 *   <li>{@code __wake_up(wq, mode, nr_exclusive)}: walks from the head, wakes every entry whose
 *       wake function accepts, and stops after {@code nr_exclusive} exclusive entries were woken
 *       (0: all). Woken entries leave the queue ({@code autoremove_wake_function()}). An entry may
 *       carry a condition its wake function checks first, as io_uring's
 *       {@code io_wake_function()} does; an entry it refuses stays queued.
 *   <li>{@code finish_wait()}: a task that stops waiting (woken, or it found its condition true)
 *       leaves the queue if it is still on it.
 * </ul>
 * The caller checks its own condition between {@link #prepareToWait} and {@link TaskCpu#sleep},
 * as {@code wait_event()} does, and again when it runs after the wakeup.
 *
 * <p>Wakers pass the CPU whose message they are handling ({@code on}): the wakeup is local to it
 * or sent to the sleeper's CPU after the wakeup latency ({@link CpuComponent#wakeUp}). Owned by
 * the component that owns the object it belongs to.
 *
 * <p>A lone waiter (the usual case: one fio job waiting for its completions) is kept in fields,
 * the deque only from two; the order is the same. Why: each wakeup walked the wait queue's deque,
 * its array and an entry, cache misses once 1,024 CPUs each had their own (issue 15 item 1).
 */
public final class WaitQueue {
  private record Entry(Task task, boolean exclusive, BooleanSupplier condition) {}

  /** The only waiter while {@link #entries} is empty (null: none). */
  private Task soleTask;
  private boolean soleExclusive;
  private BooleanSupplier soleCondition;
  /** The waiters from the head when there are two or more (else empty); created at the first. */
  private ArrayDeque<Entry> entries;

  private void add(Task t, boolean exclusive, BooleanSupplier condition) {
    if (queued(t)) {
      return;
    }
    if (soleTask == null && (entries == null || entries.isEmpty())) {
      soleTask = t;
      soleExclusive = exclusive;
      soleCondition = condition;
      return;
    }
    if (entries == null) {
      entries = new ArrayDeque<>();
    }
    if (soleTask != null) {
      entries.addFirst(new Entry(soleTask, soleExclusive, soleCondition));
      clearSole();
    }
    Entry e = new Entry(t, exclusive, condition);
    if (exclusive) {
      entries.addLast(e);
    } else {
      entries.addFirst(e);
    }
  }

  private void clearSole() {
    soleTask = null;
    soleCondition = null;
  }

  /** {@code prepare_to_wait()}: queue {@code t} at the head, non-exclusive. */
  public void prepareToWait(Task t) {
    add(t, false, null);
  }

  /**
   * {@code prepare_to_wait()} with a wake function that wakes {@code t} only once
   * {@code condition} holds (the waker evaluates it).
   */
  public void prepareToWait(Task t, BooleanSupplier condition) {
    add(t, false, condition);
  }

  /** {@code prepare_to_wait_exclusive()}: queue {@code t} at the tail, exclusive. */
  public void prepareToWaitExclusive(Task t) {
    add(t, true, null);
  }

  /** {@code finish_wait()}: {@code t} leaves the queue if it is still on it. */
  public void finishWait(Task t) {
    if (soleTask != null) {
      if (soleTask == t) {
        clearSole();
      }
    } else if (entries != null) {
      entries.removeIf(e -> e.task() == t);
    }
  }

  /**
   * {@code __wake_up()}: wakes non-exclusive entries and up to {@code nrExclusive} exclusive ones
   * (all if 0), in queue order, from CPU {@code on}. Returns the number woken.
   */
  public int wakeUp(CpuComponent on, int nrExclusive) {
    if (nrExclusive < 0) {
      throw new IllegalArgumentException("nrExclusive must be >= 0, was " + nrExclusive);
    }
    Task sole = soleTask;
    if (sole != null) {
      if (soleCondition != null && !soleCondition.getAsBoolean()) {
        return 0;
      }
      clearSole();
      on.wakeUp(sole);
      return 1;
    }
    if (entries == null || entries.isEmpty()) {
      return 0;
    }
    int woken = 0;
    int exclusiveLeft = nrExclusive;
    Iterator<Entry> it = entries.iterator();
    while (it.hasNext()) {
      Entry e = it.next();
      if (e.condition() != null && !e.condition().getAsBoolean()) {
        continue;
      }
      it.remove();
      on.wakeUp(e.task());
      woken++;
      if (e.exclusive() && nrExclusive > 0 && --exclusiveLeft == 0) {
        break;
      }
    }
    return woken;
  }

  /** {@code wake_up()}: every non-exclusive waiter and one exclusive waiter. */
  public int wakeUp(CpuComponent on) {
    return wakeUp(on, 1);
  }

  /** {@code wake_up_all()}. */
  public int wakeUpAll(CpuComponent on) {
    return wakeUp(on, 0);
  }

  /** {@code waitqueue_active()}: whether anybody waits. */
  public boolean active() {
    return soleTask != null || (entries != null && !entries.isEmpty());
  }

  /** Whether {@code t} is queued. */
  public boolean queued(Task t) {
    if (soleTask != null) {
      return soleTask == t;
    }
    if (entries != null) {
      for (Entry e : entries) {
        if (e.task() == t) {
          return true;
        }
      }
    }
    return false;
  }
}
