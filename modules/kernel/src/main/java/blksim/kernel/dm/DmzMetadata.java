package blksim.kernel.dm;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * dm-zoned's in-memory metadata ({@code struct dmz_metadata}, drivers/md/dm-zoned-metadata.c,
 * kernel-model.md §15.1.1, §15.1.3): the zones and their lists, the chunk mapping, the validity
 * bitmaps, the dirty metadata blocks and the metadata semaphore {@code mblk_sem}.
 *
 * <p>Mirrors {@code dmz_load_mapping()} (a freshly formatted device: every chunk unmapped, the
 * first {@code nr_reserved_seq} sequential zones reserved), {@code dmz_get_chunk_mapping()},
 * {@code dmz_get_chunk_buffer()}, {@code dmz_put_chunk_mapping()}, {@code dmz_alloc_zone()},
 * {@code dmz_free_zone()}, {@code dmz_map_zone()}, {@code dmz_unmap_zone()},
 * {@code dmz_validate_blocks()}, {@code dmz_invalidate_blocks()},
 * {@code dmz_get_zone_for_reclaim()} and its helpers, and the LRU rotation {@code dmz_lru_zone()}.
 *
 * <p>The metadata block cache is {@link DmzMblkCache}: bounded as the kernel's (a bitmap block
 * not in it is read synchronously by the work that needs it), or, with the scenario's
 * {@code dmz-metadata-cache = unbounded}, holding every block. Simplified: a metadata block is
 * only a number in the dirty set ({@code mblk_dirty_list}) and the cache; the map lock
 * {@code map_lock} costs nothing and is never contended (its sections do not sleep here). Owned
 * by one target, touched from every CPU of its one partition (the zoned disk's queue keeps the
 * scenario in one partition).
 */
final class DmzMetadata {
  /** What a mapping lookup must wait for. */
  enum Wait { NONE, FREE_ZONE, RECLAIM }

  final DmzFormat fmt;
  final DmzZone[] zones;
  /** {@code unmap_rnd_list}. */
  final ArrayDeque<DmzZone> unmapRnd = new ArrayDeque<>();
  /** {@code map_rnd_list}, in LRU order (head: least recently used). */
  final LinkedHashSet<DmzZone> mapRnd = new LinkedHashSet<>();
  /** {@code unmap_seq_list}. */
  final ArrayDeque<DmzZone> unmapSeq = new ArrayDeque<>();
  /** {@code map_seq_list}, in LRU order. */
  final LinkedHashSet<DmzZone> mapSeq = new LinkedHashSet<>();
  /** {@code reserved_seq_zones_list}. */
  final ArrayDeque<DmzZone> reservedSeq = new ArrayDeque<>();
  /** The chunk mapping table: data zone and buffer zone of each chunk. */
  final int[] dzoneOf;
  final int[] bzoneOf;
  /** {@code mblk_dirty_list}: numbers of dirty metadata blocks, in block order. */
  final TreeSet<Long> dirty = new TreeSet<>();
  /** {@code mblk_sem}. */
  final DmzRwSem mblkSem = new DmzRwSem();
  /** {@code free_wq}: chunk works waiting for a free zone. */
  final List<Runnable> freeWaiters = new ArrayList<>();
  /** {@code mblk_primary}: the set written second. */
  int mblkPrimary;
  long sbGen = 1;
  /** What the last mapping lookup must wait for. */
  Wait wait = Wait.NONE;
  /** The zone it waits on ({@link Wait#RECLAIM}). */
  DmzZone waitZone;
  private final int nrRnd;
  private long lruClock;
  /** {@code dmz_schedule_reclaim()}, called by an allocation for the user. */
  Runnable scheduleReclaim = () -> { };
  /** Issues the ZONE_RESET of a zone and runs its argument when the reset completed. */
  Consumer<DmzZone> resetZone;

  /** The metadata block cache. */
  final DmzMblkCache cache;

  /** With an unbounded metadata cache (every block cached). */
  DmzMetadata(DmzFormat fmt) {
    this(fmt, false);
  }

