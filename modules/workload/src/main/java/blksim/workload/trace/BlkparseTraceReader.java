package blksim.workload.trace;

import java.nio.file.Path;

/**
 * blkparse's default text output (no {@code -f}/{@code -F} format), as {@code blkparse_fmt.c
 * process_default()} prints each event: the header
 * {@code "%3d,%-3d %2d %8d %5d.%09lu %5u %2s %3s "}
 * (device major,minor; CPU; sequence; seconds.nanoseconds since the first event; pid; action;
 * RWBS), then by action {@code sector + nsectors [process]} for Q/D/I/B/M/F/G/S,
 * {@code sector + nsectors [error]} for C/R, {@code sector / new_sector [process]} for X (a
 * split, followed by {@link BlkEventMatcher}; {@code new_sector} is printed modulo 2^32), with {@code (elapsed)} inserted under {@code -t};
 * events without data print no sector; passthrough (PC) requests print a byte count and a CDB
 * and are skipped here.
 *
 * <p>Which event is the arrival is {@link TraceOptions#arrival()}. Left {@code null}, it is chosen
 * by a <b>first pass</b> over the file that stops at the first Q event: Q if the file has Q
 * events, else D, else C (so only a trace without Q events is read twice). The choice is returned
 * by {@link #arrival()} and sent to {@link TraceOptions#notices()}. Latencies come from C events,
 * see {@link BlkEventMatcher}, whose window of waiting arrivals bounds the memory.
 *
 * <p>Skipped: message lines ({@code m}), the {@code Input file ... added} lines blkparse prints
 * when writing to stdout, and the statistics blkparse prints at exit: per-process blocks
 * ({@code comm (pid)}, with {@code -s}), per-CPU {@code CPUn (maj,min):} and {@code Total
 * (maj,min):} blocks, {@code Throughput (R/W):}, {@code Events (...):}, {@code Skips:} and the
 * driver-data note ({@code blkparse.c show_device_and_cpu_stats()}, {@code dump_io_stats()}).
 * Event lines after a statistics block (several blkparse outputs concatenated) are read again.
 * Times are relative to the trace's first event, as blkparse prints them; the device is
 * {@code "major,minor"}. Lines must be in time order, as blkparse writes them.
 */
public final class BlkparseTraceReader implements TraceReader {
  private final LineSource lines;
  private final Fields fields;
  private final BlkArrival arrival;
  private final BlkEventMatcher matcher;
  private final TraceOptions options;
  private boolean inSummary;
  private boolean ended;

  private BlkparseTraceReader(Path path, BlkArrival arrival, TraceOptions options) {
    this.lines = new LineSource(path);
    this.fields = new Fields(lines.file());
    this.arrival = arrival;
    this.options = options;
    this.matcher = new BlkEventMatcher(arrival, options.maxInFlight());
  }

  /** Opens {@code path}, choosing the arrival event by a first pass when the options leave it. */
  static BlkparseTraceReader open(Path path, TraceOptions options) {
    BlkArrival a = options.arrival();
    String why;
    if (a == null) {
      a = scanArrival(path);
      why = switch (a) {
        case Q -> "the trace has Q events";
        case D -> "the trace has no Q events";
        case C -> "the trace has no Q or D events; no recorded latency";
      };
    } else {
      why = "as requested";
    }
    options.notices().accept(path + ": blkparse arrival event " + a + " (" + why + ")");
    return new BlkparseTraceReader(path, a, options);
  }

  /** The arrival event in use. */
  public BlkArrival arrival() {
    return arrival;
  }

  @Override
  public TraceFormat format() {
    return TraceFormat.BLKPARSE;
  }

  @Override
  public TraceRecord next() {
    while (true) {
      TraceRecord r = matcher.poll();
      if (r != null || ended) {
        return r;
      }
      String s = lines.next();
      if (s == null) {
        matcher.finish();
        ended = true;
        if (matcher.unmatched() > 0 && arrival != BlkArrival.C) {
          options.notices().accept(lines.file() + ": " + matcher.unmatched() + " " + arrival
              + " events had no matching C event (no recorded latency)");
        }
        String splits = matcher.splitNotice(lines.file());
        if (splits != null) {
          options.notices().accept(splits);
        }
        continue;
      }
      BlkEvent e = parse(s, lines.lineNo());
      if (e != null) {
        matcher.accept(e);
      }
    }
  }

  /** The first pass: Q if any Q event, else D if any D, else C. */
  private static BlkArrival scanArrival(Path path) {
    boolean sawD = false;
    try (BlkparseTraceReader scan =
        new BlkparseTraceReader(path, BlkArrival.C, TraceOptions.defaults())) {
      String s;
      while ((s = scan.lines.next()) != null) {
        BlkEvent e = scan.parse(s, scan.lines.lineNo());
        if (e == null || e.op() == null) {
          continue;
        }
        if (e.action() == 'Q') {
          return BlkArrival.Q;
        }
        sawD |= e.action() == 'D';
      }
    }
    return sawD ? BlkArrival.D : BlkArrival.C;
  }

  /** Whether {@code s} is digits, a comma and digits ({@code major,minor}). */
  private static boolean isDevice(String s) {
    int comma = s.indexOf(',');
    return comma > 0 && comma < s.length() - 1 && Fields.parseUnsigned(s.substring(0, comma)) >= 0
        && Fields.parseUnsigned(s.substring(comma + 1)) >= 0;
  }

