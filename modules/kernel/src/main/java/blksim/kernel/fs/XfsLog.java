package blksim.kernel.fs;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * What the XFS log holds for an unmount to write (kernel-model.md §15.1.5): the bytes committed
 * to the CIL and not yet forced to the log ({@code xfs_log_force()} writes them), the metadata
 * buffers those transactions dirtied and that sit in the AIL until
 * {@code xfs_ail_push_all_sync()} writes them in place, and where the log head is.
 *
 * <p>Transactions are counted, not built: a delayed-allocation conversion
 * ({@code xfs_bmapi_convert_delalloc()}) logs {@link #ALLOC_LOG_BYTES} and dirties its AG's
 * header and free-space btree roots; a create or mkdir logs {@link #CREATE_LOG_BYTES} and
 * dirties the inode's cluster buffer and the AG's headers and inode btree root.
 *
 * <p>Simplified: the internal log sits at the end of the middle AG (mkfs.xfs puts it at the
 * start of AG agcount/2) and its blocks are not taken from the free space, as the allocator
 * model predates the log; inode cluster buffers have no place of their own and are written at
 * the AG's fifth block (the model's inodes take no blocks); CIL relogging is not modelled (each
 * transaction adds its bytes); the background log worker ({@code xfs_log_worker}, every 30 s)
 * and xfsaild's background pushing do not run, so everything logged waits for the unmount (or
 * is lost with the run); {@code sync} and {@code syncfs} do not force the log yet.
 */
public final class XfsLog {
  /**
   * {@code logbsize}: the in-core log buffer (iclog) size, the largest log write (xfs(5):
   * "the default value for version 2 logs is MAX(32768, log_sunit)") [S].
   */
  public static final int LOG_BUF_BYTES = 32 * 1024;
  /** The log sector and the unit a log write is rounded to: 4 KiB (4Kn / 512e drives) [A]. */
  public static final int LOG_SECTOR_BYTES = 4096;
  /**
   * Log bytes of one delalloc conversion transaction: inode core, bmap extent, AGF and the two
   * free-space btree blocks' changed ranges, op headers [A: about 1 KiB from the log item sizes
   * in xfs_log_format.h].
   */
  public static final long ALLOC_LOG_BYTES = 1024;
  /** Log bytes of one create or mkdir transaction (inode, directory, AGI, inobt) [A]. */
  public static final long CREATE_LOG_BYTES = 1024;
  /** Inodes per cluster buffer: 16 KiB of 512-byte v5 inodes ({@code xfs_ialloc_setup_geometry}) [S]. */
  public static final int INODES_PER_CLUSTER = 32;
  /** An inode cluster buffer, bytes. */
  public static final int INODE_CLUSTER_BYTES = 16 * 1024;
  /** Largest internal log mkfs.xfs makes: 2 GiB (XFS_MAX_LOG_BYTES) [S]. */
  static final long MAX_LOG_BLOCKS = (2L << 30) >> XfsGeometry.BLOCK_LOG;

  private final XfsGeometry geometry;
  private final long logStart;
  private final long logBlocks;
  private long head;
  private long pendingBytes;
  private final TreeSet<Integer> dirtyAgs = new TreeSet<>();
  /** Dirty inode cluster buffers, by cluster index (inode slot / {@link #INODES_PER_CLUSTER}). */
  private final java.util.BitSet dirtyClusters = new java.util.BitSet();
  private boolean sbDirty;
  private final List<Stage> stages = new ArrayList<>();

  /**
   * One step of the unmount's log work as it ran.
   *
   * @param name the kernel function ({@code xfs_log_force}, {@code xfs_ail_push_all_sync}, ...)
   * @param startNs when it started
   * @param endNs when its last bio ended
   * @param bios bios it issued
   * @param preflush of them with REQ_PREFLUSH
   * @param fua of them with REQ_FUA
   * @param bytes bytes written
   * @param dirtyPagesAtStart dirty pages in the page cache when it started
   * @param writebackPagesAtStart pages under writeback when it started
   */
  public record Stage(String name, long startNs, long endNs, int bios, int preflush, int fua,
      long bytes, long dirtyPagesAtStart, long writebackPagesAtStart) {}

  XfsLog(XfsGeometry geometry) {
    this.geometry = geometry;
    int mid = geometry.agCount() / 2;
    long agLen = geometry.agEnd(mid) - geometry.agStart(mid);
    this.logBlocks = Math.max(1, Math.min(MAX_LOG_BLOCKS, agLen / 4));
    this.logStart = geometry.agEnd(mid) - logBlocks;
  }

  /** A delalloc conversion in AG {@code ag} was committed. */
  void allocated(int ag) {
    pendingBytes += ALLOC_LOG_BYTES;
    dirtyAgs.add(ag);
  }

