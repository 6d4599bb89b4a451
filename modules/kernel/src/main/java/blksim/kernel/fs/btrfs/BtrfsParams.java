package blksim.kernel.fs.btrfs;

/**
 * The btrfs model's layout choice and costs (kernel-model.md §15.3, §15.5 T2).
 *
 * @param dataProfile {@code single} (one device) or {@code raid0} (two or more devices, 64 KiB
 *     stripe elements, {@code mkfs.btrfs -d raid0})
 * @param threadPool the {@code thread_pool=N} mount option, 0 when not given: then
 *     {@code fs_info->thread_pool_size} is {@code min(num_online_cpus() + 2, 8)}
 *     ({@code open_ctree()}), see {@link #threadPoolSize}
 * @param submitNs submitter CPU per direct write, c_s (§15.3.4, [A] 20 µs): the inode checks,
 *     {@code btrfs_reserve_extent()} → {@code find_free_extent()}, the extent map and the ordered
 *     extent ({@code btrfs_alloc_ordered_extent()}), of which {@link #submitTreeHoldNs} under the
 *     tree lock
 * @param submitTreeHoldNs h_r (§15.3.4, [A] 3 µs): the part of c_s spent holding the hot b-tree
 *     nodes' lock shared (the extent lookup and insert)
 * @param csumNsPerKib crc32c of the data in the submitter ({@code btrfs_csum_one_bio()}), ns per
 *     KiB [A]: 100 ns/KiB ≈ 10 GB/s, the three-way interleaved SSE4.2 {@code crc32} instruction
 *     of {@code crc32c-intel} ({@code crc_pcl}), about 0.15 cycles per byte at 2.4 GHz after Intel's
 *     "Fast CRC Computation for iSCSI Polynomial Using CRC32 Instruction" (2011), rounded up
 *     for data that is not in the L1 cache
 * @param finishNs finisher CPU before the tree lock, c_f (§15.3.4, [A] 150 µs): joining the
 *     transaction, dropping overlapping file extent items, the delayed data reference, the
 *     csum-tree search
 * @param finishTreeHoldNs h_w (§15.3.4, [A] 12 µs): the file extent item and csum insertion
 *     holding the hot nodes' lock exclusive
 * @param finishTailNs c_f2 (§15.3.4, [A] 20 µs): the inode item update, clearing the range
 *     bits, ending the transaction and removing the ordered extent
 * @param fsyncLogNs one fsync's tree-log sync after its ordered extents finished
 *     ({@code btrfs_sync_log()}), as CPU time only [A] 100 µs
 * @param createNs one create or mkdir ({@code btrfs_create()}) [A] 20 µs
 * @param unlinkNs one unlink or rmdir ({@code btrfs_unlink()}) [A] 20 µs
 * @param treeTransferNs added to a tree-lock hold (h_r or h_w) when the previous holder ran on
 *     another core of the same LLC: the hot extent buffers' modified cache lines move to the new
 *     holder's core before it can search and modify them (one 16 KiB node is 256 lines of 64 B;
 *     a search reads about log2(items) of them per level and an insert's
 *     {@code memmove_extent_buffer()} rewrites the items after the slot). Default 0 (off); the
 *     scenario sets lines × the per-line transfer time, see {@code scenarios/btrfs/README.md} [A]
 * @param treeTransferRemoteNs the same when the previous holder ran in another LLC (on the
 *     Xeon 8260 of thread 2, the other socket: a cross-socket snoop, about twice the on-die
 *     transfer) [A]
 * @param finishLeafHoldNs lock coupling (off when 0, the default): the finisher's hold of its
 *     file's b-tree leaf ({@code setup_items_for_insert()} and the item's fill-in) after the
 *     upper nodes were released. {@code btrfs_search_slot()} keeps a node locked while it takes
 *     the child's lock ({@code unlock_up()} runs for a level before {@code btrfs_tree_lock()} or
 *     {@code btrfs_tree_read_lock()} of the next), so with coupling on the finisher takes the
 *     tree lock (the upper nodes), then its inode's leaf lock while holding it, holds the tree
 *     lock for h_w, releases it and then the leaf after this time [A]
 * @param submitLeafHoldNs with coupling on, the submitter's shared hold of its file's leaf in
 *     {@code btrfs_get_extent()}'s lookup, taken while holding the tree lock shared [A]
 * @param dioPlug a direct write submits its bios under {@code __iomap_dio_rw()}'s plug, as the
 *     kernel does ({@code kernel.btrfs-dio-plug}); off by default because thread 2's calibration
 *     was fitted without it (see {@code BtrfsDirectWrite})
 */
