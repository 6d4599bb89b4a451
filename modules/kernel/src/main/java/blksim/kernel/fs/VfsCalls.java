package blksim.kernel.fs;

import blksim.kernel.iouring.CompletionRing;
import blksim.kernel.iouring.IoRequest;
import blksim.kernel.mm.AddressSpace;
import blksim.kernel.mm.BdiWriteback;
import blksim.kernel.mm.BufferedWrite;
import blksim.kernel.mm.FaultCosts;
import blksim.kernel.mm.FileMapping;
import blksim.kernel.mm.MmapAccess;
import blksim.kernel.mm.FilemapRead;
import blksim.kernel.mm.FsyncCall;
import blksim.kernel.mm.Readahead;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SystemCall;
import java.util.ArrayList;
import java.util.List;

/**
 * The file system calls of one task on the {@link Vfs}: {@code mkdir}, {@code open} with
 * O_CREAT|O_TRUNC ({@link #creat}) or with flags ({@link #open(String, int)}), {@code write},
 * {@code read} and {@code pread} (buffered, with readahead: {@link FilemapRead}; with
 * {@link #O_DIRECT}, {@code pread} and {@code pwrite} are direct I/O: {@link DirectIo}),
 * {@code posix_fadvise}, {@code readahead}, {@code fsync}, {@code fallocate}, {@code ftruncate},
 * {@code stat}, {@code close}, {@code unlink}, {@code sync}, {@code syncfs}, {@code umount} and
 * {@code statfs}. Each returns a {@link SystemCall} (re-armed and reused: one call
 * in progress per task) whose return value is 0 or a file descriptor number, a byte count, free
 * blocks for statfs, or a negative errno.
 *
 * <p>Costs: every call pays the system call's entry ({@code costs.fio.syscall}); create and mkdir
 * add {@link Filesystem#createCostNs()}, unlink {@link Filesystem#unlinkCostNs()}; write is a
 * buffered write ({@link BufferedWrite}) after the filesystem's delayed-allocation reservation;
 * fsync is {@link FsyncCall}; sync queues a WB_SYNC_ALL work on every mounted filesystem's wb and
 * waits for them all ({@code sync_inodes_sb()}).
 *
 * <p>Simplified: path lookup costs no more than the entry; an O_TRUNC open of an existing file
 * drops its pages and starts it empty ({@code i_size} 0; its blocks are not freed until
 * unlink); one file is
 * written at a time per task; close of the last reference to an unlinked file frees it.
 */
public final class VfsCalls {
  /** An open regular file ({@code struct file}). */
  public static final class OpenFile {
    final Vfs.Mount mount;
    final long ino;
    long pos;
    boolean closed;
    /** Opened with {@link #O_DIRECT}: reads and writes go through {@link DirectIo}. */
    boolean direct;
    /** {@code f_ra}: the file's readahead state, from its bdi's {@code read_ahead_kb}. */
    final Readahead ra;

    OpenFile(Vfs.Mount mount, long ino) {
      this.mount = mount;
      this.ino = ino;
      long raPages = mount.wb.raPages();
      // bdi->io_pages is taken as ra_pages (at least one page): see read().
      this.ra = new Readahead(raPages, Math.max(1, raPages));
    }

    /** The file's readahead state ({@code file->f_ra}). */
    public Readahead readahead() {
      return ra;
    }

    /** The inode number. */
    public long ino() {
      return ino;
    }

    /** The mount the file is on. */
    public Vfs.Mount mount() {
      return mount;
    }

    /** Whether the file was opened with {@link #O_DIRECT}. */
    public boolean direct() {
      return direct;
    }
  }

  /** {@code O_RDONLY}. */
  public static final int O_RDONLY = 0;
  /** {@code O_WRONLY}. */
  public static final int O_WRONLY = 01;
  /** {@code O_RDWR}. */
  public static final int O_RDWR = 02;
  /** {@code O_CREAT}: create the file if it does not exist. */
  public static final int O_CREAT = 0100;
  /** {@code O_TRUNC}: an existing regular file opened for writing is truncated to 0. */
  public static final int O_TRUNC = 01000;
  /** {@code O_DIRECT} (x86-64): reads and writes bypass the page cache ({@link DirectIo}). */
  public static final int O_DIRECT = 040000;
  /** {@code FALLOC_FL_KEEP_SIZE}: preallocate without changing {@code i_size}. */
  public static final int FALLOC_FL_KEEP_SIZE = 0x01;
  /** {@code FALLOC_FL_PUNCH_HOLE}: deallocate the range (with {@link #FALLOC_FL_KEEP_SIZE}). */
  public static final int FALLOC_FL_PUNCH_HOLE = 0x02;
  /** {@code EOPNOTSUPP} (95): a fallocate mode the filesystem does not support. */
  public static final int EOPNOTSUPP = 95;

  private final Vfs vfs;
  private final Task task;
  private final Immediate immediate = new Immediate();
  private final BufferedWrite write;
  private final FsyncCall fsync;
  private final SyncCall sync = new SyncCall();
  private final InodeLocked inodeLocked = new InodeLocked();
  private final FilemapRead read;
  private final DirectIo direct;
  private OpenFile lastOpened;
  /** Interval of the unmount's samples of the page cache, ns. */
  public static final long UNMOUNT_SAMPLE_NS = 1_000_000_000L;
  private UnmountReport lastUnmount;
  private List<long[]> samples;
  private XfsLog unmountLog;

  /**
   * What the last {@link #umount} did: the page cache sampled every
   * {@link #UNMOUNT_SAMPLE_NS} from its start to its end, {time ns, dirty bytes, writeback bytes,
   * bytes written since the start}, and the XFS log's stages (none for another filesystem).
   */
  public record UnmountReport(List<long[]> samples, List<XfsLog.Stage> stages) {}

  /** The last unmount's report, or null if this task made none that finished. */
  public UnmountReport lastUnmount() {
    return lastUnmount;
  }

