package blksim.kernel.device;

import blksim.kernel.block.Errno;
import blksim.kernel.block.ZoneGeometry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The zone state of a host-managed zoned disk (ZBC/ZAC; kernel-model.md §7.5, §15.2): a write
 * pointer and a condition per sequential zone, the open-zone accounting and the zone management
 * commands. It is the drive's firmware rule book, checked for each command when the drive takes
 * it ({@link ZonedDiskDriver}); the mechanism's timing is {@link RotationalDisk}'s. Pure and
 * deterministic.
 *
 * <p>Rules (ZBC-2 zone state machine; the kernel's own emulation, null_blk's {@code zoned.c},
 * follows the same):
 * <ul>
 *   <li>a write to a sequential zone must start at its write pointer and end inside the zone,
 *       and the zone must not be full; otherwise it fails with UNALIGNED WRITE COMMAND (or WRITE
 *       BOUNDARY VIOLATION), which the kernel reports as {@code BLK_STS_IOERR}, {@code -EIO};
 *   <li>a write to an empty or closed zone opens it implicitly. If {@code max_open_zones} zones
 *       are open, the drive first closes an implicitly open one (the one opened longest ago);
 *       if all are explicitly open the write fails with {@code BLK_STS_ZONE_OPEN_RESOURCE}
 *       ({@code -ETOOMANYREFS});
 *   <li>a zone written to its end becomes full and stops counting as open;
 *   <li>reset: write pointer to the start, empty; finish: write pointer to the end, full; open:
 *       explicitly open (needs an open resource, as above; a full zone cannot be opened);
 *       close: an open zone becomes closed, or empty if nothing was written. Zone commands on a
 *       conventional zone fail with {@code -EIO}.
 * </ul>
 * Simplified: reads are not checked against the write pointer (the drive's URSWRZ reads behave
 * as unrestricted; data past the write pointer reads as the drive's fill pattern); no active-zone
 * limit; writes to conventional zones are not checked beyond the disk's end.
 */
public final class ZonedDisk implements ZoneGeometry {
  private final ZonedLayout layout;
  private final long zoneSectors;
  private final int shift;
  private final long conv;
  /** Write pointer of each sequential zone, in sectors (index: zone − conventional zones). */
  private final long[] wp;
  private final ZoneCondition[] cond;
  /** Implicitly open zones, in the order they were opened (the next to close first). */
  private final ArrayDeque<Long> impOpen = new ArrayDeque<>();
  private int nrExpOpen;
  private long implicitCloses;

  /** One zone as a report shows it ({@code struct blk_zone}), in sectors. */
  public record Zone(long start, long len, long wp, ZoneCondition cond) {
    /** Whether it is conventional ({@code BLK_ZONE_TYPE_CONVENTIONAL}). */
    public boolean conventional() {
      return cond == ZoneCondition.NOT_WP;
    }
  }

  public ZonedDisk(ZonedLayout layout) {
    this.layout = layout;
    this.zoneSectors = layout.zoneSectors();
    this.shift = Long.numberOfTrailingZeros(zoneSectors);
    this.conv = layout.conventionalZones();
    int seq = Math.toIntExact(layout.sequentialZones());
    this.wp = new long[seq];
    this.cond = new ZoneCondition[seq];
    for (int i = 0; i < seq; i++) {
      wp[i] = (conv + i) << shift;
      cond[i] = ZoneCondition.EMPTY;
    }
  }

  /** The layout. */
  public ZonedLayout layout() {
    return layout;
  }

  @Override
  public long zoneSectors() {
    return zoneSectors;
  }

  @Override
  public long zoneNo(long sector) {
    return sector >>> shift;
  }

  @Override
  public boolean sequential(long sector) {
    return zoneNo(sector) >= conv;
  }

  @Override
  public int maxOpenZones() {
    return layout.maxOpenZones();
  }

  /** Zones on the disk. */
  @Override
  public long zones() {
    return layout.zones();
  }

  /** Zones open now, implicitly or explicitly. */
  public int openZones() {
    return impOpen.size() + nrExpOpen;
  }

  /** Implicitly open zones now. */
  public int implicitlyOpenZones() {
    return impOpen.size();
  }

  /** Zones the drive closed to open another for a write, so far. */
  public long implicitCloses() {
    return implicitCloses;
  }

  /** The index of sequential zone {@code zone} in the zone arrays, -1 for a conventional one. */
  private int seqIndex(long zone) {
    checkZone(zone);
    return zone < conv ? -1 : (int) (zone - conv);
  }

  /** The condition of zone {@code zone}. */
  public ZoneCondition condition(long zone) {
    checkZone(zone);
    return zone < conv ? ZoneCondition.NOT_WP : cond[(int) (zone - conv)];
  }

  /** The write pointer of zone {@code zone} in sectors (a conventional zone: its end). */
  @Override
  public long writePointer(long zone) {
    checkZone(zone);
    return zone < conv ? (zone + 1) << shift : wp[(int) (zone - conv)];
  }

  /**
   * The drive takes a write of {@code sectors} at {@code sector}: checks it and, if it is
   * accepted, advances the write pointer.
   *
   * @return 0, or {@code -EIO} (not at the write pointer, crossing the zone's end, zone full),
   *     {@code -ETOOMANYREFS} (no open resource)
   */
  public int write(long sector, long sectors) {
    long zone = zoneNo(sector);
    checkZone(zone);
    if (sectors <= 0) {
      return 0;
    }
    long lastZone = zoneNo(sector + sectors - 1);
    if (zone < conv) {
      // A conventional write may run on into further conventional zones, not a sequential one.
      return lastZone < conv ? 0 : -Errno.EIO;
    }
    int i = (int) (zone - conv);
    if (lastZone != zone || cond[i] == ZoneCondition.FULL || sector != wp[i]) {
      return -Errno.EIO;
    }
    if (!cond[i].open()) {
      if (!takeOpenResource()) {
        return -Errno.ETOOMANYREFS;
      }
      cond[i] = ZoneCondition.IMP_OPEN;
      impOpen.addLast(zone);
    }
    wp[i] += sectors;
    if (wp[i] == (zone + 1) << shift) {
      release(zone, i);
      cond[i] = ZoneCondition.FULL;
    }
    return 0;
  }

  /**
   * Zone {@code zone} as an earlier run left it, without any command: written up to
   * {@code wpSectors} from its start and closed ({@code CLOSED}; {@code FULL} at the zone's end,
   * {@code EMPTY} at 0). Only forward from an empty or closed zone (it holds no open resource).
   *
   * @throws IllegalArgumentException for a conventional, open or full zone, or a write pointer
   *     behind the present one or past the zone's end
   */
  public void setWritten(long zone, long wpSectors) {
    int i = seqIndex(zone);
    long start = zone << shift;
    if (i < 0 || cond[i].open() || cond[i] == ZoneCondition.FULL || wpSectors < wp[i] - start
        || wpSectors > zoneSectors) {
      throw new IllegalArgumentException("zone " + zone + " (" + (i < 0 ? "conventional"
          : cond[i]) + ", wp +" + (i < 0 ? 0 : wp[i] - start) + ") cannot be left written to +"
          + wpSectors);
    }
    wp[i] = start + wpSectors;
    cond[i] = wpSectors == 0 ? ZoneCondition.EMPTY
        : wpSectors == zoneSectors ? ZoneCondition.FULL : ZoneCondition.CLOSED;
  }

  /** {@code REQ_OP_ZONE_RESET} of the zone holding {@code sector}: 0 or {@code -EIO}. */
  public int reset(long sector) {
    long zone = zoneNo(sector);
    int i = seqIndex(zone);
    if (i < 0) {
      return -Errno.EIO;
    }
    release(zone, i);
    wp[i] = zone << shift;
    cond[i] = ZoneCondition.EMPTY;
    return 0;
  }

  /** {@code REQ_OP_ZONE_FINISH} of the zone holding {@code sector}: 0 or {@code -EIO}. */
  public int finish(long sector) {
    long zone = zoneNo(sector);
    int i = seqIndex(zone);
    if (i < 0) {
      return -Errno.EIO;
    }
    release(zone, i);
    wp[i] = (zone + 1) << shift;
    cond[i] = ZoneCondition.FULL;
    return 0;
  }

  /** {@code REQ_OP_ZONE_OPEN} (explicit open): 0, {@code -EIO} or {@code -ETOOMANYREFS}. */
  public int open(long sector) {
    long zone = zoneNo(sector);
    int i = seqIndex(zone);
    if (i < 0) {
      return -Errno.EIO;
    }
    switch (cond[i]) {
      case EXP_OPEN:
        return 0;
      case IMP_OPEN:
        removeImpOpen(zone);
        break;
      case EMPTY:
      case CLOSED:
        if (!takeOpenResource()) {
          return -Errno.ETOOMANYREFS;
        }
        break;
      default:
        return -Errno.EIO;
    }
    nrExpOpen++;
    cond[i] = ZoneCondition.EXP_OPEN;
    return 0;
  }

  /** {@code REQ_OP_ZONE_CLOSE}: 0 or {@code -EIO} (an empty or full zone). */
  public int close(long sector) {
    long zone = zoneNo(sector);
    int i = seqIndex(zone);
    if (i < 0) {
      return -Errno.EIO;
    }
    switch (cond[i]) {
      case CLOSED:
        return 0;
      case IMP_OPEN:
      case EXP_OPEN:
        release(zone, i);
        cond[i] = wp[i] == zone << shift ? ZoneCondition.EMPTY : ZoneCondition.CLOSED;
        return 0;
      default:
        return -Errno.EIO;
    }
  }

  /**
   * REPORT ZONES ({@code blkdev_report_zones()}): up to {@code max} zones from the one holding
   * {@code sector}, in order.
   */
  public List<Zone> reportZones(long sector, int max) {
    List<Zone> out = new ArrayList<>();
    for (long z = zoneNo(sector); z < zones() && out.size() < max; z++) {
      out.add(new Zone(z << shift, zoneSectors, writePointer(z), condition(z)));
    }
    return out;
  }

  /** Counts of zones by condition, in {@link ZoneCondition} order. */
  public long[] conditionCounts() {
    long[] n = new long[ZoneCondition.values().length];
    n[ZoneCondition.NOT_WP.ordinal()] = conv;
    for (ZoneCondition c : cond) {
      n[c.ordinal()]++;
    }
    return n;
  }

  /** An open resource for a zone about to open: free, or made by closing an implicit one. */
  private boolean takeOpenResource() {
    if (openZones() < layout.maxOpenZones()) {
      return true;
    }
    Long victim = impOpen.pollFirst();
    if (victim == null) {
      return false;
    }
    int j = (int) (victim - conv);
    cond[j] = wp[j] == victim << shift ? ZoneCondition.EMPTY : ZoneCondition.CLOSED;
    implicitCloses++;
    return true;
  }

  /** The zone leaves the open state: its open resource is freed. */
  private void release(long zone, int i) {
    if (cond[i] == ZoneCondition.IMP_OPEN) {
      removeImpOpen(zone);
    } else if (cond[i] == ZoneCondition.EXP_OPEN) {
      nrExpOpen--;
    }
  }

  private void removeImpOpen(long zone) {
    for (Iterator<Long> it = impOpen.iterator(); it.hasNext(); ) {
      if (it.next() == zone) {
        it.remove();
        return;
      }
    }
  }

  private void checkZone(long zone) {
    if (zone < 0 || zone >= zones()) {
      throw new IllegalArgumentException("zone must be in [0, " + zones() + "), was " + zone);
    }
  }
}
