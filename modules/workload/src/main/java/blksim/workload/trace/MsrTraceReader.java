package blksim.workload.trace;

import java.nio.file.Path;

/**
 * MSR Cambridge block traces (SNIA IOTTA set 388; Narayanan et al., FAST'08): one CSV line per
 * request, {@code Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime}, no header row.
 *
 * <p>Timestamp is a Windows FILETIME (100 ns ticks since 1601-01-01 UTC); it becomes absolute
 * Unix-epoch ns as {@code (t - 116444736000000000) * 100}. Type is {@code Read} or {@code Write}
 * (case ignored); Offset and Size are bytes; ResponseTime is in 100 ns ticks and becomes the
 * record's latency. The device is {@code Hostname_DiskNumber}, the name of the dataset's per-volume
 * files. Fields after the seventh are ignored.
 */
final class MsrTraceReader extends LineTraceReader {
  /** FILETIME of 1970-01-01T00:00:00Z: 369 years of 100 ns ticks (89 leap days). */
  static final long FILETIME_UNIX_EPOCH = 116_444_736_000_000_000L;
  private static final String[] COLUMNS =
      {"Timestamp", "Hostname", "DiskNumber", "Type", "Offset", "Size", "ResponseTime"};

  MsrTraceReader(Path path) {
    super(path, "Timestamp");
  }

  @Override
  public TraceFormat format() {
    return TraceFormat.MSR;
  }

  @Override
  protected TraceRecord parse(String line, long lineNo) {
    Fields f = fields.split(line, ',', lineNo);
    f.requireAtLeast(COLUMNS);
    long ticks = f.nonNegativeLong(0, "Timestamp");
    if (ticks < FILETIME_UNIX_EPOCH) {
      throw f.error("Timestamp", "Timestamp must be a Windows FILETIME at or after 1970-01-01 (>= "
          + FILETIME_UNIX_EPOCH + "), was '" + f.get(0) + "'");
    }
    long timeNs;
    try {
      timeNs = Math.multiplyExact(ticks - FILETIME_UNIX_EPOCH, 100L);
    } catch (ArithmeticException e) {
      throw f.error("Timestamp", "Timestamp is too far in the future, was '" + f.get(0) + "'");
    }
    String host = f.get(1);
    if (host.isEmpty()) {
      throw f.error("Hostname", "Hostname must not be empty");
    }
    f.nonNegativeLong(2, "DiskNumber");
    TraceOp op;
    if (f.get(3).equalsIgnoreCase("Read")) {
      op = TraceOp.READ;
    } else if (f.get(3).equalsIgnoreCase("Write")) {
      op = TraceOp.WRITE;
    } else {
      throw f.error("Type", "Type must be Read or Write, was '" + f.get(3) + "'");
    }
    long offset = f.nonNegativeLong(4, "Offset");
    long size = f.nonNegativeLong(5, "Size");
    long latencyNs = f.nonNegativeLongTimes(6, "ResponseTime", 100);
    return TraceRecord.block(timeNs, host + "_" + f.get(2), op, offset, size, latencyNs, lineNo);
  }
}