  private long writtenAtStart;

  /** Starts the 1 s samples of the page cache for an unmount of {@code m}. */
  private void startSampling(CpuComponent home, Vfs.Mount m) {
    List<long[]> out = new ArrayList<>();
    samples = out;
    unmountLog = m.fs instanceof XfsFilesystem x ? x.log() : null;
    writtenAtStart = vfs.pageCache().nrWritten();
    sample(home.now(), out);
    Runnable[] tick = new Runnable[1];
    tick[0] = () -> {
      if (samples != out) {
        return;
      }
      sample(home.now(), out);
      home.callAfter(UNMOUNT_SAMPLE_NS, tick[0]);
    };
    home.callAfter(UNMOUNT_SAMPLE_NS, tick[0]);
  }

  private void sample(long now, List<long[]> out) {
    blksim.kernel.mm.PageCache pc = vfs.pageCache();
    out.add(new long[] {now, pc.nrDirty() * Filesystem.PAGE_SIZE,
        pc.nrWriteback() * Filesystem.PAGE_SIZE,
        (pc.nrWritten() - writtenAtStart) * Filesystem.PAGE_SIZE});
  }

  private void stopSampling(long now) {
    if (samples == null) {
      return;
    }
    sample(now, samples);
    lastUnmount = new UnmountReport(List.copyOf(samples),
        unmountLog == null ? List.of() : unmountLog.stages());
    samples = null;
  }

  public VfsCalls(Vfs vfs, Task task) {
    this.vfs = vfs;
    this.task = task;
    this.write = new BufferedWrite(task, vfs.pageCache(), null, vfs.wbCosts(),
        vfs.syscalls().rwEntryNs());
    this.fsync = new FsyncCall(task, null, vfs.syscalls().rwEntryNs(),
        vfs.syscalls().wakeReturnNs());
    this.read = new FilemapRead(task, vfs.pageCache(), vfs.readCosts(), vfs.syscalls());
    this.direct = new DirectIo(vfs, task);
  }

  /**
   * An asynchronous direct I/O of {@code req}'s range of {@code f} ({@code io_submit()} of an
   * O_DIRECT file): the filesystem's own ({@link OwnDirectIo}, btrfs) or XFS's iomap path.
   */
  public AsyncDio asyncDio(OpenFile f, IoRequest req, CompletionRing ring) {
    if (f.mount.fs instanceof OwnDirectIo o) {
      return own(o).async(f, req, ring);
    }
    return direct.async(f, req, ring);
  }

  /** This task's calls on a filesystem with its own direct I/O (one kept: the last used). */
  private OwnDirectIo.TaskCalls own(OwnDirectIo fs) {
    if (ownFs != fs) {
      ownFs = fs;
      ownCalls = fs.forTask(task);
    }
    return ownCalls;
  }

  private OwnDirectIo ownFs;
  private OwnDirectIo.TaskCalls ownCalls;

  /** This task's direct I/O ({@link DirectIo}), for asynchronous submissions. */
  public DirectIo directIo() {
    return direct;
  }

  /** The file the last successful {@link #creat} opened. */
  public OpenFile lastOpened() {
    return lastOpened;
  }

  private Mounts.Resolved resolve(String path) {
    return vfs.mounts().find(path);
  }

  // The result of lookupParent(): valid until the next call (one call in progress per task).
  private Vfs.Mount mount;
  private Mounts.Resolved resolved;
  private String leaf;
  private long dir;

  /**
   * Resolves {@code path} to its mount, its parent directory's inode ({@link #dir}) and its leaf
   * name; false, with {@link #dir} holding the negative errno, if any part is missing.
   */
  private boolean lookupParent(String path) {
    resolved = resolve(path);
    mount = resolved == null ? null : vfs.mountOf(resolved);
    if (mount == null || resolved == null) {
      dir = -Filesystem.ENOENT;
      return false;
    }
    String[] l = new String[1];
    dir = parent(resolved.fs(), resolved.relativePath(), l);
    leaf = l[0];
    return dir >= 0;
  }

  /** The parent directory's inode and the leaf name, or a negative errno in {@code [0]}. */
  private static long parent(Filesystem fs, String rel, String[] leaf) {
    int slash = rel.lastIndexOf('/');
    String dir = slash < 0 ? "" : rel.substring(0, slash);
    leaf[0] = slash < 0 ? rel : rel.substring(slash + 1);
    return fs.lookupPath(dir);
  }

  /**
   * Leaves a file of {@code sizeBytes} at {@code path} with its data dirty in the page cache, as
   * {@code write()}s made before the run's window of interest would: the missing directories and
   * the file are created, its delayed allocation reserved and {@code i_size} set, and pages
   * {@code [k * stride, k * stride + extent)} of it (the whole file when {@code extentBytes} is
   * 0) dirtied as extents ({@link blksim.kernel.mm.PageCache#dirtyRange}: no state per page,
   * memory proportional to the extents). Returns the system time the creates cost, or a negative
   * errno ({@code -ENOENT} outside every mount, {@code -EEXIST}, {@code -ENOSPC}).
   *
   * <p>Simplified: no {@code write()} is made, so no copy, no {@code balance_dirty_pages()} and
   * no user time; sizes are whole 4 KiB pages.
   */
  public long dirtyFile(String path, long sizeBytes, long extentBytes, long strideBytes,
      long nowNs) {
    return dirtyFile(path, sizeBytes, extentBytes, strideBytes, nowNs, false);
  }

