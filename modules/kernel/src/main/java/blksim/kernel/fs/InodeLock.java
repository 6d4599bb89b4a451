package blksim.kernel.fs;

import java.util.ArrayList;
import java.util.List;

/**
 * An inode's {@code i_rwsem} (XFS's IOLOCK) and {@code i_dio_count}, as direct I/O uses them
 * ({@code xfs_ilock(ip, XFS_IOLOCK_SHARED / XFS_IOLOCK_EXCL)}, {@code inode_dio_begin()},
 * {@code inode_dio_end()}, {@code inode_dio_wait()}).
 *
 * <p>Simplified (a sleeping lock of this package, not the kernel's rwsem): a task that cannot
 * take it registers a wakeup and sleeps; every release wakes all the waiters, which try again
 * (no FIFO hand-off, no writer preference, no optimistic spinning). Only the direct I/O path
 * takes it: buffered reads and writes, truncate and fallocate do not (they are not serialised
 * against it in the model).
 */
final class InodeLock {
  private int readers;
  private boolean writer;
  /** {@code i_dio_count}: direct I/Os submitted and not yet completed. */
  private int dioCount;
  private final List<Runnable> waiters = new ArrayList<>();

  /** Takes the lock shared (or exclusive when {@code exclusive}); false if it must wait. */
  boolean tryLock(boolean exclusive) {
    if (writer || exclusive && readers > 0) {
      return false;
    }
    if (exclusive) {
      writer = true;
    } else {
      readers++;
    }
    return true;
  }

  /** Releases a hold taken with {@link #tryLock}; wakes every waiter to try again. */
  void unlock(boolean exclusive) {
    if (exclusive) {
      if (!writer) {
        throw new IllegalStateException("i_rwsem released exclusive without being held");
      }
      writer = false;
    } else {
      if (readers == 0) {
        throw new IllegalStateException("i_rwsem released shared without being held");
      }
      readers--;
    }
    wakeAll();
  }

  /** Registers {@code wake} to run at the next release or dio end. */
  void await(Runnable wake) {
    waiters.add(wake);
  }

  /** {@code inode_dio_begin()}. */
  void dioBegin() {
    dioCount++;
  }

  /** {@code inode_dio_end()}: the last one wakes the waiters of {@code inode_dio_wait()}. */
  void dioEnd() {
    if (--dioCount < 0) {
      throw new IllegalStateException("inode_dio_end() without inode_dio_begin()");
    }
    if (dioCount == 0) {
      wakeAll();
    }
  }

  /** Direct I/Os in flight ({@code i_dio_count}). */
  int dioCount() {
    return dioCount;
  }

  /** Whether anyone holds the lock. */
  boolean held() {
    return writer || readers > 0;
  }

  private void wakeAll() {
    if (waiters.isEmpty()) {
      return;
    }
    List<Runnable> w = new ArrayList<>(waiters);
    waiters.clear();
    for (Runnable r : w) {
      r.run();
    }
  }
}