  /** Whether {@code s} is {@code digits.digits}. */
  private static boolean isTime(String s) {
    int dot = s.indexOf('.');
    return dot > 0 && dot < s.length() - 1 && Fields.parseUnsigned(s.substring(0, dot)) >= 0
        && Fields.parseUnsigned(s.substring(dot + 1)) >= 0;
  }

  /** Whether the line opens one of blkparse's exit statistics blocks. */
  private static boolean isSummaryStart(String s) {
    if (s.startsWith("Total (") || s.startsWith("Throughput (R/W):")
        || s.startsWith("Events (") || s.startsWith("Skips:")
        || s.startsWith("discarded traces containing low-level device driver")) {
      return true;
    }
    if (s.startsWith("CPU") && s.endsWith("):")) {
      return true;
    }
    // show_process_stats(): "comm (pid)" or "comm (pid, ...)", followed by " Reads Queued:".
    return s.endsWith(")") && !s.startsWith(" ") && s.lastIndexOf(" (") > 0
        && (s.endsWith(", ...)") || Fields.parseUnsigned(
            s.substring(s.lastIndexOf(" (") + 2, s.length() - 1)) >= 0);
  }

  /** One line as an event, or {@code null} when it holds none that matters. */
  private BlkEvent parse(String line, long lineNo) {
    Fields f = fields.splitBlanks(line, lineNo);
    boolean event = f.count() >= 6 && isDevice(f.get(0)) && Fields.parseUnsigned(f.get(1)) >= 0
        && Fields.parseUnsigned(f.get(2)) >= 0 && isTime(f.get(3))
        && Fields.parseUnsigned(f.get(4)) >= 0;
    if (!event) {
      if (f.count() == 0 || line.startsWith("Input file ")) {
        return null;
      }
      if (inSummary || isSummaryStart(line)) {
        inSummary = true;
        return null;
      }
      throw f.error(null, "not a blkparse event line (expected 'major,minor cpu sequence "
          + "seconds.nanoseconds pid action rwbs ...' as blkparse prints by default), was '"
          + line.strip() + "'");
    }
    inSummary = false;
    String act = f.get(5);
    if (act.equals("m") || (f.count() > 6 && f.get(6).equals("m"))) {
      return null; // BLK_TN_MESSAGE, possibly with a cgroup id before the "m"
    }
    char a;
    switch (act) {
      case "Q", "D", "C", "M", "F", "X" -> a = act.charAt(0);
      default -> {
        return null; // G, S, I, B, R, P, U, UT, A and others carry no arrival or completion
      }
    }
    if (f.count() < 7) {
      throw f.error("rwbs", "rwbs is missing after action '" + act + "'");
    }
    String rwbs = f.get(6);
    boolean preflush = rwbs.charAt(0) == 'F';
    char kind = preflush ? (rwbs.length() > 1 ? rwbs.charAt(1) : 'N') : rwbs.charAt(0);
    if ("DWRNF".indexOf(kind) < 0) {
      throw f.error("rwbs", "rwbs must start with R, W, D, N or F, was '" + rwbs + "'");
    }
    long sector = -1;
    long length = 0;
    int t = 7;
    if (a == 'X') {
      // blkparse_fmt.c: "%llu / %u [%s]", the bio's sector and where its second part starts
      if (f.count() < t + 3 || !f.get(t + 1).equals("/")) {
        throw f.error("new_sector", "a split (X) must read 'sector / new_sector [process]', was '"
            + line.strip() + "'");
      }
      sector = f.nonNegativeLongTimes(t, "sector", BlkEvent.SECTOR_BYTES) / BlkEvent.SECTOR_BYTES;
      long rest = BlkEvent.splitSector(sector, f.nonNegativeLong(t + 2, "new_sector"));
      if (rest < 0) {
        throw f.error("new_sector", BlkEvent.SPLIT_RULE + ", was '" + f.get(t) + " / "
            + f.get(t + 2) + "'");
      }
      length = (rest - sector) * BlkEvent.SECTOR_BYTES;
    } else {
      String first = t < f.count() ? f.get(t) : "[";
      if (first.startsWith("(")) {
        if (a == 'C') {
          return null; // a passthrough completion: "(cdb) [error]"
        }
      } else if (!first.startsWith("[")) {
        sector = f.nonNegativeLongTimes(t, "sector", BlkEvent.SECTOR_BYTES)
            / BlkEvent.SECTOR_BYTES;
        if (t + 1 < f.count() && f.get(t + 1).equals("+")) {
          if (t + 2 >= f.count()) {
            throw f.error("nsectors", "nsectors is missing after '+'");
          }
          length = f.nonNegativeLongTimes(t + 2, "nsectors", BlkEvent.SECTOR_BYTES);
        } else if (a != 'C') {
          return null; // a passthrough request: "bytes [(cdb)] [process]"
        }
      }
    }
    long timeNs = Fields.parseDecimalNs(f.get(3), 1_000_000_000L);
    if (timeNs < 0) {
      throw f.error("time", "time must be seconds.nanoseconds, was '" + f.get(3) + "'");
    }
    return new BlkEvent(timeNs, f.get(0), a, BlkEvent.op(preflush, kind, length), sector, length,
        lineNo);
  }

  @Override
  public void close() {
    lines.close();
  }
}