  /**
   * {@link #dirtyFile(String, long, long, long, long)}, of a file that {@link #writtenFile} left
   * on the disk when {@code existing} (looked up, not created; its blocks stay where they are,
   * so the writeback overwrites them).
   */
  public long dirtyFile(String path, long sizeBytes, long extentBytes, long strideBytes,
      long nowNs, boolean existing) {
    if (existing) {
      Mounts.Resolved r = resolve(path);
      Vfs.Mount m = r == null ? null : vfs.mountOf(r);
      if (m == null || r.relativePath().isEmpty()) {
        return -Filesystem.ENOENT;
      }
      long ino = r.fs().lookupPath(r.relativePath());
      if (ino < 0) {
        return ino;
      }
      dirtyPages(m, ino, sizeBytes, extentBytes, strideBytes, nowNs);
      return 0;
    }
    Mounts.Resolved r = resolve(path);
    Vfs.Mount m = r == null ? null : vfs.mountOf(r);
    if (m == null || r.relativePath().isEmpty()) {
      return -Filesystem.ENOENT;
    }
    long[] ino = new long[1];
    long cost = createSized(r.fs(), r.relativePath(), sizeBytes, ino);
    if (cost < 0) {
      return cost;
    }
    dirtyPages(m, ino[0], sizeBytes, extentBytes, strideBytes, nowNs);
    return cost;
  }

  /**
   * Creates the file {@code rel} of {@code fs} with its missing directories, reserves its
   * {@code sizeBytes} in whole pages and sets {@code i_size}; its inode goes to {@code ino[0]}.
   * Returns the system time the creates cost, or a negative errno.
   */
  private static long createSized(Filesystem fs, String rel, long sizeBytes, long[] ino) {
    long cost = 0;
    long dirIno = fs.rootIno();
    String[] parts = rel.split("/");
    for (int i = 0; i < parts.length - 1; i++) {
      long next = fs.lookup(dirIno, parts[i]);
      if (next == -Filesystem.ENOENT) {
        next = fs.mkdir(dirIno, parts[i]);
        cost += fs.createCostNs();
      }
      if (next < 0) {
        return next;
      }
      dirIno = next;
    }
    long created = fs.create(dirIno, parts[parts.length - 1]);
    if (created < 0) {
      return created;
    }
    cost += fs.createCostNs();
    long pages = sizeBytes / Filesystem.PAGE_SIZE;
    if (pages > Integer.MAX_VALUE) {
      return -Filesystem.EINVAL;
    }
    int res = fs.reserve(created, 0, (int) pages);
    if (res < 0) {
      return res;
    }
    fs.setSize(created, sizeBytes);
    ino[0] = created;
    return cost;
  }

  private void dirtyPages(Vfs.Mount m, long ino, long sizeBytes, long extentBytes,
      long strideBytes, long nowNs) {
    long pages = sizeBytes / Filesystem.PAGE_SIZE;
    AddressSpace as = m.mapping(ino);
    blksim.kernel.mm.PageCache pc = vfs.pageCache();
    long extent = extentBytes == 0 ? pages : extentBytes / Filesystem.PAGE_SIZE;
    long stride = extentBytes == 0 ? pages : Math.max(extent, strideBytes / Filesystem.PAGE_SIZE);
    for (long p = 0; p < pages; p += stride) {
      pc.dirtyRange(as, p, Math.min(extent, pages - p), nowNs);
    }
  }

  /**
   * Leaves a clean file of {@code sizeBytes} at {@code path} as an earlier run wrote it: the
   * missing directories and the file created, {@code i_size} set and its blocks allocated at
   * once ({@link Filesystem#allocate}, the placement writeback would choose), and the mount's
   * {@link Vfs#setWrittenHook written hook} told of each extent (dm-zoned maps the chunks). No
   * I/O and nothing dirty. Returns the system time the creates cost, or a negative errno.
   *
   * <p>Simplified: the allocation's log record is counted as if it were new.
   */
  public long writtenFile(String path, long sizeBytes) {
    Mounts.Resolved r = resolve(path);
    Vfs.Mount m = r == null ? null : vfs.mountOf(r);
    if (m == null || r.relativePath().isEmpty()) {
      return -Filesystem.ENOENT;
    }
    Filesystem fs = r.fs();
    long[] created = new long[1];
    long cost = createSized(fs, r.relativePath(), sizeBytes, created);
    if (cost < 0) {
      return cost;
    }
    long ino = created[0];
    long pages = sizeBytes / Filesystem.PAGE_SIZE;
    Allocation a = fs.allocate(ino, 0, (int) pages, m.allocRandom);
    for (Extent e : a.extents()) {
      m.written.written(e.sector(), (long) e.pages() * Filesystem.SECTORS_PER_PAGE);
    }
    return cost;
  }

  /** {@code mkdir(path, 0777)}: 0, or -EEXIST and the other errors of {@link Filesystem#mkdir}. */
  public SystemCall mkdir(String path) {
    Mounts.Resolved r = resolve(path);
    if (r == null) {
      return immediate.arm(-Filesystem.ENOENT, 0);
    }
    if (r.relativePath().isEmpty()) {
      return immediate.arm(-Filesystem.EEXIST, 0);
    }
    String[] leaf = new String[1];
    long dir = parent(r.fs(), r.relativePath(), leaf);
    if (dir < 0) {
      return immediate.arm(dir, 0);
    }
    long ino = r.fs().mkdir(dir, leaf[0]);
    return immediate.arm(ino < 0 ? ino : 0, ino < 0 ? 0 : r.fs().createCostNs());
  }

  /**
   * {@code open(path, O_CREAT | O_RDWR | O_TRUNC, 0666)}: 0 and {@link #lastOpened()} set, or a
   * negative errno.
   */
  public SystemCall creat(String path) {
    if (!lookupParent(path)) {
      return immediate.arm(dir, 0);
    }
    Vfs.Mount m = mount;
    Mounts.Resolved r = resolved;
    String[] leaf = {this.leaf};
    long ino = r.fs().lookup(dir, leaf[0]);
    long cost = 0;
    if (ino == -Filesystem.ENOENT) {
      ino = r.fs().create(dir, leaf[0]);
      cost = r.fs().createCostNs();
    } else if (ino >= 0 && r.fs().readOnly()) {
      ino = -Filesystem.EROFS;
    } else if (ino >= 0) {
      AddressSpace as = m.existingMapping(ino);
      if (as != null && as.openCount() == 0) {
        m.drop(ino);
      }
      if (!r.fs().isDirectory(ino)) {
        r.fs().setSize(ino, 0);
      }
    }
    if (ino < 0) {
      return immediate.arm(ino, cost);
    }
    r.fs().iget(ino);
    OpenFile f = new OpenFile(m, ino);
    lastOpened = f;
    m.mapping(ino).open(1);
    return immediate.arm(0, cost);
  }

