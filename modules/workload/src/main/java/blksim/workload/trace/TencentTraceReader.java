package blksim.workload.trace;

import java.nio.file.Path;

/**
 * Tencent CBS block traces (SNIA IOTTA; Zhang et al., ATC'20): CSV lines
 * {@code Timestamp,Offset,Size,IOType,VolumeID}.
 *
 * <p>Timestamp is Unix seconds (a one-second clock) and becomes absolute Unix-epoch ns; Offset and
 * Size are 512-byte sectors; IOType 0 is a read, 1 a write; VolumeID is the device. Records within
 * one second are not sorted in the dataset and all carry the same second: they are returned in
 * file order, and how to spread them over the second is the replay's policy, not the reader's. A
 * header row starting {@code Timestamp,} is skipped; fields after the fifth are ignored.
 */
final class TencentTraceReader extends LineTraceReader {
  /** Tencent's Offset and Size unit, in bytes. */
  static final long SECTOR_BYTES = 512;
  private static final String[] COLUMNS = {"Timestamp", "Offset", "Size", "IOType", "VolumeID"};

  TencentTraceReader(Path path) {
    super(path, "Timestamp");
  }

  @Override
  public TraceFormat format() {
    return TraceFormat.TENCENT;
  }

  @Override
  protected TraceRecord parse(String line, long lineNo) {
    Fields f = fields.split(line, ',', lineNo);
    f.requireAtLeast(COLUMNS);
    long timeNs = f.nonNegativeLongTimes(0, "Timestamp", 1_000_000_000L);
    long offset = f.nonNegativeLongTimes(1, "Offset", SECTOR_BYTES);
    long size = f.nonNegativeLongTimes(2, "Size", SECTOR_BYTES);
    TraceOp op;
    switch (f.get(3)) {
      case "0" -> op = TraceOp.READ;
      case "1" -> op = TraceOp.WRITE;
      default -> throw f.error("IOType", "IOType must be 0 (read) or 1 (write), was '"
          + f.get(3) + "'");
    }
    f.nonNegativeLong(4, "VolumeID");
    return TraceRecord.block(timeNs, f.get(4), op, offset, size, TraceRecord.NO_LATENCY, lineNo);
  }
}
