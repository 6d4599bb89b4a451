package blksim.workload.trace;

import java.nio.file.Path;

/**
 * fio iologs, versions 2 and 3, as fio's {@code read_iolog=} reads them ({@code iolog.c
 * init_iolog_read()} and {@code read_iolog()}; HOWTO "Trace file format").
 *
 * <p>The first line must begin with {@code fio version 2 iolog} or {@code fio version 3 iolog}
 * (fio compares the prefix with {@code strncmp}); anything else is the long-unsupported version 1,
 * which fio refuses and so does this reader. Then, blank separated:
 * <ul>
 *   <li>v2: {@code <file> add|open|close} or {@code <file> <action> <offset> <length>} with action
 *       {@code read}, {@code write}, {@code trim}, {@code sync}, {@code datasync} or {@code wait};
 *   <li>v3: the same with a leading timestamp in µs since the log started, which becomes the
 *       record's time in ns (relative). {@code wait} is not allowed in v3 (fio ignores the line
 *       with an error; here it is an error).
 * </ul>
 * Offsets and lengths are bytes. v2 records have no time ({@link TraceRecord#NO_TIME}); a v2
 * {@code wait} record keeps its value (µs) in {@code offsetBytes}, as fio stores it in
 * {@code ipo->delay}: whether that delay is relative to the previous wait (HOWTO) or to the start
 * (fio's code) is left to the replay. Decreasing v3 timestamps are kept as written (fio replays
 * them with no delay). As with fio's {@code sscanf}, fields after the last expected one are
 * ignored. Every record's {@code device} and {@code fileName} are the iolog's file name.
 */
final class FioIologTraceReader extends LineTraceReader {
  /** fio's {@code iolog_ver2}. */
  static final String HEADER_V2 = "fio version 2 iolog";
  /** fio's {@code iolog_ver3}. */
  static final String HEADER_V3 = "fio version 3 iolog";

  private int version;
  /** The last file name read: every record of a log names the same few files. */
  private String lastFile;

  FioIologTraceReader(Path path) {
    super(path, null);
  }

  @Override
  public TraceFormat format() {
    return TraceFormat.FIO_IOLOG;
  }

  /** The iolog version (2 or 3), known once the first record or the end has been read. */
  int version() {
    return version;
  }

  @Override
  public TraceRecord next() {
    if (version == 0) {
      String first = lines.next();
      if (first != null && first.startsWith(HEADER_V2)) {
        version = 2;
      } else if (first != null && first.startsWith(HEADER_V3)) {
        version = 3;
      } else {
        throw lines.error(1, null, "the first line must be '" + HEADER_V2 + "' or '" + HEADER_V3
            + "' (iolog version 1 is no longer supported by fio), was "
            + (first == null ? "the end of the file" : "'" + first + "'"));
      }
    }
    return super.next();
  }

  @Override
  protected TraceRecord parseLine(long lineNo) {
    // The replay's hot path: the usual line in one pass over its bytes, anything else split and
    // converted field by field (still without a String per line).
    TraceRecord r = fastReadWrite(lineNo);
    if (r != null) {
      return r;
    }
    return parse(fields.splitBlanks(lines.bytes(), lines.start(), lines.end(), lineNo), lineNo);
  }

  /** Digits of a field {@link #fastReadWrite} converts itself (no overflow, even in ns). */
  private static final int FAST_DIGITS = 15;