  /** {@code open(path, O_RDONLY)} of an existing file: 0 and {@link #lastOpened()}, or -errno. */
  public SystemCall open(String path) {
    Mounts.Resolved r = resolve(path);
    Vfs.Mount m = r == null ? null : vfs.mountOf(r);
    if (m == null || r == null) {
      return immediate.arm(-Filesystem.ENOENT, 0);
    }
    long ino = r.fs().lookupPath(r.relativePath());
    if (ino < 0) {
      return immediate.arm(ino, 0);
    }
    r.fs().iget(ino);
    OpenFile f = new OpenFile(m, ino);
    lastOpened = f;
    m.mapping(ino).open(1);
    return immediate.arm(0, 0);
  }

  /**
   * {@code open(path, flags, 0666)} of a regular file: with {@link #O_CREAT} a missing file is
   * created (costs {@link Filesystem#createCostNs()}); with {@link #O_TRUNC} and write access an
   * existing file is truncated to 0 ({@link Filesystem#truncate}; its page cache is dropped when
   * no one else has it open). 0 and {@link #lastOpened()}, or -errno ({@code -ENOENT},
   * {@code -EROFS} for a write open on a read-only mount, ...).
   */
  public SystemCall open(String path, int flags) {
    if (!lookupParent(path)) {
      return immediate.arm(dir, 0);
    }
    Vfs.Mount m = mount;
    Filesystem fs = resolved.fs();
    boolean writes = (flags & (O_WRONLY | O_RDWR)) != 0;
    // The mount point itself has no leaf: it is the filesystem's root.
    long ino = leaf.isEmpty() ? fs.rootIno() : fs.lookup(dir, leaf);
    long cost = 0;
    if (ino == -Filesystem.ENOENT && (flags & O_CREAT) != 0) {
      ino = fs.create(dir, leaf);
      cost = fs.createCostNs();
    } else if (ino >= 0 && fs.isDirectory(ino)) {
      ino = writes ? -Filesystem.EISDIR : ino;
    } else if (ino >= 0 && writes && fs.readOnly()) {
      ino = -Filesystem.EROFS;
    } else if (ino >= 0 && writes && (flags & O_TRUNC) != 0) {
      AddressSpace as = m.existingMapping(ino);
      if (as != null && as.openCount() == 0) {
        m.drop(ino);
      }
      int r = fs.truncate(ino, 0);
      if (r < 0) {
        ino = r;
      }
    }
    if (ino < 0) {
      return immediate.arm(ino, cost);
    }
    fs.iget(ino);
    lastOpened = new OpenFile(m, ino);
    lastOpened.direct = (flags & O_DIRECT) != 0;
    m.mapping(ino).open(1);
    return immediate.arm(0, cost);
  }

  /**
   * {@code stat(path)}: the regular file's {@code st_size} ({@code i_size}), 0 for a directory,
   * or -errno.
   */
  public SystemCall stat(String path) {
    Mounts.Resolved r = resolve(path);
    if (r == null || vfs.mountOf(r) == null) {
      return immediate.arm(-Filesystem.ENOENT, 0);
    }
    long ino = r.fs().lookupPath(r.relativePath());
    if (ino < 0) {
      return immediate.arm(ino, 0);
    }
    return immediate.arm(r.fs().isDirectory(ino) ? 0 : r.fs().size(ino), 0);
  }

  /**
   * {@code open(path, O_CREAT|...)}, {@code unlink}, {@code mkdir} or {@code rmdir} of
   * {@code path} ({@code op}, one of this object's calls made with that path) under the parent
   * directory's {@code i_rwsem} held exclusively, as the VFS holds it for them
   * ({@code open_last_lookups()} with O_CREAT, {@code do_unlinkat()}, {@code filename_create()},
   * {@code do_rmdir()}): calls in one directory from several tasks serialize on it. The fio
   * file and directory operation engines make their calls this way. Simplified: the namespace
   * change and the return value are decided when the call is made, before the lock is taken;
   * only its cost waits for the lock. When the parent does not resolve the call is returned
   * unwrapped (it fails at once).
   */
  public SystemCall underParentLock(String path, java.util.function.Supplier<SystemCall> op) {
    if (!lookupParent(path)) {
      return op.get();
    }
    Vfs.Mount m = mount;
    long parentIno = dir;
    return inodeLocked.arm(m, parentIno, op.get());
  }

  /**
   * {@code rmdir(path)}: 0 or -errno ({@code -ENOENT}, {@code -ENOTDIR}, {@code -ENOTEMPTY},
   * ...). Costs {@link Filesystem#unlinkCostNs()} (xfs_remove() for a directory).
   */
  public SystemCall rmdir(String path) {
    if (!lookupParent(path)) {
      return immediate.arm(dir, 0);
    }
    Filesystem fs = resolved.fs();
    if (leaf.isEmpty()) {
      return immediate.arm(-Filesystem.EBUSY, 0); // a mount point
    }
    int res = fs.rmdir(dir, leaf);
    return immediate.arm(res, res == 0 ? fs.unlinkCostNs() : 0);
  }

