package blksim.kernel.device;

/**
 * The mechanism of a rotational disk (kernel-model.md §7.5, §15.2, §15.5 T1): geometry, seek
 * curve, media rates and NCQ, read by {@link RotationalDisk}.
 *
 * <table>
 * <caption>Defaults and their sources</caption>
 * <tr><th>field</th><th>default</th><th>source</th></tr>
 * <tr><td>{@code capacityBytes}</td><td>55,880 × 256 MiB (about 15 TB)</td><td>[S] the 15 TB
 *     host-managed SMR example of §15.5 T1 (zones total × zone size)</td></tr>
 * <tr><td>{@code rpm}</td><td>7200</td><td>[S] WD Ultrastar DC HC310 OEM specification §4.5
 *     (§15.2), [A] for the SMR drive</td></tr>
 * <tr><td>{@code surfaces}</td><td>16</td><td>[A] 8 platters, 16 heads; it only sets the cylinder
 *     count, hence what a one-cylinder seek is</td></tr>
 * <tr><td>{@code trackSeekNs}</td><td>0.3 ms</td><td>[S] single-track seek 0.23 ms read / 0.32
 *     ms write, HC310 spec; 0.3 ms in §15.5 T1</td></tr>
 * <tr><td>{@code averageSeekNs}</td><td>8.2 ms</td><td>[S] average write seek, HC310 spec
 *     (7.4 ms for reads)</td></tr>
 * <tr><td>{@code fullStrokeSeekNs}</td><td>15 ms</td><td>[A] §15.2, §15.5 T1</td></tr>
 * <tr><td>{@code outerMediaBytesPerSec}</td><td>237 MiB/s</td><td>[S] sequential write at the
 *     first sequential zones of the 15 TB drive (fio, 256 KiB, QD 8), §15.2</td></tr>
 * <tr><td>{@code innerMediaBytesPerSec}</td><td>130 MiB/s</td><td>[A] about 0.55 × outer
 *     (zoned bit recording), §15.2</td></tr>
 * <tr><td>{@code ncqDepth}</td><td>32</td><td>[S] SATA NCQ, 32 tags (dmesg on zonedstorage.io),
 *     §15.2</td></tr>
 * <tr><td>{@code perCommandOverheadNs}</td><td>50 µs</td><td>[A] controller time to decode a
 *     command and start the mechanism; no published figure</td></tr>
 * <tr><td>{@code ncqPolicy}</td><td>SPTF</td><td>[A] §15.2</td></tr>
 * <tr><td>{@code ncqAgingNs}</td><td>0 (no aging)</td><td>the firmware's command aging limit:
 *     a queued command that has waited this long is served next, whatever SPTF would pick. No
 *     SATA drive publishes it; DDN's S2A9900 manual (its {@code DISK AGINGLIMIT=} setting, which
 *     sets it on Hitachi SAS drives) gives 50 to 250 ms, default 200 ms [S for that drive family,
 *     A for a SATA SMR drive]. Off by default so that no calibrated figure moves.</td></tr>
 * </table>
 *
 * <p>The cylinder count is derived, not given: the media rate is taken as linear in the radius
 * from {@code outerMediaBytesPerSec} at cylinder 0 to {@code innerMediaBytesPerSec} at the last,
 * one track holds what passes under the head in one revolution, so the disk has
 * {@code capacityBytes / (meanRate × rotation)} tracks ({@link #tracks()}), {@code surfaces} to a
 * cylinder.
 *
 * @param capacityBytes capacity, a multiple of 512
 * @param rpm spindle speed, revolutions per minute
 * @param surfaces recording surfaces (heads), the tracks of one cylinder
 * @param trackSeekNs seek time over one cylinder (track-to-track)
 * @param averageSeekNs seek time over one third of the full stroke, the mean distance of a
 *     random seek, where data sheets' average seek is placed (the mean time over random seeks
 *     comes out lower, see {@link RotationalDisk})
 * @param fullStrokeSeekNs seek time from the first to the last cylinder
 * @param outerMediaBytesPerSec media rate at the outer edge, where LBA 0 lies
 * @param innerMediaBytesPerSec media rate at the inner edge, where the last LBA lies
 * @param ncqDepth commands the drive can hold queued (NCQ tags) and choose among
 * @param perCommandOverheadNs controller time per command before the mechanism moves [A]
 * @param ncqPolicy how the drive picks among queued commands
 * @param ncqAgingNs the command aging limit: a command queued at the drive for at least this
 *     long is served before any other (the oldest such first); 0: none
 */
