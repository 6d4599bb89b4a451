package blksim.workload.trace;

import blksim.engine.InputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The trace formats blksim reads, and their recognition from a file's content.
 *
 * <p>{@link #detect(Path)} looks at the (decompressed) first 64 KiB of the file, never at its
 * name except to find the siblings of an empty per-CPU blktrace file, in this order:
 * <ol>
 *   <li>gzip magic {@code 1f 8b}: decompressed, then the rules below apply to the content;
 *   <li>the blktrace magic {@code 0x65617400 | version} in either byte order: {@link #BLKTRACE};
 *   <li>first line beginning {@code fio version 2 iolog} or {@code fio version 3 iolog}:
 *       {@link #FIO_IOLOG};
 *   <li>a blkparse default event line among the first lines (after any {@code Input file ...
 *       added}): {@link #BLKPARSE};
 *   <li>the SYSTOR header {@code Timestamp,Response,IOType,LUN,Offset,Size}: {@link #SYSTOR};
 *       Tencent's {@code Timestamp,Offset,Size,IOType,VolumeID}: {@link #TENCENT}; Alibaba's
 *       {@code device_id,opcode,...}: {@link #ALIBABA};
 *   <li>otherwise the first data line, by the shape of its comma-separated fields: 7+ fields with
 *       {@code Read}/{@code Write} fourth: {@link #MSR}; 6+ fields, a decimal, R/W third:
 *       {@link #SYSTOR}; 5+ fields with R/W second: {@link #ALIBABA}; R/W fourth and a decimal
 *       fifth: {@link #SPC}; five integers with 0/1 fourth: {@link #TENCENT}; or five or more
 *       blank-separated numbers: {@link #DISKSIM}.
 * </ol>
 * A file matching none is refused with an {@link InputException} naming the file and what was
 * expected. These shapes are disjoint, so the order only matters for malformed files; name the
 * format to {@link #open(Path, TraceFormat, TraceOptions)} to skip detection.
 */
public enum TraceFormat {
  /** fio iolog v2/v3 ({@link FioIologTraceReader}); v3 relative, v2 no time. */
  FIO_IOLOG(TimeBase.RELATIVE),
  /** blkparse default text ({@link BlkparseTraceReader}). */
  BLKPARSE(TimeBase.RELATIVE),
  /** blktrace binary per-CPU files ({@link BlktraceTraceReader}). */
  BLKTRACE(TimeBase.RELATIVE),
  /** MSR Cambridge CSV ({@link MsrTraceReader}). */
  MSR(TimeBase.UNIX_EPOCH),
  /** SPC / UMass CSV ({@link SpcTraceReader}). */
  SPC(TimeBase.RELATIVE),
  /** Alibaba block traces 2020 ({@link AlibabaTraceReader}). */
  ALIBABA(TimeBase.UNIX_EPOCH),
  /** Tencent CBS ({@link TencentTraceReader}). */
  TENCENT(TimeBase.UNIX_EPOCH),
  /** SYSTOR '17 ({@link SystorTraceReader}). */
  SYSTOR(TimeBase.UNIX_EPOCH),
  /** DiskSim ASCII ({@link DisksimTraceReader}). */
  DISKSIM(TimeBase.RELATIVE);

  /** What {@link TraceRecord#timeNs()} counts from. */
  public enum TimeBase {
    /** ns since the start of the trace (its first event, or the log's start for fio). */
    RELATIVE,
    /** ns since 1970-01-01T00:00:00Z. */
    UNIX_EPOCH
  }

  private static final int HEAD_BYTES = 1 << 16;
  private static final int HEAD_LINES = 20;
  private static final String EXPECTED = "expected a fio iolog ('" + FioIologTraceReader.HEADER_V2
      + "' or '" + FioIologTraceReader.HEADER_V3 + "' first), blkparse default output, blktrace "
      + "binary (magic 0x65617400), or CSV/ASCII records of MSR Cambridge, SPC/UMass, Alibaba, "
      + "Tencent CBS, SYSTOR '17 or DiskSim (optionally gzip-compressed)";

  private final TimeBase timeBase;

  TraceFormat(TimeBase timeBase) {
    this.timeBase = timeBase;
  }

  /** What this format's record times count from (fio iolog v2 records have no time at all). */
  public TimeBase timeBase() {
    return timeBase;
  }

  /** The name users type ({@code read_iolog_format=}, {@code --format}): lower case. */
  public String key() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Every format's {@link #key()}, comma-separated, for messages naming the choices. */
  public static String keys() {
    StringBuilder b = new StringBuilder();
    for (TraceFormat t : values()) {
      b.append(b.length() == 0 ? "" : ", ").append(t.key());
    }
    return b.toString();
  }

  /** The format named {@code key} (as {@link #key()}, case ignored), or {@code null}. */
  public static TraceFormat ofKey(String key) {
    for (TraceFormat f : values()) {
      if (f.key().equalsIgnoreCase(key) || f.name().equalsIgnoreCase(key)) {
        return f;
      }
    }
    return null;
  }

  /**
   * The format of {@code path}, from its content.
   *
   * @throws InputException when the file cannot be read or matches no format
   */
  public static TraceFormat detect(Path path) {
    byte[] head = TraceInput.head(path, HEAD_BYTES);
    if (head.length == 0) {
      List<Path> siblings = BlktraceTraceReader.cpuFiles(path);
      for (Path p : siblings) {
        if (!p.equals(path) && BlktraceTraceReader.hasMagic(TraceInput.head(p, 4))) {
          return BLKTRACE; // an idle CPU's empty file next to non-empty ones
        }
      }
      throw new InputException(path.toString(), 0, null, "is empty: " + EXPECTED);
    }
    if (BlktraceTraceReader.hasMagic(head)) {
      return BLKTRACE;
    }
    List<String> lines = firstLines(head);
    if (lines.isEmpty()) {
      throw new InputException(path.toString(), 0, null, "holds only blank lines: " + EXPECTED);
    }
    String first = lines.get(0);
    if (first.startsWith(FioIologTraceReader.HEADER_V2)
        || first.startsWith(FioIologTraceReader.HEADER_V3)) {
      return FIO_IOLOG;
    }
    for (String l : lines) {
      if (isBlkparseEvent(l)) {
        return BLKPARSE;
      }
      if (!l.startsWith("Input file ")) {
        break;
      }
    }
    if (LineTraceReader.isHeader(first, "Timestamp")) {
      String h = first.replace(" ", "").toLowerCase(Locale.ROOT);
      if (h.startsWith("timestamp,response,iotype,lun,offset,size")) {
        return SYSTOR;
      }
      if (h.startsWith("timestamp,offset,size,iotype,volumeid")) {
        return TENCENT;
      }
      if (h.startsWith("timestamp,hostname,disknumber,type")) {
        return MSR;
      }
    }
    if (LineTraceReader.isHeader(first, "device_id")) {
      return ALIBABA;
    }
    String data = first;
    if ((LineTraceReader.isHeader(first, "Timestamp") || LineTraceReader.isHeader(first,
        "device_id")) && lines.size() > 1) {
      data = lines.get(1);
    }
    TraceFormat f = byShape(data);
    if (f == null) {
      String shown = data.length() > 80 ? data.substring(0, 80) + "..." : data;
      throw new InputException(path.toString(), 0, null,
          "is not a trace in any supported format: " + EXPECTED + "; its first line is '"
              + shown.replaceAll("\\p{Cntrl}", "?") + "'");
    }
    return f;
  }

  /** Up to {@link #HEAD_LINES} non-blank lines of {@code head}, the last cut one dropped. */
  private static List<String> firstLines(byte[] head) {
    String text = new String(head, StandardCharsets.UTF_8);
    String[] parts = text.split("\n", -1);
    int usable = parts.length;
    if (head.length == HEAD_BYTES && parts.length > 1) {
      usable--; // the last line may be cut by the 64 KiB window
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < usable && out.size() < HEAD_LINES; i++) {
      String l = parts[i].endsWith("\r") ? parts[i].substring(0, parts[i].length() - 1) : parts[i];
      if (!l.isBlank()) {
        out.add(l);
      }
    }
    return out;
  }

  /** Whether {@code line} begins like blkparse's default header. */
  private static boolean isBlkparseEvent(String line) {
    return line.matches("\\s*\\d+,\\d+\\s+\\d+\\s+\\d+\\s+\\d+\\.\\d+\\s+\\d+\\s+\\S+.*");
  }

  private static boolean isInt(String s) {
    return Fields.parseUnsigned(s) >= 0;
  }

  private static boolean isDecimal(String s) {
    return Fields.parseDecimalNs(s, 1) >= 0 && !s.isEmpty();
  }

  private static boolean isRw(String s) {
    return s.equalsIgnoreCase("R") || s.equalsIgnoreCase("W");
  }

  /** The format whose record shape {@code line} has, or {@code null}. */
  private static TraceFormat byShape(String line) {
    Fields f = new Fields("");
    if (line.indexOf(',') >= 0) {
      f.split(line, ',', 0);
      int n = f.count();
      if (n >= 7 && isInt(f.get(0)) && (f.get(3).equalsIgnoreCase("Read")
          || f.get(3).equalsIgnoreCase("Write"))) {
        return MSR;
      }
      if (n >= 6 && isDecimal(f.get(0)) && isRw(f.get(2)) && isInt(f.get(3))
          && isInt(f.get(4)) && isInt(f.get(5))) {
        return SYSTOR;
      }
      if (n >= 5 && isInt(f.get(0)) && isRw(f.get(1)) && isInt(f.get(2)) && isInt(f.get(3))
          && isInt(f.get(4))) {
        return ALIBABA;
      }
      if (n >= 5 && isInt(f.get(0)) && isInt(f.get(1)) && isInt(f.get(2)) && isRw(f.get(3))
          && isDecimal(f.get(4))) {
        return SPC;
      }
      if (n >= 5 && isInt(f.get(0)) && isInt(f.get(1)) && isInt(f.get(2))
          && (f.get(3).equals("0") || f.get(3).equals("1")) && isInt(f.get(4))) {
        return TENCENT;
      }
      return null;
    }
    f.splitBlanks(line, 0);
    if (f.count() >= 5 && isDecimal(f.get(0)) && isInt(f.get(1)) && isInt(f.get(2))
        && isInt(f.get(3)) && isInt(f.get(4))) {
      return DISKSIM;
    }
    return null;
  }

  /**
   * Opens {@code path} as {@code format}, or as its detected format when {@code format} is
   * {@code null}.
   *
   * @throws InputException when the file cannot be read, matches no format, or (blkparse and
   *     blktrace, which read ahead to choose the arrival event) holds a malformed event early on
   */
  public static TraceReader open(Path path, TraceFormat format, TraceOptions options) {
    TraceReader r = openReader(path, format, options);
    if (options.skipMalformed()) {
      if (r instanceof LineTraceReader l) {
        return new SkippingTraceReader(l, options);
      }
      options.notices().accept(path + ": skip-malformed is for the line formats; a malformed "
          + r.format().key() + " event still stops the run");
    }
    return r;
  }

  private static TraceReader openReader(Path path, TraceFormat format, TraceOptions options) {
    TraceFormat f = format != null ? format : detect(path);
    return switch (f) {
      case FIO_IOLOG -> new FioIologTraceReader(path);
      case BLKPARSE -> BlkparseTraceReader.open(path, options);
      case BLKTRACE -> BlktraceTraceReader.open(path, options);
      case MSR -> new MsrTraceReader(path);
      case SPC -> new SpcTraceReader(path);
      case ALIBABA -> new AlibabaTraceReader(path);
      case TENCENT -> new TencentTraceReader(path);
      case SYSTOR -> new SystorTraceReader(path);
      case DISKSIM -> {
        options.notices().accept(path + ": DiskSim arrival times read in units of "
            + options.disksimTimeUnitNs() + " ns" + (options.disksimTimeUnitNs()
            == TraceOptions.DISKSIM_MS ? " (ms, DiskSim's unit; MQSim and SSDsim traces use ns)"
            : ""));
        yield new DisksimTraceReader(path, options.disksimTimeUnitNs());
      }
    };
  }

  /** {@link #open(Path, TraceFormat, TraceOptions)} with {@link TraceOptions#defaults()}. */
  public static TraceReader open(Path path, TraceFormat format) {
    return open(path, format, TraceOptions.defaults());
  }
}
