package blksim.kernel.mm;

import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SystemCall;

/**
 * {@code fsync()} / {@code fdatasync()} of a file with a page cache: its dirty pages are written
 * (WB_SYNC_ALL) and the call returns when their writeback has ended
 * ({@code filemap_write_and_wait_range()}).
 *
 * <p>Simplified: the pages are written by the wb's flusher on the caller's behalf (a one-inode
 * WB_SYNC_ALL work), while the caller sleeps; the kernel writes them in the caller's own context,
 * so the CPU time of building the bios lands on the flusher here, not on the caller. No cache
 * flush is sent to the device (none of the modelled devices has a volatile write cache), and
 * fdatasync is fsync.
 */
public final class FsyncCall extends SystemCall {
  private static final int ENTER = 0;
  private static final int START = 1;
  private static final int WOKEN = 2;
  private static final int RETURN = 3;

  private final Task task;
  private AddressSpace as;
  private final long entryNs;
  private final long returnNs;
  private int phase;
  private boolean finished;

  public FsyncCall(Task task, AddressSpace as, long entryNs, long returnNs) {
    this.task = task;
    this.as = as;
    this.entryNs = entryNs;
    this.returnNs = returnNs;
  }

  /** Arms the call for the file of {@code mapping}; returns it. */
  public SystemCall arm(AddressSpace mapping) {
    this.as = mapping;
    return arm();
  }

  /** Arms the call; returns it. */
  public SystemCall arm() {
    phase = ENTER;
    return this;
  }

  @Override
  public boolean step(TaskCpu cpu) {
    switch (phase) {
      case ENTER:
        phase = START;
        cpu.runFor(CpuMode.SYSTEM, entryNs);
        return false;
      case START:
        if (as.nrDirty == 0 && as.nrWriteback == 0) {
          return returned(0);
        }
        finished = false;
        phase = WOKEN;
        CpuComponent c = cpu.cpu();
        as.wb.queueInodeSync(as, () -> {
          finished = true;
          c.wake(task);
        });
        cpu.sleep();
        return false;
      case WOKEN:
        if (!finished) {
          cpu.sleep();
          return false;
        }
        phase = RETURN;
        cpu.runFor(CpuMode.SYSTEM, returnNs);
        return false;
      default:
        return returned(0);
    }
  }
}
