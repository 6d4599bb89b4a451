package blksim.kernel.fs;

/**
 * The parameters of the XFS-like model (kernel-model.md §15.4.4, §15.5 T4).
 *
 * @param agCount allocation groups; 0 = as mkfs.xfs chooses for the device size
 *     ({@link XfsGeometry#mkfsDefault}); else in [1, {@link XfsGeometry#MAX_AG_COUNT}]
 * @param pContig the chance that the next inode allocated in an AG gets the block right after
 *     the previous allocation there, in [0, 1] (§15.4.4 p_contig)
 * @param jumpBlocks how far an allocation that is not contiguous lands past the previous one, in
 *     4 KiB blocks, >= 1: the room a metadata allocation (an inode chunk) would have taken
 * @param writebackPerInodeNs flusher CPU per inode written back, the mapping and the allocation
 *     transaction included (§15.4.4 c_wb), >= 0
 * @param createNs system time of one create or mkdir ({@code xfs_create()}), >= 0
 * @param unlinkNs system time of one unlink or rmdir ({@code xfs_remove()}), >= 0
 * @param fallocateNs system time of one fallocate ({@code xfs_alloc_file_space()}), >= 0
 */
public record XfsParams(int agCount, double pContig, int jumpBlocks, long writebackPerInodeNs,
    long createNs, long unlinkNs, long fallocateNs) {

  /** Default p_contig, §15.4.4 [A]. */
  public static final double DEFAULT_P_CONTIG = 0.9;
  /**
   * Default jump: one inode chunk, 64 inodes of 512 bytes (the v5 default inode size) = 32 KiB =
   * 8 blocks ({@code XFS_INODES_PER_CHUNK}, {@code xfs_ialloc_ag_alloc()}).
   */
  public static final int DEFAULT_JUMP_BLOCKS = 8;
  /** Default c_wb, §15.4.4 / §15.5 T4: 25 µs [A]. */
  public static final long DEFAULT_WRITEBACK_PER_INODE_NS = 25_000;
  /** Default create cost [A]: an inode allocation and a directory insert in one transaction. */
  public static final long DEFAULT_CREATE_NS = 15_000;
  /** Default unlink cost [A]: a directory remove, the inode and its extents freed. */
  public static final long DEFAULT_UNLINK_NS = 10_000;

  /**
   * Default fallocate cost [A]: one allocation transaction ({@code xfs_alloc_file_space()}: a
   * transaction reservation, {@code xfs_bmapi_write()} with XFS_BMAPI_PREALLOC, the commit),
   * taken as about one create, since both are one allocation transaction of similar size; the
   * extent count does not change it in the model.
   */
  public static final long DEFAULT_FALLOCATE_NS = 15_000;

  /** All defaults, the AG count as mkfs.xfs chooses it. */
  public static final XfsParams DEFAULTS = new XfsParams(0, DEFAULT_P_CONTIG, DEFAULT_JUMP_BLOCKS,
      DEFAULT_WRITEBACK_PER_INODE_NS, DEFAULT_CREATE_NS, DEFAULT_UNLINK_NS, DEFAULT_FALLOCATE_NS);

  /** These parameters with the default fallocate cost. */
  public XfsParams(int agCount, double pContig, int jumpBlocks, long writebackPerInodeNs,
      long createNs, long unlinkNs) {
    this(agCount, pContig, jumpBlocks, writebackPerInodeNs, createNs, unlinkNs,
        DEFAULT_FALLOCATE_NS);
  }

  public XfsParams {
    if (agCount < 0 || agCount > XfsGeometry.MAX_AG_COUNT) {
      throw new IllegalArgumentException("agCount must be 0 (mkfs default) or in [1, "
          + XfsGeometry.MAX_AG_COUNT + "], was " + agCount);
    }
    if (!(pContig >= 0 && pContig <= 1)) {
      throw new IllegalArgumentException("pContig must be in [0, 1], was " + pContig);
    }
    if (jumpBlocks < 1) {
      throw new IllegalArgumentException("jumpBlocks must be >= 1, was " + jumpBlocks);
    }
    if (fallocateNs < 0) {
      throw new IllegalArgumentException("fallocateNs must be >= 0, was " + fallocateNs);
    }
    if (writebackPerInodeNs < 0 || createNs < 0 || unlinkNs < 0) {
      throw new IllegalArgumentException("writebackPerInodeNs, createNs and unlinkNs must be"
          + " >= 0, were " + writebackPerInodeNs + ", " + createNs + ", " + unlinkNs);
    }
  }

  /** These parameters with another p_contig. */
  public XfsParams withPContig(double p) {
    return new XfsParams(agCount, p, jumpBlocks, writebackPerInodeNs, createNs, unlinkNs,
        fallocateNs);
  }

  /** These parameters with another AG count (0: the mkfs default). */
  public XfsParams withAgCount(int n) {
    return new XfsParams(n, pContig, jumpBlocks, writebackPerInodeNs, createNs, unlinkNs,
        fallocateNs);
  }
}