  /**
   * {@code fallocate(fd, mode, offset, len)}: mode 0 or {@link #FALLOC_FL_KEEP_SIZE}; the
   * filesystem allocates the pages covering the range as unwritten extents
   * ({@link Filesystem#fallocate}), mode 0 extends {@code i_size} to {@code offset + len}. 0,
   * {@code -EINVAL} (negative offset, length not positive), {@code -EOPNOTSUPP} (another mode),
   * {@code -ENOSPC}, {@code -EROFS}. Costs {@link Filesystem#fallocateCostNs()}.
   *
   * <p>{@code posix_fallocate()} is this call with mode 0 (glibc calls it first).
   *
   * <p>{@code FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE} ({@code xfs_free_file_space()}; the
   * punch flag without KEEP_SIZE is -EOPNOTSUPP, as {@code vfs_fallocate()} refuses it) costs
   * {@link Filesystem#fallocateCostNs()} (one transaction, as an allocation) and returns 0.
   * Simplified: the XFS-like filesystem keeps a file's blocks as a prefix of extents and cannot
   * hold a hole inside it, so a punch frees no block and drops no cached page (the range stays
   * allocated and its data readable).
   */
  public SystemCall fallocate(OpenFile f, int mode, long offset, long len) {
    check(f);
    if (offset < 0 || len <= 0) {
      return immediate.arm(-Filesystem.EINVAL, 0);
    }
    if ((mode & FALLOC_FL_PUNCH_HOLE) != 0) {
      if ((mode & FALLOC_FL_KEEP_SIZE) == 0 || (mode & ~(FALLOC_FL_PUNCH_HOLE
          | FALLOC_FL_KEEP_SIZE)) != 0) {
        return immediate.arm(-EOPNOTSUPP, 0);
      }
      Filesystem pfs = f.mount.fs;
      if (pfs.readOnly()) {
        return immediate.arm(-Filesystem.EROFS, 0);
      }
      return immediate.arm(0, pfs.fallocateCostNs());
    }
    if ((mode & ~FALLOC_FL_KEEP_SIZE) != 0) {
      return immediate.arm(-EOPNOTSUPP, 0);
    }
    Filesystem fs = f.mount.fs;
    int r = allocate(f, offset, len, true);
    if (r == 0 && (mode & FALLOC_FL_KEEP_SIZE) == 0 && fs.size(f.ino) < offset + len) {
      fs.setSize(f.ino, offset + len);
    }
    return immediate.arm(r, r == 0 || r == -Filesystem.ENOSPC ? fs.fallocateCostNs() : 0);
  }

  private static int allocate(OpenFile f, long offset, long len, boolean unwrittenExtents) {
    long first = offset >>> 12;
    long end = (offset + len + 4095) >>> 12;
    if (end - first > Integer.MAX_VALUE) {
      return -Filesystem.EINVAL;
    }
    return f.mount.fs.fallocate(f.ino, first, (int) (end - first), unwrittenExtents,
        f.mount.allocRandom);
  }

  /**
   * {@code ftruncate(fd, length)}: {@link Filesystem#truncate}. 0 or -errno. Simplified: a
   * shrink of a file that is open leaves its cached pages past the new end in the page cache
   * (a later writeback of a dirty one reserves its block again).
   *
   * <p>Cost: {@code xfs_setattr_size()} logs the new size (and a shrink's freed extents) in one
   * transaction, charged as {@link Filesystem#fallocateCostNs()} ([A] one transaction, the
   * profile's assumption for fallocate; no public per-call figure, and a shrink that frees many
   * extents costs more in the kernel).
   */
  public SystemCall ftruncate(OpenFile f, long length) {
    check(f);
    int r = f.mount.fs.truncate(f.ino, length);
    return immediate.arm(r, r == 0 ? f.mount.fs.fallocateCostNs() : 0);
  }

  /**
   * A model shortcut, not a system call: the open file as an earlier run left it after writing
   * {@code bytes} from offset 0 and syncing them (what fio's layout of a file does before a
   * job that needs it written): its blocks allocated as written data, {@code i_size} set, none
   * of it in the page cache. No time passes and no I/O is made. 0, or {@code -ENOSPC}.
   */
  public int assumeWrittenByEarlierRun(OpenFile f, long bytes) {
    check(f);
    if (bytes <= 0) {
      return 0;
    }
    int r = allocate(f, 0, bytes, false);
    if (r == 0 && f.mount.fs.size(f.ino) < bytes) {
      f.mount.fs.setSize(f.ino, bytes);
    }
    return r;
  }

  /**
   * {@code write(fd, buf, len)} at the file's position, through the page cache, holding the
   * inode's {@code i_rwsem} exclusively for the whole copy, dirty throttling included
   * ({@code xfs_file_buffered_write()}: {@code xfs_ilock(XFS_IOLOCK_EXCL)}, then
   * {@code iomap_file_buffered_write()}, whose {@code iomap_write_iter()} calls
   * {@code balance_dirty_pages_ratelimited()}, then {@code xfs_iunlock()}; the generic
   * {@code generic_file_write_iter()} takes {@code inode_lock()} the same way). Writers of one
   * file therefore wait for each other, spinning or asleep in D state.
   *
   * <p>Simplified: the lock is taken before the system call's entry cost rather than after it.
   */
  public SystemCall write(OpenFile f, int len) {
    check(f);
    if (f.direct) {
      SystemCall c = direct.pwrite(f, f.pos, len);
      f.pos += len;
      return c;
    }
    long first = f.pos >>> 12;
    long end = (f.pos + len + 4095) >>> 12;
    int r = f.mount.fs.reserve(f.ino, first, (int) (end - first));
    if (r < 0) {
      return immediate.arm(r, 0);
    }
    SystemCall c = write.arm(f.mount.mapping(f.ino), f.pos, len);
    f.pos += len;
    if (f.pos > f.mount.fs.size(f.ino)) {
      // generic_write_end(): i_size_write() past the old end.
      f.mount.fs.setSize(f.ino, f.pos);
    }
    return inodeLocked.arm(f, c);
  }

