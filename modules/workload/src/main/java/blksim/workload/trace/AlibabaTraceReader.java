package blksim.workload.trace;

import java.nio.file.Path;

/**
 * Alibaba block traces 2020 ({@code alibaba/block-traces}, {@code io_traces.csv}): CSV lines
 * {@code device_id,opcode,offset,length,timestamp}.
 *
 * <p>opcode is {@code R} or {@code W}; offset and length are bytes; timestamp is µs since the
 * Unix epoch (the server's receive time) and becomes absolute Unix-epoch ns. A header row starting
 * {@code device_id,} is skipped; fields after the fifth are ignored.
 */
final class AlibabaTraceReader extends LineTraceReader {
  private static final String[] COLUMNS = {"device_id", "opcode", "offset", "length", "timestamp"};

  AlibabaTraceReader(Path path) {
    super(path, "device_id");
  }

  @Override
  public TraceFormat format() {
    return TraceFormat.ALIBABA;
  }

  @Override
  protected TraceRecord parse(String line, long lineNo) {
    Fields f = fields.split(line, ',', lineNo);
    f.requireAtLeast(COLUMNS);
    f.nonNegativeLong(0, "device_id");
    TraceOp op = SpcTraceReader.readOrWrite(f, 1, "opcode");
    long offset = f.nonNegativeLong(2, "offset");
    long length = f.nonNegativeLong(3, "length");
    long timeNs = f.nonNegativeLongTimes(4, "timestamp", 1_000);
    return TraceRecord.block(timeNs, f.get(0), op, offset, length, TraceRecord.NO_LATENCY, lineNo);
  }
}
