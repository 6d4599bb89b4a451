package blksim.kernel.device;

import blksim.kernel.block.Bio;
import blksim.kernel.block.DriverCpu;
import blksim.kernel.block.Errno;
import blksim.kernel.block.MqDriver;
import blksim.kernel.block.ReqOp;
import blksim.kernel.block.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A SATA rotational drive with its volatile write cache on (kernel-model.md §15.2), below a
 * request queue: the {@link RotationalDiskDriver} (or, with {@code zones}, the
 * {@link ZonedDiskDriver}) with {@link WriteCacheParams}.
 *
 * <p><b>Writes.</b> A write (not FUA) completes once the drive holds it: the controller's
 * acceptance time plus the transfer at the link rate, one write after another on the link,
 * while the cache holds less than its capacity with the write added; otherwise it waits at the
 * drive, and the writes behind it too (the drive takes them in order), until destaging frees
 * room. A zoned drive checks the zone rules when it takes the write (the write pointer moves
 * then). A FUA write is written through, on the media like a read.
 *
 * <p><b>Destage.</b> The mechanism serves one thing at a time: a queued read (or FUA write) or
 * the destage of one cached write, whichever has the shortest positioning time
 * ({@link RotationalDisk#accessNs}; a cached write that continues the last sector served
 * streams at no positioning cost and is taken at once). The drive sees the reads holding NCQ
 * tags and, of its cache, the 16 cached writes on either side of the head in LBA order (its own
 * sorted destage list). Room is freed when a destage completes.
 *
 * <p><b>FLUSH CACHE.</b> A non-queued command: the commands after it wait; it completes,
 * after the command overhead, once every command before it is done and the cache is empty, so
 * it costs the time to destage what the cache held.
 *
 * <p><b>Simplified</b>: reads never hit the cache (they are timed on the media); a write
 * rewriting a cached range whose start matches is merged into it; zone management commands
 * and rejected writes cost the command overhead on the link, not the mechanism; command aging
 * ({@link RotationalDiskParams#ncqAgingNs}) applies to the queued reads only.
 */
public final class CachedDiskDriver implements MqDriver {
  /** Cached writes on either side of the head that the drive's destage choice considers. */
  static final int DESTAGE_WINDOW = 16;

  private final RotationalDisk disk;
  private final ZonedDisk zones;
  private final WriteCacheParams cache;
  private final List<Request> held = new ArrayList<>();
  /** Cached writes not yet destaged: first sector -> {bytes, when held}. */
  private final TreeMap<Long, long[]> dirty = new TreeMap<>();
  private long cachedBytes;
  private boolean mechBusy;
  private long linkFreeNs;
  private DriverCpu lastCpu;
  private long commands;
  private long rejected;
  private long cachedWrites;
  private long destages;
  private long flushes;
  private long flushWaitNs;

  /**
   * @param zones the zone rules, or null for a conventional disk
   */
  public CachedDiskDriver(RotationalDisk disk, ZonedDisk zones, WriteCacheParams cache) {
    if (!cache.enabled()) {
      throw new IllegalArgumentException("CachedDiskDriver needs a write cache of at least 512"
          + " bytes, was " + cache.bytes());
    }
    if (zones != null && disk.params().capacityBytes() != zones.layout().capacityBytes()) {
      throw new IllegalArgumentException("the drive's capacity " + disk.params().capacityBytes()
          + " differs from the zone layout's " + zones.layout().capacityBytes());
    }
    this.disk = disk;
    this.zones = zones;
    this.cache = cache;
  }

  @Override
  public void queueRq(Request rq, DriverCpu cpu) {
    held.add(rq);
    commands++;
    lastCpu = cpu;
    pump(cpu.now());
  }

  private static boolean fua(Request rq) {
    for (Bio b : rq.bios()) {
      if (b.hasFlag(Bio.REQ_FUA)) {
        return true;
      }
    }
    return false;
  }

  private static boolean media(Request rq) {
    return rq.op() == ReqOp.READ || (rq.op() == ReqOp.WRITE && fua(rq));
  }

  private void pump(long now) {
    accept(now);
    if (!mechBusy) {
      startMechanism(now);
    }
  }

  /** Takes the writes and non-data commands the drive can take now, in order, up to a FLUSH. */
  private void accept(long now) {
    long overhead = disk.params().perCommandOverheadNs();
    for (int i = 0; i < held.size(); ) {
      Request rq = held.get(i);
      ReqOp op = rq.op();
      if (op == ReqOp.FLUSH) {
        return;
      }
      if (media(rq)) {
        i++;
        continue;
      }
      int error = 0;
      long done;
      long start = Math.max(now, linkFreeNs);
      if (op == ReqOp.WRITE) {
        if (cachedBytes + rq.bytes() > cache.bytes()) {
          return;
        }
        error = zones == null ? 0 : zones.write(rq.sector(), rq.bytes() >>> 9);
        if (error == 0) {
          done = start + cache.holdNs(rq.bytes());
          long[] old = dirty.get(rq.sector());
          if (old == null) {
            dirty.put(rq.sector(), new long[] {rq.bytes(), now});
            cachedBytes += rq.bytes();
          } else if (old[0] < rq.bytes()) {
            cachedBytes += rq.bytes() - old[0];
            old[0] = rq.bytes();
          }
          cachedWrites++;
        } else {
          done = start + overhead;
        }
      } else {
        error = switch (op) {
          case ZONE_RESET -> zones == null ? -Errno.EOPNOTSUPP : zones.reset(rq.sector());
          case ZONE_FINISH -> zones == null ? -Errno.EOPNOTSUPP : zones.finish(rq.sector());
          case ZONE_OPEN -> zones == null ? -Errno.EOPNOTSUPP : zones.open(rq.sector());
          case ZONE_CLOSE -> zones == null ? -Errno.EOPNOTSUPP : zones.close(rq.sector());
          case DISCARD -> -Errno.EOPNOTSUPP;
          default -> 0;
        };
        done = start + overhead;
      }
      linkFreeNs = done;
      held.remove(i);
      complete(rq, error, done - now, now);
    }
  }

  private void complete(Request rq, int error, long delayNs, long now) {
    if (error != 0) {
      rejected++;
    }
    DriverCpu at = rq.submitCpu();
    at.callAfter(delayNs, () -> rq.queue().hardwareDone(rq, error));
  }

  private void startMechanism(long now) {
    int flushAt = -1;
    for (int i = 0; i < held.size(); i++) {
      if (held.get(i).op() == ReqOp.FLUSH) {
        flushAt = i;
        break;
      }
    }
    if (flushAt == 0 && dirty.isEmpty()) {
      Request rq = held.remove(0);
      mechBusy = true;
      flushes++;
      flushWaitNs += now - rq.dispatchNs();
      long done = now + disk.params().perCommandOverheadNs();
      DriverCpu at = rq.submitCpu();
      at.callAfter(done - now, () -> {
        mechBusy = false;
        pump(at.now());
        rq.queue().hardwareDone(rq, 0);
      });
      return;
    }
    int limit = Math.min(flushAt < 0 ? held.size() : flushAt, disk.params().ncqDepth());
    // Command aging over the queued media commands.
    long aging = disk.params().ncqAgingNs();
    int pickHeld = -1;
    if (aging > 0) {
      long oldestAt = Long.MAX_VALUE;
      for (int i = 0; i < limit; i++) {
        Request rq = held.get(i);
        if (media(rq) && rq.dispatchNs() < oldestAt) {
          oldestAt = rq.dispatchNs();
          pickHeld = i;
        }
      }
      if (pickHeld >= 0 && now - oldestAt < aging) {
        pickHeld = -1;
      }
    }
    Long pickDirty = null;
    if (pickHeld < 0) {
      long next = disk.nextSequentialSector();
      if (next >= 0 && dirty.containsKey(next)) {
        pickDirty = next;
      } else {
        long bestNs = Long.MAX_VALUE;
        for (int i = 0; i < limit; i++) {
          Request rq = held.get(i);
          if (media(rq)) {
            long ns = disk.accessNs(now, rq.sector());
            if (ns < bestNs) {
              bestNs = ns;
              pickHeld = i;
            }
          }
        }
        long head = Math.max(0, next);
        // The window on each side of the head: ahead of it, then behind it (nearest first).
        for (Iterable<Long> side : List.of(dirty.tailMap(head, true).keySet(),
            dirty.headMap(head, false).descendingKeySet())) {
          int n = 0;
          for (Long s : side) {
            if (n++ == DESTAGE_WINDOW) {
              break;
            }
            long ns = disk.accessNs(now, s);
            if (ns < bestNs) {
              bestNs = ns;
              pickDirty = s;
            }
          }
        }
        if (pickDirty != null) {
          pickHeld = -1;
        }
      }
    }
    if (pickDirty != null) {
      long sector = pickDirty;
      long bytes = dirty.remove(sector)[0];
      mechBusy = true;
      destages++;
      long done = disk.serve(now, sector, bytes, true);
      DriverCpu at = lastCpu;
      at.callAfter(done - now, () -> {
        cachedBytes -= bytes;
        mechBusy = false;
        pump(at.now());
      });
      return;
    }
    if (pickHeld < 0) {
      return;
    }
    Request rq = held.remove(pickHeld);
    mechBusy = true;
    long done = disk.serve(now, rq.sector(), rq.bytes(), rq.op() != ReqOp.READ);
    int error = 0;
    if (rq.op() == ReqOp.WRITE && zones != null) {
      error = zones.write(rq.sector(), rq.bytes() >>> 9);
    }
    if (error != 0) {
      rejected++;
    }
    int status = error;
    DriverCpu at = rq.submitCpu();
    at.callAfter(done - now, () -> {
      mechBusy = false;
      pump(at.now());
      rq.queue().hardwareDone(rq, status);
    });
  }

  /** The mechanism. */
  public RotationalDisk disk() {
    return disk;
  }

  /** Commands the drive received so far. */
  public long commands() {
    return commands;
  }

  /** Commands the drive failed (zone rule violations, unsupported operations) so far. */
  public long rejected() {
    return rejected;
  }

  /** Bytes the cache holds now (destages in progress included). */
  public long cachedBytes() {
    return cachedBytes;
  }

  /** Writes completed from the cache so far. */
  public long cachedWrites() {
    return cachedWrites;
  }

  /** Cached writes destaged (or being destaged) so far. */
  public long destages() {
    return destages;
  }

  /** FLUSH CACHE commands completed so far, and the time they waited for the destage. */
  public long flushes() {
    return flushes;
  }

  /** Total time FLUSH CACHE commands spent at the drive before completing, ns. */
  public long flushWaitNs() {
    return flushWaitNs;
  }

  /** Writes held, destages, FLUSH CACHE commands and their wait, for a run's report. */
  @Override
  public String summary() {
    return "write cache " + (cache.bytes() >> 20) + " MiB: writes held " + cachedWrites
        + ", destages " + destages + ", FLUSH CACHE " + flushes + " (waited "
        + flushWaitNs / 1_000_000 + " ms in all, " + (flushes == 0 ? 0
        : flushWaitNs / flushes / 1_000) + " us each on average), held now "
        + (cachedBytes >> 10) + " KiB";
  }

  /** Dirty extents (for tests): first sector -> bytes. */
  Map<Long, Long> dirtyExtents() {
    TreeMap<Long, Long> m = new TreeMap<>();
    dirty.forEach((s, e) -> m.put(s, e[0]));
    return m;
  }
}
