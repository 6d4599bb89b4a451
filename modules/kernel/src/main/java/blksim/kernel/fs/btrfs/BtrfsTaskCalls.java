package blksim.kernel.fs.btrfs;

import blksim.kernel.fs.AsyncDio;
import blksim.kernel.fs.DioPlug;
import blksim.kernel.fs.OwnDirectIo;
import blksim.kernel.fs.VfsCalls;
import blksim.kernel.iouring.CompletionRing;
import blksim.kernel.iouring.IoRequest;
import blksim.kernel.sched.Task;
import blksim.kernel.syscall.SystemCall;
import java.util.ArrayList;

/**
 * One task's calls on a btrfs filesystem: its asynchronous direct writes
 * ({@link BtrfsDirectWrite}, re-armed from a free list, not allocated per I/O) and its fsync
 * ({@link BtrfsFsync}).
 */
final class BtrfsTaskCalls implements OwnDirectIo.TaskCalls {
  final BtrfsFilesystem fs;
  final Task task;
  final ArrayList<BtrfsDirectWrite> free = new ArrayList<>();
  /** {@code __iomap_dio_rw()}'s plug, held by one write's submission at a time. */
  final DioPlug plug;
  private final BtrfsFsync fsync;

  BtrfsTaskCalls(BtrfsFilesystem fs, Task task) {
    this.fs = fs;
    this.task = task;
    this.plug = new DioPlug(task);
    this.fsync = new BtrfsFsync(fs, task);
  }

  @Override
  public AsyncDio async(VfsCalls.OpenFile f, IoRequest req, CompletionRing ring) {
    BtrfsDirectWrite d = free.isEmpty() ? new BtrfsDirectWrite(this)
        : free.remove(free.size() - 1);
    d.arm(f, req, ring);
    return d;
  }

  @Override
  public SystemCall fsync(VfsCalls.OpenFile f) {
    return fsync.arm(f.ino());
  }
}
