package blksim.kernel.dm;

import java.util.ArrayList;
import java.util.List;

/**
 * One zone as dm-zoned tracks it ({@code struct dm_zone}, drivers/md/dm-zoned.h): its kind
 * ({@code DMZ_RND} for a conventional zone, {@code DMZ_SEQ}, {@code DMZ_META},
 * {@code DMZ_RESERVED}), its use ({@code DMZ_DATA}, {@code DMZ_BUF}), the chunk it maps, its
 * buffer or data partner ({@code bzone}), its write pointer in blocks ({@code wp_block}), its
 * number of valid blocks ({@code weight}), the active count ({@code refcount}) and the
 * reclaim flags. Owned by the {@link DmzMetadata} of its target.
 */
final class DmzZone {
  /** {@code DMZ_MAP_UNMAPPED}. */
  static final int UNMAPPED = -1;

  final int id;
  final boolean rnd;
  boolean meta;
  boolean reserved;
  boolean buf;
  int chunk = UNMAPPED;
  DmzZone bzone;
  int wpBlock;
  int weight;
  /** {@code zone->refcount}: chunk works using it (active zones are not reclaimed). */
  int active;
  /** {@code DMZ_RECLAIM}. */
  boolean inReclaim;
  /** {@code DMZ_RECLAIM_TERMINATE}: a user bio asks reclaim to stop copying this zone. */
  boolean reclaimTerminate;
  /** Wakers of chunk works in {@code dmz_wait_for_reclaim()}. */
  final List<Runnable> reclaimWaiters = new ArrayList<>();
  /** A ZONE_RESET of it is in flight (it returns to the free list when that completes). */
  boolean resetting;
  final DmzBitmap valid = new DmzBitmap();
  /** Position in its LRU list (higher: more recently used). */
  long lru;

  DmzZone(int id, boolean rnd) {
    this.id = id;
    this.rnd = rnd;
  }

  boolean seq() {
    return !rnd;
  }

  /** {@code dmz_is_empty()} for a sequential zone: nothing written. */
  boolean empty() {
    return wpBlock == 0;
  }

  @Override
  public String toString() {
    return (rnd ? "rnd" : "seq") + " zone " + id;
  }
}