  /** With the kernel's bounded metadata cache if {@code boundedCache}. */
  DmzMetadata(DmzFormat fmt, boolean boundedCache) {
    this.fmt = fmt;
    this.cache = new DmzMblkCache(fmt, dirty, boundedCache);
    int n = Math.toIntExact(fmt.nrZones());
    this.zones = new DmzZone[n];
    int chunks = Math.toIntExact(fmt.nrChunks());
    this.dzoneOf = new int[chunks];
    this.bzoneOf = new int[chunks];
    java.util.Arrays.fill(dzoneOf, DmzZone.UNMAPPED);
    java.util.Arrays.fill(bzoneOf, DmzZone.UNMAPPED);
    int rnd = 0;
    for (int i = 0; i < n; i++) {
      DmzZone z = new DmzZone(i, i < fmt.nrConvZones());
      zones[i] = z;
      if (z.rnd && i < fmt.totalNrMetaZones()) {
        z.meta = true;
      } else if (z.rnd) {
        unmapRnd.add(z);
        rnd++;
      } else if (reservedSeq.size() < fmt.nrReservedSeq()) {
        z.reserved = true;
        reservedSeq.add(z);
      } else {
        unmapSeq.add(z);
      }
    }
    this.nrRnd = rnd;
  }

  /** {@code dmz_nr_rnd_zones()}. */
  int nrRndZones() {
    return nrRnd;
  }

  /** {@code dmz_nr_unmap_rnd_zones()}. */
  int nrUnmapRndZones() {
    return unmapRnd.size();
  }

  /** {@code dmz_get_chunk_mapping()}: null for a read of an unmapped chunk, or if it must wait. */
  DmzZone getChunkMapping(int chunk, boolean write) {
    wait = Wait.NONE;
    DmzZone dzone;
    if (dzoneOf[chunk] == DmzZone.UNMAPPED) {
      if (!write) {
        return null;
      }
      dzone = allocZone(false);
      if (dzone == null) {
        wait = Wait.FREE_ZONE;
        return null;
      }
      mapZone(dzone, chunk);
    } else {
      dzone = zones[dzoneOf[chunk]];
    }
    if (dzone.inReclaim) {
      wait = Wait.RECLAIM;
      waitZone = dzone;
      return null;
    }
    dzone.active++;
    lruZone(dzone);
    return dzone;
  }

  /** {@code dmz_get_chunk_buffer()}: null if no random zone is free (wait and retry). */
  DmzZone getChunkBuffer(DmzZone dzone) {
    if (dzone.bzone != null) {
      return dzone.bzone;
    }
    DmzZone bz = allocZone(false);
    if (bz == null) {
      return null;
    }
    setChunkMapping(dzone.chunk, dzone.id, bz.id);
    bz.buf = true;
    bz.chunk = dzone.chunk;
    bz.bzone = dzone;
    dzone.bzone = bz;
    touch(bz);
    mapRnd.add(bz);
    return bz;
  }

  /** {@code dmz_put_chunk_mapping()}: zones left without valid blocks are freed at once. */
  void putChunkMapping(DmzZone dzone) {
    DmzZone bz = dzone.bzone;
    if (bz != null) {
      if (bz.weight > 0) {
        lruOne(bz);
      } else {
        unmapZone(bz);
        freeZone(bz);
        bz = null;
      }
    }
    dzone.active--;
    if (dzone.active > 0 || bz != null || dzone.weight > 0) {
      lruZone(dzone);
    } else {
      unmapZone(dzone);
      freeZone(dzone);
    }
  }

  /**
   * {@code dmz_alloc_zone()}: a free random zone for the user ({@code DMZ_ALLOC_RND}, which
   * first schedules reclaim), or a free sequential zone for reclaim ({@code DMZ_ALLOC_RECLAIM},
   * falling back to the reserved ones).
   */
  DmzZone allocZone(boolean forReclaim) {
    if (!forReclaim) {
      scheduleReclaim.run();
      return unmapRnd.poll();
    }
    DmzZone z = unmapSeq.poll();
    return z != null ? z : reservedSeq.poll();
  }

