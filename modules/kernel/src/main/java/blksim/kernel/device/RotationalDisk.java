package blksim.kernel.device;

import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The service model of a rotational disk (kernel-model.md §7.5, §15.2): where the head is, how
 * long it takes to reach a sector and to transfer data there, and which queued command the drive
 * serves next. It is the drive's firmware and mechanism, below the kernel's {@code sd}/libata
 * driver; the blk-mq request layer drives it: it keeps up to {@code ncqDepth} commands issued,
 * asks {@link #pickNext} which one the drive serves, and calls {@link #serve} for it when the
 * drive is idle. Pure and deterministic; owned by whichever component owns the device.
 *
 * <p><b>Geometry.</b> LBA 0 is on the outer edge. The media rate falls linearly with the radius
 * (cylinder fraction c in [0, 1]) from outer to inner rate; with the linear bit density constant,
 * a track holds rate × rotation bytes, so the bytes before c grow as
 * {@code R_o·c − (R_o − R_i)·c²/2} and the rate at LBA fraction f is
 * {@code sqrt(R_o² − f·(R_o² − R_i²))}: the rate's square is linear in the LBA, not the rate
 * itself. The tracks form one spiral: a read from LBA 0 up to c takes {@code c × tracks}
 * revolutions whatever the rates, so a sector's angle is {@code frac(c × tracks)} (perfect
 * track and cylinder skew) and a transfer from c1 to c2 takes {@code (c2 − c1) × tracks}
 * rotations (the rate changes continuously inside it). The cylinder of c is
 * {@code floor(c × cylinders)}.
 *
 * <p><b>Seek.</b> Ruemmler and Wilkes, "An introduction to disk drive modeling" (IEEE Computer,
 * 1994), model short seeks as {@code a + b·sqrt(d)} (the arm accelerates and decelerates) and
 * long ones as linear in d (it coasts). Here both pieces pass through three points: d = 1
 * cylinder takes {@code trackSeekNs}, d = one third of the stroke {@code averageSeekNs} (the
 * mean distance between two uniform random positions), where the pieces meet, and d = the full
 * stroke ({@code cylinders − 1}) {@code fullStrokeSeekNs}; d = 0 costs nothing. This is not
 * §15.2's single curve {@code t_track + (t_full − t_track)·sqrt(d/d_max)}, which does not pass
 * through the average seek at a third of the stroke (8.8 ms there with the defaults). Because the
 * curve is concave, the mean over uniformly random seeks (distance density 2(1 − x) over the
 * stroke fraction x) comes out below the anchor: about 7.6 ms with the defaults, against 8.1 ms
 * for §15.2's curve; raise {@code averageSeekNs} if a figure needs the mean itself at 8.2 ms.
 *
 * <p><b>Rotation.</b> The spindle's phase follows virtual time alone, {@code (t mod rotation) /
 * rotation}, with sector angle 0 under the head at t = 0; after the seek the drive waits until
 * the target sector's angle comes round.
 *
 * <p><b>Sequential streaming.</b> A command whose first sector is the one after the last
 * sector served pays no overhead, seek or rotation, however late it comes: the drive streams it
 * from its read-ahead track buffer or merges it into the write stream. Such a stream of commands
 * runs at the media rate of where it is.
 *
 * <p><b>Command aging.</b> With {@link RotationalDiskParams#ncqAgingNs} above 0 a command
 * that has waited that long at the drive is served next (the oldest first), the starvation
 * bound drive firmware puts on its reordering; without it SPTF may leave a command far from
 * the busy area queued for seconds.
 *
 * <p><b>Simplified</b> (each is a later knob if a figure needs it): no write cache here (every
 * command served is timed on the media; §15.2's cache-acknowledged writes and FLUSH CACHE destage
 * are {@link CachedDiskDriver}'s); reads and writes share one seek curve (the write figures of §15.5 T1; the HC310 reads
 * seek about 0.8 ms faster on average); no head-switch or settle time within a cylinder, no
 * read-ahead beyond the strictly sequential case, no thermal recalibration, no defect remapping,
 * no discrete recording zones (the rate is continuous in the radius), and the controller overhead
 * is paid before the seek rather than overlapped with it. Zones in the ZBC/ZAC sense (write
 * pointers, zone states) belong to a wrapper that checks a command before calling {@link #serve};
 * nothing here assumes them.
 */
public final class RotationalDisk {
  private final RotationalDiskParams params;
  private final long sectors;
  private final long cylinders;
  private final double tracks;
  private final double rotationNs;
  /** Inner over outer media rate, in (0, 1]. */
  private final double rateRatio;
  /** Seek curve: short piece a + b·sqrt(d) up to {@code thirdStroke}, then linear. */
  private final double thirdStroke;
  private final double sqrtA;
  private final double sqrtB;
  private final double linearSlope;

  /** Cylinder under the head. */
  private long headCylinder;
  /** The sector after the last one served: a command starting here streams; -1 at first. */
  private long nextSequentialSector = -1;
  /** When the command being served completes; a new one may not start before. */
  private long busyUntilNs;
  /** Commands served because they reached the aging limit, not by the policy. */
  private long agedPicks;

  public RotationalDisk(RotationalDiskParams params) {
    this.params = params;
    this.sectors = params.capacityBytes() / 512;
    this.cylinders = params.cylinders();
    this.tracks = params.tracks();
    this.rotationNs = params.rotationNs();
    this.rateRatio = (double) params.innerMediaBytesPerSec() / params.outerMediaBytesPerSec();
    double maxDistance = cylinders - 1;
    this.thirdStroke = maxDistance / 3;
    this.sqrtB = (params.averageSeekNs() - params.trackSeekNs()) / (Math.sqrt(thirdStroke) - 1);
    this.sqrtA = params.trackSeekNs() - sqrtB;
    this.linearSlope = (params.fullStrokeSeekNs() - params.averageSeekNs())
        / (maxDistance - thirdStroke);
  }

  /** The parameters. */
  public RotationalDiskParams params() {
    return params;
  }

  /** Cylinders of the disk. */
  public long cylinders() {
    return cylinders;
  }

  /** Commands served so far because they had waited the aging limit. */
  public long agedPicks() {
    return agedPicks;
  }

  /** Cylinder under the head now. */
  public long headCylinder() {
    return headCylinder;
  }

  /** The sector after the last one served (a command starting there streams), -1 at first. */
  public long nextSequentialSector() {
    return nextSequentialSector;
  }

  /** When the command being served completes (0 before the first). */
  public long busyUntilNs() {
    return busyUntilNs;
  }

  /** Radial position of a sector, 0 at the outer edge (LBA 0) to 1 at the inner edge. */
  public double cylinderFraction(long sector) {
    double f = (double) sector / sectors;
    // Solve R_o·c − (R_o − R_i)·c²/2 = f·(R_o + R_i)/2 for c, in the form without cancellation:
    // c = f·(1 + ρ) / (1 + sqrt(1 − f·(1 − ρ²))), ρ = R_i / R_o (c = f when ρ = 1).
    return f * (1 + rateRatio) / (1 + Math.sqrt(1 - f * (1 - rateRatio * rateRatio)));
  }

  /** The cylinder holding {@code sector}. */
  public long cylinderOf(long sector) {
    return Math.min(cylinders - 1, (long) Math.floor(cylinderFraction(sector) * cylinders));
  }

  /** The media rate where {@code sector} lies, bytes per second: sqrt(R_o² − f·(R_o² − R_i²)). */
  public double mediaBytesPerSecAt(long sector) {
    double f = (double) sector / sectors;
    double outer = params.outerMediaBytesPerSec();
    return outer * Math.sqrt(1 - f * (1 - rateRatio * rateRatio));
  }

  /** The angle of {@code sector} on its track, in revolutions [0, 1): frac(c × tracks). */
  public double angleOf(long sector) {
    double revolutions = cylinderFraction(sector) * tracks;
    return revolutions - Math.floor(revolutions);
  }

  /**
   * Seek time over {@code distance} cylinders: 0 for none, a + b·sqrt(d) up to a third of the
   * stroke, linear beyond (Ruemmler and Wilkes 1994), through the three data-sheet points.
   */
  public long seekNs(long distance) {
    if (distance < 0 || distance > cylinders - 1) {
      throw new IllegalArgumentException("distance must be in [0, " + (cylinders - 1)
          + "] cylinders, was " + distance);
    }
    if (distance == 0) {
      return 0;
    }
    double t = distance <= thirdStroke
        ? sqrtA + sqrtB * Math.sqrt(distance)
        : params.averageSeekNs() + linearSlope * (distance - thirdStroke);
    return Math.round(t);
  }

  /**
   * Time from {@code nowNs} until the head is at the start of {@code sector}: the seek from the
   * head's cylinder, then the wait for the sector's angle; 0 for a sequential continuation.
   * The per-command overhead is not included.
   */
  public long positioningNs(long nowNs, long sector) {
    checkSector(sector);
    if (sector == nextSequentialSector) {
      return 0;
    }
    long seek = seekNs(Math.abs(cylinderOf(sector) - headCylinder));
    return seek + rotationalLatencyNs(nowNs + seek, sector);
  }

  /** Wait at time {@code atNs} until the angle of {@code sector} is under the head. */
  public long rotationalLatencyNs(long atNs, long sector) {
    double phase = (atNs % rotationNs) / rotationNs;
    double wait = angleOf(sector) - phase;
    if (wait < 0) {
      wait += 1;
    }
    return Math.round(wait * rotationNs);
  }

  /** Time to transfer {@code bytes} starting at {@code sector}: the rotations the span covers. */
  public long transferNs(long sector, long bytes) {
    checkRange(sector, bytes);
    long end = sector + bytes / 512;
    return Math.round((cylinderFraction(end) - cylinderFraction(sector)) * tracks * rotationNs);
  }

  /** Time from {@code nowNs} until the transfer of a command at {@code sector} could begin. */
  public long accessNs(long nowNs, long sector) {
    checkSector(sector);
    if (sector == nextSequentialSector) {
      return 0;
    }
    long overhead = params.perCommandOverheadNs();
    return overhead + positioningNs(nowNs + overhead, sector);
  }

  /**
   * Serves one command starting at {@code nowNs}: overhead, seek, rotation, transfer; moves the
   * head to the command's end. Reads and writes are timed alike ({@code write} is for the zoned
   * wrapper and a later write cache).
   *
   * @return the completion time
   * @throws IllegalStateException if the drive is still serving the previous command
   */
  public long serve(long nowNs, long sector, long bytes, boolean write) {
    if (nowNs < busyUntilNs) {
      throw new IllegalStateException("RotationalDisk: command at t=" + nowNs
          + " ns while busy until t=" + busyUntilNs + " ns");
    }
    checkRange(sector, bytes);
    long start = nowNs + accessNs(nowNs, sector);
    long done = start + transferNs(sector, bytes);
    long end = sector + bytes / 512;
    headCylinder = cylinderOf(end == sectors ? end - 1 : end);
    nextSequentialSector = end;
    busyUntilNs = done;
    return done;
  }

  /**
   * Which of the queued commands the drive serves next (the firmware's NCQ choice, §15.2): only
   * the first {@code ncqDepth}, the ones holding tags, are seen. SPTF takes the least
   * {@link #accessNs} and, among equals, the earliest in the list; FIFO takes the first.
   *
   * @param queued commands in arrival order
   * @param sectorOf the first sector of a command
   * @return the index in {@code queued} of the command to serve
   */
  public <T> int pickNext(long nowNs, List<T> queued, ToLongFunction<? super T> sectorOf) {
    return pickNext(nowNs, queued, sectorOf, c -> nowNs);
  }

  /**
   * {@link #pickNext(long, List, ToLongFunction)} with the firmware's command aging
   * ({@link RotationalDiskParams#ncqAgingNs}): if a command among the first {@code ncqDepth}
   * has been queued at the drive for at least the aging limit, the one queued longest is served
   * (the first in the list among equals), whatever its positioning time; otherwise the policy
   * chooses. Without an aging limit this is the policy's choice.
   *
   * @param queuedAtOf when a command was handed to the drive
   */
  public <T> int pickNext(long nowNs, List<T> queued, ToLongFunction<? super T> sectorOf,
      ToLongFunction<? super T> queuedAtOf) {
    if (queued.isEmpty()) {
      throw new IllegalArgumentException("queued must hold at least one command, was empty");
    }
    if (params.ncqPolicy() == NcqPolicy.FIFO) {
      return 0;
    }
    int n = Math.min(queued.size(), params.ncqDepth());
    long aging = params.ncqAgingNs();
    if (aging > 0) {
      int oldest = 0;
      long oldestAt = Long.MAX_VALUE;
      for (int i = 0; i < n; i++) {
        long at = queuedAtOf.applyAsLong(queued.get(i));
        if (at < oldestAt) {
          oldest = i;
          oldestAt = at;
        }
      }
      if (nowNs - oldestAt >= aging) {
        agedPicks++;
        return oldest;
      }
    }
    int best = 0;
    long bestNs = Long.MAX_VALUE;
    for (int i = 0; i < n; i++) {
      long ns = accessNs(nowNs, sectorOf.applyAsLong(queued.get(i)));
      if (ns < bestNs) {
        best = i;
        bestNs = ns;
      }
    }
    return best;
  }

  /** {@link #pickNext(long, List, ToLongFunction)} over bare first sectors. */
  public int pickNext(long nowNs, List<Long> queuedSectors) {
    return pickNext(nowNs, queuedSectors, Long::longValue);
  }

  private void checkSector(long sector) {
    if (sector < 0 || sector >= sectors) {
      throw new IllegalArgumentException("sector must be in [0, " + sectors + "), was " + sector);
    }
  }

  private void checkRange(long sector, long bytes) {
    checkSector(sector);
    if (bytes <= 0 || bytes % 512 != 0 || bytes / 512 > sectors - sector) {
      throw new IllegalArgumentException("bytes must be a positive multiple of 512 ending by"
          + " sector " + sectors + ", was " + bytes + " at sector " + sector);
    }
  }
}
