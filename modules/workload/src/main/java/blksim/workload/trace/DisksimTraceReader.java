package blksim.workload.trace;

import java.nio.file.Path;

/**
 * DiskSim ASCII traces (also MQSim's and SSDsim's input): blank-separated lines
 * {@code arrival_time devno blkno bcount flags}.
 *
 * <p>arrival_time is a decimal number in {@link TraceOptions#disksimTimeUnitNs()} units (DiskSim
 * defines milliseconds; MQSim and SSDsim write nanoseconds), relative to the start of the trace;
 * devno is the device; blkno and bcount are 512-byte sectors; flags bit 0 set means read, clear
 * means write (DiskSim's {@code DISKSIM_READ}). Other flag bits are ignored. Fields after the fifth
 * are ignored.
 */
final class DisksimTraceReader extends LineTraceReader {
  /** DiskSim's block unit, in bytes. */
  static final long SECTOR_BYTES = 512;
  private static final String[] COLUMNS = {"arrival_time", "devno", "blkno", "bcount", "flags"};
  private final long unitNs;

  DisksimTraceReader(Path path, long unitNs) {
    super(path, null);
    this.unitNs = unitNs;
  }

  @Override
  public TraceFormat format() {
    return TraceFormat.DISKSIM;
  }

  @Override
  protected TraceRecord parse(String line, long lineNo) {
    Fields f = fields.splitBlanks(line, lineNo);
    f.requireAtLeast(COLUMNS);
    long timeNs = f.decimalNs(0, "arrival_time", unitNs);
    f.nonNegativeLong(1, "devno");
    long offset = f.nonNegativeLongTimes(2, "blkno", SECTOR_BYTES);
    long length = f.nonNegativeLongTimes(3, "bcount", SECTOR_BYTES);
    long flags = f.nonNegativeLong(4, "flags");
    TraceOp op = (flags & 1) != 0 ? TraceOp.READ : TraceOp.WRITE;
    return TraceRecord.block(timeNs, f.get(1), op, offset, length, TraceRecord.NO_LATENCY, lineNo);
  }
}
