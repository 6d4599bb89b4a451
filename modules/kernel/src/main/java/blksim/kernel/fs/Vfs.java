package blksim.kernel.fs;

import blksim.kernel.mm.AddressSpace;
import blksim.kernel.mm.BdiWriteback;
import blksim.kernel.mm.PageCache;
import blksim.kernel.mm.PageCacheParams;
import blksim.kernel.mm.WritebackParams;
import blksim.kernel.syscall.SyscallParams;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The machine's VFS: the mount table, and for each mounted filesystem the glue to the page cache
 * and writeback: its device's {@link BdiWriteback}, the page caches of its inodes (made at the
 * first write), and the {@link AddressSpace.Host} through which writeback asks the filesystem
 * where pages go ({@link Filesystem#allocate}, delayed allocation resolved then).
 *
 * <p>Tasks make their calls through a {@link VfsCalls} of their own. Shared by every CPU and the
 * flusher: a scenario with a filesystem runs in one partition.
 *
 * <p>Simplified: one inode cache entry per inode that has pages; a clean, closed inode whose
 * pages were all reclaimed is forgotten (its disk extents stay with the filesystem); directories
 * have no page cache; metadata (inodes, directories, the XFS log) is written by no one, its cost
 * being part of the filesystem's create, unlink and allocation costs.
 */
public final class Vfs {
  /** One mounted filesystem with its writeback glue. */
  public final class Mount implements AddressSpace.Host {
    final Filesystem fs;
    final String mountPoint;
    final BdiWriteback wb;
    final SplittableRandom allocRandom;
    /** Page caches by inode number; looked up, never iterated. */
    final Map<Long, AddressSpace> mappings = new HashMap<>();
    /** Inode locks of inodes that direct I/O touched; looked up, never iterated. */
    final Map<Long, InodeLock> locks = new HashMap<>();
    /** {@code sb->s_dio_done_wq} ("dio/DEV"), null until {@link Vfs#setDioDoneWq}. */
    blksim.kernel.workqueue.WorkqueueSystem dioWqs;
    blksim.kernel.workqueue.Workqueue dioDoneWq;
    /** Told of data left on the device by an earlier run ({@link VfsCalls#writtenFile}). */
    WrittenHook written = (sector, sectors) -> { };

    Mount(Filesystem fs, String mountPoint, BdiWriteback wb, SplittableRandom allocRandom) {
      this.fs = fs;
      this.mountPoint = mountPoint;
      this.wb = wb;
      this.allocRandom = allocRandom;
    }

    /** The filesystem. */
    public Filesystem fs() {
      return fs;
    }

    /** Its writeback context. */
    public BdiWriteback wb() {
      return wb;
    }

    /** Its mount point. */
    public String mountPoint() {
      return mountPoint;
    }

    /** The workqueue system of {@link #dioDoneWq()}, null without one. */
    public blksim.kernel.workqueue.WorkqueueSystem dioWorkqueues() {
      return dioWqs;
    }

    /** {@code sb->s_dio_done_wq}, null until {@link Vfs#setDioDoneWq}. */
    public blksim.kernel.workqueue.Workqueue dioDoneWq() {
      return dioDoneWq;
    }

    /** The page cache of {@code ino}, made on first use. */
    AddressSpace mapping(long ino) {
      AddressSpace as = mappings.get(ino);
      if (as == null) {
        as = pc.newAddressSpace(this, wb, ino);
        mappings.put(ino, as);
      }
      return as;
    }

    /**
     * The inode's {@code i_rwsem} and {@code i_dio_count} as direct I/O takes them, made on
     * first use. Simplified: buffered writes take {@link #iRwsem} instead, so the two paths do
     * not yet exclude each other on one file (they should be one lock).
     */
    InodeLock lock(long ino) {
      return locks.computeIfAbsent(ino, k -> new InodeLock());
    }

    /** Inode rwsems ({@code inode->i_rwsem}) by inode number; looked up, never iterated. */
    final Map<Long, blksim.kernel.locking.RwSemaphore> iRwsems = new HashMap<>();

    /**
     * {@code inode->i_rwsem} of {@code ino} (XFS's IOLOCK), made on first use with
     * {@code params}. Named {@code i_rwsem <mount point>:<ino>}; waits are accounted under the
     * class {@code i_rwsem <fs type>} (lockdep's per-type {@code i_mutex_key}).
     */
    blksim.kernel.locking.RwSemaphore iRwsem(long ino, blksim.kernel.locking.LockParams params) {
      blksim.kernel.locking.RwSemaphore l = iRwsems.get(ino);
      if (l == null) {
        if (params.waitLock() == null && waitLock != null) {
          params = params.withWaitLock(waitLock);
        }
        l = new blksim.kernel.locking.RwSemaphore("i_rwsem " + mountPoint + ":" + ino,
            "i_rwsem " + fs.type(), params);
        iRwsems.put(ino, l);
      }
      return l;
    }

    /** Forgets {@code ino}'s i_rwsem once nobody holds or waits for it (no lock per inode kept). */
    void putIRwsem(long ino, blksim.kernel.locking.RwSemaphore l) {
      if (l.idle()) {
        iRwsems.remove(ino);
      }
    }

    /** The page cache of {@code ino} if it has one. */
    AddressSpace existingMapping(long ino) {
      return mappings.get(ino);
    }

    /** Forgets the page cache of a freed inode. */
    void drop(long ino) {
      InodeLock l = locks.get(ino);
      if (l != null && !l.held() && l.dioCount() == 0) {
        locks.remove(ino);
      }
      AddressSpace as = mappings.remove(ino);
      if (as != null) {
        pc.truncate(as);
      }
    }

    /**
     * {@code ->writepages()} mapping the inode's dirty range: the filesystem converts its delayed
     * allocation now and returns the extents, kept on the inode for {@link #sectorOf}.
     */
    @Override
    public long prepareWriteback(AddressSpace as) {
      long first = as.firstDirty();
      if (first < 0) {
        return 0;
      }
      long end = as.endDirty();
      Allocation a = fs.allocate(as.ino(), first, (int) Math.min(Integer.MAX_VALUE, end - first),
          allocRandom);
      as.setHostData(new Mapped(first, a.extents()));
      return a.cpuNs();
    }

    @Override
    public long sectorOf(AddressSpace as, long index) {
      Object d = as.hostData();
      if (d instanceof Mapped m) {
        long s = m.sectorOf(index);
        if (s >= 0) {
          return s;
        }
      }
      Allocation a = fs.allocate(as.ino(), index, 1, allocRandom);
      return a.extents().get(0).sector();
    }

    @Override
    public long contiguousPages(AddressSpace as, long index, long max) {
      if (as.hostData() instanceof Mapped m) {
        return Math.max(1, Math.min(max, m.runFrom(index)));
      }
      return 1;
    }

    @Override
    public void evicted(AddressSpace as) {
      mappings.remove(as.ino());
    }

    @Override
    public long iSize(AddressSpace as) {
      return fs.size(as.ino());
    }

    @Override
    public long readSector(AddressSpace as, long index) {
      return fs.readSector(as.ino(), index);
    }
  }

  /** The extents of an inode's range, from its first page. */
  record Mapped(long firstPage, List<Extent> extents) {
    long sectorOf(long index) {
      long page = firstPage;
      for (Extent e : extents) {
        if (index < page + e.pages()) {
          return index < page ? -1 : e.sector() + (index - page) * Filesystem.SECTORS_PER_PAGE;
        }
        page += e.pages();
      }
      return -1;
    }

    /** Pages from {@code index} to the end of the disk extent holding it (0 if unmapped). */
    long runFrom(long index) {
      long page = firstPage;
      for (Extent e : extents) {
        if (index < page + e.pages()) {
          return index < page ? 0 : page + e.pages() - index;
        }
        page += e.pages();
      }
      return 0;
    }
  }

  private final PageCache pc;
  private final SyscallParams syscalls;
  private final WritebackParams wbCosts;
  private final Mounts mounts = new Mounts();
  private final List<Mount> list = new ArrayList<>();
  /** Buffered-read costs ({@code costs.page-cache.*}). */
  private PageCacheParams readCosts = new PageCacheParams(0, 0);
  /** {@code sem->wait_lock} of the inode locks ({@code kernel.rwsem-wait-lock}), or null. */
  private blksim.kernel.locking.LockParams.WaitLock waitLock;

  /** Models the inode locks' {@code wait_lock} with {@code w} (null: not modelled). */
  public void setWaitLock(blksim.kernel.locking.LockParams.WaitLock w) {
    this.waitLock = w;
  }

  public Vfs(PageCache pc, SyscallParams syscalls, WritebackParams wbCosts) {
    this.pc = pc;
    this.syscalls = syscalls;
    this.wbCosts = wbCosts;
  }

  /**
   * Mounts {@code fs} at {@code mountPoint}, written back through {@code wb}; delayed
   * allocations are placed with draws from {@code allocRandom}.
   */
  public Mount mount(String mountPoint, Filesystem fs, boolean readOnly, BdiWriteback wb,
      SplittableRandom allocRandom) {
    mounts.mount(mountPoint, fs, readOnly);
    Mount m = new Mount(fs, Mounts.normalise(mountPoint), wb, allocRandom);
    list.add(m);
    return m;
  }

  /**
   * Gives the filesystem mounted at {@code mountPoint} its {@code s_dio_done_wq}, where
   * asynchronous direct writes complete ({@code sb_init_dio_done_wq()}:
   * {@code alloc_workqueue("dio/%s", WQ_MEM_RECLAIM, 0, sb->s_id)}).
   */
  public void setDioDoneWq(String mountPoint, blksim.kernel.workqueue.WorkqueueSystem wqs,
      blksim.kernel.workqueue.Workqueue wq) {
    Mount m = mountAt(mountPoint);
    if (m == null) {
      throw new IllegalArgumentException("nothing mounted at " + mountPoint);
    }
    m.dioWqs = wqs;
    m.dioDoneWq = wq;
  }

  /** Data an earlier run left on a filesystem's device: sectors {@code [sector, +sectors)}. */
  @FunctionalInterface
  public interface WrittenHook {
    /** Sectors {@code [sector, sector + sectors)} of the device hold written data. */
    void written(long sector, long sectors);
  }

  /**
   * Tells the device under the filesystem mounted at {@code mountPoint} of data an earlier run
   * left on it (dm-zoned maps the chunks, {@code DmzDevice#prewrite}); by default nothing.
   */
  public void setWrittenHook(String mountPoint, WrittenHook hook) {
    Mount m = mountAt(mountPoint);
    if (m == null) {
      throw new IllegalArgumentException("nothing mounted at " + mountPoint);
    }
    m.written = hook;
  }

  /** The mount table. */
  public Mounts mounts() {
    return mounts;
  }

  /** The mounted filesystems, in mount order. */
  public List<Mount> mountList() {
    return List.copyOf(list);
  }

  /** The mount holding {@code path}, or null if no mount does. */
  public Mount mountOf(String path) {
    Mounts.Resolved r = mounts.find(path);
    return r == null ? null : mountOf(r);
  }

  /** The mount of an already resolved path. */
  public Mount mountOf(Mounts.Resolved r) {
    for (Mount m : list) {
      if (m.fs == r.fs()) {
        return m;
      }
    }
    return null;
  }

  /** The mount whose mount point is exactly {@code mountPoint}, or null. */
  public Mount mountAt(String mountPoint) {
    Filesystem fs = mounts.at(mountPoint);
    for (Mount m : list) {
      if (m.fs == fs) {
        return m;
      }
    }
    return null;
  }

  /**
   * The end of {@code generic_shutdown_super()} for a mount already taken out of the namespace
   * ({@link Mounts#detach}) and synced: {@code evict_inodes()} drops every page cache of its
   * inodes (in inode order), then {@code put_super()}; the mount leaves the mount list.
   *
   * <p>Simplified: eviction costs no CPU time of its own, and the filesystem's own unmount work
   * (the XFS log's unmount record and the cache flush) is not modelled.
   */
  void shutdown(Mount m) {
    for (Long ino : new java.util.TreeSet<>(m.mappings.keySet())) {
      m.drop(ino);
    }
    int r = m.fs.unmount();
    if (r != 0) {
      throw new IllegalStateException("unmount of " + m.mountPoint + " after detach: " + r);
    }
    list.remove(m);
  }

  /**
   * The page caches of {@code m}'s inodes that have pages under writeback now, in inode order
   * ({@code wait_sb_inodes()} walks them).
   */
  List<AddressSpace> underWriteback(Mount m) {
    List<AddressSpace> out = new ArrayList<>();
    for (Long ino : new java.util.TreeSet<>(m.mappings.keySet())) {
      AddressSpace as = m.mappings.get(ino);
      if (as.nrWriteback() > 0) {
        out.add(as);
      }
    }
    return out;
  }

  /** Sets the costs of buffered reads of files ({@code costs.page-cache.*}); default zero. */
  public void setReadCosts(PageCacheParams costs) {
    this.readCosts = costs;
  }

  PageCacheParams readCosts() {
    return readCosts;
  }

  /** Page-fault and mmap costs ({@code costs.mm.*}). */
  private blksim.kernel.mm.FaultCosts faultCosts = blksim.kernel.mm.FaultCosts.DEFAULT;

  /** Sets the costs of page faults and of mmap()/munmap() ({@code costs.mm.*}). */
  public void setFaultCosts(blksim.kernel.mm.FaultCosts costs) {
    this.faultCosts = costs;
  }

  blksim.kernel.mm.FaultCosts faultCosts() {
    return faultCosts;
  }

  public PageCache pageCache() {
    return pc;
  }

  SyscallParams syscalls() {
    return syscalls;
  }

  WritebackParams wbCosts() {
    return wbCosts;
  }
}