  /**
   * {@code read(fd, buf, len)} at the file's position, which advances by what was read: a
   * buffered read through the page cache with readahead ({@link FilemapRead}); returns the bytes
   * read, 0 at EOF, or -errno (-EISDIR for a directory, -EIO).
   *
   * <p>The position advances when the call is made, by what the read will return: the model
   * knows it then, since only {@code i_size} bounds it (an -EIO leaves it advanced).
   */
  public SystemCall read(OpenFile f, int len) {
    check(f);
    long size = f.mount.fs.isDirectory(f.ino) ? 0 : f.mount.fs.size(f.ino);
    SystemCall c = pread(f, f.pos, len);
    f.pos += Math.max(0, Math.min(len, size - f.pos));
    return c;
  }

  /**
   * {@code pread(fd, buf, len, offset)}: as {@link #read}, at {@code offsetBytes}; the file
   * position stays. Reads of a hole return zeros without I/O; a file must have been written (or
   * its blocks laid out) to have a size to read.
   *
   * <p>Simplified: {@code bdi->io_pages} (the device's {@code max_sectors_kb} / 4) is taken as
   * the bdi's {@code ra_pages}, so reads larger than the readahead window are not widened to the
   * device's optimal I/O size.
   */
  public SystemCall pread(OpenFile f, long offsetBytes, int len) {
    check(f);
    if (f.mount.fs.isDirectory(f.ino)) {
      return immediate.arm(-Filesystem.EISDIR, 0);
    }
    if (offsetBytes < 0 || len < 0) {
      return immediate.arm(-Filesystem.EINVAL, 0);
    }
    if (f.direct) {
      return direct.pread(f, offsetBytes, len);
    }
    return read.read(f.mount.mapping(f.ino), f.ra, offsetBytes, len);
  }

  /**
   * {@code readahead(fd, offset, count)} ({@code ksys_readahead()}: {@code vfs_fadvise()} with
   * POSIX_FADV_WILLNEED): 0, or -EINVAL.
   */
  public SystemCall readahead(OpenFile f, long offsetBytes, long count) {
    return fadvise(f, offsetBytes, count, Readahead.POSIX_FADV_WILLNEED);
  }

  /**
   * {@code posix_fadvise(fd, offset, len, advice)} ({@code generic_fadvise()}): NORMAL,
   * SEQUENTIAL (twice the bdi's window), RANDOM (misses read only the pages asked for) set the
   * file's readahead state; WILLNEED starts readahead of the range ({@code len} 0: to EOF) and
   * returns without waiting for it; DONTNEED drops the range's clean pages; NOREUSE does nothing.
   * 0, or -EINVAL for an unknown advice or a negative range.
   *
   * <p>Simplified: DONTNEED does not start writeback of the range's dirty pages first (the
   * kernel's {@code __filemap_fdatawrite_range()}); it drops only the clean ones.
   */
  public SystemCall fadvise(OpenFile f, long offsetBytes, long len, int advice) {
    check(f);
    if (offsetBytes < 0 || len < 0 || !f.ra.fadvise(advice)) {
      return immediate.arm(-Filesystem.EINVAL, 0);
    }
    if (advice == Readahead.POSIX_FADV_WILLNEED && !f.mount.fs.isDirectory(f.ino)) {
      return read.willneed(f.mount.mapping(f.ino), f.ra, offsetBytes, len);
    }
    if (advice == Readahead.POSIX_FADV_DONTNEED) {
      AddressSpace as = f.mount.existingMapping(f.ino);
      if (as != null) {
        long first = (offsetBytes + 4095) >>> 12;
        long end = len == 0 ? Long.MAX_VALUE : (offsetBytes + len) >>> 12;
        vfs.pageCache().invalidateClean(as, first, end);
      }
    }
    return immediate.arm(0, 0);
  }

  /** {@code pwrite(fd, buf, len, offset)} through the page cache; the file position stays. */
  public SystemCall pwrite(OpenFile f, long offsetBytes, int len) {
    check(f);
    if (f.direct) {
      if (offsetBytes < 0 || len < 0) {
        return immediate.arm(-Filesystem.EINVAL, 0);
      }
      return direct.pwrite(f, offsetBytes, len);
    }
    long pos = f.pos;
    f.pos = offsetBytes;
    SystemCall c = write(f, len);
    f.pos = pos;
    return c;
  }

  /** {@code ENOTTY}: the errno of an ioctl the file does not know. */
  public static final int ENOTTY = 25;

  /**
   * {@code ioctl(fd, BLKDISCARD, range)} on a regular file: {@code do_vfs_ioctl()} and
   * {@code file_ioctl()} (fs/ioctl.c) know no BLKDISCARD, so the call reaches the filesystem's
   * {@code unlocked_ioctl} ({@code xfs_file_ioctl()}, {@code ext4_ioctl()},
   * {@code btrfs_ioctl()}), whose default case returns -ENOTTY; only a block device's
   * {@code blkdev_ioctl()} discards. Costs the system call's entry.
   */
  public SystemCall ioctlBlkdiscard(OpenFile f) {
    check(f);
    return immediate.arm(-ENOTTY, 0);
  }

  /** {@code fsync(fd)}: see {@link FsyncCall}. */
  public SystemCall fsync(OpenFile f) {
    if (f.mount.fs instanceof OwnDirectIo o) {
      check(f);
      return own(o).fsync(f);
    }
    check(f);
    return fsync.arm(f.mount.mapping(f.ino));
  }

  // ---- memory mappings (mm/mmap.c, mm/msync.c) ----

  /** {@code PROT_WRITE} for {@link #mmap}. */
  public static final boolean PROT_WRITE = true;

