package blksim.workload.trace;

/**
 * One normalised trace record: what every reader of this package produces.
 *
 * <p>The time base depends on the format and is given by {@link TraceFormat#timeBase()}:
 * relative to the start of the trace (fio iolog v3, blkparse, blktrace, SPC, DiskSim) or absolute
 * Unix-epoch nanoseconds (MSR, Alibaba, Tencent, SYSTOR). fio iolog v2 has no timestamps; its
 * records carry {@link #NO_TIME}.
 *
 * @param timeNs arrival time in ns in the format's time base, or {@link #NO_TIME}
 * @param device the device, volume, LUN, ASU or file as the format names it ({@code "8,16"} for
 *     blktrace, the volume id for Tencent, {@code host_disk} for MSR, the file name for fio
 *     iologs); may be {@code null}
 * @param op what the record asks for
 * @param fileName the file name of a fio iolog record (every iolog record has one); {@code null}
 *     for the block formats
 * @param offsetBytes byte offset on the device or file; 0 when the operation has none. For
 *     {@link TraceOp#WAIT} it is the wait value in µs exactly as written (fio stores the offset
 *     column into {@code ipo->delay}, {@code iolog.c read_iolog()})
 * @param lengthBytes length in bytes; 0 when the operation has none
 * @param latencyNs latency recorded by the trace in ns (MSR ResponseTime, SYSTOR Response,
 *     blkparse/blktrace C minus the arrival), or {@link #NO_LATENCY}
 * @param line 1-based source line for text formats, or 1-based event number in its per-CPU file
 *     for binary blktrace; used to point at the record in later errors
 */
public record TraceRecord(long timeNs, String device, TraceOp op, String fileName,
    long offsetBytes, long lengthBytes, long latencyNs, long line) {

  /** {@link #timeNs()} of a record whose format has no timestamps (fio iolog v2). */
  public static final long NO_TIME = -1;
  /** {@link #latencyNs()} of a record whose format recorded no latency. */
  public static final long NO_LATENCY = -1;

  /** Checks the ranges above. */
  public TraceRecord {
    if (timeNs < NO_TIME) {
      throw new IllegalArgumentException("timeNs must be >= 0 or NO_TIME, was " + timeNs);
    }
    if (op == null) {
      throw new IllegalArgumentException("op must not be null");
    }
    if (offsetBytes < 0) {
      throw new IllegalArgumentException("offsetBytes must be >= 0, was " + offsetBytes);
    }
    if (lengthBytes < 0) {
      throw new IllegalArgumentException("lengthBytes must be >= 0, was " + lengthBytes);
    }
    if (latencyNs < NO_LATENCY) {
      throw new IllegalArgumentException("latencyNs must be >= 0 or NO_LATENCY, was " + latencyNs);
    }
    if (line < 0) {
      throw new IllegalArgumentException("line must be >= 0, was " + line);
    }
  }

  /** A block record without file name. */
  static TraceRecord block(long timeNs, String device, TraceOp op, long offsetBytes,
      long lengthBytes, long latencyNs, long line) {
    return new TraceRecord(timeNs, device, op, null, offsetBytes, lengthBytes, latencyNs, line);
  }

  /** This record with {@code latencyNs} replaced. */
  TraceRecord withLatencyNs(long newLatencyNs) {
    return new TraceRecord(timeNs, device, op, fileName, offsetBytes, lengthBytes, newLatencyNs,
        line);
  }
}
