package blksim.kernel.fs.btrfs;

import blksim.kernel.block.BlockQueue;
import blksim.kernel.fs.Allocation;
import blksim.kernel.fs.Filesystem;
import blksim.kernel.fs.OwnDirectIo;
import blksim.kernel.locking.LockParams;
import blksim.kernel.locking.RwSemaphore;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.WaitQueue;
import blksim.kernel.syscall.SyscallParams;
import blksim.kernel.workqueue.Workqueue;
import blksim.kernel.workqueue.WorkerCpu;
import blksim.kernel.workqueue.WorkqueueSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A btrfs filesystem over one or more devices, as far as thread 2 needs it (kernel-model.md
 * §15.3): asynchronous direct writes with ordered extents finished on {@code btrfs-endio-write},
 * fsync waiting for them, and data striped RAID0 over the devices ({@link Raid0Map}).
 *
 * <p>What is modelled, and the kernel code it follows ({@code fs/btrfs/}, 6.5-6.8):
 * <ul>
 * <li><b>Direct write</b> ({@link BtrfsDirectWrite}): {@code btrfs_direct_write()} takes the
 *     inode lock ({@code btrfs_inode_lock()}, {@code i_rwsem}, a {@link RwSemaphore}): shared for
 *     an aligned write inside {@code i_size}, exclusive for one that extends it; then
 *     {@code btrfs_dio_iomap_begin()} → {@code btrfs_get_blocks_direct_write()}: data space
 *     reserved and a new extent allocated for every write, as btrfs copies on write
 *     ({@code btrfs_reserve_extent()} → {@code find_free_extent()}, here a cursor over the
 *     logical space), the extent map and the ordered extent ({@code btrfs_create_dio_extent()} →
 *     {@code btrfs_alloc_ordered_extent()}), and {@code i_size} moved for an extending write;
 *     the checksums are computed in the submitting task ({@code btrfs_submit_chunk()} →
 *     {@code btrfs_csum_one_bio()}: {@code should_async_write()} is false with the fast crc32c
 *     implementation, {@code BTRFS_FS_CSUM_IMPL_FAST}); the bio is split at stripe-element ends
 *     and mapped to the devices ({@code btrfs_map_block()}).
 * <li><b>Completion</b>: each bio's end ({@code btrfs_dio_end_io()}) counts its bytes off the
 *     ordered extent ({@code btrfs_finish_ordered_extent()} → {@code can_finish_ordered_extent()});
 *     the last queues {@code finish_ordered_fn} on {@code fs_info->endio_write_workers}
 *     ({@code btrfs_queue_ordered_fn()}); then {@code iomap_dio_bio_end_io()} completes the dio,
 *     whose aio event is posted from the superblock's {@code s_dio_done_wq}
 *     ({@code iomap_dio_complete_work()}), as for XFS. fio reaps it and refills its queue
 *     without waiting for the ordered extent.
 * <li><b>{@code btrfs-endio-write}</b>: {@code WQ_UNBOUND | WQ_MEM_RECLAIM | WQ_FREEZABLE},
 *     max_active {@code thread_pool_size} = {@code min(nr_cpus + 2, 8)} or the
 *     {@code thread_pool=} mount option ({@code btrfs_init_workqueues()} →
 *     {@code btrfs_alloc_workqueue(fs_info, "endio-write", flags, max_active, 2)}; the threshold
 *     2 is below {@code DFT_THRESHOLD} 32, so btrfs never varies max_active itself,
 *     {@code async-thread.c}). How many run at once is the workqueue model's (the kernel mode's
 *     pwqs and max_active enforcement, kernel-model.md §4.7).
 * <li><b>finish_ordered_fn</b> ({@code btrfs_finish_one_ordered()}): the minimal contention model
 *     of §15.3.4: CPU c_f, then the hot b-tree nodes' lock ({@link #treeLock()}, one
 *     {@link RwSemaphore} standing for the upper subvolume-tree nodes, the extent leaves and the
 *     csum-tree leaves every finisher touches) exclusive for h_w, then c_f2; the submitters hold
 *     it shared for h_r. Hundreds of finishers queue on it in D state. Then the ordered extent
 *     is removed and fsync waiters are woken ({@code btrfs_remove_ordered_extent()}).
 * <li><b>fsync</b> ({@link BtrfsFsync}, {@code btrfs_sync_file()}): the inode lock exclusive,
 *     {@code btrfs_wait_ordered_range()} over the whole file (every ordered extent of the
 *     inode), then the log sync as CPU time.
 * </ul>
 *
 * <p>Simplified: no extent map per file is kept (no per-block work per write): reads and
 * buffered I/O of btrfs files are not modelled (the loader refuses them), {@link #readSector}
 * answers -1; space is accounted per file as the larger of {@code i_size} and its preallocated
 * end, COW freeing the old copy of an overwritten range at once (no pinned extents until the
 * transaction commits); the allocator hands out the logical space in order and wraps at its
 * end; metadata takes no space and causes no I/O (the tree blocks, the log and the superblock
 * are not written; the metadata reservation and its flushing, §15.3.1, are not modelled);
 * transaction commits are not modelled; one lock stands for all hot b-tree nodes (§15.3.4); a
 * direct write not aligned to 4 KiB fails with EINVAL where btrfs falls back to a buffered
 * write; namespace operations cost a fixed CPU time.
 */
public final class BtrfsFilesystem implements Filesystem, OwnDirectIo {
  /** {@code BTRFS_FIRST_FREE_OBJECTID}: the root directory of a subvolume is 256. */
  public static final long ROOT_INO = 256;
  /** {@code fs_info->sectorsize}: O_DIRECT on btrfs needs this alignment. */
  public static final int SECTORSIZE = 4096;

  /** An inode. */
  static final class Inode {
    final long ino;
    final long parent;
    /** Entries of a directory, by name; null for a regular file. */
    final TreeMap<String, Long> children;
    long size;
    /** Bytes charged to the filesystem's space: max(i_size, preallocated end). */
    long bytes;
    int refs;
    boolean unlinked;
    /** {@code inode->i_rwsem}, made on first use. */
    RwSemaphore iRwsem;
    /** The lock of the inode's last fs-tree leaf (lock coupling), made on first use. */
    RwSemaphore leafLock;
    /** Ordered extents of the inode not yet finished. */
    int orderedPending;
    /** Waiters of {@code btrfs_wait_ordered_range()} ({@code entry->wait}). */
    final WaitQueue orderedWait = new WaitQueue();

    Inode(long ino, long parent, boolean dir) {
      this.ino = ino;
      this.parent = parent;
      this.children = dir ? new TreeMap<>() : null;
    }
  }

  private final List<String> devices;
  private final BtrfsParams params;
  private final Raid0Map map;
  private final TreeMap<Long, Inode> inodes = new TreeMap<>();
  private long nextIno = ROOT_INO + 1;
  private boolean mounted;
  private boolean readOnly;
  private String mountPoint = "?";
  /** Next logical byte {@code find_free_extent()} hands out. */
  private long allocCursor;
  private long usedBytes;

  // Attached when the machine is built.
  WorkqueueSystem wqs;
  Workqueue endioWrite;
  WorkqueueSystem dioWqs;
  Workqueue dioDoneWq;
  /** Queues by device index, then CPU id. */
  List<List<BlockQueue>> queues;
  SyscallParams syscalls;
  LockParams lockParams = LockParams.DEFAULT;
  private RwSemaphore treeLock;
  /** {@code down_write()} of the tree lock as a kworker's acquisition step. */
  WorkerCpu.LockStep treeWrite;

  // Statistics.
  long orderedCreated;
  long orderedFinished;
  long orderedOutstanding;
  long maxOrderedOutstanding;
  long bytesSubmitted;
  final long[] deviceBytes;
  Consumer<OrderedExtent> finishListener;

  private BtrfsFilesystem(List<String> devices, long minDeviceBytes, BtrfsParams params) {
    this.devices = List.copyOf(devices);
    this.params = params;
    this.map = new Raid0Map(devices.size(), minDeviceBytes);
    this.deviceBytes = new long[devices.size()];
    Inode root = new Inode(ROOT_INO, ROOT_INO, true);
    inodes.put(ROOT_INO, root);
  }

  /**
   * {@code mkfs.btrfs -d PROFILE DEVICES}: a new, unmounted filesystem over {@code devices} of
   * {@code deviceBytes} each.
   *
   * @throws IllegalArgumentException naming the rule: raid0 needs two devices or more (a RAID0
   *     over one device stripes nothing; the model refuses it, as mkfs.btrfs did before
   *     btrfs-progs 5.15), single takes exactly one device, devices appear once
   */
  public static BtrfsFilesystem mkfs(List<String> devices, List<Long> deviceBytes,
      BtrfsParams params) {
    if (devices.isEmpty() || devices.size() != deviceBytes.size()) {
      throw new IllegalArgumentException("a btrfs filesystem needs at least one device");
    }
    if (new java.util.TreeSet<>(devices).size() != devices.size()) {
      throw new IllegalArgumentException("a device appears twice in " + devices);
    }
    if (params.dataProfile().equals("raid0") && devices.size() < 2) {
      throw new IllegalArgumentException("data-profile raid0 over one device (" + devices.get(0)
          + ") stripes nothing: give two devices or more, or data-profile single");
    }
    if (params.dataProfile().equals("single") && devices.size() != 1) {
      throw new IllegalArgumentException("data-profile single is modelled over one device, not "
          + devices.size() + " " + devices + ": use data-profile raid0");
    }
    long min = Long.MAX_VALUE;
    for (long b : deviceBytes) {
      min = Math.min(min, b);
    }
    return new BtrfsFilesystem(devices, min, params);
  }

  /**
   * Connects the filesystem to the machine: {@code endioWrite} on {@code wqs} (its
   * {@code btrfs-endio-write}), the superblock's {@code s_dio_done_wq}, each device's queue per
   * CPU id ({@code queues.get(device).get(cpu)}, devices in {@link #devices()} order), the
   * system-call costs, and the lock parameters of the kernel's HZ.
   */
  public void attach(WorkqueueSystem wqs, Workqueue endioWrite, Workqueue dioDoneWq,
      List<List<BlockQueue>> queues, SyscallParams syscalls, LockParams lockParams) {
    if (queues.size() != devices.size()) {
      throw new IllegalArgumentException("queues for " + queues.size() + " devices, the"
          + " filesystem has " + devices.size());
    }
    this.wqs = wqs;
    this.endioWrite = endioWrite;
    this.dioWqs = wqs;
    this.dioDoneWq = dioDoneWq;
    this.queues = List.copyOf(queues);
    this.syscalls = syscalls;
    this.lockParams = lockParams;
    this.treeLock = new RwSemaphore("btrfs_tree_lock " + devices.get(0), "btrfs-tree",
        lockParams);
    RwSemaphore l = treeLock;
    this.treeWrite = l::downWrite;
  }

  /** The CPU of the tree lock's last holder, whose cache holds the hot nodes' lines. */
  private blksim.kernel.topology.Cpu lastTreeCpu;

  /**
   * The cache-line transfer a tree-lock holder on {@code on} pays before it can use the hot
   * nodes ({@link BtrfsParams#treeTransferNs}, {@link BtrfsParams#treeTransferRemoteNs}): nothing
   * when the previous holder ran on the same core (SMT siblings share L1 and L2) or there was
   * none. Records {@code on} as the last holder. Shared readers are counted one after another,
   * as if each pulled the lines itself (a simplification: concurrent readers share them).
   */
  long treeTransferNs(blksim.kernel.sched.CpuComponent on) {
    blksim.kernel.topology.Cpu me = on.cpu();
    blksim.kernel.topology.Cpu from = lastTreeCpu;
    lastTreeCpu = me;
    if (from == null || from.core() == me.core()) {
      return 0;
    }
    return from.llc() == me.llc() ? params.treeTransferNs() : params.treeTransferRemoteNs();
  }

  /** The model's parameters. */
  public BtrfsParams params() {
    return params;
  }

  /** The data layout. */
  public Raid0Map layout() {
    return map;
  }

  /** The devices, in the order of the layout's device indexes. */
  public List<String> devices() {
    return devices;
  }

  /** The lock standing for the hot b-tree nodes (§15.3.4), null before {@link #attach}. */
  public RwSemaphore treeLock() {
    return treeLock;
  }

  /** Ordered extents created so far. */
  public long orderedCreated() {
    return orderedCreated;
  }

  /** Ordered extents finished so far. */
  public long orderedFinished() {
    return orderedFinished;
  }

  /** Ordered extents created and not yet finished. */
  public long orderedOutstanding() {
    return orderedOutstanding;
  }

  /** The most ordered extents outstanding at once. */
  public long maxOrderedOutstanding() {
    return maxOrderedOutstanding;
  }

  /** Ordered extents of {@code ino} not yet finished. */
  public int orderedPending(long ino) {
    return live(ino).orderedPending;
  }

  /** Data bytes submitted to device {@code index} (of {@link #devices()}). */
  public long deviceBytes(int index) {
    return deviceBytes[index];
  }

  /** Data bytes submitted by direct writes. */
  public long bytesSubmitted() {
    return bytesSubmitted;
  }

  /** Tells {@code l} of every ordered extent as it finishes (tests, reports). */
  public void onOrderedFinished(Consumer<OrderedExtent> l) {
    this.finishListener = l;
  }

  // ---- OwnDirectIo --------------------------------------------------------------------------

  @Override
  public TaskCalls forTask(Task task) {
    if (queues == null) {
      throw new IllegalStateException("btrfs on " + devices + " is not attached to the machine");
    }
    return new BtrfsTaskCalls(this, task);
  }

  // ---- the data path's shared state ---------------------------------------------------------

  Inode inode(long ino) {
    return live(ino);
  }

  /**
   * {@code btrfs_reserve_extent()} for a write of {@code len} bytes at {@code pos} of
   * {@code in}: charges the space the file grows by and returns the logical address of the new
   * extent, or {@code -ENOSPC}.
   */
  long reserveExtent(Inode in, long pos, int len) {
    long end = pos + len;
    if (end > in.bytes) {
      long grow = end - in.bytes;
      if (usedBytes + grow > map.capacity()) {
        return -ENOSPC;
      }
      usedBytes += grow;
      in.bytes = end;
    }
    if (allocCursor + len > map.capacity()) {
      allocCursor = 0;
    }
    long logical = allocCursor;
    allocCursor += len;
    return logical;
  }

  /** An ordered extent is created ({@code btrfs_alloc_ordered_extent()}). */
  OrderedExtent orderedCreated(Inode in, long pos, int len, long logical, long now) {
    in.orderedPending++;
    orderedCreated++;
    orderedOutstanding++;
    maxOrderedOutstanding = Math.max(maxOrderedOutstanding, orderedOutstanding);
    return new OrderedExtent(in.ino, pos, len, logical, now);
  }

  /** {@code btrfs_remove_ordered_extent()}: gone; the inode's waiters woken when none is left. */
  void orderedFinished(OrderedExtent oe, CpuComponent on, long now) {
    Inode in = inodes.get(oe.ino);
    oe.finishedNs = now;
    orderedFinished++;
    orderedOutstanding--;
    if (in != null && --in.orderedPending == 0) {
      in.orderedWait.wakeUpAll(on);
    }
    if (finishListener != null) {
      finishListener.accept(oe);
    }
  }

  /** The inode's {@code i_rwsem}, made on first use. */
  /** Whether tree searches couple the upper nodes' lock with the file's leaf lock. */
  boolean coupling() {
    return params.finishLeafHoldNs() > 0 || params.submitLeafHoldNs() > 0;
  }

  /** The lock of {@code in}'s last fs-tree leaf, where its file extent items are appended. */
  RwSemaphore leafLock(Inode in) {
    if (in.leafLock == null) {
      in.leafLock = new RwSemaphore("btrfs_tree_lock leaf " + mountPoint + ":" + in.ino,
          "btrfs-tree-leaf", lockParams);
    }
    return in.leafLock;
  }

  RwSemaphore iRwsem(Inode in) {
    if (in.iRwsem == null) {
      in.iRwsem = new RwSemaphore("i_rwsem " + mountPoint + ":" + in.ino, "i_rwsem btrfs",
          lockParams);
    }
    return in.iRwsem;
  }

  // ---- Filesystem ---------------------------------------------------------------------------

  @Override
  public String type() {
    return "btrfs";
  }

  @Override
  public String device() {
    return devices.get(0);
  }

  @Override
  public boolean mounted() {
    return mounted;
  }

  @Override
  public boolean readOnly() {
    return readOnly;
  }

  @Override
  public void mount(boolean readOnly) {
    if (mounted) {
      throw new IllegalStateException("btrfs on " + devices + " is already mounted");
    }
    mounted = true;
    this.readOnly = readOnly;
  }

  /** Names the lock objects after the mount point (called by the factory after the mount). */
  public void mountedAt(String mountPoint) {
    this.mountPoint = mountPoint;
  }

  @Override
  public int unmount() {
    requireMounted();
    if (hasOpenInodes()) {
      return -EBUSY;
    }
    mounted = false;
    return 0;
  }

  @Override
  public boolean hasOpenInodes() {
    for (Inode in : inodes.values()) {
      if (in.refs > 0) {
        return true;
      }
    }
    return false;
  }

  @Override
  public long rootIno() {
    return ROOT_INO;
  }

  @Override
  public long lookup(long dirIno, String name) {
    Inode d = live(dirIno);
    if (d.children == null) {
      return -ENOTDIR;
    }
    Long ino = d.children.get(name);
    return ino == null ? -ENOENT : ino;
  }

  @Override
  public long create(long dirIno, String name) {
    return make(dirIno, name, false);
  }

  @Override
  public long mkdir(long dirIno, String name) {
    return make(dirIno, name, true);
  }

  private long make(long dirIno, String name, boolean dir) {
    requireMounted();
    if (readOnly) {
      return -EROFS;
    }
    Inode d = live(dirIno);
    if (d.children == null) {
      return -ENOTDIR;
    }
    int bad = badName(name);
    if (bad != 0) {
      return bad;
    }
    if (d.children.containsKey(name)) {
      return -EEXIST;
    }
    long ino = nextIno++;
    inodes.put(ino, new Inode(ino, dirIno, dir));
    d.children.put(name, ino);
    return ino;
  }

  private static int badName(String name) {
    if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0) {
      return -EINVAL;
    }
    if (name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > NAME_MAX) {
      return -ENAMETOOLONG;
    }
    return 0;
  }

  @Override
  public int unlink(long dirIno, String name) {
    return remove(dirIno, name, false);
  }

  @Override
  public int rmdir(long dirIno, String name) {
    return remove(dirIno, name, true);
  }

  private int remove(long dirIno, String name, boolean dir) {
    requireMounted();
    if (readOnly) {
      return -EROFS;
    }
    Inode d = live(dirIno);
    if (d.children == null) {
      return -ENOTDIR;
    }
    Long ino = d.children.get(name);
    if (ino == null) {
      return -ENOENT;
    }
    Inode in = inodes.get(ino);
    if (dir && in.children == null) {
      return -ENOTDIR;
    }
    if (!dir && in.children != null) {
      return -EISDIR;
    }
    if (dir && !in.children.isEmpty()) {
      return -ENOTEMPTY;
    }
    d.children.remove(name);
    in.unlinked = true;
    if (in.refs == 0) {
      free(in);
    }
    return 0;
  }

  private void free(Inode in) {
    usedBytes -= in.bytes;
    in.bytes = 0;
    inodes.remove(in.ino);
  }

  @Override
  public boolean isDirectory(long ino) {
    return live(ino).children != null;
  }

  @Override
  public void iget(long ino) {
    live(ino).refs++;
  }

  @Override
  public void iput(long ino) {
    Inode in = live(ino);
    if (in.refs == 0) {
      throw new IllegalStateException("iput of inode " + ino + " without a reference");
    }
    if (--in.refs == 0 && in.unlinked) {
      free(in);
    }
  }

  @Override
  public int reserve(long ino, long firstPage, int nPages) {
    throw new UnsupportedOperationException("buffered writes on btrfs are not modelled");
  }

  @Override
  public Allocation allocate(long ino, long firstPage, int nPages, SplittableRandom random) {
    throw new UnsupportedOperationException("buffered writes on btrfs are not modelled");
  }

  @Override
  public long size(long ino) {
    return live(ino).size;
  }

  @Override
  public void setSize(long ino, long bytes) {
    Inode in = live(ino);
    in.size = bytes;
  }

  @Override
  public int truncate(long ino, long bytes) {
    if (bytes < 0) {
      return -EINVAL;
    }
    if (readOnly) {
      return -EROFS;
    }
    Inode in = live(ino);
    in.size = bytes;
    long keep = (bytes + SECTORSIZE - 1) / SECTORSIZE * SECTORSIZE;
    if (in.bytes > keep) {
      usedBytes -= in.bytes - keep;
      in.bytes = keep;
    }
    return 0;
  }

  @Override
  public int fallocate(long ino, long firstPage, int nPages, boolean unwrittenExtents,
      SplittableRandom random) {
    if (readOnly) {
      return -EROFS;
    }
    Inode in = live(ino);
    long end = (firstPage + nPages) * (long) PAGE_SIZE;
    if (end > in.bytes) {
      long grow = end - in.bytes;
      if (usedBytes + grow > map.capacity()) {
        return -ENOSPC;
      }
      usedBytes += grow;
      in.bytes = end;
    }
    return 0;
  }

  @Override
  public boolean unwritten(long ino, long page) {
    return false;
  }

  @Override
  public long fallocateCostNs() {
    return params.createNs();
  }

  @Override
  public long readSector(long ino, long page) {
    return -1;
  }

  @Override
  public long createCostNs() {
    return params.createNs();
  }

  @Override
  public long unlinkCostNs() {
    return params.unlinkNs();
  }

  @Override
  public long totalBlocks() {
    return map.capacity() / PAGE_SIZE;
  }

  @Override
  public long freeBlocks() {
    return (map.capacity() - usedBytes) / PAGE_SIZE;
  }

  @Override
  public long inodeCount() {
    return inodes.size();
  }

  private void requireMounted() {
    if (!mounted) {
      throw new IllegalStateException("btrfs on " + devices + " is not mounted");
    }
  }

  private Inode live(long ino) {
    Inode in = inodes.get(ino);
    if (in == null) {
      throw new IllegalStateException("btrfs: inode " + ino + " is not live");
    }
    return in;
  }

  /** The queues of every device on {@code cpuId}, for one write's bios. */
  BlockQueue queue(int device, int cpuId) {
    return queues.get(device).get(cpuId);
  }

  /** For reports: per-device bytes as a list. */
  public List<Long> deviceBytesList() {
    List<Long> out = new ArrayList<>();
    for (long b : deviceBytes) {
      out.add(b);
    }
    return out;
  }
}
