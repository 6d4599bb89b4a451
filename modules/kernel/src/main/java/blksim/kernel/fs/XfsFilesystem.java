package blksim.kernel.fs;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * An XFS-like filesystem: allocation groups, delayed allocation resolved at writeback with a
 * contiguity probability, per-inode writeback CPU, create and unlink, and {@code ro}
 * (kernel-model.md §15.4.4).
 *
 * <p>What is modelled, and the kernel code it follows:
 * <ul>
 * <li><b>Geometry</b>: 4 KiB blocks, AGs as mkfs.xfs makes them ({@link XfsGeometry}). Each AG
 *     starts with {@link #AG_HEADER_BLOCKS} blocks of headers and btree roots that are never
 *     free.
 * <li><b>Where inodes go</b> ({@code xfs_ialloc_ag_select()}, {@code libxfs/xfs_ialloc.c}): a new
 *     directory takes the AG of the mount's rotor ({@code xfs_ialloc_next_ag()}: the rotor's value,
 *     then the rotor advances, wrapping at the AG count; it starts at 0 at mount), so new
 *     directories rotate over the AGs; a file takes its directory's AG
 *     ({@code XFS_INO_TO_AGNO(parent)}). The root directory is in AG 0.
 * <li><b>Delayed allocation</b>: {@link #reserve} at write() only takes space from the free count
 *     ({@code xfs_bmapi_reserve_delalloc()}); {@link #allocate} at writeback chooses blocks
 *     ({@code xfs_bmapi_convert_delalloc()}, which converts the whole delalloc extent around the
 *     range, not only the pages asked for; {@code xfs_iomap_write_allocate()} in 4.3).
 * <li><b>Placement</b> ({@code xfs_bmap_btalloc()}, {@code xfs_bmap_adjacent()}): a file's
 *     further extent goes right after its previous one when that block is free (within-file
 *     contiguity, no draw). Otherwise, each AG remembers where its previous allocation ended; the
 *     new extent starts there with probability {@link XfsParams#pContig} and otherwise
 *     {@link XfsParams#jumpBlocks} further on. In XFS the target of a file's first extent is its
 *     inode's block, and files created one after the other in a directory have neighbouring
 *     inodes, so the near-block search usually lands right after the previous file's data;
 *     what breaks the run is other allocations in between (a new inode chunk, a directory or
 *     btree block). The jump stands for one of those: by default one inode chunk (32 KiB), left
 *     free so the space is not lost. Free space is taken first-fit at or after the target: free
 *     holes inside the AG, then the AG's never-used tail (its cursor), then from the AG's start,
 *     then the next AGs ({@code xfs_alloc_vextent_start_ag()}).
 * <li><b>Size, truncate and preallocation</b>: each file keeps its {@code i_size}
 *     ({@link #size}); {@link #truncate} is {@code xfs_setattr_size()}; {@link #fallocate} is
 *     {@code xfs_alloc_file_space()}: blocks chosen at once, as unwritten extents.
 * <li><b>Unlink</b> frees the inode and its extents at once, or at the last {@link #iput} when
 *     the file is open ({@code xfs_inactive()}). Freed extents merge with free neighbours; one
 *     that reaches the AG's cursor gives the space back to the tail.
 * </ul>
 *
 * <p>Simplified: inodes, directories, inode chunks and the log take no blocks and cost no I/O
 * (metadata writeback belongs to the XFS log model that comes next); no speculative EOF
 * preallocation, extent size hints or filestreams; within a file, unmapped pages below the
 * highest reserved page are taken as delalloc (holes are reserved and allocated as if written);
 * the near-block search looks forward only, and holes behind the target are reused once the
 * search wraps (first-fit, not XFS's closest-of-both-directions or by-size btrees); inode numbers
 * are {@link #ROOT_INO} + a slot and do not encode the AG; no rename, hard links or extended
 * attributes. A truncate frees whole pages past the new size; a partial last page keeps its block.
 * Unwritten extents ({@link #fallocate}) are tracked per page range only for files that have
 * any; their conversion at writeback costs nothing beyond {@link XfsParams#writebackPerInodeNs}
 * ({@code xfs_iomap_write_unwritten()}'s transaction is not modelled separately). {@code xfs_ialloc_ag_select()}'s search onwards for an AG with room for
 * inodes is not modelled: a directory always takes the rotor's AG.
 *
 * <p>Compactness: a clean, closed file is a slot in parallel primitive arrays (mode, AG, one
 * inline extent at file page 0, the delalloc end, i_size: 31 bytes) plus its entry in its directory's
 * {@link DirectoryIndex}; only files with more than one extent, directories and open inodes have
 * objects. Slots of freed inodes are reused. Owned by the caller's partition; not thread-safe.
 */
public final class XfsFilesystem implements Filesystem {
  /** The root directory's inode number; inode numbers are this plus a slot. */
  public static final long ROOT_INO = 128;
  /**
   * Blocks at the start of each AG that are never free [A]: the superblock, AGF, AGI and AGFL
   * sectors and the free-space and inode btree roots of a v5 filesystem.
   */
  public static final int AG_HEADER_BLOCKS = 8;

  private static final byte FREE = 0;
  private static final byte FILE = 1;
  private static final byte DIR = 2;
  /** A file with no name left, kept until its last reference is dropped. */
  private static final byte UNLINKED = 3;
  private static final int INITIAL_SLOTS = 64;

  private final String device;
  private final XfsGeometry geometry;
  private final XfsParams params;
  private final XfsLog log;
  private boolean mounted;
  private boolean readOnly;
  /** {@code m_agirotor}: the AG of the next new directory. */
  private int agRotor;

  // Per inode slot: parallel arrays.
  private byte[] mode = new byte[INITIAL_SLOTS];
  private short[] ag = new short[INITIAL_SLOTS];
  /** Inline extent, the one at file page 0: disk block, -1 = none. */
  private long[] extBlock = new long[INITIAL_SLOTS];
  /** Inline extent: length in pages. */
  private int[] extLen = new int[INITIAL_SLOTS];
  /** Pages [0, delallocEnd) are reserved or mapped. */
  private int[] delallocEnd = new int[INITIAL_SLOTS];
  /** {@code i_size} in bytes. */
  private long[] size = new long[INITIAL_SLOTS];
  /** Slots ever used: slots >= this are free and never used. */
  private int slotsUsed;
  /** Stack of freed slots below {@link #slotsUsed}. */
  private int[] freeSlots = new int[16];
  private int freeSlotCount;
  private long liveInodes;

  /**
   * Further extents of multi-extent files (and any extent of a file whose page 0 is not mapped):
   * slot -> file page -> {block, pages}.
   */
  private final Map<Integer, TreeMap<Integer, long[]>> moreExtents = new HashMap<>();
  /** Directory slot -> its entries. */
  private final Map<Integer, DirectoryIndex> dirs = new HashMap<>();
  /**
   * Unwritten page ranges of files that were preallocated ({@link #fallocate}): slot -> first
   * page -> end page (exclusive), merged; absent for every other file.
   */
  private final Map<Integer, TreeMap<Integer, Integer>> unwritten = new HashMap<>();
  /** Slot -> references ({@link #iget}); absent = 0. */
  private final Map<Integer, Integer> refs = new HashMap<>();

  // Per AG.
  /** First never-used block of the AG's tail. */
  private final long[] cursor;
  /** The block after the AG's previous allocation. */
  private final long[] lastEnd;
  /** Free holes below the cursor: start -> length, merged, none ending at the cursor. */
  private final TreeMap<Long, Long>[] holes;
  private final long[] agFree;
  private long totalFree;
  /** Pages reserved by {@link #reserve} and not yet allocated. */
  private long delallocBlocks;

  private XfsFilesystem(String device, XfsGeometry geometry, XfsParams params) {
    this.device = device;
    this.geometry = geometry;
    this.params = params;
    int n = geometry.agCount();
    cursor = new long[n];
    lastEnd = new long[n];
    agFree = new long[n];
    @SuppressWarnings("unchecked")
    TreeMap<Long, Long>[] h = new TreeMap[n];
    holes = h;
    for (int g = 0; g < n; g++) {
      holes[g] = new TreeMap<>();
      long start = Math.min(geometry.agStart(g) + AG_HEADER_BLOCKS, geometry.agEnd(g));
      cursor[g] = start;
      lastEnd[g] = start;
      agFree[g] = geometry.agEnd(g) - start;
      totalFree += agFree[g];
    }
    Arrays.fill(extBlock, -1);
    this.log = new XfsLog(geometry);
    int root = newSlot(DIR, 0);
    dirs.put(root, new DirectoryIndex(root));
  }

  /**
   * {@code mkfs.xfs} on a device of {@code deviceBytes}: AGs as {@code params.agCount()} says (0:
   * mkfs's default for the size), an empty root directory; not mounted.
   *
   * @throws IllegalArgumentException if the device is too small or the AG count impossible
   */
  public static XfsFilesystem mkfs(String device, long deviceBytes, XfsParams params) {
    if (deviceBytes < XfsGeometry.AG_MIN_BLOCKS << XfsGeometry.BLOCK_LOG) {
      throw new IllegalArgumentException("an xfs filesystem needs a device of at least 16 MiB"
          + " (XFS_AG_MIN_BYTES), " + device + " has " + deviceBytes + " bytes");
    }
    XfsGeometry g = params.agCount() == 0 ? XfsGeometry.mkfsDefault(deviceBytes)
        : XfsGeometry.withAgCount(deviceBytes, params.agCount());
    return new XfsFilesystem(device, g, params);
  }

  /** What the log holds for the unmount to write ({@link XfsLog}). */
  public XfsLog log() {
    return log;
  }

  /** The AG of inode slot {@code s} (the log's placement of inode cluster buffers). */
  int agOfSlot(int s) {
    return s < ag.length ? ag[s] : 0;
  }

  /** The filesystem's geometry. */
  public XfsGeometry geometry() {
    return geometry;
  }

  /** The model's parameters. */
  public XfsParams params() {
    return params;
  }

  /** The AG of an inode. */
  public int agOf(long ino) {
    return ag[live(ino)];
  }

  @Override
  public String type() {
    return "xfs";
  }

  @Override
  public String device() {
    return device;
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
  public void mount(boolean ro) {
    if (mounted) {
      throw new IllegalStateException("xfs on " + device + " is already mounted");
    }
    mounted = true;
    readOnly = ro;
    agRotor = 0;
  }

  @Override
  public int unmount() {
    checkMounted();
    if (!refs.isEmpty()) {
      return -EBUSY;
    }
    mounted = false;
    return 0;
  }

  @Override
  public boolean hasOpenInodes() {
    return !refs.isEmpty();
  }

  @Override
  public long rootIno() {
    return ROOT_INO;
  }

  @Override
  public long lookup(long dirIno, String name) {
    checkMounted();
    int d = live(dirIno);
    if (mode[d] != DIR) {
      return -ENOTDIR;
    }
    if (name.equals(".")) {
      return dirIno;
    }
    if (name.equals("..")) {
      return ROOT_INO + dirs.get(d).parent();
    }
    byte[] b = name.getBytes(StandardCharsets.UTF_8);
    int err = checkName(b);
    if (err != 0) {
      return err;
    }
    int s = dirs.get(d).get(b);
    return s < 0 ? -ENOENT : ROOT_INO + s;
  }

  @Override
  public long create(long dirIno, String name) {
    return newEntry(dirIno, name, FILE);
  }

  @Override
  public long mkdir(long dirIno, String name) {
    return newEntry(dirIno, name, DIR);
  }

  @Override
  public int unlink(long dirIno, String name) {
    return removeEntry(dirIno, name, FILE);
  }

  @Override
  public int rmdir(long dirIno, String name) {
    return removeEntry(dirIno, name, DIR);
  }

  @Override
  public boolean isDirectory(long ino) {
    return mode[live(ino)] == DIR;
  }

  @Override
  public void iget(long ino) {
    int s = live(ino);
    refs.merge(s, 1, Integer::sum);
  }

  @Override
  public void iput(long ino) {
    int s = live(ino);
    Integer r = refs.get(s);
    if (r == null) {
      throw new IllegalStateException("iput of inode " + ino + " on " + device
          + " without a reference");
    }
    if (r > 1) {
      refs.put(s, r - 1);
      return;
    }
    refs.remove(s);
    if (mode[s] == UNLINKED) {
      freeInode(s);
    }
  }

  @Override
  public int reserve(long ino, long firstPage, int nPages) {
    checkMounted();
    int s = liveFile(ino);
    checkRange(firstPage, nPages);
    if (readOnly) {
      return -EROFS;
    }
    long end = firstPage + nPages;
    long extra = end - delallocEnd[s];
    if (extra > 0) {
      if (extra > freeBlocks()) {
        return -ENOSPC;
      }
      delallocBlocks += extra;
      delallocEnd[s] = (int) end;
    }
    return 0;
  }

  @Override
  public Allocation allocate(long ino, long firstPage, int nPages, SplittableRandom random) {
    checkMounted();
    int s = liveFile(ino);
    checkRange(firstPage, nPages);
    if (readOnly) {
      throw new IllegalStateException("writeback on read-only xfs on " + device);
    }
    int first = (int) firstPage;
    int end = first + nPages;
    if (reserve(ino, firstPage, nPages) != 0) {
      throw new IllegalStateException("xfs on " + device + ": no space for pages written back"
          + " without a reservation (reserve() at write() time)");
    }
    List<Extent> out = new ArrayList<>();
    int p = first;
    while (p < end) {
      long[] e = extentAt(s, p);
      if (e == null) {
        // Convert the whole delalloc run around p, as xfs_bmapi_convert_delalloc() does.
        long[] prev = extentBefore(s, p);
        int gapStart = prev == null ? 0 : (int) (prev[0] + prev[2]);
        long[] next = extentAfter(s, p);
        int gapEnd = next == null ? delallocEnd[s] : Math.min((int) next[0], delallocEnd[s]);
        long prevDiskEnd = prev == null ? -1 : prev[1] + prev[2];
        allocateRun(s, gapStart, gapEnd - gapStart, prevDiskEnd, random);
        continue;
      }
      int run = (int) Math.min(end, e[0] + e[2]) - p;
      long block = e[1] + (p - e[0]);
      Extent last = out.isEmpty() ? null : out.get(out.size() - 1);
      long sector = block * SECTORS_PER_PAGE;
      if (last != null && last.endSector() == sector) {
        out.set(out.size() - 1, new Extent(last.sector(), last.pages() + run));
      } else {
        out.add(new Extent(sector, run));
      }
      p += run;
    }
    clearUnwritten(s, first, end);
    return new Allocation(out, params.writebackPerInodeNs());
  }

  /**
   * {@inheritDoc}
   *
   * <p>Pages of unwritten (fallocated, never written back) extents read as holes.
   */
  @Override
  public long readSector(long ino, long page) {
    int s = liveFile(ino);
    if (page < 0 || page >= Integer.MAX_VALUE) {
      return -1;
    }
    long[] e = extentAt(s, (int) page);
    if (e == null || unwritten(ino, page)) {
      return -1;
    }
    return (e[1] + (page - e[0])) * SECTORS_PER_PAGE;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Pages of unwritten extents have their block ({@code xfs_bmapi_read()} returns the extent
   * flagged XFS_EXT_UNWRITTEN, {@code IOMAP_UNWRITTEN}).
   */
  @Override
  public long mappedSector(long ino, long page) {
    int s = liveFile(ino);
    if (page < 0 || page >= Integer.MAX_VALUE) {
      return -1;
    }
    long[] e = extentAt(s, (int) page);
    return e == null ? -1 : (e[1] + (page - e[0])) * SECTORS_PER_PAGE;
  }

  @Override
  public void convertUnwritten(long ino, long firstPage, int nPages) {
    checkMounted();
    int s = liveFile(ino);
    checkRange(firstPage, nPages);
    clearUnwritten(s, (int) firstPage, (int) (firstPage + nPages));
  }

  @Override
  public long size(long ino) {
    return size[liveFile(ino)];
  }

  @Override
  public void setSize(long ino, long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("i_size must be >= 0, was " + bytes);
    }
    size[liveFile(ino)] = bytes;
  }

  /**
   * {@inheritDoc}
   *
   * <p>{@code xfs_setattr_size()}: a shrink frees the blocks and delalloc reservations of the
   * pages wholly past the new size ({@code xfs_itruncate_extents()}); a grow only sets the size
   * (the pages in between are a hole).
   */
  @Override
  public int truncate(long ino, long bytes) {
    checkMounted();
    int s = liveFile(ino);
    if (bytes < 0) {
      return -EINVAL;
    }
    if (readOnly) {
      return -EROFS;
    }
    long endPage = (bytes + PAGE_SIZE - 1) / PAGE_SIZE;
    if (endPage < delallocEnd[s]) {
      int p = (int) endPage;
      long mappedBefore = mappedPages(s);
      if (extBlock[s] >= 0 && extLen[s] > p) {
        releaseBlocks(extBlock[s] + p, extLen[s] - p);
        extLen[s] = p;
        if (p == 0) {
          extBlock[s] = -1;
        }
      }
      TreeMap<Integer, long[]> more = moreExtents.get(s);
      if (more != null) {
        for (Map.Entry<Integer, long[]> e : new ArrayList<>(more.tailMap(0).entrySet())) {
          int start = e.getKey();
          long[] v = e.getValue();
          if (start >= p) {
            releaseBlocks(v[0], v[1]);
            more.remove(start);
          } else if (start + v[1] > p) {
            releaseBlocks(v[0] + (p - start), start + v[1] - p);
            v[1] = p - start;
          }
        }
        if (more.isEmpty()) {
          moreExtents.remove(s);
        }
      }
      long reservedBefore = delallocEnd[s] - mappedBefore;
      delallocEnd[s] = p;
      long reservedAfter = delallocEnd[s] - mappedPages(s);
      delallocBlocks += reservedAfter - reservedBefore;
      clearUnwritten(s, p, Integer.MAX_VALUE);
    }
    size[s] = bytes;
    return 0;
  }

  /**
   * {@inheritDoc}
   *
   * <p>{@code xfs_alloc_file_space()}: the range is reserved as a write would reserve it (pages
   * below it that were neither reserved nor mapped with it, as in {@link #reserve}), then
   * allocated at once with the placement rule of writeback. Pages that were not reserved or
   * mapped before become unwritten extents ({@code XFS_BMAPI_PREALLOC}) unless
   * {@code unwrittenExtents} is false; writeback of a page converts it to written.
   */
  @Override
  public int fallocate(long ino, long firstPage, int nPages, boolean unwrittenExtents,
      SplittableRandom random) {
    checkMounted();
    int s = liveFile(ino);
    checkRange(firstPage, nPages);
    if (readOnly) {
      return -EROFS;
    }
    int before = delallocEnd[s];
    int r = reserve(ino, firstPage, nPages);
    if (r != 0) {
      return r;
    }
    allocate(ino, firstPage, nPages, random);
    int from = (int) Math.max(firstPage, before);
    int end = (int) (firstPage + nPages);
    if (unwrittenExtents && from < end) {
      TreeMap<Integer, Integer> u = unwritten.computeIfAbsent(s, k -> new TreeMap<>());
      Map.Entry<Integer, Integer> prev = u.floorEntry(from);
      if (prev != null && prev.getValue() >= from) {
        from = prev.getKey();
        end = Math.max(end, prev.getValue());
        u.remove(prev.getKey());
      }
      Map.Entry<Integer, Integer> next = u.ceilingEntry(from);
      while (next != null && next.getKey() <= end) {
        end = Math.max(end, next.getValue());
        u.remove(next.getKey());
        next = u.ceilingEntry(from);
      }
      u.put(from, end);
    }
    return 0;
  }

  @Override
  public boolean unwritten(long ino, long page) {
    TreeMap<Integer, Integer> u = unwritten.get(live(ino));
    if (u == null || page > Integer.MAX_VALUE) {
      return false;
    }
    Map.Entry<Integer, Integer> e = u.floorEntry((int) page);
    return e != null && page < e.getValue();
  }

  @Override
  public long fallocateCostNs() {
    return params.fallocateNs();
  }

  /** Pages of slot {@code s} mapped to disk blocks. */
  private long mappedPages(int s) {
    long n = extBlock[s] >= 0 ? extLen[s] : 0;
    TreeMap<Integer, long[]> more = moreExtents.get(s);
    if (more != null) {
      for (long[] e : more.values()) {
        n += e[1];
      }
    }
    return n;
  }

  /** Pages {@code [from, to)} of slot {@code s} are written (no longer unwritten). */
  private void clearUnwritten(int s, int from, int to) {
    TreeMap<Integer, Integer> u = unwritten.get(s);
    if (u == null) {
      return;
    }
    Map.Entry<Integer, Integer> e = u.lowerEntry(from);
    if (e != null && e.getValue() > from) {
      u.put(e.getKey(), from);
      if (e.getValue() > to) {
        u.put(to, e.getValue());
      }
    }
    // Copy the ranges out first: TreeMap.remove() may move a successor's key and value into
    // the removed entry's node, so entries held across a removal can change under us.
    List<int[]> inside = new ArrayList<>();
    for (Map.Entry<Integer, Integer> f : u.subMap(from, true, to, false).entrySet()) {
      inside.add(new int[] {f.getKey(), f.getValue()});
    }
    for (int[] f : inside) {
      u.remove(f[0]);
      if (f[1] > to) {
        u.put(to, f[1]);
      }
    }
    if (u.isEmpty()) {
      unwritten.remove(s);
    }
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
    return geometry.dataBlocks();
  }

  @Override
  public long freeBlocks() {
    return totalFree - delallocBlocks;
  }

  @Override
  public long inodeCount() {
    return liveInodes;
  }

  /**
   * Bytes held in this filesystem's primitive arrays and directory indexes (object headers,
   * holes and multi-extent maps excluded): a floor for its heap footprint.
   */
  long arrayBytes() {
    long n = mode.length * (1L + 2 + 8 + 4 + 4 + 8) + 4L * freeSlots.length;
    for (DirectoryIndex d : dirs.values()) {
      n += d.footprintBytes();
    }
    return n;
  }

  // ---- namespace ----

  private long newEntry(long dirIno, String name, byte kind) {
    checkMounted();
    int d = live(dirIno);
    if (mode[d] != DIR) {
      return -ENOTDIR;
    }
    byte[] b = name.getBytes(StandardCharsets.UTF_8);
    int err = checkName(b);
    if (err != 0) {
      return err;
    }
    if (readOnly) {
      return -EROFS;
    }
    DirectoryIndex di = dirs.get(d);
    if (di.get(b) >= 0) {
      return -EEXIST;
    }
    if (freeBlocks() <= 0) {
      // XFS needs room for an inode chunk when no free inode is left; the model keeps none.
      return -ENOSPC;
    }
    int g;
    if (kind == DIR) {
      g = agRotor;
      agRotor = (agRotor + 1) % geometry.agCount();
    } else {
      g = ag[d];
    }
    int s = newSlot(kind, g);
    log.created(g, s);
    di.put(b, s);
    if (kind == DIR) {
      dirs.put(s, new DirectoryIndex(d));
    }
    return ROOT_INO + s;
  }

  private int removeEntry(long dirIno, String name, byte kind) {
    checkMounted();
    int d = live(dirIno);
    if (mode[d] != DIR) {
      return -ENOTDIR;
    }
    byte[] b = name.getBytes(StandardCharsets.UTF_8);
    int err = checkName(b);
    if (err != 0) {
      return err;
    }
    if (readOnly) {
      return -EROFS;
    }
    DirectoryIndex di = dirs.get(d);
    int s = di.get(b);
    if (s < 0) {
      return -ENOENT;
    }
    if (kind == FILE && mode[s] == DIR) {
      return -EISDIR;
    }
    if (kind == DIR && mode[s] != DIR) {
      return -ENOTDIR;
    }
    if (kind == DIR && dirs.get(s).size() > 0) {
      return -ENOTEMPTY;
    }
    di.remove(b);
    if (kind == DIR) {
      dirs.remove(s);
    }
    if (refs.containsKey(s)) {
      mode[s] = UNLINKED;
      return 0;
    }
    freeInode(s);
    return 0;
  }

  private static int checkName(byte[] b) {
    if (b.length == 0 || (b.length == 1 && b[0] == '.')
        || (b.length == 2 && b[0] == '.' && b[1] == '.')) {
      return -EINVAL;
    }
    for (byte c : b) {
      if (c == '/' || c == 0) {
        return -EINVAL;
      }
    }
    return b.length > NAME_MAX ? -ENAMETOOLONG : 0;
  }

  // ---- inode slots ----

  private int newSlot(byte kind, int g) {
    int s;
    if (freeSlotCount > 0) {
      s = freeSlots[--freeSlotCount];
    } else {
      if (slotsUsed == mode.length) {
        grow();
      }
      s = slotsUsed++;
    }
    mode[s] = kind;
    ag[s] = (short) g;
    extBlock[s] = -1;
    extLen[s] = 0;
    delallocEnd[s] = 0;
    size[s] = 0;
    liveInodes++;
    return s;
  }

  private void grow() {
    if (mode.length >= Integer.MAX_VALUE / 2) {
      throw new IllegalStateException("xfs on " + device + ": more than 2^30 inodes");
    }
    int n = mode.length * 2;
    mode = Arrays.copyOf(mode, n);
    ag = Arrays.copyOf(ag, n);
    int old = extBlock.length;
    extBlock = Arrays.copyOf(extBlock, n);
    Arrays.fill(extBlock, old, n, -1);
    extLen = Arrays.copyOf(extLen, n);
    delallocEnd = Arrays.copyOf(delallocEnd, n);
    size = Arrays.copyOf(size, n);
  }

  /** Frees an inode with no name and no reference: its extents, reservation and slot. */
  private void freeInode(int s) {
    long mapped = 0;
    if (extBlock[s] >= 0) {
      releaseBlocks(extBlock[s], extLen[s]);
      mapped += extLen[s];
    }
    TreeMap<Integer, long[]> more = moreExtents.remove(s);
    if (more != null) {
      for (long[] e : more.values()) {
        releaseBlocks(e[0], e[1]);
        mapped += e[1];
      }
    }
    delallocBlocks -= delallocEnd[s] - mapped;
    unwritten.remove(s);
    size[s] = 0;
    mode[s] = FREE;
    extBlock[s] = -1;
    extLen[s] = 0;
    delallocEnd[s] = 0;
    if (freeSlotCount == freeSlots.length) {
      freeSlots = Arrays.copyOf(freeSlots, freeSlots.length * 2);
    }
    freeSlots[freeSlotCount++] = s;
    liveInodes--;
  }

  private int live(long ino) {
    long s = ino - ROOT_INO;
    if (s < 0 || s >= slotsUsed || mode[(int) s] == FREE) {
      throw new IllegalStateException("xfs on " + device + ": inode " + ino + " is not live");
    }
    return (int) s;
  }

  private int liveFile(long ino) {
    int s = live(ino);
    if (mode[s] == DIR) {
      throw new IllegalStateException("xfs on " + device + ": inode " + ino
          + " is a directory, not a regular file");
    }
    return s;
  }

  private void checkMounted() {
    if (!mounted) {
      throw new IllegalStateException("xfs on " + device + " is not mounted");
    }
  }

  private static void checkRange(long firstPage, int nPages) {
    if (firstPage < 0 || nPages < 1 || firstPage + nPages > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("page range must be within [0, 2^31) with nPages >= 1,"
          + " was " + firstPage + " + " + nPages);
    }
  }

  // ---- extents of an inode: {file page, disk block, pages} ----

  private long[] extentAt(int s, int page) {
    if (extBlock[s] >= 0 && page < extLen[s]) {
      return new long[] {0, extBlock[s], extLen[s]};
    }
    TreeMap<Integer, long[]> more = moreExtents.get(s);
    if (more != null) {
      Map.Entry<Integer, long[]> e = more.floorEntry(page);
      if (e != null && page < e.getKey() + e.getValue()[1]) {
        return new long[] {e.getKey(), e.getValue()[0], e.getValue()[1]};
      }
    }
    return null;
  }

  /** The extent with the highest start below {@code page}, or null. */
  private long[] extentBefore(int s, int page) {
    long[] best = null;
    if (extBlock[s] >= 0 && page > 0) {
      best = new long[] {0, extBlock[s], extLen[s]};
    }
    TreeMap<Integer, long[]> more = moreExtents.get(s);
    if (more != null) {
      Map.Entry<Integer, long[]> e = more.lowerEntry(page);
      if (e != null && (best == null || e.getKey() > best[0])) {
        best = new long[] {e.getKey(), e.getValue()[0], e.getValue()[1]};
      }
    }
    return best;
  }

  /** The extent with the lowest start above {@code page}, or null. */
  private long[] extentAfter(int s, int page) {
    // The inline extent starts at page 0, so it is never after a page.
    TreeMap<Integer, long[]> more = moreExtents.get(s);
    Map.Entry<Integer, long[]> e = more == null ? null : more.higherEntry(page);
    return e == null ? null : new long[] {e.getKey(), e.getValue()[0], e.getValue()[1]};
  }

  /** Records a new extent; one that continues the previous one in file and on disk extends it. */
  private void addExtent(int s, int page, long block, int len) {
    if (extBlock[s] >= 0 && extLen[s] == page && extBlock[s] + extLen[s] == block) {
      extLen[s] += len;
      return;
    }
    if (extBlock[s] < 0 && page == 0) {
      extBlock[s] = block;
      extLen[s] = len;
      return;
    }
    TreeMap<Integer, long[]> more = moreExtents.computeIfAbsent(s, k -> new TreeMap<>());
    Map.Entry<Integer, long[]> prev = more.lowerEntry(page);
    if (prev != null && prev.getKey() + prev.getValue()[1] == page
        && prev.getValue()[0] + prev.getValue()[1] == block) {
      prev.getValue()[1] += len;
      return;
    }
    more.put(page, new long[] {block, len});
  }

  // ---- block allocation ----

  /**
   * Allocates {@code len} delalloc pages of slot {@code s} from file page {@code page}; see the
   * class comment for the placement rule.
   */
  private void allocateRun(int s, int page, int len, long prevDiskEnd,
      SplittableRandom random) {
    int g = ag[s];
    log.allocated(g);
    long target;
    if (prevDiskEnd >= 0 && isFree(prevDiskEnd)) {
      // xfs_bmap_adjacent(): right after the file's previous extent.
      target = prevDiskEnd;
      g = agOfBlock(prevDiskEnd);
    } else {
      target = lastEnd[g];
      if (random.nextDouble() >= params.pContig()) {
        target += params.jumpBlocks();
      }
    }
    int remaining = len;
    while (remaining > 0) {
      long[] run = takeFree(g, target, remaining);
      addExtent(s, page, run[0], (int) run[1]);
      delallocBlocks -= run[1];
      page += (int) run[1];
      remaining -= (int) run[1];
      target = run[0] + run[1];
      g = agOfBlock(run[0]);
      lastEnd[g] = target;
    }
  }

  private int agOfBlock(long block) {
    return (int) (block / geometry.agBlocks());
  }

  private boolean isFree(long block) {
    int g = agOfBlock(block);
    if (g >= geometry.agCount() || block >= geometry.agEnd(g)) {
      return false;
    }
    if (block >= cursor[g]) {
      return true;
    }
    Map.Entry<Long, Long> h = holes[g].floorEntry(block);
    return h != null && block < h.getKey() + h.getValue();
  }

  /**
   * Takes up to {@code want} free blocks, first-fit at or after {@code target} in AG {@code g},
   * then from the AG's start, then in the next AGs: {start, length}.
   */
  private long[] takeFree(int g, long target, int want) {
    for (int i = 0; i < geometry.agCount(); i++) {
      int a = (g + i) % geometry.agCount();
      if (agFree[a] == 0) {
        continue;
      }
      long t = i == 0 ? target : lastEnd[a];
      long[] r = takeFreeInAg(a, t, want);
      if (r == null) {
        r = takeFreeInAg(a, geometry.agStart(a), want);
      }
      if (r != null) {
        return r;
      }
    }
    throw new IllegalStateException("xfs on " + device + ": no free block for a reserved"
        + " delalloc page (free-space accounting broken)");
  }

  private long[] takeFreeInAg(int g, long t, int want) {
    long end = geometry.agEnd(g);
    if (t < cursor[g]) {
      Map.Entry<Long, Long> h = holes[g].floorEntry(t);
      if (h == null || h.getKey() + h.getValue() <= t) {
        h = holes[g].ceilingEntry(t);
        if (h != null) {
          t = h.getKey();
        }
      }
      if (h != null) {
        long hs = h.getKey();
        long hl = h.getValue();
        long n = Math.min(want, hs + hl - t);
        holes[g].remove(hs);
        if (t > hs) {
          holes[g].put(hs, t - hs);
        }
        if (t + n < hs + hl) {
          holes[g].put(t + n, hs + hl - t - n);
        }
        agFree[g] -= n;
        totalFree -= n;
        return new long[] {t, n};
      }
      t = cursor[g];
    }
    if (t >= end) {
      return null;
    }
    if (t > cursor[g]) {
      // The skipped blocks stay free, as a hole below the new cursor.
      addHole(g, cursor[g], t - cursor[g]);
    }
    long n = Math.min(want, end - t);
    cursor[g] = t + n;
    agFree[g] -= n;
    totalFree -= n;
    return new long[] {t, n};
  }

  /** Gives {@code len} blocks from {@code start} back to their AG. */
  private void releaseBlocks(long start, long len) {
    int g = agOfBlock(start);
    agFree[g] += len;
    totalFree += len;
    long s = start;
    long l = len;
    Map.Entry<Long, Long> prev = holes[g].floorEntry(s);
    if (prev != null && prev.getKey() + prev.getValue() == s) {
      holes[g].remove(prev.getKey());
      s = prev.getKey();
      l += prev.getValue();
    }
    if (s + l == cursor[g]) {
      cursor[g] = s;
      lastEnd[g] = Math.min(lastEnd[g], cursor[g]);
      return;
    }
    Long nextLen = holes[g].remove(s + l);
    if (nextLen != null) {
      l += nextLen;
    }
    if (s + l == cursor[g]) {
      cursor[g] = s;
      lastEnd[g] = Math.min(lastEnd[g], cursor[g]);
      return;
    }
    holes[g].put(s, l);
  }

  /** Records a hole that the cursor skipped; it cannot touch the cursor. */
  private void addHole(int g, long start, long len) {
    Map.Entry<Long, Long> prev = holes[g].floorEntry(start);
    if (prev != null && prev.getKey() + prev.getValue() == start) {
      holes[g].put(prev.getKey(), prev.getValue() + len);
    } else {
      holes[g].put(start, len);
    }
  }
}
