package blksim.workload.replay;

import blksim.engine.InputException;
import blksim.kernel.block.ReqOp;
import blksim.workload.trace.TraceFormat;
import blksim.workload.trace.TraceOptions;
import blksim.workload.trace.TraceReader;
import blksim.workload.trace.TraceRecord;
import java.nio.file.Path;
import java.util.List;

/**
 * The records one replaying fio job issues, read lazily from its trace (one record ahead, never
 * the whole file), as fio's {@code read_iolog()} and {@code read_iolog_get()} ({@code iolog.c})
 * turn them into I/O pieces.
 *
 * <p>For each record, in this order:
 * <ol>
 *   <li>its delay, fio's {@code delay_since_ttime()}: the trace time since the previous record,
 *       times {@code 100 / replay_time_scale}, in whole µs; 0 with {@code replay_no_stall} or
 *       when time went backwards. For fio iologs fio's rule is kept exactly: no delay while the
 *       previous record's time is 0 (fio tests {@code !last_ttime}). For the other formats the
 *       first record has no delay (as fio's blktrace replay). The previous record is the previous
 *       one read, even if it was then skipped, as in fio;
 *   <li>the window (blksim's {@code replay_start}/{@code replay_end}, trace time from the first
 *       record; v2 iologs have no time and are not windowed): records before it are dropped;
 *       reading stops at the first record at or after its end (a trace with unsorted times,
 *       such as Tencent's seconds, may have later records inside the window: they are not
 *       replayed). The first record in the window has no delay;
 *   <li>{@code replay_skip}: read, write, trim and sync (blktrace flushes count as sync, as in
 *       fio's blktrace replay; {@code datasync} is not skippable in fio);
 *   <li>what blksim can issue: reads and writes; syncs, datasyncs and flushes (an
 *       {@code fsync()}/{@code fdatasync()} of the device, when {@code syncSupported}); not trims
 *       (the block device file has no discard), not records of length 0: those are counted as
 *       unsupported;
 *   <li>the offset: divided by {@code replay_scale}, rounded down to {@code replay_align}, and,
 *       beyond the device's end, wrapped modulo the device size (blksim's rule; fio would fail
 *       the I/O); a wrapped record that still does not fit is moved to end at the device's end,
 *       512-byte aligned.
 * </ol>
 * Every record goes to the job's device whatever its trace device ({@code replay_redirect} or
 * {@code filename=}): iolog file actions ({@code add}, {@code open}, {@code close}) act on it and
 * so issue nothing but keep their delay (fio's {@code ipo_special()}). Simplified: a trace naming
 * several devices is replayed onto the one device, in trace order, unless blksim's
 * {@code replay_device} keeps only the records of the trace devices it names: the scenario's
 * {@code replay} section makes one job per mapped device, each job reads the whole trace and
 * issues its device's records, and a device's first record waits from the trace's first record
 * (not from the job's start), so the devices keep their recorded timing relative to each other.
 *
 * <p>On fio's null engine ({@link #onNullEngine}) there is no device: the files the log names
 * are only names (fio's {@code add_file()} gives a {@code FIO_DISKLESSIO} file a size of
 * {@code -1ULL}, the null engine's open does nothing), so offsets are kept as they are (no wrap,
 * any length), and trims are I/Os like reads and writes (the null engine completes any
 * {@code io_u}). Simplified: syncs are counted as unsupported and issue nothing there.
 */
public final class ReplayFeed {
  /** What the current entry asks of the thread. */
  public enum Kind {
    /** A read or write. */
    IO,
    /** An fsync or fdatasync of the device. */
    SYNC,
    /** An iolog file action: only its delay. */
    ACTION,
    /** An iolog v2 {@code wait}: sleep until {@link #waitMs()} after the start. */
    WAIT
  }

  private final ReplayOptions o;
  private final Path path;
  private final long deviceBytes;
  private final boolean syncSupported;
  /** fio's null engine: no device, trims issued, lengths and offsets as logged. */
  private final boolean nullEngine;
  private final ReplayStats stats = new ReplayStats();
  private TraceReader reader;
  private boolean ended;
  private boolean fioLog;
  private boolean firstSeen;
  private long firstNs;
  private long lastTtime = -1;
  private boolean inWindow;

