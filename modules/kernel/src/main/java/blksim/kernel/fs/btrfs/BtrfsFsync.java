package blksim.kernel.fs.btrfs;

import blksim.kernel.locking.RwSemaphore;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SystemCall;

/**
 * {@code fsync(fd)} of a btrfs file ({@code btrfs_sync_file()}, {@code fs/btrfs/file.c}): the
 * entry, the inode lock exclusive ({@code btrfs_inode_lock(inode, BTRFS_ILOCK_MMAP)}), then
 * {@code btrfs_wait_ordered_range()} over the whole file: the task sleeps until every ordered
 * extent of the inode has finished (its {@code finish_ordered_fn} ran on
 * {@code btrfs-endio-write}); then the log sync ({@code btrfs_sync_log()}) as CPU time, the
 * unlock and the return. Returns 0.
 *
 * <p>Simplified: no dirty pages to write first (buffered writes on btrfs are not modelled); the
 * log tree is synced as CPU time without I/O and never falls back to a transaction commit; a
 * range fsync waits for the whole file.
 */
final class BtrfsFsync extends SystemCall {
  private static final int ENTER = 0;
  private static final int LOCK = 1;
  private static final int WAIT = 2;
  private static final int UNLOCK = 3;
  private static final int RETURN = 4;

  private final BtrfsFilesystem fs;
  private final Task task;
  private BtrfsFilesystem.Inode inode;
  private int phase;

  BtrfsFsync(BtrfsFilesystem fs, Task task) {
    this.fs = fs;
    this.task = task;
  }

  SystemCall arm(long ino) {
    this.inode = fs.inode(ino);
    this.phase = ENTER;
    return this;
  }

  @Override
  public boolean step(TaskCpu cpu) {
    while (true) {
      switch (phase) {
        case ENTER:
          phase = LOCK;
          cpu.runFor(CpuMode.SYSTEM, fs.syscalls.rwEntryNs());
          return false;
        case LOCK:
          if (!fs.iRwsem(inode).downWrite(task, cpu)) {
            return false;
          }
          phase = WAIT;
          continue;
        case WAIT:
          if (inode.orderedPending > 0) {
            // btrfs_wait_ordered_range() → btrfs_start_ordered_extent(): wait_event(entry->wait,
            // test_bit(BTRFS_ORDERED_COMPLETE, ...)), here for all of the inode's at once.
            inode.orderedWait.prepareToWait(task);
            cpu.sleep();
            return false;
          }
          inode.orderedWait.finishWait(task);
          phase = UNLOCK;
          cpu.runFor(CpuMode.SYSTEM, fs.params().fsyncLogNs());
          return false;
        case UNLOCK: {
          RwSemaphore l = fs.iRwsem(inode);
          long wake = l.upWrite(task, cpu.cpu());
          phase = RETURN;
          cpu.runFor(CpuMode.SYSTEM, fs.syscalls.wakeReturnNs() + wake);
          return false;
        }
        default:
          return returned(0);
      }
    }
  }
}