public record BtrfsParams(String dataProfile, int threadPool, long submitNs,
    long submitTreeHoldNs, long csumNsPerKib, long finishNs, long finishTreeHoldNs,
    long finishTailNs, long fsyncLogNs, long createNs, long unlinkNs, long treeTransferNs,
    long treeTransferRemoteNs, long finishLeafHoldNs, long submitLeafHoldNs, boolean dioPlug) {

  /** The costs without the tree nodes' cache-line transfers (both 0). */
  public BtrfsParams(String dataProfile, int threadPool, long submitNs, long submitTreeHoldNs,
      long csumNsPerKib, long finishNs, long finishTreeHoldNs, long finishTailNs,
      long fsyncLogNs, long createNs, long unlinkNs) {
    this(dataProfile, threadPool, submitNs, submitTreeHoldNs, csumNsPerKib, finishNs,
        finishTreeHoldNs, finishTailNs, fsyncLogNs, createNs, unlinkNs, 0, 0, 0, 0, false);
  }

  /** c_s, §15.5 T2. */
  public static final long DEFAULT_SUBMIT_NS = 20_000;
  /** h_r, §15.5 T2. */
  public static final long DEFAULT_SUBMIT_TREE_HOLD_NS = 3_000;
  /** crc32c cost per KiB; see the record comment. */
  public static final long DEFAULT_CSUM_NS_PER_KIB = 100;
  /** c_f, §15.3.4 (c_f + c_f2 = 170 µs in §15.5 T2). */
  public static final long DEFAULT_FINISH_NS = 150_000;
  /** h_w, §15.5 T2. */
  public static final long DEFAULT_FINISH_TREE_HOLD_NS = 12_000;
  /** c_f2, §15.3.4. */
  public static final long DEFAULT_FINISH_TAIL_NS = 20_000;
  /** fsync's log sync [A]. */
  public static final long DEFAULT_FSYNC_LOG_NS = 100_000;
  /** create / unlink [A]. */
  public static final long DEFAULT_NAMESPACE_NS = 20_000;

  /** Profiles the model has. */
  public static final java.util.List<String> PROFILES = java.util.List.of("single", "raid0");

  /** The defaults with {@code dataProfile} and {@code threadPool}. */
  public static BtrfsParams defaults(String dataProfile, int threadPool) {
    return new BtrfsParams(dataProfile, threadPool, DEFAULT_SUBMIT_NS,
        DEFAULT_SUBMIT_TREE_HOLD_NS, DEFAULT_CSUM_NS_PER_KIB, DEFAULT_FINISH_NS,
        DEFAULT_FINISH_TREE_HOLD_NS, DEFAULT_FINISH_TAIL_NS, DEFAULT_FSYNC_LOG_NS,
        DEFAULT_NAMESPACE_NS, DEFAULT_NAMESPACE_NS);
  }

  /** Validates. */
  public BtrfsParams {
    if (!PROFILES.contains(dataProfile)) {
      throw new IllegalArgumentException("data-profile must be one of " + PROFILES + ", was '"
          + dataProfile + "'");
    }
    if (threadPool < 0) {
      throw new IllegalArgumentException("thread_pool must be > 0, was " + threadPool);
    }
    if (submitNs < 0 || submitTreeHoldNs < 0 || csumNsPerKib < 0 || finishNs < 0
        || finishTreeHoldNs < 0 || finishTailNs < 0 || fsyncLogNs < 0 || createNs < 0
        || unlinkNs < 0 || treeTransferNs < 0 || treeTransferRemoteNs < 0
        || finishLeafHoldNs < 0 || submitLeafHoldNs < 0) {
      throw new IllegalArgumentException("btrfs costs must be >= 0");
    }
    if (submitTreeHoldNs > submitNs) {
      throw new IllegalArgumentException("the submitter's tree-lock hold (" + submitTreeHoldNs
          + " ns) is part of its CPU time (" + submitNs + " ns) and cannot exceed it");
    }
  }

  /**
   * {@code fs_info->thread_pool_size}: the {@code thread_pool=} option, else
   * {@code min_t(unsigned long, num_online_cpus() + 2, 8)} ({@code open_ctree()} in
   * {@code fs/btrfs/disk-io.c}); {@code btrfs_init_workqueues()} gives it to
   * {@code btrfs-endio-write} as max_active.
   */
  public int threadPoolSize(int onlineCpus) {
    return threadPool > 0 ? threadPool : Math.min(onlineCpus + 2, 8);
  }

  /** The crc32c cost of {@code bytes} of data. */
  public long csumNs(long bytes) {
    return bytes * csumNsPerKib / 1024;
  }
}
