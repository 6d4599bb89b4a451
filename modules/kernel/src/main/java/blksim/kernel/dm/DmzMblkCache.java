package blksim.kernel.dm;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * dm-zoned's metadata block cache (drivers/md/dm-zoned-metadata.c, v5.8 to v6.9, kernel-model.md
 * §15.1.3; {@code mblk_rbtree}, {@code mblk_lru_list}, {@code nr_mblks}): which metadata blocks
 * are in memory, so that a bitmap access ({@code dmz_get_bitmap()} -> {@code dmz_get_mblock()})
 * either hits or reads the block from the primary metadata set, synchronously, in the work that
 * asked for it ({@code dmz_get_mblock_slow()}: one 4 KiB {@code REQ_META | REQ_PRIO} read, then
 * {@code wait_on_bit_io(DMZ_META_READING)}; a second context asking for a block being read waits
 * for the same read).
 *
 * <p>Bounds as {@code dmz_ctr_metadata()} sets them [S]: {@code min_nr_mblks} = 2 super blocks +
 * the chunk mapping table + the bitmaps of 16 zones, {@code max_nr_mblks} = min + 512. The super
 * blocks and the mapping table are always held ({@code dmz_load_mapping()} keeps a reference on
 * every map block), so only bitmap blocks come and go. The rules, each the kernel's:
 * <ul>
 *   <li>a miss allocates a new block, or, once {@code nr_mblks > max_nr_mblks}, reuses the head
 *       of the clean LRU ({@code dmz_alloc_mblock()}); with the LRU empty it allocates anyway;</li>
 *   <li>a block released clean goes to the LRU's tail, and one block is freed from its head while
 *       {@code nr_mblks > min_nr_mblks} ({@code dmz_release_mblock()} ->
 *       {@code dmz_shrink_mblock_cache(zmd, 1)}); a block released dirty stays off the LRU;</li>
 *   <li>dirty blocks are never evicted: they join the LRU when the metadata flush has written
 *       them ({@code dmz_flush_metadata()}), without a shrink.</li>
 * </ul>
 *
 * <p>Simplified: the memory shrinker ({@code dmz_mblock_shrinker_scan()}) never runs (the
 * machine is not short of memory); a block's reference lasts the one access (the model's
 * bitmap updates are instantaneous), except for the caller that reads it; a bitmap update is
 * applied in memory when asked and the caller then waits for the read, which is the kernel's
 * order of cost for the caller (nothing else reads that bitmap meanwhile: the zone is active or
 * locked for reclaim). With {@code bounded} false every block is cached (no miss), as blksim had
 * it before. Owned by its {@link DmzMetadata}.
 */
final class DmzMblkCache {
  /** Whether the cache is bounded (the kernel's) or holds every block. */
  final boolean bounded;
  /** {@code min_nr_mblks}. */
  final long minNr;
  /** {@code max_nr_mblks}. */
  final long maxNr;
  /** The first bitmap block number: blocks below it (super block, map) are always held. */
  private final long firstBitmap;
  /** The dirty blocks ({@code mblk_dirty_list}), the metadata's set. */
  private final SortedSet<Long> dirty;
  /** {@code nr_mblks}. */
  private long nr;
  /** {@code mblk_lru_list}: clean unreferenced blocks, head first. */
  private final LinkedHashSet<Long> lru = new LinkedHashSet<>();
  /** Blocks the metadata flush is writing (off the LRU, no longer in the dirty set). */
  private final Set<Long> writing = new HashSet<>();
  /** Blocks being read ({@code DMZ_META_READING}), with the contexts waiting for each. */
  private final TreeMap<Long, List<Runnable>> reading = new TreeMap<>();
  /** Reads the current caller must issue and wait for. */
  private final List<Long> misses = new ArrayList<>();
  /** Reads of other contexts the current caller must wait for. */
  private final List<Long> waits = new ArrayList<>();
  /** Counters. */
  long hits;
  long missCount;
  long evictions;
  long readWaits;
  long maxSeen;
  /** Misses of blocks that had been cached before (evicted since). */
  long remisses;
  /** Total time works waited for misses, ns. */
  long waitNs;
  /** Longest such wait, ns. */
  long maxWaitNs;
  private final Set<Long> seen = new HashSet<>();