  private boolean hasEntry;
  private Kind kind;
  private ReqOp op;
  private boolean datasync;
  private long offset;
  private long len;
  private long delayNs;
  private long waitMs;
  private long recordedLatNs;
  private boolean delayDone;
  private String curDev;
  /**
   * Records read and the furthest trace time not yet told to {@link ReplayProgress}: its shared
   * counters are updated every {@value #PROGRESS_BATCH} records, not on every one.
   */
  private long progressRecords;
  private long progressNs;
  private static final int PROGRESS_BATCH = 4096;

  /**
   * @param o the job's replay options
   * @param jobIndex the clone index (chooses the file)
   * @param deviceName the simulated device the records go to
   * @param deviceBytes its size
   * @param syncSupported whether the engine issues syncs (the synchronous ones)
   */
  public ReplayFeed(ReplayOptions o, int jobIndex, String deviceName, long deviceBytes,
      boolean syncSupported) {
    this(o, jobIndex, deviceName, deviceBytes, syncSupported, false);
  }

  /** The replay of an {@code ioengine=null} job: no device (see the class comment). */
  public static ReplayFeed onNullEngine(ReplayOptions o, int jobIndex) {
    return new ReplayFeed(o, jobIndex, "(ioengine=null)", Long.MAX_VALUE, false, true);
  }

  private ReplayFeed(ReplayOptions o, int jobIndex, String deviceName, long deviceBytes,
      boolean syncSupported, boolean nullEngine) {
    this.nullEngine = nullEngine;
    this.o = o;
    this.path = Path.of(o.logFor(jobIndex));
    this.deviceBytes = deviceBytes;
    this.syncSupported = syncSupported;
    stats.setSource(path.toString(), o.format() == null ? "" : o.format().key(), deviceName);
  }

  /** Whether a record too long to replay has been noted (once per feed). */
  private boolean noteLong;

  /** What was replayed so far. */
  public ReplayStats stats() {
    return stats;
  }

  private void open() {
    TraceOptions opts = TraceOptions.defaults().withNotices(stats::note)
        .withSkipMalformed(o.skipMalformed());
    if (o.merge() != null) {
      // fio merges when the job is set up (add_job()), before its first I/O.
      ReplayOptions.Merge m = o.merge();
      int[] sc = m.scalars().stream().mapToInt(Integer::intValue).toArray();
      int[] it = m.iters().stream().mapToInt(Integer::intValue).toArray();
      List<Path> in = new java.util.ArrayList<>();
      m.inputs().forEach(x -> in.add(Path.of(x)));
      long n = blksim.workload.trace.BlktraceMerge.merge(in, sc, it, path);
      stats.note(path + ": merged " + n + " queue events of " + in.size() + " blktrace file"
          + (in.size() == 1 ? "" : "s") + " (merge_blktrace_file)");
    }
    TraceFormat f = o.merge() != null ? TraceFormat.BLKTRACE
        : o.format() != null ? o.format() : TraceFormat.detect(path);
    reader = TraceFormat.open(path, f, opts);
    fioLog = f == TraceFormat.FIO_IOLOG;
    if (o.endNs() != Long.MAX_VALUE) {
      ReplayProgress.windowEnd(o.endNs());
    }
    stats.setSource(path.toString(), f.key(), stats.device());
  }

  /** Whether there is a current entry (reading the trace up to it if needed). */
  public boolean peek() {
    while (!hasEntry && !ended) {
      if (reader == null) {
        open();
      }
      TraceRecord r;
      try {
        r = reader.next();
      } catch (InputException e) {
        throw withSkipHint(e);
      }
      if (r == null) {
        end();
        break;
      }
      load(r);
    }
    return hasEntry;
  }

