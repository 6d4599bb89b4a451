package blksim.workload.trace;

import java.nio.file.Path;

/**
 * SYSTOR '17 traces (SNIA IOTTA 4964): a header row
 * {@code Timestamp,Response,IOType,LUN,Offset,Size} then one CSV line per request.
 *
 * <p>Timestamp is Unix seconds with a fractional part (to the ns) and becomes absolute Unix-epoch
 * ns, converted exactly from the decimal text; Response is the response time in seconds, possibly
 * empty (then {@link TraceRecord#NO_LATENCY}); IOType is {@code R} or {@code W}; LUN is the
 * device; Offset and Size are bytes. Rows are not strictly time-ordered in the dataset and are
 * returned in file order. Fields after the sixth are ignored.
 */
final class SystorTraceReader extends LineTraceReader {
  private static final String[] COLUMNS =
      {"Timestamp", "Response", "IOType", "LUN", "Offset", "Size"};

  SystorTraceReader(Path path) {
    super(path, "Timestamp");
  }

  @Override
  public TraceFormat format() {
    return TraceFormat.SYSTOR;
  }

  @Override
  protected TraceRecord parse(String line, long lineNo) {
    Fields f = fields.split(line, ',', lineNo);
    f.requireAtLeast(COLUMNS);
    long timeNs = f.decimalNs(0, "Timestamp", 1_000_000_000L);
    long latencyNs = f.get(1).isEmpty()
        ? TraceRecord.NO_LATENCY : f.decimalNs(1, "Response", 1_000_000_000L);
    TraceOp op = SpcTraceReader.readOrWrite(f, 2, "IOType");
    f.nonNegativeLong(3, "LUN");
    long offset = f.nonNegativeLong(4, "Offset");
    long size = f.nonNegativeLong(5, "Size");
    return TraceRecord.block(timeNs, f.get(3), op, offset, size, latencyNs, lineNo);
  }
}