  /**
   * {@code mmap(NULL, len, prot, MAP_SHARED, fd, offset)} of {@code f}: a {@link FileMapping}
   * of the pages from {@code offset} (page aligned) for {@code len} bytes, writable when
   * {@code write}; no page is touched ({@code generic_file_mmap()} only sets the vm_ops).
   * Returns 0 (the mapping is {@link #lastMapping()}) or -EINVAL (unaligned offset, empty
   * length, O_DIRECT is fine). Costs the entry and {@link FaultCosts#mmapNs}.
   *
   * <p>A write fault calls the filesystem's {@link Filesystem#reserve} of its page
   * ({@code ->page_mkwrite()}: XFS's {@code iomap_page_mkwrite()} maps or reserves the block).
   */
  public SystemCall mmap(OpenFile f, long offset, long len, boolean write) {
    check(f);
    if (offset < 0 || (offset & 4095) != 0 || len <= 0 || f.mount.fs.isDirectory(f.ino)) {
      return immediate.arm(-Filesystem.EINVAL, 0);
    }
    Vfs.Mount mount = f.mount;
    long ino = f.ino;
    lastMapping = new FileMapping(mount.mapping(ino), f.ra, offset >>> 12,
        (len + 4095) >>> 12, write, idx -> mount.fs.reserve(ino, idx, 1));
    return immediate.arm(0, vfs.faultCosts().mmapNs());
  }

  /** The mapping the last successful {@link #mmap} made. */
  public FileMapping lastMapping() {
    return lastMapping;
  }

  /**
   * {@code madvise(addr, len, advice)} of the whole mapping ({@link FileMapping#MADV_NORMAL},
   * {@code MADV_RANDOM}, {@code MADV_SEQUENTIAL}: VM_RAND_READ / VM_SEQ_READ for its faults);
   * 0. Costs the entry and {@link FaultCosts#mmapNs}.
   */
  public SystemCall madvise(FileMapping m, int advice) {
    m.madvise(advice);
    return immediate.arm(0, vfs.faultCosts().mmapNs());
  }

  /**
   * {@code munmap()} of the whole mapping: its PTEs are zapped (the pages stay in the page
   * cache, dirty ones dirty); costs the entry, {@link FaultCosts#mmapNs} and
   * {@link FaultCosts#unmapPerPageNs} per page that was mapped.
   */
  public SystemCall munmap(FileMapping m) {
    long n = m.unmap();
    FaultCosts c = vfs.faultCosts();
    return immediate.arm(0, c.mmapNs() + n * c.unmapPerPageNs());
  }

  /**
   * {@code msync(addr, len, MS_SYNC)} of a shared file mapping: {@code vfs_fsync_range()} of
   * its file, as {@link #fsync} (a mapping's dirty pages are the file's dirty pages: they were
   * dirtied by {@code ->page_mkwrite()}). Simplified: the whole file is synced, not only the
   * mapped range.
   */
  public SystemCall msync(OpenFile f) {
    return fsync(f);
  }

  /**
   * A user {@code memcpy()} of {@code len} bytes at byte {@code offset} of mapping {@code m},
   * into it when {@code write}: see {@link MmapAccess}. Returns the bytes, or -errno for the
   * signal the access would raise.
   */
  public SystemCall access(FileMapping m, long offset, long len, boolean write) {
    if (mmapAccess == null) {
      mmapAccess = new MmapAccess(task, vfs.pageCache(), vfs.faultCosts(), vfs.readCosts());
    }
    return mmapAccess.arm(m, offset, len, write);
  }

  private FileMapping lastMapping;
  private MmapAccess mmapAccess;

  /** {@code close(fd)}: drops the file's references. */
  public SystemCall close(OpenFile f) {
    check(f);
    f.closed = true;
    AddressSpace as = f.mount.existingMapping(f.ino);
    if (as != null) {
      as.open(-1);
    }
    f.mount.fs.iput(f.ino);
    return immediate.arm(0, 0);
  }

  /** {@code unlink(path)}: 0 or -errno; the inode's pages go when its last reference does. */
  public SystemCall unlink(String path) {
    if (!lookupParent(path)) {
      return immediate.arm(dir, 0);
    }
    Vfs.Mount m = mount;
    Mounts.Resolved r = resolved;
    String[] leaf = {this.leaf};
    long ino = r.fs().lookup(dir, leaf[0]);
    int res = r.fs().unlink(dir, leaf[0]);
    if (res == 0 && ino >= 0) {
      AddressSpace as = m.existingMapping(ino);
      if (as != null && as.openCount() == 0) {
        m.drop(ino);
      }
    }
    return immediate.arm(res, res == 0 ? r.fs().unlinkCostNs() : 0);
  }

  /** {@code statfs(path)}: the filesystem's free 4 KiB blocks, or -ENOENT. */
  public SystemCall statfs(String path) {
    Mounts.Resolved r = resolve(path);
    return immediate.arm(r == null ? -Filesystem.ENOENT : r.fs().freeBlocks(), 0);
  }

  /** {@code sync()}: every mounted filesystem's dirty data written and waited for. */
  public SystemCall sync() {
    return sync.arm(null, false);
  }

  /**
   * {@code syncfs(fd)} of a file of the filesystem holding {@code path} (what coreutils'
   * {@code sync -f PATH} does): {@code sync_filesystem()}, a WB_SYNC_NONE pass over its dirty
   * inodes waited for, then a WB_SYNC_ALL pass. 0, or -ENOENT outside every mount.
   */
  public SystemCall syncfs(String path) {
    Vfs.Mount m = vfs.mountOf(path);
    if (m == null) {
      return immediate.arm(-Filesystem.ENOENT, 0);
    }
    return sync.arm(m, false);
  }

  /**
   * {@code umount(target)}: -EINVAL if nothing is mounted exactly at {@code mountPoint}, -EBUSY
   * while one of its files is open; else the mount leaves the namespace at once (no new path
   * reaches it), then {@code generic_shutdown_super()}: {@code sync_filesystem()} as for
   * {@link #syncfs}, the eviction of every inode's pages and the filesystem's detach
   * ({@link Vfs#shutdown}). The call returns when all of it is done, as umount(2) does (the
   * shutdown runs in the caller's task work before the return to user space).
   */
  public SystemCall umount(String mountPoint) {
    Vfs.Mount m = vfs.mountAt(mountPoint);
    int r = vfs.mounts().detach(mountPoint);
    if (r != 0 || m == null) {
      return immediate.arm(r != 0 ? r : -Filesystem.EINVAL, 0);
    }
    return sync.arm(m, true);
  }

