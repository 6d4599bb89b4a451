package blksim.workload.trace;

import java.nio.file.Path;

/**
 * SPC trace files (the UMass Trace Repository's Financial and WebSearch traces): CSV lines
 * {@code ASU,LBA,Size,Opcode,Timestamp[,optional...]}, no header row.
 *
 * <p>ASU (application storage unit) is the device; LBA counts 512-byte blocks (the block size of
 * these traces); Size is bytes; Opcode is {@code R} or {@code W} in either case (Financial writes
 * lower case); Timestamp is seconds from the start of the trace (relative time). Blanks after the
 * commas and any number of trailing optional fields are allowed, as the SPC trace-file
 * specification allows them.
 */
final class SpcTraceReader extends LineTraceReader {
  /** The LBA unit of the UMass SPC traces, in bytes. */
  static final long LBA_BYTES = 512;
  private static final String[] COLUMNS = {"ASU", "LBA", "Size", "Opcode", "Timestamp"};

  SpcTraceReader(Path path) {
    super(path, null);
  }

  @Override
  public TraceFormat format() {
    return TraceFormat.SPC;
  }

  @Override
  protected TraceRecord parse(String line, long lineNo) {
    Fields f = fields.split(line, ',', lineNo);
    f.requireAtLeast(COLUMNS);
    f.nonNegativeLong(0, "ASU");
    long offset = f.nonNegativeLongTimes(1, "LBA", LBA_BYTES);
    long size = f.nonNegativeLong(2, "Size");
    TraceOp op = readOrWrite(f, 3, "Opcode");
    long timeNs = f.decimalNs(4, "Timestamp", 1_000_000_000L);
    return TraceRecord.block(timeNs, f.get(0), op, offset, size, TraceRecord.NO_LATENCY, lineNo);
  }

  /** {@code R}/{@code W} in either case. */
  static TraceOp readOrWrite(Fields f, int i, String name) {
    String s = f.get(i);
    if (s.equalsIgnoreCase("R")) {
      return TraceOp.READ;
    }
    if (s.equalsIgnoreCase("W")) {
      return TraceOp.WRITE;
    }
    throw f.error(name, name + " must be R or W, was '" + s + "'");
  }
}