  /**
   * {@code dmz_free_zone()}: back to its free list, a sequential zone after its reset
   * ({@code dmz_reset_zone()}); wakes {@code free_wq}.
   */
  void freeZone(DmzZone z) {
    if (z.seq() && !z.empty()) {
      z.resetting = true;
      resetZone.accept(z);
      return;
    }
    z.wpBlock = 0;
    released(z);
  }

  /** The reset of {@code z} completed: it is free again. */
  void resetDone(DmzZone z) {
    z.resetting = false;
    z.wpBlock = 0;
    released(z);
  }

  private void released(DmzZone z) {
    if (z.rnd) {
      unmapRnd.add(z);
    } else if (z.reserved) {
      reservedSeq.add(z);
    } else {
      unmapSeq.add(z);
    }
    List<Runnable> w = new ArrayList<>(freeWaiters);
    freeWaiters.clear();
    for (Runnable r : w) {
      r.run();
    }
  }

  /** {@code dmz_map_zone()}. */
  void mapZone(DmzZone z, int chunk) {
    setChunkMapping(chunk, z.id, DmzZone.UNMAPPED);
    z.chunk = chunk;
    touch(z);
    (z.rnd ? mapRnd : mapSeq).add(z);
  }

  /** {@code dmz_unmap_zone()}. */
  void unmapZone(DmzZone z) {
    if (z.chunk == DmzZone.UNMAPPED) {
      return;
    }
    int dzoneId;
    if (z.buf) {
      z.buf = false;
      dzoneId = z.bzone.id;
      z.bzone.bzone = null;
      z.bzone = null;
    } else {
      if (z.bzone != null) {
        z.bzone.bzone = null;
        z.bzone = null;
      }
      dzoneId = DmzZone.UNMAPPED;
    }
    setChunkMapping(z.chunk, dzoneId, DmzZone.UNMAPPED);
    z.chunk = DmzZone.UNMAPPED;
    (z.rnd ? mapRnd : mapSeq).remove(z);
  }

  private void setChunkMapping(int chunk, int dzone, int bzone) {
    dzoneOf[chunk] = dzone;
    bzoneOf[chunk] = bzone;
    dirty.add(1L + (chunk / DmzFormat.MAP_ENTRIES));
  }

  private void touch(DmzZone z) {
    z.lru = ++lruClock;
  }

  private void lruOne(DmzZone z) {
    LinkedHashSet<DmzZone> l = z.rnd ? mapRnd : mapSeq;
    if (l.remove(z)) {
      touch(z);
      l.add(z);
    }
  }

  /** {@code dmz_lru_zone()}: the zone and its buffer to the tail of their lists. */
  void lruZone(DmzZone z) {
    lruOne(z);
    if (z.bzone != null) {
      lruOne(z.bzone);
    }
  }

  /**
   * {@code dmz_handle_write()}: the zone that takes a write of {@code n} blocks at
   * {@code chunkBlock} of the chunk mapped by {@code zone}, with its bitmap and write pointer
   * updates: {@code zone} itself if it is random or the write starts at its write pointer
   * ({@code dmz_handle_direct_write()}), else the chunk's buffer zone
   * ({@code dmz_handle_buffered_write()}, allocated on first need); null if a buffer zone is
   * needed and no random zone is free (nothing changed).
   */
  DmzZone handleWrite(DmzZone zone, int chunkBlock, int n) {
    if (zone.rnd || chunkBlock == zone.wpBlock) {
      if (zone.seq()) {
        zone.wpBlock += n;
      }
      validate(zone, chunkBlock, n);
      if (zone.bzone != null) {
        invalidate(zone.bzone, chunkBlock, n);
      }
      return zone;
    }
    DmzZone bz = getChunkBuffer(zone);
    if (bz == null) {
      return null;
    }
    validate(bz, chunkBlock, n);
    if (chunkBlock < zone.wpBlock) {
      invalidate(zone, chunkBlock, n);
    }
    return bz;
  }

  /** Chunks mapped by {@link #prewrite}, so far. */
  long prewrittenChunks;
  /** Of those, mapped to random zones. */
  long prewrittenRnd;