  /**
   * A malformed record of a line format, when the replay does not skip them, names the switch
   * that would (blkparse and blktrace events cannot be skipped, so their errors are kept as is).
   */
  private InputException withSkipHint(InputException e) {
    TraceFormat f = reader.format();
    if (o.skipMalformed() || f == TraceFormat.BLKPARSE || f == TraceFormat.BLKTRACE
        || e.line() <= 0) {
      return e;
    }
    return new InputException(e.file(), e.line(), e.key(), e.rule() + " (replay_skip_malformed=1,"
        + " or skip-malformed = true in a scenario's replay section, skips and counts such"
        + " records)");
  }

  private void end() {
    ended = true;
    flushProgress();
    reader.close();
  }

  /** Hands the records read since the last call to the progress line. */
  private void flushProgress() {
    if (progressRecords > 0) {
      ReplayProgress.record(progressRecords, progressNs);
      progressRecords = 0;
    }
  }

  private void load(TraceRecord r) {
    long t = r.timeNs();
    String dev = r.device();
    long rel = 0;
    if (t != TraceRecord.NO_TIME) {
      if (!firstSeen) {
        firstSeen = true;
        firstNs = t;
      }
      rel = Math.max(0, t - firstNs);
    }
    if (!o.devices().isEmpty()) {
      if (!o.devices().contains(dev)) {
        if (!o.knownDevices().isEmpty() && !o.knownDevices().contains(dev)) {
          int line = (int) Math.min(Integer.MAX_VALUE, r.line());
          throw new InputException(path.toString(), line, "device", "trace device '" + dev
              + "' is mapped to no simulated device (mapped: " + o.knownDevices() + "); map it"
              + " in blksim.replay.devices (\"" + dev + "=DEV\") or send every record to one"
              + " device with blksim.replay.redirect");
        }
        return; // another job's device
      }
      if (lastTtime < 0 && firstSeen) {
        lastTtime = firstNs; // this device's first record waits from the trace's start
      }
    }
    stats.read(dev, rel);
    progressRecords++;
    progressNs = Math.max(progressNs, rel);
    if (progressRecords == PROGRESS_BATCH) {
      flushProgress();
    }
    long delay = delay(t);
    if (t != TraceRecord.NO_TIME) {
      if (rel < o.startNs()) {
        stats.outsideWindow(dev);
        return;
      }
      if (rel >= o.endNs()) {
        stats.outsideWindow(dev);
        end();
        return;
      }
      if (!inWindow) {
        inWindow = true;
        if (o.startNs() > 0) {
          delay = 0;
        }
      }
    }
    recordedLatNs = r.latencyNs();
    datasync = false;
    switch (r.op()) {
      case ADD, OPEN, CLOSE -> {
        stats.fileAction();
        set(Kind.ACTION, null, delay);
        return;
      }
      case WAIT -> {
        if (o.noStall()) {
          return; // fio drops wait records with replay_no_stall
        }
        stats.waitRecord();
        waitMs = r.offsetBytes();
        set(Kind.WAIT, null, 0);
        return;
      }
      case READ, WRITE -> {
        boolean read = r.op() == blksim.workload.trace.TraceOp.READ;
        if ((o.skipMask() & (read ? ReplayOptions.SKIP_READ : ReplayOptions.SKIP_WRITE)) != 0) {
          stats.skipped(dev);
          return;
        }
        if (r.lengthBytes() == 0 || !nullEngine
            && r.lengthBytes() > Math.min(deviceBytes, Integer.MAX_VALUE)) {
          if (r.lengthBytes() > 0 && !noteLong) {
            noteLong = true;
            stats.note(path + (r.line() > 0 ? ":" + r.line() : "") + ": a " + r.lengthBytes()
                + "-byte record is longer than " + (r.lengthBytes() > deviceBytes ? "the whole"
                + " device (" + deviceBytes + " bytes)" : "one I/O can be (2 GiB)") + ": not"
                + " issued, counted as unsupported (later ones are only counted)");
          }
          stats.unsupported(dev);
          return;
        }
        place(r, dev);
        set(Kind.IO, read ? ReqOp.READ : ReqOp.WRITE, delay);
        curDev = dev;
        return;
      }
      case TRIM -> {
        if ((o.skipMask() & ReplayOptions.SKIP_TRIM) != 0) {
          stats.skipped(dev);
        } else if (nullEngine && r.lengthBytes() > 0) {
          place(r, dev);
          set(Kind.IO, ReqOp.DISCARD, delay);
          curDev = dev;
        } else {
          stats.unsupported(dev);
        }
        return;
      }
      case SYNC, FLUSH, DATASYNC -> {
        if (r.op() != blksim.workload.trace.TraceOp.DATASYNC
            && (o.skipMask() & ReplayOptions.SKIP_SYNC) != 0) {
          stats.skipped(dev);
          return;
        }
        if (!syncSupported) {
          stats.unsupported(dev);
          return;
        }
        datasync = r.op() == blksim.workload.trace.TraceOp.DATASYNC;
        set(Kind.SYNC, ReqOp.FLUSH, delay);
        curDev = dev;
        return;
      }
      default -> throw new IllegalStateException("trace op " + r.op());
    }
  }

