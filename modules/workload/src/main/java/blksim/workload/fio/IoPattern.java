package blksim.workload.fio;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The user-space part of fio's I/O generation: the direction, offset and length of a job's next
 * I/O. Mirrors {@code fill_io_u()} → {@code get_next_offset()} / {@code get_next_block()} /
 * {@code get_next_seq_offset()} / {@code get_next_buflen()} / {@code set_rw_ddir()} in fio's
 * {@code io_u.c}, with {@code setup_strided_zone_mode()} and {@code get_start_offset()}
 * ({@code filesetup.c}):
 * <ul>
 *   <li>direction: a mixed job reads with probability {@code rwmixread}% per I/O. Simplified: fio
 *       switches direction in runs ({@code rwmix_issues}); the shares are the same. A job with
 *       a rate may then switch the drawn direction ({@code rate_ddir()}, {@link #next(
 *       java.util.function.IntUnaryOperator)});
 *   <li>length: {@code bs}, or with {@code bsrange} min + max·u rounded down to a multiple of the
 *       minimum and capped at the maximum, or with {@code bssplit} the size whose cumulative share
 *       holds a uniform draw; each direction has its own;
 *   <li>sequential offsets continue from the direction's last position ({@code last_pos[ddir]}),
 *       plus the {@code rw=…:N} hole after each I/O, wrapping at the end of the region;
 *   <li>random offsets are blocks of {@code blockalign} bytes (default: the direction's minimum
 *       size) drawn from {@link RandomDistribution}; uniform ones go through the random map
 *       ({@link RandomMap}) unless {@code norandommap}, or through a {@link FullPeriodSequence} with
 *       {@code random_generator=lfsr}; an I/O over blocks already visited is shortened to the free
 *       run, as fio's {@code mark_random_map()} does; a full map starts a new pass;
 *   <li>{@code rw=randread:N}: a new random offset every N I/Os, sequential in between;
 *       {@code percentage_random}: that share of a random job's I/Os is random, the rest
 *       sequential;
 *   <li>{@code zonemode=strided}: I/O stays in a window of {@code zonerange} bytes until
 *       {@code zonesize} bytes were done there, then moves by {@code zonerange + zoneskip},
 *       wrapping to the start offset at the end of the device; the random map is per window.
 * </ul>
 * Every draw comes from the job's stream, in the order rwmix, percentage_random, offset, size;
 * draws an option does not need are not made. Owned by one job thread.
 */
public final class IoPattern {
  private static final int READ = 0;
  private static final int WRITE = 1;

  private final FioJob job;
  private final SplittableRandom random;
  private final long regionStart;
  private final long regionBytes;
  private final long deviceBytes;
  private final long[] minBs = new long[2];
  private final long[] maxBs = new long[2];
  private final long[] ba = new long[2];
  private final List<FioJob.BsSplit>[] split;
  private final RandomDistribution.Sampler[] samplers = new RandomDistribution.Sampler[2];
  private final long[] lastPos = new long[2];
  /** The most bytes free at the offset {@link #randomBlock} last returned. */
  private long pickCap;
  private final boolean[] started = new boolean[2];
  private final long mapUnit;
  private final RandomMap map;
  private final FullPeriodSequence lfsr;
  private final boolean strided;
  private long zoneStart;
  private long zoneBytes;
  private int seqLeft;

  private boolean read;
  private long offset;
  private long len;

  /**
   * @param regionStart the job's start offset in bytes ({@code offset} plus its clone's
   *     {@code offset_increment})
   * @param regionBytes the bytes of the region from there ({@code size}, cut at the device's end)
   * @param deviceBytes the device's size (strided zones wrap there)
   * @param random the job's stream
   */
  @SuppressWarnings("unchecked")
  public IoPattern(FioJob job, long regionStart, long regionBytes, long deviceBytes,
      SplittableRandom random) {
    this.job = job;
    this.random = random;
    this.regionStart = regionStart;
    this.regionBytes = regionBytes;
    this.deviceBytes = deviceBytes;
    this.split = new List[2];
    for (int d = 0; d < 2; d++) {
      // A trim job's I/Os come from the write slot (read() is false); their sizes are the trim
      // direction's (fio's DDIR_TRIM), and trimwrite's write reuses the trim's offset and size.
      int src = d == WRITE && job.rw().trims() ? 2 : d;
      minBs[d] = job.minBs()[src];
      maxBs[d] = job.maxBs()[src];
      ba[d] = job.blockAlign()[src] > 0 ? job.blockAlign()[src] : minBs[d];
      split[d] = job.bssplit(src);
    }
    this.strided = job.zonemodeStrided();
    FioRw rw = job.rw();
    long window = windowBytes();
    long unit = Long.MAX_VALUE;
    for (int d = 0; d < 2; d++) {
      if (d == READ ? rw.reads() : rw.writes()) {
        unit = Math.min(unit, ba[d]);
      }
    }
    this.mapUnit = unit == Long.MAX_VALUE ? ba[READ] : unit;
    boolean uniform = true;
    for (int d = 0; d < 2; d++) {
      RandomDistribution dist = job.randomDistribution(d);
      if (rw.isRandom() && !dist.usesRandomMap() && lastBlock(d) > 0) {
        samplers[d] = dist.sampler(lastBlock(d), ba[d], random, job.randomSequenceStride());
        uniform = false;
      }
    }
    long mapBlocks = Math.max(1, window / mapUnit);
    boolean lfsrGen = job.randomGenerator().equals("lfsr");
    this.lfsr = rw.isRandom() && uniform && lfsrGen ? new FullPeriodSequence(mapBlocks, random)
        : null;
    this.map = rw.isRandom() && uniform && !lfsrGen && !job.norandommap()
        ? new RandomMap(mapBlocks) : null;
    this.seqLeft = job.rw().isRandom() ? Math.max(1, job.rwSequencer()) : 1;
  }