  /**
   * Blocks {@code [block, block + n)} of {@code chunk} as an earlier run left them (written and
   * valid), without I/O and without dirtying metadata or touching the metadata cache: the state
   * {@code dmz_load_mapping()} would read back. An unmapped chunk is mapped to a free zone: the
   * {@code k}-th such chunk to a random one when {@code floor((k + 1) r) > floor(k r)} for
   * {@code r = randomShare}, else to a sequential one (either kind when the other has none
   * free); a sequential zone's write pointer moves to the data's end. Returns the data zone, or
   * null if no zone is free.
   */
  DmzZone prewrite(int chunk, int block, int n, double randomShare) {
    DmzZone z;
    if (dzoneOf[chunk] == DmzZone.UNMAPPED) {
      long k = prewrittenChunks;
      boolean rnd = Math.floor((k + 1) * randomShare) > Math.floor(k * randomShare);
      z = rnd ? unmapRnd.poll() : unmapSeq.poll();
      if (z == null) {
        z = rnd ? unmapSeq.poll() : unmapRnd.poll();
      }
      if (z == null) {
        return null;
      }
      dzoneOf[chunk] = z.id;
      z.chunk = chunk;
      touch(z);
      (z.rnd ? mapRnd : mapSeq).add(z);
      prewrittenChunks++;
      if (z.rnd) {
        prewrittenRnd++;
      }
    } else {
      z = zones[dzoneOf[chunk]];
    }
    int c = z.valid.set(block, n);
    z.weight = Math.min(z.weight + c, (int) fmt.zoneNrBlocks());
    if (z.seq()) {
      z.wpBlock = Math.max(z.wpBlock, block + n);
    }
    return z;
  }

  /** {@code dmz_validate_blocks()}. */
  void validate(DmzZone z, int block, int n) {
    int c = z.valid.set(block, n);
    accessBitmaps(z, block, n, c > 0);
    if (c > 0) {
      dirtyBitmap(z, block, n);
      z.weight = Math.min(z.weight + c, (int) fmt.zoneNrBlocks());
    }
  }

  /** {@code dmz_invalidate_blocks()}. */
  void invalidate(DmzZone z, int block, int n) {
    int c = z.valid.clear(block, n);
    accessBitmaps(z, block, n, c > 0);
    if (c > 0) {
      dirtyBitmap(z, block, n);
      z.weight = Math.max(0, z.weight - c);
    }
  }

  /** {@code dmz_copy_valid_blocks()} and {@code dmz_merge_valid_blocks()}: from's runs into to. */
  void mergeValid(DmzZone from, DmzZone to, int fromBlock) {
    int b = fromBlock;
    int[] r;
    while ((r = from.valid.firstValid(b)) != null) {
      accessBitmaps(from, b, r[0] + r[1] - b, false);
      validate(to, r[0], r[1]);
      b = r[0] + r[1];
    }
  }

  /** The first bitmap block number of zone {@code z}. */
  long bitmapBase(DmzZone z) {
    return 1 + fmt.nrMapBlocks() + (long) z.id * fmt.zoneNrBitmapBlocks();
  }

  /**
   * {@code dmz_get_bitmap()} and {@code dmz_release_mblock()} of each bitmap block of zone
   * {@code z} covering blocks {@code [block, block + n)}, dirtied if {@code dirtying}.
   */
  void accessBitmaps(DmzZone z, int block, int n, boolean dirtying) {
    if (!cache.bounded || n <= 0) {
      return;
    }
    long base = bitmapBase(z);
    for (long b = block >> 15; b <= (block + n - 1) >> 15; b++) {
      cache.access(base + b, dirtying);
    }
  }

  private void dirtyBitmap(DmzZone z, int block, int n) {
    long base = bitmapBase(z);
    for (long b = block >> 15; b <= (block + n - 1) >> 15; b++) {
      dirty.add(base + b);
    }
  }

