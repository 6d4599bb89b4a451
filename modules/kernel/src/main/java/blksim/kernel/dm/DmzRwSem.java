package blksim.kernel.dm;

import java.util.ArrayDeque;

/**
 * dm-zoned's metadata semaphore {@code mblk_sem} ({@code struct rw_semaphore}): chunk works take
 * it shared for every bio ({@code dmz_lock_metadata()}), {@code dmz_flush_metadata()} takes it
 * exclusively (kernel-model.md §15.1.2-§15.1.3). FIFO hand-off as rwsem.c does without
 * optimistic spinning: a reader queues behind a waiting writer; a release grants the lock to the
 * head waiter (and to every reader queued right behind a granted reader) and runs its waker.
 *
 * <p>Simplified: a waiter is a work item's waker, not a task (no spinning, no D-state
 * accounting by {@code blksim.kernel.locking}). Owned by its {@link DmzMetadata}.
 */
final class DmzRwSem {
  private record Waiter(boolean write, Runnable wake) {}

  private int readers;
  private boolean writer;
  private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
  private long contended;

  /** {@code down_read()}: true if taken now; otherwise {@code wake} runs once it is granted. */
  boolean downRead(Runnable wake) {
    if (!writer && waiters.isEmpty()) {
      readers++;
      return true;
    }
    contended++;
    waiters.add(new Waiter(false, wake));
    return false;
  }

  /** {@code down_write()}: true if taken now; otherwise {@code wake} runs once it is granted. */
  boolean downWrite(Runnable wake) {
    if (!writer && readers == 0 && waiters.isEmpty()) {
      writer = true;
      return true;
    }
    contended++;
    waiters.add(new Waiter(true, wake));
    return false;
  }

  /** {@code up_read()}. */
  void upRead() {
    if (readers <= 0) {
      throw new IllegalStateException("up_read without a reader");
    }
    readers--;
    grant();
  }

  /** {@code up_write()}. */
  void upWrite() {
    if (!writer) {
      throw new IllegalStateException("up_write without the writer");
    }
    writer = false;
    grant();
  }

  private void grant() {
    if (writer || waiters.isEmpty()) {
      return;
    }
    if (waiters.peek().write()) {
      if (readers == 0) {
        writer = true;
        waiters.poll().wake().run();
      }
      return;
    }
    while (!waiters.isEmpty() && !waiters.peek().write()) {
      readers++;
      waiters.poll().wake().run();
    }
  }

  /** Times a caller had to wait. */
  long contended() {
    return contended;
  }

  /** Whether a writer holds it. */
  boolean writeLocked() {
    return writer;
  }
}
