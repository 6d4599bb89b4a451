package blksim.workload.trace;

import java.util.function.Consumer;

/**
 * How traces are read: choices the formats themselves leave open.
 *
 * @param arrival the blkparse/blktrace arrival event, or {@code null} to choose it from the file
 *     (Q if it has Q events, else D, else C)
 * @param notices receives one-line notes for the user (for example which arrival event was
 *     chosen and why); the CLI prints them on stderr. Never {@code null}
 * @param maxInFlight how many blkparse/blktrace arrivals may wait for their C event before the
 *     oldest is given up (emitted with no recorded latency); bounds the reader's memory. At least 1
 * @param disksimTimeUnitNs the unit of DiskSim ASCII arrival times in ns: 1,000,000 (ms) is
 *     DiskSim's own definition; MQSim and SSDsim write ns (1). At least 1
 * @param skipMalformed skip a malformed record of a line format (MSR, SPC, Alibaba, Tencent,
 *     SYSTOR, DiskSim, fio iolog) and count it instead of stopping the run; blkparse text and
 *     blktrace binaries still stop at one (their readers look ahead across events)
 */
public record TraceOptions(BlkArrival arrival, Consumer<String> notices, int maxInFlight,
    long disksimTimeUnitNs, boolean skipMalformed) {

  /** Options that stop at a malformed record. */
  public TraceOptions(BlkArrival arrival, Consumer<String> notices, int maxInFlight,
      long disksimTimeUnitNs) {
    this(arrival, notices, maxInFlight, disksimTimeUnitNs, false);
  }

  /** These options with {@code skipMalformed} replaced. */
  public TraceOptions withSkipMalformed(boolean skip) {
    return new TraceOptions(arrival, notices, maxInFlight, disksimTimeUnitNs, skip);
  }

  /** Default bound on arrivals waiting for their completion. */
  public static final int DEFAULT_MAX_IN_FLIGHT = 65_536;
  /** DiskSim's arrival-time unit, the millisecond, in ns. */
  public static final long DISKSIM_MS = 1_000_000L;

  /** Checks the ranges above. */
  public TraceOptions {
    if (notices == null) {
      throw new IllegalArgumentException("notices must not be null");
    }
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("maxInFlight must be >= 1, was " + maxInFlight);
    }
    if (disksimTimeUnitNs < 1) {
      throw new IllegalArgumentException(
          "disksimTimeUnitNs must be >= 1, was " + disksimTimeUnitNs);
    }
  }

  /** Automatic arrival choice, notices dropped, default bounds, DiskSim in ms. */
  public static TraceOptions defaults() {
    return new TraceOptions(null, s -> { }, DEFAULT_MAX_IN_FLIGHT, DISKSIM_MS);
  }

  /** These options with {@code arrival} replaced. */
  public TraceOptions withArrival(BlkArrival newArrival) {
    return new TraceOptions(newArrival, notices, maxInFlight, disksimTimeUnitNs, skipMalformed);
  }

  /** These options with {@code notices} replaced. */
  public TraceOptions withNotices(Consumer<String> newNotices) {
    return new TraceOptions(arrival, newNotices, maxInFlight, disksimTimeUnitNs, skipMalformed);
  }

  /** These options with {@code maxInFlight} replaced. */
  public TraceOptions withMaxInFlight(int newMaxInFlight) {
    return new TraceOptions(arrival, notices, newMaxInFlight, disksimTimeUnitNs, skipMalformed);
  }

  /** These options with {@code disksimTimeUnitNs} replaced. */
  public TraceOptions withDisksimTimeUnitNs(long newUnitNs) {
    return new TraceOptions(arrival, notices, maxInFlight, newUnitNs, skipMalformed);
  }
}
