package blksim.kernel.fs;

import java.util.SplittableRandom;

/**
 * A mounted filesystem as the VFS and the writeback code call it: the {@code super_operations},
 * {@code inode_operations} and {@code address_space_operations} a model needs, reduced to plain
 * deterministic calls. Implementations: {@link XfsFilesystem}; btrfs and an XFS with its log come
 * next behind the same calls.
 *
 * <p>Conventions. Inodes are named by their inode number ({@code long}, as {@code i_ino}); names
 * are single path components. Namespace calls return a non-negative result or a negated errno
 * (the constants below, x86-64 numbering), as the kernel's {@code ->create()} and
 * {@code ->unlink()} do, and never throw for a user's mistake; calling on an unmounted filesystem
 * or with an inode number that is not live is a model bug and throws
 * {@link IllegalStateException}.
 *
 * <p>Costs are reported, never spent: the caller charges {@link #createCostNs()},
 * {@link #unlinkCostNs()} and {@link Allocation#cpuNs()} to the task that made the call.
 *
 * <p>Page units: file offsets and lengths are in 4 KiB pages ({@link #PAGE_SIZE}); extents are in
 * 512-byte sectors of the filesystem's device, which the filesystem covers from sector 0.
 */
public interface Filesystem {
  /** Page size in bytes ({@code PAGE_SIZE}); also the filesystem block size of the models. */
  int PAGE_SIZE = 4096;
  /** 512-byte sectors per page. */
  int SECTORS_PER_PAGE = PAGE_SIZE / 512;
  /** Longest name of one path component ({@code NAME_MAX}). */
  int NAME_MAX = 255;

  /** {@code ENOENT} (2): no such file or directory. */
  int ENOENT = 2;
  /** {@code EBUSY} (16): device or resource busy (unmount with files open). */
  int EBUSY = 16;
  /** {@code EEXIST} (17): the name exists. */
  int EEXIST = 17;
  /** {@code ENOTDIR} (20): a path component is not a directory. */
  int ENOTDIR = 20;
  /** {@code EISDIR} (21): unlink of a directory. */
  int EISDIR = 21;
  /** {@code EINVAL} (22): a name that is empty, ".", ".." or holds a '/'. */
  int EINVAL = 22;
  /** {@code ENOSPC} (28): no space left on the device. */
  int ENOSPC = 28;
  /** {@code EROFS} (30): read-only filesystem. */
  int EROFS = 30;
  /** {@code ENAMETOOLONG} (36): a name longer than {@link #NAME_MAX} bytes. */
  int ENAMETOOLONG = 36;
  /** {@code ENOTEMPTY} (39): rmdir of a directory that has entries. */
  int ENOTEMPTY = 39;

  /** The filesystem type as {@code mount -t} names it ({@code xfs}). */
  String type();

  /** The name of the device the filesystem was made on ({@code sdb}). */
  String device();

  /** Whether the filesystem is mounted. */
  boolean mounted();

  /** Whether the filesystem is mounted read-only ({@code SB_RDONLY}). */
  boolean readOnly();

  /**
   * {@code mount()}: attaches the filesystem, read-only when {@code readOnly}.
   *
   * @throws IllegalStateException if it is already mounted
   */
  void mount(boolean readOnly);

  /**
   * {@code umount()}: 0, or {@code -EBUSY} while an inode is held open ({@link #iget}). Writing
   * dirty data back before it is the caller's part ({@code sync_filesystem()}).
   */
  int unmount();

  /** Whether an inode is held open ({@link #iget} without its {@link #iput}). */
  boolean hasOpenInodes();

  /** The root directory's inode number. */
  long rootIno();

  /** {@code ->lookup()}: the inode number of {@code name} in directory {@code dirIno}, or -errno. */
  long lookup(long dirIno, String name);

  /**
   * Walks {@code relativePath} (components separated by '/', empty for the root) from the root:
   * the inode number, or {@code -ENOENT} / {@code -ENOTDIR}.
   */
  default long lookupPath(String relativePath) {
    long ino = rootIno();
    for (String c : relativePath.split("/")) {
      if (c.isEmpty() || c.equals(".")) {
        continue;
      }
      if (!isDirectory(ino)) {
        return -ENOTDIR;
      }
      ino = lookup(ino, c);
      if (ino < 0) {
        return ino;
      }
    }
    return ino;
  }

  /**
   * {@code ->create()}: a new empty regular file {@code name} in {@code dirIno}; its inode
   * number, or {@code -EROFS}, {@code -EEXIST}, {@code -ENOTDIR}, {@code -ENOSPC},
   * {@code -EINVAL}, {@code -ENAMETOOLONG}. Costs {@link #createCostNs()}.
   */
  long create(long dirIno, String name);

  /** {@code ->mkdir()}: as {@link #create}, for a directory. Costs {@link #createCostNs()}. */
  long mkdir(long dirIno, String name);

