package blksim.workload.fio;

import blksim.kernel.block.ZoneGeometry;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * fio's {@code zonemode=zbd} ({@code zbd.c}): the I/O of a job on a zoned block device follows the
 * zones. One {@link Device} per zoned device holds fio's view of it, shared by every job on it as
 * fio's {@code zoned_block_device_info} is: a write pointer per zone (read from the device with
 * REPORT ZONES when the first job opens it, then advanced by fio as it queues writes), the array
 * of write target zones and its limit, and the valid data counter of the zone reset threshold.
 * Each job has a {@code FioZbd} for its range of zones.
 *
 * <p>What {@link #adjust} does to the offset and length the job's pattern chose
 * ({@code zbd_adjust_block()}):
 * <ul>
 *   <li>a write goes to the write pointer of the zone its offset falls in, if that zone is (or can
 *       become) a write target zone; with a limit of {@code max_open_zones} write zones (the
 *       device's limit unless {@code max_open_zones} is given or {@code ignore_zone_limits} is
 *       set), and {@code job_max_open_zones} per job, a write to any other zone is sent to one of
 *       the write zones of the job's range, picked from the offset ({@code zbd_pick_write_zone()});
 *       when that zone has too little room, the next zone in the range that can become a write
 *       zone is taken ({@code zbd_convert_to_write_zone()}). A full zone chosen again is reset
 *       first (a synchronous {@code BLKRESETZONE} after the job's I/Os in flight completed), and
 *       so is the chosen zone once the valid data of the range passed
 *       {@code zone_reset_threshold} and every 1/{@code zone_reset_frequency} writes after that.
 *       The length is cut at the zone's end. A zone written to its end leaves the write zones
 *       when that write completes ({@code zbd_end_zone_io()});
 *   <li>a read with {@code read_beyond_wp=0} only reads written data: a zone with less than the
 *       minimum block size written sends the read to the nearest zone with data
 *       ({@code zbd_find_zone()}), a random read is moved inside the written part, and the length
 *       is cut at the write pointer. If no zone in the range has data, the job ends (EOF);
 *   <li>a trim of a sequential zone is a zone reset; a random trim of an empty zone moves to the
 *       nearest zone with data ({@code zbd_do_io_u_trim()}).
 * </ul>
 * Simplified: a write zone full only because writes still in flight will fill it makes the job
 * quiesce and choose again rather than walk fio's whole fallback (the zone finish of
 * {@code write_zone_remainder=0} is not issued: SMR zones are multiples of every block size fio
 * accepts); zones are never offline; no verify interplay; zone capacity equals zone size.
 */
public final class FioZbd {
  /** fio's {@code ZBD_MAX_WRITE_ZONES}: the largest write zone limit it accepts. */
  public static final int ZBD_MAX_WRITE_ZONES = 4096;

  /** What {@link #adjust} decided. */
  public enum Action {
    /** Issue the I/O at {@link #offset()} for {@link #length()} bytes. */
    ACCEPT,
    /**
     * Reset zone {@link #resetZone()} first (a synchronous zone reset), then issue the I/O at
     * {@link #offset()} for {@link #length()}. Returned only with no I/O in flight.
     */
    RESET_THEN_ACCEPT,
    /** The trim is a zone reset of {@link #resetZone()}, done instead of the trim. */
    RESET_INSTEAD,
    /** Wait for every I/O in flight to complete ({@code io_u_quiesce()}), then adjust again. */
    QUIESCE,
    /** No I/O can be made: the job ends ({@code io_u_eof}). */
    EOF
  }

  /** fio's view of one zoned device, shared by the jobs on it. */
  static final class Device {
    final ZoneGeometry dev;
    final long zoneBytes;
    final int nrZones;
    final boolean[] hasWp;
    /** fio's write pointers, bytes (a conventional zone: its end). */
    final long[] wp;
    /** Whether each zone is in the write zone array ({@code z->write}). */
    final boolean[] write;
    final int[] writeZones = new int[ZBD_MAX_WRITE_ZONES];
    int numWriteZones;
    /** {@code zbdi->max_write_zones}, set by the first job; -1 before. */
    int maxWriteZones = -1;
    long wpValidDataBytes;
    long writeCnt;
    boolean vdbSet;
    long resets;

    Device(ZoneGeometry dev) {
      this.dev = dev;
      this.zoneBytes = dev.zoneSectors() << 9;
      this.nrZones = Math.toIntExact(dev.zones());
      this.hasWp = new boolean[nrZones];
      this.wp = new long[nrZones];
      this.write = new boolean[nrZones];
      for (int z = 0; z < nrZones; z++) {
        hasWp[z] = dev.sequential((long) z * dev.zoneSectors());
        wp[z] = dev.writePointer(z) << 9;
      }
    }

    long start(int z) {
      return z * zoneBytes;
    }

    long end(int z) {
      return (z + 1) * zoneBytes;
    }

    long remainder(int z) {
      return end(z) - wp[z];
    }

    int zoneOf(long offset) {
      return (int) (offset / zoneBytes);
    }

    /** {@code zbd_write_zone_put()}. */
    void writeZonePut(int z, FioZbd job) {
      if (!write[z]) {
        return;
      }
      for (int i = 0; i < numWriteZones; i++) {
        if (writeZones[i] == z) {
          System.arraycopy(writeZones, i + 1, writeZones, i, numWriteZones - i - 1);
          numWriteZones--;
          break;
        }
      }
      write[z] = false;
      job.numWriteZones = Math.max(0, job.numWriteZones - 1);
    }
  }

  /**
   * The devices seen by the jobs of runs in progress, by device (looked up, never iterated; weak,
   * so that a finished run's device goes away).
   */
  private static final Map<ZoneGeometry, Device> DEVICES =
      Collections.synchronizedMap(new WeakHashMap<>());

  private final Device d;
  private final FioJob job;
  private final long fileOffset;
  private final long ioSize;
  private final int minZone;
  private final int maxZone;
  private final boolean random;
  private final long[] minBs = new long[3];
  /** {@code td->num_write_zones}. */
  int numWriteZones;
  private long resets;

  private long offset;
  private long length;
  private int resetZone = -1;
  /** The write zone chosen before a QUIESCE for its reset: used again after it (fio quiesces
   * inside the same {@code zbd_adjust_block()} call). */
  private int quiescedZone = -1;

  private FioZbd(Device d, FioJob job, long fileOffset, long ioSize) {
    this.d = d;
    this.job = job;
    this.fileOffset = fileOffset;
    this.ioSize = ioSize;
    this.minZone = d.zoneOf(fileOffset);
    this.maxZone = (int) Math.min(d.nrZones, d.zoneOf(fileOffset + ioSize + d.zoneBytes - 1));
    this.random = job.rw().isRandom();
    long[] mb = job.minBs();
    for (int i = 0; i < 3; i++) {
      minBs[i] = mb[i];
    }
  }

  /**
   * The range a job's I/O covers after fio aligns it to zones ({@code zbd_zone_align_file_sizes()}):
   * a reading job's end is rounded down to a zone boundary; a writing job's start is rounded up
   * and its end down. Returns {offset, size}, or null if less than one zone is left for a writer
   * ("io_size must be at least one zone").
   */
  public static long[] alignRange(FioJob job, ZoneGeometry dev, long offset, long size) {
    long zb = dev.zoneSectors() << 9;
    long end = offset + size;
    boolean anySeq = false;
    for (long z = offset / zb; z <= (end - 1) / zb && z < dev.zones(); z++) {
      if (dev.sequential(z * dev.zoneSectors())) {
        anySeq = true;
        break;
      }
    }
    if (size <= 0 || !anySeq) {
      return new long[] {offset, size};
    }
    if (!job.rw().writes() && !job.rw().trims()) {
      return new long[] {offset, end / zb * zb - offset};
    }
    long start = (offset + zb - 1) / zb * zb;
    long newEnd = end / zb * zb;
    if (newEnd <= start) {
      return null;
    }
    return new long[] {start, newEnd - start};
  }

  /**
   * Opens the zoned device for a job ({@code zbd_init_files()}, {@code zbd_setup_files()}): its
   * shared view is made from REPORT ZONES by the first job; the write zone limit is set.
   *
   * @param fileOffset the job's aligned start ({@link #alignRange})
   * @param ioSize the job's aligned size
   * @return the job's zbd state
   * @throws IllegalArgumentException for a max_open_zones above the device's limit
   */
  public static FioZbd open(FioJob job, ZoneGeometry dev, long fileOffset, long ioSize) {
    Device d;
    synchronized (DEVICES) {
      d = DEVICES.computeIfAbsent(dev, Device::new);
    }
    FioZbd z = new FioZbd(d, job, fileOffset, ioSize);
    // zbd_set_max_write_zones()
    int limit;
    int devMax = dev.maxOpenZones();
    if (job.ignoreZoneLimits() || devMax == 0) {
      limit = job.maxOpenZones();
    } else if (job.maxOpenZones() == 0) {
      limit = devMax;
    } else if (job.maxOpenZones() <= devMax) {
      limit = job.maxOpenZones();
    } else {
      throw new IllegalArgumentException("max_open_zones (" + job.maxOpenZones()
          + ") is larger than the device's limit (" + devMax + ")");
    }
    if (d.maxWriteZones < 0) {
      d.maxWriteZones = limit;
    }
    if (job.zoneResetFrequency() > 0 && !d.vdbSet) {
      // zbd_verify_and_set_vdb(): the written bytes of the range's sequential zones.
      d.vdbSet = true;
      long vdb = 0;
      for (int i = z.minZone; i < z.maxZone; i++) {
        if (d.hasWp[i]) {
          vdb += d.wp[i] - d.start(i);
        }
      }
      d.wpValidDataBytes = vdb;
    }
    z.resetWriteCnt();
    return z;
  }

  /** The adjusted offset, bytes. */
  public long offset() {
    return offset;
  }

  /** The adjusted length, bytes. */
  public long length() {
    return length;
  }

  /** The zone to reset ({@link Action#RESET_THEN_ACCEPT}, {@link Action#RESET_INSTEAD}). */
  public int resetZone() {
    return resetZone;
  }

  /** The start of {@code zone} in bytes. */
  public long zoneStart(int zone) {
    return d.start(zone);
  }

  /** The zone size in bytes. */
  public long zoneBytes() {
    return d.zoneBytes;
  }

  /** Zone resets this job made ({@code nr_zone_resets}). */
  public long resets() {
    return resets;
  }

  /** The write target zones of the device now. */
  public int writeZones() {
    return d.numWriteZones;
  }

  /** fio's write pointer of {@code zone}, bytes. */
  public long writePointer(int zone) {
    return d.wp[zone];
  }

  private void resetWriteCnt() {
    double f = job.zoneResetFrequency();
    d.writeCnt = f > 0 ? (long) Math.min(1.0 / f, 0xffffffffL) : 0xffffffffL;
  }

  /**
   * Adjusts the I/O the pattern chose: direction {@code ddir} (0 read, 1 write, 2 trim),
   * {@code off} and {@code len} in bytes, with {@code inFlight} of the job's I/Os in flight.
   */
  public Action adjust(int ddir, long off, long len, int inFlight) {
    offset = off;
    length = len;
    resetZone = -1;
    int zb = d.zoneOf(off);
    if (zb >= d.nrZones) {
      return Action.EOF;
    }
    long mbs = minBs[Math.min(ddir, 2)];
    if (!d.hasWp[zb]) {
      if (ddir != 1) {
        return Action.ACCEPT;
      }
      // A write to a conventional zone must not run into a sequential one.
      int next = zb + 1;
      if (next >= d.nrZones || !d.hasWp[next] || off + len <= d.start(next)) {
        return Action.ACCEPT;
      }
      long newLen;
      if (off + mbs > d.start(next)) {
        offset = d.start(zb) + d.start(next) - off;
        newLen = Math.min(len, d.start(next) - offset);
      } else {
        newLen = d.start(next) - off;
      }
      length = newLen / mbs * mbs;
      return length > 0 ? Action.ACCEPT : Action.EOF;
    }
    switch (ddir) {
      case 0:
        return read(zb, mbs);
      case 1:
        return write(zb, mbs, inFlight);
      default:
        return trim(zb);
    }
  }

  private Action read(int zb, long mbs) {
    if (job.readBeyondWp()) {
      return Action.ACCEPT;
    }
    int orig = zb;
    long range = d.wp[zb] - d.start(zb);
    if (range < mbs || (!random && offset + mbs > d.wp[zb])) {
      int z = findZone(zb, mbs);
      if (z < 0) {
        return Action.EOF;
      }
      zb = z;
      range = d.wp[zb] - d.start(zb);
      if (!random) {
        offset = d.start(zb);
      }
    }
    if (range <= length) {
      offset = d.start(zb);
    } else if (random) {
      offset = d.start(zb) + ((offset - d.start(orig)) % (range - length)) / mbs * mbs;
    }
    if (!d.hasWp[zb]) {
      return Action.ACCEPT;
    }
    long newLen = Math.min(length, d.wp[zb] - offset) / mbs * mbs;
    if (newLen < length) {
      length = newLen;
    }
    return length > 0 ? Action.ACCEPT : Action.EOF;
  }

  /**
   * {@code zbd_find_zone()}: the next zone after {@code zb} with {@code minBytes} written, for a
   * random job alternately the previous ones too; -1 if none.
   */
  private int findZone(int zb, long minBytes) {
    for (int z1 = zb + 1, z2 = zb - 1; z1 < maxZone || z2 >= minZone; z1++, z2--) {
      if (z1 < maxZone) {
        if (d.start(z1) + minBytes <= d.wp[z1]) {
          return z1;
        }
      } else if (!random) {
        break;
      }
      if (random && z2 >= minZone && d.start(z2) + minBytes <= d.wp[z2]) {
        return z2;
      }
    }
    return -1;
  }

  /** {@code zbd_write_zone_get()}: the zone is, or becomes, a write zone. */
  private boolean writeZoneGet(int z) {
    if (d.maxWriteZones == 0) {
      return true;
    }
    if (d.write[z]) {
      return d.remainder(z) > 0;
    }
    if (job.jobMaxOpenZones() > 0 && numWriteZones >= job.jobMaxOpenZones()) {
      return false;
    }
    if (d.numWriteZones >= d.maxWriteZones) {
      return false;
    }
    d.writeZones[d.numWriteZones++] = z;
    numWriteZones++;
    d.write[z] = true;
    return true;
  }

  /** {@code pick_random_zone_idx()}: a write zone index from the offset's place in the range. */
  private int pickRandomIndex(long off) {
    if (d.numWriteZones == 0 || ioSize <= 0) {
      return 0;
    }
    return (int) Math.min(d.numWriteZones - 1,
        Math.max(0, (off - fileOffset) * d.numWriteZones / ioSize));
  }

  /** {@code zbd_pick_write_zone()}: a write zone of the job's range, from a quasi-random one. */
  private int pickWriteZone(long off) {
    int idx = pickRandomIndex(off);
    for (int i = 0; i < d.numWriteZones; i++) {
      if (idx >= d.numWriteZones) {
        idx = 0;
      }
      int z = d.writeZones[idx];
      if (minZone <= z && z < maxZone) {
        return z;
      }
      idx++;
    }
    return -1;
  }

  /** {@code zbd_convert_to_write_zone()}, simplified (class comment); -1 if none. */
  private int convertToWriteZone(int zb, long mbs) {
    if (writeZoneGet(zb)) {
      return zb;
    }
    boolean limited = d.maxWriteZones > 0 || job.jobMaxOpenZones() > 0;
    int z;
    if (limited && d.numWriteZones > 0) {
      z = d.writeZones[pickRandomIndex(offset)];
    } else {
      z = zb;
    }
    z = Math.max(minZone, Math.min(maxZone - 1, z));
    if (limited) {
      if (d.numWriteZones == 0) {
        z = -1;
      } else {
        int picked = pickWriteZone(offset);
        if (picked < 0) {
          return -1;
        }
        z = picked;
      }
    }
    if (z >= 0 && d.hasWp[z] && d.remainder(z) >= mbs) {
      return z;
    }
    // choose_other_zone: for random writes the first zone again, then the next ones in turn.
    if (random && writeZoneGet(zb)) {
      return zb;
    }
    int cur = z >= 0 ? z : zb;
    long n = ioSize / d.zoneBytes;
    for (long i = n; i > 0; i--) {
      cur++;
      if (cur >= maxZone || d.start(cur) >= fileOffset + ioSize) {
        cur = minZone;
      }
      if (!d.hasWp[cur] || d.write[cur]) {
        continue;
      }
      if (writeZoneGet(cur)) {
        return cur;
      }
    }
    for (int i = 0; i < d.numWriteZones; i++) {
      int w = d.writeZones[i];
      if (w >= minZone && w < maxZone && d.remainder(w) >= mbs && writeZoneGet(w)) {
        return w;
      }
    }
    return -1;
  }

  private Action write(int zb, long mbs, int inFlight) {
    if (length > d.zoneBytes) {
      return Action.EOF; // fio: EINVAL "I/O buflen exceeds zone size"
    }
    int z = quiescedZone >= 0 ? quiescedZone : convertToWriteZone(zb, mbs);
    quiescedZone = -1;
    if (z < 0) {
      // fio quiesces and retries while I/Os are in flight, whose completions free write zones.
      return inFlight > 0 ? Action.QUIESCE : Action.EOF;
    }
    boolean reset = false;
    if (job.zoneResetFrequency() > 0 && d.wpValidDataBytes >= ioSize * job.zoneResetThreshold()
        && decAndResetWriteCnt()) {
      reset = true;
    }
    boolean full = d.wp[z] + mbs > d.end(z);
    if (reset || full) {
      if (inFlight > 0) {
        // io_u_quiesce() before the synchronous reset; the decision is made again after it.
        if (reset) {
          d.writeCnt++;
        }
        quiescedZone = z;
        return Action.QUIESCE;
      }
      long data = d.wp[z] - d.start(z);
      if (data > 0) {
        d.wpValidDataBytes -= data;
        d.wp[z] = d.start(z);
        resets++;
        d.resets++;
        resetZone = z;
      }
    }
    offset = d.wp[z];
    long newLen = Math.min(length, d.end(z) - offset) / mbs * mbs;
    if (newLen < mbs) {
      return Action.EOF; // "zone remainder too small"
    }
    length = newLen;
    return resetZone >= 0 ? Action.RESET_THEN_ACCEPT : Action.ACCEPT;
  }

  private boolean decAndResetWriteCnt() {
    if (d.writeCnt > 0) {
      d.writeCnt--;
    }
    if (d.writeCnt == 0) {
      resetWriteCnt();
      return true;
    }
    return false;
  }

  private Action trim(int zb) {
    int z = zb;
    if (random && d.wp[zb] <= d.start(zb)) {
      z = findZone(zb, 1);
      if (z < 0) {
        return Action.EOF;
      }
      offset = d.start(z);
    }
    if (!d.hasWp[z]) {
      return Action.ACCEPT;
    }
    if (offset != d.start(z)) {
      return Action.EOF; // fio: EINVAL "Trim offset not at zone start"
    }
    long data = d.wp[z] - d.start(z);
    if (data > 0) {
      d.wpValidDataBytes -= data;
      d.writeZonePut(z, this);
      d.wp[z] = d.start(z);
      resets++;
      d.resets++;
    }
    resetZone = z;
    return Action.RESET_INSTEAD;
  }

  /**
   * The adjusted I/O was queued ({@code zbd_queue_io()}): a write advances fio's write pointer
   * and the valid data count.
   */
  public void queued(int ddir, long off, long len) {
    if (ddir != 1) {
      return;
    }
    int z = d.zoneOf(off);
    if (!d.hasWp[z]) {
      return;
    }
    long end = Math.min(off + len, d.end(z));
    if (d.wp[z] <= end) {
      d.wpValidDataBytes += end - d.wp[z];
    }
    d.wp[z] = end;
  }

  /**
   * The I/O completed ({@code zbd_end_zone_io()}): a write that reached its zone's end takes the
   * zone out of the write zones.
   */
  public void completed(int ddir, long off, long len) {
    if (ddir != 1) {
      return;
    }
    int z = d.zoneOf(off);
    if (d.hasWp[z] && off + len >= d.end(z)) {
      d.writeZonePut(z, this);
    }
  }
}