  /** fio's {@code delay_since_ttime()} in ns (whole µs), updating the previous time. */
  private long delay(long t) {
    if (t == TraceRecord.NO_TIME) {
      return 0;
    }
    long prev = lastTtime;
    lastTtime = t;
    boolean none = fioLog ? prev <= 0 : prev < 0;
    if (none || o.noStall() || t < prev) {
      return 0;
    }
    long us = (t - prev) / 1000;
    if (o.timeScale() != 100) {
      us = (long) (us * (100.0 / o.timeScale()));
    }
    return us * 1000;
  }

  /** replay_scale, replay_align, then the wrap. */
  private void place(TraceRecord r, String dev) {
    long off = r.offsetBytes();
    if (o.scale() > 1) {
      off /= o.scale();
    }
    if (o.align() > 0) {
      off &= ~(o.align() - 1);
    }
    long n = r.lengthBytes();
    // off > deviceBytes - n, not off + n > deviceBytes: an offset near 2^63 would overflow.
    if (!nullEngine && off > deviceBytes - n) {
      stats.wrapped(dev);
      off %= deviceBytes;
      if (off > deviceBytes - n) {
        off = (deviceBytes - n) & ~511L;
      }
    }
    offset = off;
    len = n;
  }

  private void set(Kind k, ReqOp p, long delay) {
    hasEntry = true;
    kind = k;
    op = p;
    delayNs = delay;
    delayDone = delay == 0 && k != Kind.WAIT;
  }

  /** The current entry's kind. */
  public Kind kind() {
    return kind;
  }

  /** The current I/O's direction (READ or WRITE, DISCARD on the null engine; FLUSH for a sync). */
  public ReqOp op() {
    return op;
  }

  /** Whether the current sync is an fdatasync. */
  public boolean datasync() {
    return datasync;
  }

  /** The current I/O's offset on the device, bytes. */
  public long offset() {
    return offset;
  }

  /** The current I/O's length, bytes (at most 2 GiB - 1 but on the null engine). */
  public int length() {
    return (int) Math.min(len, Integer.MAX_VALUE);
  }

  /** The current I/O's length, bytes, as logged (a null-engine trim may exceed an int). */
  public long lengthLong() {
    return len;
  }

  /** The current entry's delay after the previous issue (fio's {@code ipo->delay}), ns. */
  public long delayNs() {
    return delayNs;
  }

  /** Whether the current entry's delay has been waited (or it has none). */
  public boolean delayDone() {
    return delayDone;
  }

  /** Marks the current entry's delay as waited. */
  public void markDelayDone() {
    delayDone = true;
  }

  /** The current v2 wait's value: fio sleeps until this many ms after the start. */
  public long waitMs() {
    return waitMs;
  }

  /** The current I/O's recorded latency, or {@link TraceRecord#NO_LATENCY}. */
  public long recordedLatencyNs() {
    return recordedLatNs;
  }

  /** Done with the current entry. */
  public void consume() {
    if (hasEntry && (kind == Kind.IO || kind == Kind.SYNC)) {
      stats.issued(curDev);
    }
    hasEntry = false;
  }

  /** Closes the trace (at the job's end, even if records are left). */
  public void close() {
    if (reader != null && !ended) {
      end();
    }
    flushProgress();
  }
}
