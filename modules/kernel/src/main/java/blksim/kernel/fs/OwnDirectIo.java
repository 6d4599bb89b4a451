package blksim.kernel.fs;

import blksim.kernel.iouring.CompletionRing;
import blksim.kernel.iouring.IoRequest;
import blksim.kernel.sched.Task;
import blksim.kernel.syscall.SystemCall;

/**
 * A filesystem whose asynchronous direct I/O and {@code fsync} are its own rather than XFS's
 * iomap path ({@link DirectIo}) and the page-cache fsync: btrfs's {@code btrfs_direct_write()}
 * and {@code btrfs_sync_file()} ({@code blksim.kernel.fs.btrfs}). {@link VfsCalls} asks the
 * filesystem of the file for these calls.
 */
public interface OwnDirectIo {
  /** The calls of {@code task} on this filesystem, made once per task. */
  TaskCalls forTask(Task task);

  /** One task's calls. */
  interface TaskCalls {
    /** An asynchronous direct I/O of {@code req}'s range of {@code f}, posted to {@code ring}. */
    AsyncDio async(VfsCalls.OpenFile f, IoRequest req, CompletionRing ring);

    /** {@code fsync(fd)} of {@code f}. */
    SystemCall fsync(VfsCalls.OpenFile f);
  }
}