  /**
   * {@code dmz_lock_zone_reclaim()}. Also refused while a chunk work that stopped a copy of the
   * zone has not retried yet ({@code DMZ_RECLAIM_TERMINATE} still set): in the kernel the woken
   * work activates the zone before reclaim can pick it again; here reclaim could win every time.
   */
  boolean lockZoneReclaim(DmzZone z) {
    if (z.active > 0 || z.inReclaim || z.reclaimTerminate) {
      return false;
    }
    z.inReclaim = true;
    return true;
  }

  /** {@code dmz_unlock_zone_reclaim()}: wakes the chunk works waiting for it. */
  void unlockZoneReclaim(DmzZone z) {
    z.inReclaim = false;
    List<Runnable> w = new ArrayList<>(z.reclaimWaiters);
    z.reclaimWaiters.clear();
    for (Runnable r : w) {
      r.run();
    }
  }

  /**
   * {@code dmz_get_zone_for_reclaim()}: with no reserved sequential zone free, a buffered
   * sequential zone ({@code dmz_get_seq_zone_for_reclaim()}); otherwise the first random data
   * zone of the LRU that can be locked, or the data zone of the heaviest buffer
   * ({@code dmz_get_rnd_zone_for_reclaim()}); null if none can be locked.
   */
  DmzZone getZoneForReclaim() {
    if (reservedSeq.isEmpty()) {
      for (DmzZone z : mapSeq) {
        if (z.bzone != null && lockZoneReclaim(z)) {
          return z;
        }
      }
    }
    DmzZone maxw = null;
    for (DmzZone z : mapRnd) {
      if (z.buf) {
        DmzZone d = z.bzone;
        if (maxw == null || maxw.weight < d.weight) {
          maxw = d;
        }
      } else if (lockZoneReclaim(z)) {
        return z;
      }
    }
    if (maxw != null && lockZoneReclaim(maxw)) {
      return maxw;
    }
    for (DmzZone z : mapRnd) {
      DmzZone d = z.buf ? z.bzone : z;
      if (lockZoneReclaim(d)) {
        return d;
      }
    }
    return null;
  }

  /** Zones by condition, as {@code blkzone report} would count them after a run. */
  String report(int maxLines) {
    StringBuilder b = new StringBuilder();
    long zs = fmt.zoneNrSectors();
    int shown = 0;
    int skipped = 0;
    for (DmzZone z : zones) {
      String cond;
      if (z.rnd) {
        cond = "nw";
      } else if (z.wpBlock == 0) {
        cond = "em";
      } else if (z.wpBlock >= fmt.zoneNrBlocks()) {
        cond = "fu";
      } else {
        cond = "oi";
      }
      String role = z.meta ? "meta" : z.chunk == DmzZone.UNMAPPED
          ? (z.reserved ? "reserved" : "free") : (z.buf ? "buf" : "data") + " chunk " + z.chunk;
      if (!z.meta && z.chunk == DmzZone.UNMAPPED && (z.seq() ? z.wpBlock == 0 : z.weight == 0)) {
        skipped++;
        continue;
      }
      if (shown++ >= maxLines) {
        skipped++;
        continue;
      }
      // blkzone prints the write pointer relative to the zone's start.
      long wp = z.rnd ? 0 : z.wpBlock * (long) DmzFormat.BLOCK_SECTORS;
      b.append(String.format("  start: 0x%09x, len 0x%06x, wptr 0x%06x reset:0 non-seq:0,"
          + " zcond:%2s [type: %d] %s, %d valid blocks%n", z.id * zs, zs, wp, cond,
          z.rnd ? 1 : 2, role, z.weight));
    }
    b.append(String.format("  (%d free or unlisted zones not shown)%n", skipped));
    return b.toString();
  }

  /** Counts of zones by role: meta, random mapped, random free, seq mapped, seq free, reserved. */
  String counts() {
    int rndMapped = mapRnd.size();
    int seqMapped = mapSeq.size();
    return "random " + unmapRnd.size() + "/" + nrRnd + " free (" + rndMapped + " mapped),"
        + " sequential " + unmapSeq.size() + " free (" + seqMapped + " mapped), reserved "
        + reservedSeq.size() + "/" + fmt.nrReservedSeq() + " free, dirty metadata blocks "
        + dirty.size();
  }
}
