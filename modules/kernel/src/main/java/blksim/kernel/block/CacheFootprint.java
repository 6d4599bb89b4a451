package blksim.kernel.block;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one CPU's caches hold of the data the block drivers copy (issue 10 item 9, cache-cold
 * first touches, {@code kernel.cache-cold = on}): the 4 KiB pages a CPU touched most recently,
 * least recently used first out, up to a capacity of {@code costs.cache.size} bytes. A touch of a
 * page that is not in it is a cold touch (its 64 lines come from DRAM or a remote cache, see
 * {@code costs.cache.cold-page}), and the page then is in it.
 *
 * <p>Simplified: one LRU per CPU for the driver's pages of every device on it (brd's backing
 * pages, zram's slots), fully associative; nothing else a CPU touches (the user buffers, fio's
 * own data, the kernel's other structures) evicts a page, which the capacity, a share of the
 * cache, stands for; a page written by another CPU is cold here although it may come from that
 * CPU's cache (a cross-core transfer costs about as much as an LLC miss [A]); no hardware
 * prefetch across pages.
 *
 * <p>Owned by its CPU (touched only from that CPU's partition); deterministic: the order is the
 * order of touches, never of hashes.
 */
public final class CacheFootprint {
  private final int capacityPages;
  private final LinkedHashMap<Long, Boolean> lru;
  private long coldTouches;
  private long touches;

  /** A footprint holding at most {@code capacityBytes} / 4 KiB pages (at least one). */
  public CacheFootprint(long capacityBytes) {
    if (capacityBytes < 0) {
      throw new IllegalArgumentException("capacityBytes must be >= 0, was " + capacityBytes);
    }
    this.capacityPages = (int) Math.max(1, Math.min(1 << 24, capacityBytes >>> 12));
    this.lru = new LinkedHashMap<>(Math.min(capacityPages, 1 << 16) * 2, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
        return size() > capacityPages;
      }
    };
  }

  /** How many 4 KiB pages fit. */
  public int capacityPages() {
    return capacityPages;
  }

  /**
   * Touches pages {@code first} .. {@code first + pages - 1} of device {@code device} (an index
   * below 2^15 the caller gives each device) and returns how many of them were cold.
   */
  public long touch(int device, long first, long pages) {
    long cold = 0;
    long base = (long) device << 48;
    for (long p = first; p < first + pages; p++) {
      if (lru.get(base | p) == null) {
        lru.put(base | p, Boolean.TRUE);
        cold++;
      }
    }
    touches += pages;
    coldTouches += cold;
    return cold;
  }

  /** Pages touched so far. */
  public long touches() {
    return touches;
  }

  /** Of {@link #touches()}, the cold ones. */
  public long coldTouches() {
    return coldTouches;
  }
}
