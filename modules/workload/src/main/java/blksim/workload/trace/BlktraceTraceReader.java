package blksim.workload.trace;

import blksim.engine.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * blktrace's binary output: per-CPU files {@code <dev>.blktrace.<cpu>} of 48-byte
 * {@code struct blk_io_trace} events ({@code blktrace_api.h}), each followed by {@code pdu_len}
 * bytes of payload, which are skipped. A single merged file ({@code blkparse -d}) is read the same
 * way.
 *
 * <p>Layout (offsets in bytes): magic u32 @0 ({@code 0x65617400 | version}, version 7),
 * sequence u32 @4, time u64 @8 (ns), sector u64 @16 (512-byte units), bytes u32 @24, action u32
 * @28 (low 16 bits the action {@code __BLK_TA_*}, bit 8 the cgroup flag, high 16 bits the
 * {@code BLK_TC_*} categories), pid u32 @32, device u32 @36 ({@code dev_t}, major = dev >> 20),
 * cpu u32 @40, error u16 @44, pdu_len u16 @46. Files are in the tracing host's byte order: the
 * order is taken from each file's first magic, native or swapped, as blkparse's
 * {@code check_data_endianness()} and fio's {@code is_blktrace()} do.
 *
 * <p>Given one per-CPU file, all its siblings ({@code <dev>.blktrace.<n>}, optionally
 * {@code .gz}) in the same directory are read and merged by time (ties by CPU file, then
 * sequence), as blkparse merges them. Times are made relative to the earliest event, as blkparse
 * prints them. Notify events ({@code BLK_TC_NOTIFY}) and passthrough ({@code BLK_TC_PC}) events
 * are skipped; Q ({@code __BLK_TA_QUEUE}), back/front merges, D ({@code __BLK_TA_ISSUE}), C
 * ({@code __BLK_TA_COMPLETE}) and X ({@code __BLK_TA_SPLIT}, whose 8-byte big-endian payload,
 * after the cgroup id if any, is the sector where the second part starts; the only payload read)
 * feed the same arrival choice and latency matching as the blkparse
 * reader ({@link BlkEventMatcher}); the automatic choice is again a first pass that stops at the
 * first Q. The record's {@code line} is the event's 1-based number in its own file.
 */
public final class BlktraceTraceReader implements TraceReader {
  /** {@code BLK_IO_TRACE_MAGIC}. */
  static final int MAGIC = 0x65617400;
  /** {@code BLK_IO_TRACE_VERSION}, the one blkparse supports. */
  static final int VERSION = 7;
  /** {@code sizeof(struct blk_io_trace)}. */
  static final int EVENT_BYTES = 48;

  static final int TC_FLUSH = 1 << 2;
  static final int TC_WRITE = 1 << 1;
  static final int TC_PC = 1 << 9;
  static final int TC_NOTIFY = 1 << 10;
  static final int TC_DISCARD = 1 << 13;
  static final int TA_QUEUE = 1;
  static final int TA_BACKMERGE = 2;
  static final int TA_FRONTMERGE = 3;
  static final int TA_ISSUE = 7;
  static final int TA_COMPLETE = 8;
  static final int TA_SPLIT = 13;
  /** {@code __BLK_TA_CGROUP}: set in the action when the pdu starts with a cgroup id. */
  static final int TA_CGROUP = 1 << 8;

  private static final Pattern PER_CPU = Pattern.compile("(.*)\\.blktrace\\.(\\d+)(\\.gz)?");

  private final List<CpuFile> files;
  private final PriorityQueue<CpuFile> heads;
  private final BlkArrival arrival;
  private final BlkEventMatcher matcher;
  private final TraceOptions options;
  private final long genesisNs;
  private boolean ended;