  /**
   * Whether a {@code sequence} distribution has no next block in the region (fio's
   * {@code get_next_rand_offset()} fails and the job's I/O ends), in a direction the job does.
   * Simplified: for a mixed job either direction's end ends it.
   */
  public boolean exhausted() {
    for (RandomDistribution.Sampler sm : samplers) {
      if (sm != null && sm.nextOutOfRange()) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@link #exhausted()} because an index of the sequence itself is out of range. */
  public boolean sequenceOutOfRange() {
    for (RandomDistribution.Sampler sm : samplers) {
      if (sm != null && sm.baseOutOfRange()) {
        return true;
      }
    }
    return false;
  }

  /** Whether the next I/O is a read. */
  public boolean read() {
    return read;
  }

  /** The next I/O's offset in bytes on the device. */
  public long offset() {
    return offset;
  }

  /** The next I/O's length in bytes. */
  public long length() {
    return len;
  }

  /** Computes the next I/O: {@link #read()}, {@link #offset()}, {@link #length()}. */
  public void next() {
    next(null);
  }

  /**
   * Computes the next I/O, as {@link #next()}, where {@code rateDdir} (if not null) turns a mixed
   * job's drawn direction (0 read, 1 write) into the one it issues: fio's {@code get_rw_ddir()}
   * hands the rwmix direction to {@code rate_ddir()}, which may switch it, before
   * {@code fill_io_u()} draws the offset and size, so those are the issued direction's.
   */
  public void next(java.util.function.IntUnaryOperator rateDdir) {
    FioRw rw = job.rw();
    if (rw.reads() && rw.writes()) {
      read = random.nextInt(100) < job.rwmixread();
      if (rateDdir != null) {
        read = rateDdir.applyAsInt(read ? READ : WRITE) == READ;
      }
    } else {
      read = rw.reads();
    }
    int d = read ? READ : WRITE;
    if (strided && zoneBytes >= job.zoneSizeBytes()) {
      // setup_strided_zone_mode(): the next window, wrapping to the start offset.
      zoneBytes = 0;
      zoneStart += job.zoneRangeBytes() + job.zoneSkipBytes();
      if (regionStart + zoneStart >= deviceBytes) {
        zoneStart = 0;
      }
      lastPos[READ] = lastPos[WRITE] = zoneStart;
      started[READ] = started[WRITE] = false;
    }
    if (strided && zoneBytes % job.zoneRangeBytes() == 0 && map != null) {
      map.reset();
    }
    long rel;
    long cap = Long.MAX_VALUE;
    if (rw.isRandom() && takesRandom(d)) {
      rel = zoneStart + randomBlock(d);
      cap = pickCap;
    } else {
      rel = sequential(d);
    }
    long l = length(d, rel);
    if (l > cap) {
      l = Math.max(minBs[d], cap - cap % minBs[d]);
    }
    offset = regionStart + rel;
    len = l;
    lastPos[d] = rel + l;
    started[d] = true;
    if (strided) {
      zoneBytes += l;
    }
  }

  /** fio's {@code rw_seq_hit} and {@code should_do_random()}: whether this I/O is random. */
  private boolean takesRandom(int d) {
    boolean hit = true;
    if (job.rwSequencer() > 1) {
      hit = --seqLeft == 0;
      if (hit) {
        seqLeft = job.rwSequencer();
      }
    }
    if (!hit) {
      return false;
    }
    int perc = job.percentageRandom(d);
    return perc >= 100 || 1 + random.nextInt(100) <= perc;
  }

  /**
   * A random offset (relative to the window); the most bytes free there go to {@link #pickCap}
   * (a field, not a two-element array per I/O: one allocation less on the I/O path).
   */
  private long randomBlock(int d) {
    pickCap = Long.MAX_VALUE;
    if (samplers[d] != null) {
      return samplers[d].next() * ba[d];
    }
    if (lfsr != null) {
      long b = lfsr.next();
      if (b < 0) {
        lfsr.reset();
        b = lfsr.next();
      }
      return alignDown(b * mapUnit, d);
    }
    long last = Math.max(1, lastBlock(d));
    long b = random.nextLong(last);
    if (map == null) {
      return b * ba[d];
    }
    long m = b * ba[d] / mapUnit;
    long got = map.next(Math.min(m, map.blocks() - 1));
    if (got < 0) {
      map.reset();
      got = map.next(Math.min(m, map.blocks() - 1));
    }
    int want = (int) Math.min(Integer.MAX_VALUE, Math.max(1, maxBs[d] / mapUnit));
    int run = map.takeRun(got, want);
    pickCap = run * mapUnit;
    return alignDown(got * mapUnit, d);
  }

  private long alignDown(long rel, int d) {
    return rel - rel % ba[d];
  }

  /** fio's {@code get_next_seq_offset()}: the direction's last position plus the hole. */
  private long sequential(int d) {
    long pos = nextSeqPos(d);
    long end = zoneStart + windowBytes();
    if (stopsAtEof() && pos >= zoneStart && !atEnd(d)) {
      return pos; // may run past the region's end, within the file (fio checks the file size)
    }
    if (pos < zoneStart || pos + minBs[d] > end) {
      pos = job.rwSequencer() < 0 && !job.rw().isRandom()
          ? Math.max(zoneStart, end - minBs[d]) : zoneStart;
    }
    return pos;
  }

  private long nextSeqPos(int d) {
    long pos = lastPos[d];
    if (started[d] && job.rwSequencer() != 0 && !job.rw().isRandom()) {
      pos += job.rwSequencer();
    }
    return pos;
  }

  /**
   * Whether a sequential pass of this pattern ends at the end of its file rather than wrapping:
   * fio's {@code get_next_seq_offset()} wraps to the start only for {@code time_based} jobs
   * (and mixed jobs whose {@code io_size} exceeds {@code size}); otherwise
   * {@code get_next_offset()} / {@code fill_io_u()} fail there, the file is done and
   * {@code do_io()} ends ({@code keep_running()} decides whether another loop starts, see
   * {@link #rewind()}). Not for strided zones, backward holes ({@code rw=read:-N}) or random
   * jobs, which keep their own wrapping.
   */
  private boolean stopsAtEof() {
    FioRw rw = job.rw();
    return !job.timeBased() && !strided && !rw.isRandom() && job.rwSequencer() >= 0
        && !(rw.reads() && rw.writes() && job.ioSizeBytes() > job.sizeBytes());
  }

  /**
   * fio's end of a sequential pass in direction {@code d}: the next offset is at or past the
   * region's end ({@code get_next_offset()}: {@code offset >= io_size}) or its I/O of the
   * direction's minimum size would run past the file ({@code fill_io_u()}: {@code offset +
   * buflen > real_file_size}).
   */
  private boolean atEnd(int d) {
    long pos = nextSeqPos(d);
    return pos >= zoneStart + windowBytes() || regionStart + pos + minBs[d] > deviceBytes;
  }

  /**
   * Whether the job's sequential pass is over (see {@link #stopsAtEof()}): the next I/O of a
   * direction the job does has no room left in its file. Simplified: for a mixed job either
   * direction's end ends the pass (fio ends it when the direction drawn next has none).
   */
  public boolean passEnded() {
    if (!stopsAtEof()) {
      return false;
    }
    FioRw rw = job.rw();
    return rw.reads() && atEnd(READ) || rw.writes() && atEnd(WRITE);
  }

  /**
   * A new loop ({@code clear_io_state()} → {@code fio_file_reset()}): each direction starts
   * again at the start of the region.
   */
  public void rewind() {
    lastPos[READ] = lastPos[WRITE] = zoneStart;
    started[READ] = started[WRITE] = false;
  }

  /** fio's {@code get_next_buflen()}; the result fits the window from {@code rel}. */
  private long length(int d, long rel) {
    long min = minBs[d];
    long max = maxBs[d];
    if (min == max) {
      return min;
    }
    long room = zoneStart + windowBytes() - rel;
    long buflen;
    if (split[d].isEmpty()) {
      buflen = min + (long) (max * random.nextDouble());
    } else {
      int r = random.nextInt(100);
      int cum = 0;
      buflen = split[d].get(split[d].size() - 1).bs();
      for (FioJob.BsSplit s : split[d]) {
        if (s.perc() == 0) {
          continue;
        }
        cum += s.perc();
        if (r < cum && s.bs() <= room) {
          buflen = s.bs();
          break;
        }
      }
    }
    buflen -= buflen % min;
    buflen = Math.min(buflen, max);
    if (buflen > room) {
      buflen = Math.max(min, room - room % min);
    }
    return buflen;
  }

  /** The bytes I/O may cover from the window's start: the region, or one strided window. */
  private long windowBytes() {
    if (strided && job.zoneRangeBytes() > 0) {
      // The window may run past size (fio's io_size is the budget); it ends at the device.
      return Math.min(job.zoneRangeBytes(), Math.max(0, deviceBytes - regionStart - zoneStart));
    }
    return regionBytes;
  }

  /** fio's {@code last_block()}: how many aligned start blocks leave room for the minimum size. */
  private long lastBlock(int d) {
    long max = windowBytes();
    if (minBs[d] > ba[d]) {
      max -= minBs[d] - ba[d];
    }
    return Math.max(0, max / ba[d]);
  }

  /** The random map, or {@code null} (for tests). */
  RandomMap randomMap() {
    return map;
  }
}