public record RotationalDiskParams(long capacityBytes, int rpm, int surfaces, long trackSeekNs,
    long averageSeekNs, long fullStrokeSeekNs, long outerMediaBytesPerSec,
    long innerMediaBytesPerSec, int ncqDepth, long perCommandOverheadNs, NcqPolicy ncqPolicy,
    long ncqAgingNs) {

  /** 1 MiB. */
  private static final long MIB = 1L << 20;
  /** Fewest cylinders accepted: the seek curve needs one third of the stroke beyond 1. */
  public static final long MIN_CYLINDERS = 8;

  /** Default of {@link #capacityBytes}: 55,880 zones of 256 MiB, §15.5 T1 [S]. */
  public static final long DEFAULT_CAPACITY_BYTES = 55_880L * 256 * MIB;
  /** Default of {@link #rpm}, §15.2 [S]. */
  public static final int DEFAULT_RPM = 7200;
  /** Default of {@link #surfaces} [A]. */
  public static final int DEFAULT_SURFACES = 16;
  /** Default of {@link #trackSeekNs}, §15.5 T1. */
  public static final long DEFAULT_TRACK_SEEK_NS = 300_000;
  /** Default of {@link #averageSeekNs}, §15.2 HC310 write seek [S]. */
  public static final long DEFAULT_AVERAGE_SEEK_NS = 8_200_000;
  /** Default of {@link #fullStrokeSeekNs}, §15.2 [A]. */
  public static final long DEFAULT_FULL_STROKE_SEEK_NS = 15_000_000;
  /** Default of {@link #outerMediaBytesPerSec}: 237 MiB/s, §15.2 [S]. */
  public static final long DEFAULT_OUTER_MEDIA_BYTES_PER_SEC = 237 * MIB;
  /** Default of {@link #innerMediaBytesPerSec}: 130 MiB/s, §15.5 T1 [A]. */
  public static final long DEFAULT_INNER_MEDIA_BYTES_PER_SEC = 130 * MIB;
  /** Default of {@link #ncqDepth}, §15.2 [S]. */
  public static final int DEFAULT_NCQ_DEPTH = 32;
  /** Default of {@link #perCommandOverheadNs} [A]. */
  public static final long DEFAULT_PER_COMMAND_OVERHEAD_NS = 50_000;

  /** The defaults of the table above. */
  public static final RotationalDiskParams DEFAULTS = new RotationalDiskParams(
      DEFAULT_CAPACITY_BYTES, DEFAULT_RPM, DEFAULT_SURFACES, DEFAULT_TRACK_SEEK_NS,
      DEFAULT_AVERAGE_SEEK_NS, DEFAULT_FULL_STROKE_SEEK_NS, DEFAULT_OUTER_MEDIA_BYTES_PER_SEC,
      DEFAULT_INNER_MEDIA_BYTES_PER_SEC, DEFAULT_NCQ_DEPTH, DEFAULT_PER_COMMAND_OVERHEAD_NS,
      NcqPolicy.SPTF, 0);

  /** Without command aging. */
  public RotationalDiskParams(long capacityBytes, int rpm, int surfaces, long trackSeekNs,
      long averageSeekNs, long fullStrokeSeekNs, long outerMediaBytesPerSec,
      long innerMediaBytesPerSec, int ncqDepth, long perCommandOverheadNs, NcqPolicy ncqPolicy) {
    this(capacityBytes, rpm, surfaces, trackSeekNs, averageSeekNs, fullStrokeSeekNs,
        outerMediaBytesPerSec, innerMediaBytesPerSec, ncqDepth, perCommandOverheadNs, ncqPolicy,
        0);
  }

  public RotationalDiskParams {
    if (capacityBytes <= 0 || capacityBytes % 512 != 0) {
      throw new IllegalArgumentException("capacityBytes must be a positive multiple of 512, was "
          + capacityBytes);
    }
    if (rpm < 1000 || rpm > 20_000) {
      throw new IllegalArgumentException("rpm must be in [1000, 20000], was " + rpm);
    }
    if (surfaces < 1 || surfaces > 64) {
      throw new IllegalArgumentException("surfaces must be in [1, 64], was " + surfaces);
    }
    DeviceChecks.cost("trackSeekNs", trackSeekNs);
    DeviceChecks.cost("averageSeekNs", averageSeekNs);
    DeviceChecks.cost("fullStrokeSeekNs", fullStrokeSeekNs);
    if (trackSeekNs <= 0) {
      throw new IllegalArgumentException("trackSeekNs must be > 0, was " + trackSeekNs);
    }
    if (averageSeekNs < trackSeekNs || fullStrokeSeekNs < averageSeekNs) {
      throw new IllegalArgumentException("seek times must satisfy trackSeekNs <= averageSeekNs"
          + " <= fullStrokeSeekNs, were " + trackSeekNs + ", " + averageSeekNs + ", "
          + fullStrokeSeekNs);
    }
    if (innerMediaBytesPerSec <= 0) {
      throw new IllegalArgumentException("innerMediaBytesPerSec must be > 0, was "
          + innerMediaBytesPerSec);
    }
    if (outerMediaBytesPerSec < innerMediaBytesPerSec) {
      throw new IllegalArgumentException("outerMediaBytesPerSec must be >= innerMediaBytesPerSec"
          + " (zoned bit recording puts more sectors on outer tracks), were "
          + outerMediaBytesPerSec + " and " + innerMediaBytesPerSec);
    }
    if (ncqDepth < 1 || ncqDepth > 256) {
      throw new IllegalArgumentException("ncqDepth must be in [1, 256], was " + ncqDepth);
    }
    DeviceChecks.cost("perCommandOverheadNs", perCommandOverheadNs);
    if (ncqPolicy == null) {
      throw new IllegalArgumentException("ncqPolicy must be SPTF or FIFO, was null");
    }
    DeviceChecks.cost("ncqAgingNs", ncqAgingNs);
    long cylinders = cylinders(capacityBytes, rpm, surfaces, outerMediaBytesPerSec,
        innerMediaBytesPerSec);
    if (cylinders < MIN_CYLINDERS) {
      throw new IllegalArgumentException("capacityBytes must fill at least " + MIN_CYLINDERS
          + " cylinders at these media rates, rpm and surfaces, filled " + cylinders);
    }
  }

  /** Time of one revolution, 60 s / rpm, in ns (8,333,333.3 ns at 7200 rpm). */
  public double rotationNs() {
    return 60e9 / rpm;
  }

  /**
   * Tracks on the disk (all surfaces): capacity over the mean track size; the mean over the
   * radius of a rate linear in the radius is (outer + inner) / 2, and a track holds rate ×
   * rotation. Not rounded: it is the number of revolutions a read of the whole disk takes.
   */
  public double tracks() {
    return tracks(capacityBytes, rpm, outerMediaBytesPerSec, innerMediaBytesPerSec);
  }

  /** Cylinders: {@link #tracks()} / surfaces, rounded. */
  public long cylinders() {
    return cylinders(capacityBytes, rpm, surfaces, outerMediaBytesPerSec, innerMediaBytesPerSec);
  }

  /** A copy with another capacity. */
  public RotationalDiskParams withCapacityBytes(long bytes) {
    return new RotationalDiskParams(bytes, rpm, surfaces, trackSeekNs, averageSeekNs,
        fullStrokeSeekNs, outerMediaBytesPerSec, innerMediaBytesPerSec, ncqDepth,
        perCommandOverheadNs, ncqPolicy, ncqAgingNs);
  }

  /** A copy with another NCQ depth and policy. */
  public RotationalDiskParams withNcq(int depth, NcqPolicy policy) {
    return new RotationalDiskParams(capacityBytes, rpm, surfaces, trackSeekNs, averageSeekNs,
        fullStrokeSeekNs, outerMediaBytesPerSec, innerMediaBytesPerSec, depth,
        perCommandOverheadNs, policy, ncqAgingNs);
  }

  /** A copy with another command aging limit (0: none). */
  public RotationalDiskParams withNcqAgingNs(long ns) {
    return new RotationalDiskParams(capacityBytes, rpm, surfaces, trackSeekNs, averageSeekNs,
        fullStrokeSeekNs, outerMediaBytesPerSec, innerMediaBytesPerSec, ncqDepth,
        perCommandOverheadNs, ncqPolicy, ns);
  }

  /** A copy with another per-command overhead. */
  public RotationalDiskParams withPerCommandOverheadNs(long ns) {
    return new RotationalDiskParams(capacityBytes, rpm, surfaces, trackSeekNs, averageSeekNs,
        fullStrokeSeekNs, outerMediaBytesPerSec, innerMediaBytesPerSec, ncqDepth, ns,
        ncqPolicy, ncqAgingNs);
  }

  private static double tracks(long capacityBytes, int rpm, long outer, long inner) {
    // capacity / ((outer + inner) / 2 × 60 / rpm)
    return (double) capacityBytes * rpm / (30.0 * ((double) outer + inner));
  }

  private static long cylinders(long capacityBytes, int rpm, int surfaces, long outer,
      long inner) {
    return Math.round(tracks(capacityBytes, rpm, outer, inner) / surfaces);
  }
}