  private BlktraceTraceReader(List<Path> paths, BlkArrival arrival, TraceOptions options) {
    this.arrival = arrival;
    this.options = options;
    this.matcher = new BlkEventMatcher(arrival, options.maxInFlight());
    this.files = new ArrayList<>();
    this.heads = new PriorityQueue<>(Comparator.comparingLong((CpuFile c) -> c.timeNs)
        .thenComparingInt(c -> c.index).thenComparingLong(c -> c.sequence));
    long genesis = Long.MAX_VALUE;
    try {
      for (Path p : paths) {
        CpuFile c = new CpuFile(p, files.size());
        files.add(c);
        if (c.advance()) {
          heads.add(c);
          genesis = Math.min(genesis, c.timeNs);
        }
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    this.genesisNs = genesis == Long.MAX_VALUE ? 0 : genesis;
  }

  /** Opens {@code path} and its per-CPU siblings; chooses the arrival if the options leave it. */
  static BlktraceTraceReader open(Path path, TraceOptions options) {
    List<Path> paths = cpuFiles(path);
    BlkArrival a = options.arrival();
    String why;
    if (a == null) {
      a = scanArrival(paths);
      why = switch (a) {
        case Q -> "the trace has Q events";
        case D -> "the trace has no Q events";
        case C -> "the trace has no Q or D events; no recorded latency";
      };
    } else {
      why = "as requested";
    }
    options.notices().accept(path + ": blktrace arrival event " + a + " (" + why + "), "
        + paths.size() + " file" + (paths.size() == 1 ? "" : "s"));
    return new BlktraceTraceReader(paths, a, options);
  }

  /**
   * The per-CPU files that belong with {@code path}: its siblings {@code <dev>.blktrace.<n>[.gz]}
   * sorted by CPU number, or {@code path} alone when its name is not of that form.
   */
  static List<Path> cpuFiles(Path path) {
    Path name = path.getFileName();
    Matcher m = name == null ? null : PER_CPU.matcher(name.toString());
    if (m == null || !m.matches()) {
      return List.of(path);
    }
    String dev = m.group(1);
    Path dir = path.toAbsolutePath().getParent();
    List<Path> out = new ArrayList<>();
    List<Long> cpus = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.forEach(p -> {
        Matcher q = PER_CPU.matcher(p.getFileName().toString());
        if (q.matches() && q.group(1).equals(dev) && Files.isRegularFile(p)) {
          out.add(path.resolveSibling(p.getFileName()));
          cpus.add(Long.parseLong(q.group(2)));
        }
      });
    } catch (IOException e) {
      throw new InputException(path.toString(), 0, null, "cannot list its directory: " + e);
    }
    Integer[] idx = new Integer[out.size()];
    for (int i = 0; i < idx.length; i++) {
      idx[i] = i;
    }
    java.util.Arrays.sort(idx, Comparator.comparingLong((Integer i) -> cpus.get(i))
        .thenComparing(i -> out.get(i).getFileName().toString()));
    List<Path> sorted = new ArrayList<>();
    for (Integer i : idx) {
      sorted.add(out.get(i));
    }
    return sorted.isEmpty() ? List.of(path) : sorted;
  }

  /** Whether {@code head} starts with the blktrace magic in either byte order. */
  static boolean hasMagic(byte[] head) {
    if (head.length < 4) {
      return false;
    }
    int be = ByteBuffer.wrap(head, 0, 4).order(ByteOrder.BIG_ENDIAN).getInt();
    return (be & 0xffffff00) == MAGIC || (Integer.reverseBytes(be) & 0xffffff00) == MAGIC;
  }

  /** The first pass over all files: Q if any Q event, else D if any D, else C. */
  private static BlkArrival scanArrival(List<Path> paths) {
    boolean sawD = false;
    for (Path p : paths) {
      CpuFile c = new CpuFile(p, 0);
      try {
        while (c.advance()) {
          char a = c.actionLetter();
          if (a == 'Q' && c.hasData()) {
            return BlkArrival.Q;
          }
          sawD |= a == 'D' && c.hasData();
        }
      } finally {
        c.close();
      }
    }
    return sawD ? BlkArrival.D : BlkArrival.C;
  }

  /** The arrival event in use. */
  public BlkArrival arrival() {
    return arrival;
  }

  @Override
  public TraceFormat format() {
    return TraceFormat.BLKTRACE;
  }

  @Override
  public TraceRecord next() {
    while (true) {
      TraceRecord r = matcher.poll();
      if (r != null || ended) {
        return r;
      }
      CpuFile c = heads.poll();
      if (c == null) {
        matcher.finish();
        ended = true;
        if (matcher.unmatched() > 0 && arrival != BlkArrival.C) {
          options.notices().accept(files.get(0).file + ": " + matcher.unmatched() + " " + arrival
              + " events had no matching C event (no recorded latency)");
        }
        String splits = matcher.splitNotice(files.get(0).file);
        if (splits != null) {
          options.notices().accept(splits);
        }
        continue;
      }
      BlkEvent e = c.event(genesisNs);
      if (c.advance()) {
        heads.add(c);
      }
      if (e != null) {
        matcher.accept(e);
      }
    }
  }

  @Override
  public void close() {
    for (CpuFile c : files) {
      c.close();
    }
  }

  /** One per-CPU file and its current event. */
  private static final class CpuFile {
    final String file;
    final int index;
    final InputStream in;
    final ByteBuffer buf = ByteBuffer.allocate(EVENT_BYTES);
    ByteOrder order;
    long eventNo;
    long offset;
    long timeNs;
    long sequence;
    long sector;
    long bytes;
    int action;
    int device;
    String deviceName;
    int deviceOfName = -1;
    /** For an X event: the sector where the second part starts (from the payload), else -1. */
    long splitTo = -1;

    CpuFile(Path path, int index) {
      this.file = path.toString();
      this.index = index;
      this.in = TraceInput.open(path);
    }

    /** Reads the next event header and skips its payload; false at the end of the file. */
    boolean advance() {
      byte[] b = buf.array();
      int n;
      try {
        n = in.readNBytes(b, 0, EVENT_BYTES);
      } catch (IOException e) {
        throw TraceInput.readError(file, e);
      }
      if (n == 0) {
        return false;
      }
      eventNo++;
      if (n < EVENT_BYTES) {
        throw error(null, "is truncated: " + n + " of " + EVENT_BYTES + " bytes");
      }
      if (order == null) {
        int be = buf.order(ByteOrder.BIG_ENDIAN).getInt(0);
        if ((be & 0xffffff00) == MAGIC) {
          order = ByteOrder.BIG_ENDIAN;
        } else if ((Integer.reverseBytes(be) & 0xffffff00) == MAGIC) {
          order = ByteOrder.LITTLE_ENDIAN;
        } else {
          throw error("magic", String.format("magic must be 0x%08x | version in either byte order"
              + " (this is not a blktrace file), was 0x%08x", MAGIC, be));
        }
      }
      buf.order(order);
      int magic = buf.getInt(0);
      if ((magic & 0xffffff00) != MAGIC) {
        throw error("magic", String.format("magic must be 0x%08x | version, was 0x%08x", MAGIC,
            magic));
      }
      if ((magic & 0xff) != VERSION) {
        throw error("version", "version must be " + VERSION + " (the blk_io_trace layout read "
            + "here), was " + (magic & 0xff));
      }
      sequence = Integer.toUnsignedLong(buf.getInt(4));
      timeNs = buf.getLong(8);
      sector = buf.getLong(16);
      bytes = Integer.toUnsignedLong(buf.getInt(24));
      action = buf.getInt(28);
      device = buf.getInt(36);
      int pduLen = Short.toUnsignedInt(buf.getShort(46));
      if (timeNs < 0) {
        throw error("time", "time must be below 2^63 ns, was " + Long.toUnsignedString(timeNs));
      }
      if (sector < 0 || sector > Long.MAX_VALUE / BlkEvent.SECTOR_BYTES) {
        throw error("sector", "sector must be below 2^54 (its byte offset must fit in 63 bits),"
            + " was " + Long.toUnsignedString(sector));
      }
      splitTo = -1;
      try {
        if (actionLetter() == 'X') {
          splitTo = readSplitPdu(pduLen);
        } else {
          in.skipNBytes(pduLen);
        }
      } catch (java.io.EOFException e) {
        throw error("pdu_len", "pdu_len runs past the end of the file, was " + pduLen);
      } catch (IOException e) {
        throw TraceInput.readError(file, e);
      }
      offset += EVENT_BYTES + pduLen;
      return true;
    }

    /**
     * An X event's payload: {@code blk_add_trace_split()}'s new sector as a big-endian u64, after
     * the 8-byte cgroup id when the action has {@code __BLK_TA_CGROUP}; checked against the
     * event's sector ({@link BlkEvent#splitSector}).
     */
    private long readSplitPdu(int pduLen) throws IOException {
      int at = (action & TA_CGROUP) != 0 ? 8 : 0;
      if (pduLen < at + 8) {
        throw error("pdu_len", "an X (split) event's payload must hold the 8-byte new sector"
            + (at > 0 ? " after the 8-byte cgroup id" : "") + ", pdu_len was " + pduLen);
      }
      byte[] pdu = in.readNBytes(pduLen);
      if (pdu.length < pduLen) {
        throw new java.io.EOFException();
      }
      long value = ByteBuffer.wrap(pdu, at, 8).order(ByteOrder.BIG_ENDIAN).getLong();
      long to = BlkEvent.splitSector(sector, value);
      if (to < 0) {
        throw error("pdu", BlkEvent.SPLIT_RULE + ", was sector " + sector + " / "
            + Long.toUnsignedString(value));
      }
      return to;
    }

    /** The blkparse letter of the current event (Q, M, F, D, C, X) or 0 for any other. */
    char actionLetter() {
      int cat = action >>> 16;
      if ((cat & (TC_NOTIFY | TC_PC)) != 0) {
        return 0;
      }
      return switch ((action & 0xffff) & ~TA_CGROUP) {
        case TA_QUEUE -> 'Q';
        case TA_BACKMERGE -> 'M';
        case TA_FRONTMERGE -> 'F';
        case TA_ISSUE -> 'D';
        case TA_COMPLETE -> 'C';
        case TA_SPLIT -> 'X';
        default -> 0;
      };
    }

    /** The current event's operation, as {@code blkparse_fmt.c fill_rwbs()} spells it. */
    TraceOp op() {
      return BlkEvent.op((action >>> 16 & TC_FLUSH) != 0, kindLetter(), bytes);
    }

    /** The RWBS kind letter of the current event: D, W, R or N. */
    private char kindLetter() {
      int cat = action >>> 16;
      return (cat & TC_DISCARD) != 0 ? 'D'
          : (cat & TC_WRITE) != 0 ? 'W' : bytes != 0 ? 'R' : 'N';
    }

    /** Whether the current event is data or a flush (RWBS other than a bare N). */
    boolean hasData() {
      return op() != null;
    }

    /** The current event for the matcher, or {@code null} when it does not matter. */
    BlkEvent event(long genesisNs) {
      char a = actionLetter();
      if (a == 0) {
        return null;
      }
      if (device != deviceOfName) {
        deviceOfName = device;
        deviceName = (device >>> 20) + "," + (device & 0xfffff);
      }
      if (a == 'X') {
        // the front part, up to where the rest starts (the kernel's bytes are the front part's)
        long front = (splitTo - sector) * BlkEvent.SECTOR_BYTES;
        return new BlkEvent(timeNs - genesisNs, deviceName, a,
            BlkEvent.op((action >>> 16 & TC_FLUSH) != 0, kindLetter(), front), sector, front,
            eventNo);
      }
      // blkparse prints t_sec = bytes >> 9 sectors; the record keeps the exact byte count.
      return new BlkEvent(timeNs - genesisNs, deviceName, a, op(), bytes == 0 ? -1 : sector,
          bytes, eventNo);
    }

    /**
     * An error of this event: a rule that starts with its field says where after the field
     * ("version of event 1 (byte offset 0) must be 7 ..."), so that the message names the field
     * once; any other rule after the place ("event 2 (byte offset 48): is truncated ...").
     */
    InputException error(String field, String rule) {
      String where = "event " + eventNo + " (byte offset " + offset + ")";
      if (field != null && rule.startsWith(field + " ")) {
        return new InputException(file, 0, field,
            field + " of " + where + rule.substring(field.length()));
      }
      return new InputException(file, 0, field, where + ": " + rule);
    }

    void close() {
      TraceInput.closeQuietly(in);
    }
  }
}
