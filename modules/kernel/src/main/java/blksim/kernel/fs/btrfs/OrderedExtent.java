package blksim.kernel.fs.btrfs;

/**
 * {@code struct btrfs_ordered_extent} ({@code fs/btrfs/ordered-data.h}) of one direct write:
 * created at submission ({@code btrfs_alloc_ordered_extent()} from
 * {@code btrfs_create_dio_extent()}), its bytes counted down as the bios complete
 * ({@code can_finish_ordered_extent()}: {@code bytes_left}), queued to
 * {@code btrfs-endio-write} when none remain ({@code btrfs_queue_ordered_fn()}) and finished
 * there ({@code finish_ordered_fn()} → {@code btrfs_finish_one_ordered()}), which removes it
 * ({@code btrfs_remove_ordered_extent()}) and wakes its waiters.
 *
 * <p>The times are virtual ns, -1 until the event happened; they let tests and reports check
 * the order of events (the aio completes before the ordered extent finishes).
 */
public final class OrderedExtent {
  final long ino;
  final long fileOffset;
  final int numBytes;
  final long diskLogical;
  int bytesLeft;
  final long createdNs;
  long queuedNs = -1;
  long aioDoneNs = -1;
  long finishedNs = -1;

  OrderedExtent(long ino, long fileOffset, int numBytes, long diskLogical, long createdNs) {
    this.ino = ino;
    this.fileOffset = fileOffset;
    this.numBytes = numBytes;
    this.diskLogical = diskLogical;
    this.bytesLeft = numBytes;
    this.createdNs = createdNs;
  }

  /** The inode. */
  public long ino() {
    return ino;
  }

  /** {@code file_offset}. */
  public long fileOffset() {
    return fileOffset;
  }

  /** {@code num_bytes}. */
  public int numBytes() {
    return numBytes;
  }

  /** {@code disk_bytenr}: the logical address of the new extent. */
  public long diskLogical() {
    return diskLogical;
  }

  /** When it was created (submission). */
  public long createdNs() {
    return createdNs;
  }

  /** When {@code finish_ordered_fn} was queued (its last bio completed), or -1. */
  public long queuedNs() {
    return queuedNs;
  }

  /** When the aio's event was posted ({@code ki_complete}), or -1. */
  public long aioDoneNs() {
    return aioDoneNs;
  }

  /** When {@code finish_ordered_fn} removed it, or -1. */
  public long finishedNs() {
    return finishedNs;
  }
}