  /** An inode was created (slot {@code slot}) in AG {@code ag}. */
  void created(int ag, int slot) {
    pendingBytes += CREATE_LOG_BYTES;
    dirtyAgs.add(ag);
    dirtyClusters.set(slot / INODES_PER_CLUSTER);
  }

  /** Bytes committed and not yet written to the log. */
  public long pendingBytes() {
    return pendingBytes;
  }

  /** Metadata buffers waiting in the AIL. */
  public int dirtyBuffers() {
    return dirtyAgs.size() * 4 + dirtyClusters.cardinality() + (sbDirty ? 1 : 0);
  }

  /** The unmount's stages so far, in order. */
  public List<Stage> stages() {
    return List.copyOf(stages);
  }

  void record(Stage s) {
    stages.add(s);
  }

  /**
   * {@code xfs_log_force(XFS_LOG_SYNC)}: the CIL's bytes (plus {@code extraBytes}) as one
   * checkpoint, written in iclogs of {@link #LOG_BUF_BYTES} at the log head: {sector, bytes,
   * flags} per write; the first carries REQ_PREFLUSH (XLOG_ICL_NEED_FLUSH, the start record),
   * the last REQ_FUA (XLOG_ICL_NEED_FUA, the commit record). None when nothing is pending.
   */
  List<long[]> force(long extraBytes) {
    long bytes = pendingBytes + extraBytes;
    pendingBytes = 0;
    List<long[]> out = new ArrayList<>();
    if (bytes == 0) {
      return out;
    }
    // A checkpoint adds its headers; each iclog is rounded up to the log sector.
    long left = bytes + 512;
    while (left > 0) {
      long n = Math.min(left, LOG_BUF_BYTES);
      left -= n;
      long rounded = (n + LOG_SECTOR_BYTES - 1) / LOG_SECTOR_BYTES * LOG_SECTOR_BYTES;
      out.add(new long[] {headSector(rounded), rounded, 0});
    }
    out.get(0)[2] |= blksim.kernel.block.Bio.REQ_PREFLUSH;
    out.get(out.size() - 1)[2] |= blksim.kernel.block.Bio.REQ_FUA;
    return out;
  }

  /**
   * {@code xfs_ail_push_all_sync()}: every dirty metadata buffer written in place, in disk
   * order ({@code xfs_buf_delwri_submit_buffers()} sorts by block): per dirty AG its header
   * block and the roots of bnobt, cntbt and inobt; the inode cluster buffers; the primary
   * superblock if logged. The AIL is then empty.
   */
  List<long[]> pushAil(java.util.function.IntUnaryOperator agOfSlot) {
    List<long[]> out = new ArrayList<>();
    TreeSet<Long> sectors = new TreeSet<>();
    for (int ag : dirtyAgs) {
      long b = geometry.agStart(ag);
      for (int i = 0; i < 4; i++) {
        sectors.add((b + i) * Filesystem.SECTORS_PER_PAGE);
      }
    }
    if (sbDirty) {
      sectors.add(0L);
    }
    for (long s : sectors) {
      out.add(new long[] {s, Filesystem.PAGE_SIZE, 0});
    }
    for (int c = dirtyClusters.nextSetBit(0); c >= 0; c = dirtyClusters.nextSetBit(c + 1)) {
      int ag = agOfSlot.applyAsInt(c * INODES_PER_CLUSTER);
      out.add(new long[] {(geometry.agStart(ag) + 4) * Filesystem.SECTORS_PER_PAGE,
          INODE_CLUSTER_BYTES, 0});
    }
    out.sort((a, b) -> Long.compare(a[0], b[0]));
    dirtyAgs.clear();
    dirtyClusters.clear();
    sbDirty = false;
    return out;
  }

  /** {@code xfs_sync_sb()} as {@code xfs_log_cover()} does it: the superblock is logged. */
  void logSuperblock() {
    pendingBytes += 512;
    sbDirty = true;
  }

  /**
   * {@code xlog_unmount_write()}: the unmount record, one log sector at the head with
   * REQ_PREFLUSH and REQ_FUA.
   */
  long[] unmountRecord() {
    return new long[] {headSector(LOG_SECTOR_BYTES), LOG_SECTOR_BYTES,
        blksim.kernel.block.Bio.REQ_PREFLUSH | blksim.kernel.block.Bio.REQ_FUA};
  }

  /** The head's sector for a write of {@code bytes}; the head advances, wrapping in the log. */
  private long headSector(long bytes) {
    long blocks = (bytes + Filesystem.PAGE_SIZE - 1) / Filesystem.PAGE_SIZE;
    if (head + blocks > logBlocks) {
      head = 0;
    }
    long s = (logStart + head) * Filesystem.SECTORS_PER_PAGE;
    head += blocks;
    return s;
  }
}