  /**
   * {@code ->unlink()}: removes the name of a regular file; 0 or {@code -EROFS},
   * {@code -ENOENT}, {@code -EISDIR}, {@code -ENOTDIR}. The inode and its blocks are freed at
   * once, or at the last {@link #iput} if it is held open ({@code xfs_inactive()} on the final
   * {@code iput()}). Costs {@link #unlinkCostNs()}.
   */
  int unlink(long dirIno, String name);

  /** {@code ->rmdir()}: removes an empty directory; 0 or -errno ({@code -ENOTEMPTY}, ...). */
  int rmdir(long dirIno, String name);

  /** Whether {@code ino} is a directory. */
  boolean isDirectory(long ino);

  /** Takes a reference on an inode, as an open file holds one ({@code igrab()}). */
  void iget(long ino);

  /** Drops a reference; an unlinked inode is freed at its last one ({@code iput()}). */
  void iput(long ino);

  /**
   * The write() side of delayed allocation ({@code xfs_bmapi_reserve_delalloc()}): reserves space
   * for pages {@code [firstPage, firstPage + nPages)} about to be dirtied, choosing no disk
   * address. 0, or {@code -ENOSPC} (nothing is reserved then), or {@code -EROFS}.
   */
  int reserve(long ino, long firstPage, int nPages);

  /**
   * The writeback side ({@code ->writepages()} mapping a dirty range,
   * {@code xfs_bmapi_convert_delalloc()}): the disk extents of pages
   * {@code [firstPage, firstPage + nPages)}, allocating what is still delayed, and the CPU time
   * to charge the caller for this inode. Draws from {@code random} only when it places a new
   * extent.
   */
  Allocation allocate(long ino, long firstPage, int nPages, SplittableRandom random);

  /** {@code i_size} of regular file {@code ino} in bytes. */
  long size(long ino);

  /**
   * Sets {@code i_size} of a regular file without allocating or freeing anything (a write past
   * the end, {@code i_size_write()} in {@code generic_write_end()}).
   */
  void setSize(long ino, long bytes);

  /**
   * {@code ->setattr(ATTR_SIZE)} ({@code truncate}/{@code ftruncate}/{@code O_TRUNC}): sets
   * {@code i_size}; a shrink frees what lies past the new end. 0, {@code -EINVAL} for a negative
   * size, or {@code -EROFS}. The caller drops the page cache past the end.
   */
  int truncate(long ino, long bytes);

  /**
   * {@code ->fallocate()} of pages {@code [firstPage, firstPage + nPages)}: disk blocks chosen
   * now, as unwritten extents when {@code unwrittenExtents} (reads return zeros, writeback
   * converts them), else as written data (used for files taken as laid out by an earlier run).
   * {@code i_size} is the caller's part (mode 0 extends it, FALLOC_FL_KEEP_SIZE does not). 0, or
   * {@code -ENOSPC} (nothing allocated), or {@code -EROFS}. Costs {@link #fallocateCostNs()}.
   */
  int fallocate(long ino, long firstPage, int nPages, boolean unwrittenExtents,
      SplittableRandom random);

  /** Whether page {@code page} of {@code ino} lies in an unwritten (preallocated) extent. */
  boolean unwritten(long ino, long page);

  /** System time of one fallocate, to charge the caller. */
  long fallocateCostNs();

  /**
   * The read side of the block mapping ({@code ->iomap_begin()} for a read, {@code bmap}): the
   * disk sector of file page {@code page}, or -1 if it has no block (a hole, or delalloc not yet
   * written back: such pages are in the page cache). Never allocates. An extent that is
   * allocated but was never written (XFS's unwritten extents, from fallocate) reads as zeros
   * without I/O too, so an implementation that keeps them must return -1 for them.
   */
  long readSector(long ino, long page);

  /**
   * The write side of the block mapping for direct I/O ({@code ->iomap_begin()} with
   * IOMAP_WRITE): the disk sector of file page {@code page} whether its extent is written or
   * unwritten, or -1 for a hole. Never allocates. The default knows no unwritten extents.
   */
  default long mappedSector(long ino, long page) {
    return readSector(ino, page);
  }

  /**
   * {@code xfs_iomap_write_unwritten()}: pages {@code [firstPage, firstPage + nPages)} were
   * written by direct I/O and their unwritten extents become written (reads see the data). The
   * caller charges {@link #fallocateCostNs()} for the transaction. The default has none to
   * convert.
   */
  default void convertUnwritten(long ino, long firstPage, int nPages) {}

  /** System time of one create or mkdir, to charge the caller. */
  long createCostNs();

  /** System time of one unlink or rmdir, to charge the caller. */
  long unlinkCostNs();

  /** Filesystem size in 4 KiB blocks ({@code statfs f_blocks}). */
  long totalBlocks();

  /**
   * Free 4 KiB blocks ({@code statfs f_bfree}): space neither allocated nor reserved for delayed
   * allocation.
   */
  long freeBlocks();

  /** Live inodes, directories included. */
  long inodeCount();
}