  private void check(OpenFile f) {
    if (f.closed) {
      throw new IllegalStateException(task.comm() + ": call on a closed file");
    }
  }

  /**
   * A call made under the inode's {@code i_rwsem}, held exclusively: {@code down_write()}, the
   * call, {@code up_write()} (the wakeups it makes are paid before the call returns).
   */
  private final class InodeLocked extends SystemCall {
    private Vfs.Mount lockMount;
    private long lockIno;
    private SystemCall inner;
    private blksim.kernel.locking.RwSemaphore sem;
    private int phase;

    SystemCall arm(OpenFile f, SystemCall c) {
      return arm(f.mount, f.ino, c);
    }

    SystemCall arm(Vfs.Mount m, long ino, SystemCall c) {
      this.lockMount = m;
      this.lockIno = ino;
      this.inner = c;
      this.sem = null;
      this.phase = 0;
      return this;
    }

    @Override
    public boolean step(TaskCpu cpu) {
      if (phase == 0) {
        if (sem == null) {
          sem = lockMount.iRwsem(lockIno,
              blksim.kernel.locking.LockParams.DEFAULT.withHz(cpu.cpu().params().hz()));
        }
        if (!sem.downWrite(task, cpu)) {
          return false;
        }
        phase = 1;
      }
      if (phase == 1) {
        if (!inner.step(cpu)) {
          return false;
        }
        phase = 2;
        long wakeNs = sem.upWrite(task, cpu.cpu());
        lockMount.putIRwsem(lockIno, sem);
        if (wakeNs > 0) {
          cpu.runFor(CpuMode.SYSTEM, wakeNs);
          return false;
        }
      }
      return returned(inner.ret());
    }
  }

  /** A call that pays its entry and extra cost, then returns a value known at once. */
  private final class Immediate extends SystemCall {
    private long value;
    private long costNs;
    private boolean entered;

    SystemCall arm(long value, long extraNs) {
      this.value = value;
      this.costNs = vfs.syscalls().rwEntryNs() + extraNs;
      this.entered = false;
      return this;
    }

    @Override
    public boolean step(TaskCpu cpu) {
      if (!entered) {
        entered = true;
        cpu.runFor(CpuMode.SYSTEM, costNs);
        return false;
      }
      return returned(value);
    }
  }

  /**
   * {@code sync()} (every mount: one WB_SYNC_ALL pass each, waited for), or
   * {@code sync_filesystem()} of one mount (a WB_SYNC_NONE pass waited for, then a WB_SYNC_ALL
   * pass), followed for an unmount by the mount's shutdown.
   */
  private final class SyncCall extends SystemCall {
    private int phase;
    private int pending;
    private Vfs.Mount one;
    private boolean unmount;
    private List<AddressSpace> waitList;
    private int waitAt;

    private XfsUnmount xfsUnmount;

    SystemCall arm(Vfs.Mount one, boolean unmount) {
      this.phase = 0;
      this.one = one;
      this.unmount = unmount;
      this.waitList = null;
      this.xfsUnmount = null;
      return this;
    }

    @Override
    public boolean step(TaskCpu cpu) {
      switch (phase) {
        case 0:
          if (unmount) {
            startSampling(cpu.cpu(), one);
          }
          phase = one == null ? 2 : 1;
          cpu.runFor(CpuMode.SYSTEM, vfs.syscalls().rwEntryNs());
          return false;
        case 1:
          // writeback_inodes_sb(): WB_SYNC_NONE, waited for.
          phase = 2;
          pending = 1;
          one.wb().queueWritebackSb(done(cpu.cpu()));
          cpu.sleep();
          return false;
        case 2: {
          if (pending > 0) {
            cpu.sleep();
            return false;
          }
          // sync_inodes_sb(): WB_SYNC_ALL on each filesystem, waited for.
          List<Vfs.Mount> mounts = one == null ? vfs.mountList() : List.of(one);
          pending = mounts.size();
          phase = 3;
          if (pending == 0) {
            return returned(0);
          }
          Runnable done = done(cpu.cpu());
          for (Vfs.Mount m : mounts) {
            m.wb().queueSync(done);
          }
          cpu.sleep();
          return false;
        }
        case 3:
          if (pending > 0) {
            cpu.sleep();
            return false;
          }
          // wait_sb_inodes(): the pages an earlier pass (or anyone) put under writeback.
          if (waitList == null) {
            waitList = new ArrayList<>();
            for (Vfs.Mount m : one == null ? vfs.mountList() : List.of(one)) {
              waitList.addAll(vfs.underWriteback(m));
            }
            waitAt = 0;
          }
          while (waitAt < waitList.size()) {
            AddressSpace as = waitList.get(waitAt++);
            CpuComponent c = cpu.cpu();
            if (as.awaitWriteback(() -> c.wake(task))) {
              cpu.sleep();
              return false;
            }
          }
          waitList = null;
          if (unmount && one.fs instanceof XfsFilesystem x) {
            xfsUnmount = new XfsUnmount(x, one.wb().queues(), vfs.pageCache(), task);
          }
          phase = 5;
          return finish(cpu);
        case 5:
          return finish(cpu);
        default:
          return returned(0);
      }
    }

    /** The filesystem's unmount work, then the shutdown and the return. */
    private boolean finish(TaskCpu cpu) {
      if (xfsUnmount != null) {
        if (!xfsUnmount.step(cpu)) {
          return false;
        }
        xfsUnmount = null;
      }
      if (unmount) {
        vfs.shutdown(one);
        stopSampling(cpu.now());
      }
      phase = 4;
      cpu.runFor(CpuMode.SYSTEM, vfs.syscalls().wakeReturnNs());
      return false;
    }

    private Runnable done(CpuComponent c) {
      return () -> {
        if (--pending == 0) {
          c.wake(task);
        }
      };
    }
  }
}