  DmzMblkCache(DmzFormat fmt, SortedSet<Long> dirty, boolean bounded) {
    this.bounded = bounded;
    this.dirty = dirty;
    long held = 2 + fmt.nrMapBlocks();
    this.firstBitmap = 1 + fmt.nrMapBlocks();
    this.minNr = held + fmt.zoneNrBitmapBlocks() * 16;
    this.maxNr = minNr + 512;
    this.nr = held;
    this.maxSeen = nr;
  }

  /** {@code nr_mblks}. */
  long nrMblks() {
    return nr;
  }

  /** Whether block {@code no} is in memory (held, dirty, on the LRU, written or read). */
  boolean cached(long no) {
    return !bounded || no < firstBitmap || dirty.contains(no) || lru.contains(no)
        || writing.contains(no) || reading.containsKey(no);
  }

  /** Clean unreferenced blocks on the LRU. */
  int lruSize() {
    return lru.size();
  }

  /**
   * {@code dmz_get_mblock()} + {@code dmz_release_mblock()} of bitmap block {@code no} by the
   * current caller; {@code dirtying}: the caller dirties it ({@code dmz_dirty_mblock()}) before
   * the release. A miss is queued for the caller ({@link #takeMisses}).
   */
  void access(long no, boolean dirtying) {
    if (!bounded || no < firstBitmap) {
      return;
    }
    if (reading.containsKey(no)) {
      if (!misses.contains(no) && !waits.contains(no)) {
        waits.add(no);
        readWaits++;
      }
      return;
    }
    if (dirty.contains(no) || writing.contains(no)) {
      hits++;
      return;
    }
    if (lru.remove(no)) {
      hits++;
      if (!dirtying) {
        release(no);
      }
      return;
    }
    missCount++;
    if (!seen.add(no)) {
      remisses++;
    }
    alloc();
    reading.put(no, new ArrayList<>());
    misses.add(no);
  }

  /** {@code dmz_alloc_mblock()}: reuse the LRU head above the maximum, else a new block. */
  private void alloc() {
    if (nr > maxNr && !lru.isEmpty()) {
      evictHead();
    }
    nr++;
    maxSeen = Math.max(maxSeen, nr);
  }

  private void evictHead() {
    Long head = lru.iterator().next();
    lru.remove(head);
    nr--;
    evictions++;
  }

  /** A clean release: to the LRU's tail, then {@code dmz_shrink_mblock_cache(zmd, 1)}. */
  private void release(long no) {
    lru.add(no);
    if (nr > minNr) {
      evictHead();
    }
  }

  /** The reads the caller must issue, taken. */
  List<Long> takeMisses() {
    List<Long> l = new ArrayList<>(misses);
    misses.clear();
    return l;
  }

  /** The reads of others the caller must wait for, taken. */
  List<Long> takeWaits() {
    List<Long> l = new ArrayList<>(waits);
    waits.clear();
    return l;
  }

  /**
   * Adds {@code r} to the waiters of block {@code no}'s read; false if the read already
   * completed.
   */
  boolean waitFor(long no, Runnable r) {
    List<Runnable> w = reading.get(no);
    if (w == null) {
      return false;
    }
    w.add(r);
    return true;
  }

  /** The read of block {@code no} completed: the reader releases it; its waiters wake. */
  void readDone(long no) {
    List<Runnable> w = reading.remove(no);
    if (w == null) {
      return;
    }
    if (!dirty.contains(no)) {
      release(no);
    }
    for (Runnable r : w) {
      r.run();
    }
  }

  /** The metadata flush took these dirty blocks to write. */
  void writing(List<Long> blocks) {
    if (bounded) {
      writing.addAll(blocks);
    }
  }

  /** The metadata flush wrote them: clean, to the LRU's tail (no shrink). */
  void cleaned(List<Long> blocks) {
    if (!bounded) {
      return;
    }
    for (long no : blocks) {
      writing.remove(no);
      if (no >= firstBitmap && !dirty.contains(no) && !reading.containsKey(no)) {
        lru.add(no);
      }
    }
  }

  /** The summary line. */
  String summary() {
    if (!bounded) {
      return "metadata cache unbounded (every block cached)";
    }
    return "metadata cache " + nr + " blocks (min " + minNr + ", max " + maxNr + ", peak "
        + maxSeen + "), hits " + hits + ", misses " + missCount + " (" + remisses
        + " of evicted blocks; waited for by other works " + readWaits + "), evictions "
        + evictions + ", miss waits " + waitNs / 1_000_000 + " ms (longest "
        + maxWaitNs / 1_000_000 + " ms)";
  }
}