  /**
   * The line in its most common shape, {@code [<time_us> ]<file> read|write <offset> <length>}
   * with single spaces, decimal digits only ({@value #FAST_DIGITS} at most per number) and the
   * same (ASCII) file name as the line before, read in one pass; {@code null} for any other
   * shape, which {@link #parse} then reads (to the same record when it is valid, as this shape
   * is a special case of its rules).
   */
  private TraceRecord fastReadWrite(long lineNo) {
    String file = lastFile;
    if (file == null) {
      return null;
    }
    byte[] b = lines.bytes();
    int i = lines.start();
    int e = lines.end();
    long timeNs = TraceRecord.NO_TIME;
    if (version == 3) {
      int s = i;
      long t = 0;
      int d;
      while (i < e && (d = b[i] - '0') >= 0 && d <= 9) {
        t = t * 10 + d;
        i++;
      }
      if (i == s || i - s > FAST_DIGITS || i == e || b[i] != ' ') {
        return null;
      }
      timeNs = t * 1_000;
      i++;
    }
    int n = file.length();
    if (e - i <= n || b[i + n] != ' ') {
      return null;
    }
    for (int k = 0; k < n; k++) {
      if (b[i + k] != file.charAt(k)) {
        return null; // another file, or not ASCII
      }
    }
    i += n + 1;
    TraceOp op;
    if (e - i > 5 && b[i] == 'r' && b[i + 1] == 'e' && b[i + 2] == 'a' && b[i + 3] == 'd'
        && b[i + 4] == ' ') {
      op = TraceOp.READ;
      i += 5;
    } else if (e - i > 6 && b[i] == 'w' && b[i + 1] == 'r' && b[i + 2] == 'i' && b[i + 3] == 't'
        && b[i + 4] == 'e' && b[i + 5] == ' ') {
      op = TraceOp.WRITE;
      i += 6;
    } else {
      return null;
    }
    int s = i;
    long offset = 0;
    int d;
    while (i < e && (d = b[i] - '0') >= 0 && d <= 9) {
      offset = offset * 10 + d;
      i++;
    }
    if (i == s || i - s > FAST_DIGITS || i == e || b[i] != ' ') {
      return null;
    }
    s = ++i;
    long length = 0;
    while (i < e && (d = b[i] - '0') >= 0 && d <= 9) {
      length = length * 10 + d;
      i++;
    }
    if (i == s || i - s > FAST_DIGITS || i != e) {
      return null;
    }
    return new TraceRecord(timeNs, file, op, file, offset, length, TraceRecord.NO_LATENCY, lineNo);
  }

  @Override
  protected TraceRecord parse(String line, long lineNo) {
    return parse(fields.splitBlanks(line, lineNo), lineNo);
  }

  private TraceRecord parse(Fields f, long lineNo) {
    int base = 0;
    long timeNs = TraceRecord.NO_TIME;
    if (version == 3) {
      if (f.count() < 3) {
        throw f.error(null, "expected '<time_us> <file> add|open|close' or '<time_us> <file> "
            + "<action> <offset> <length>', found " + f.count() + " fields");
      }
      timeNs = f.nonNegativeLongTimes(0, "time", 1_000);
      base = 1;
    } else if (f.count() < 2) {
      throw f.error(null, "expected '<file> add|open|close' or '<file> <action> <offset> "
          + "<length>', found " + f.count() + " field");
    }
    String file = f.getOr(base, lastFile);
    lastFile = file;
    int a = base + 1;
    int rest = f.count() - base - 2;
    TraceOp fileOp = f.equalsAscii(a, "add") ? TraceOp.ADD
        : f.equalsAscii(a, "open") ? TraceOp.OPEN
        : f.equalsAscii(a, "close") ? TraceOp.CLOSE
        : null;
    if (fileOp != null) {
      if (rest != 0) {
        // fio's sscanf matches 4 (v2) or 5 (v3) fields and then treats "add" as a bad I/O action.
        throw f.error("action", "action '" + f.get(a) + "' takes no offset or length (it acts"
            + " on the file)");
      }
      return new TraceRecord(timeNs, file, fileOp, file, 0, 0, TraceRecord.NO_LATENCY, lineNo);
    }
    TraceOp op = f.equalsAscii(a, "read") ? TraceOp.READ
        : f.equalsAscii(a, "write") ? TraceOp.WRITE
        : f.equalsAscii(a, "trim") ? TraceOp.TRIM
        : f.equalsAscii(a, "sync") ? TraceOp.SYNC
        : f.equalsAscii(a, "datasync") ? TraceOp.DATASYNC
        : f.equalsAscii(a, "wait") ? TraceOp.WAIT
        : null;
    if (op == null) {
      throw f.error("action", "action must be one of read, write, trim, sync, "
          + "datasync, wait, add, open, close, was '" + f.get(a) + "'");
    }
    if (op == TraceOp.WAIT && version == 3) {
      throw f.error("action", "'wait' is not allowed in a version 3 iolog (the timestamps give "
          + "the timing)");
    }
    if (rest < 2) {
      throw f.error(null, "action '" + f.get(a) + "' needs an offset and a length");
    }
    long offset = f.nonNegativeLong(base + 2, "offset");
    long length = f.nonNegativeLong(base + 3, "length");
    return new TraceRecord(timeNs, file, op, file, offset, length, TraceRecord.NO_LATENCY, lineNo);
  }
}
