package blksim.workload.replay;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Process-wide progress of the replays running in this JVM, for the CLI's progress line on
 * stderr only: records read, the furthest trace time reached and the furthest window end. It is
 * written by the replaying threads and read by the display; nothing in the model reads it, so it
 * cannot change a result. Replays in other JVMs of a cluster run are not counted.
 */
public final class ReplayProgress {
  private static final LongAdder RECORDS = new LongAdder();
  private static final AtomicLong TRACE_NS = new AtomicLong();
  private static final AtomicLong END_NS = new AtomicLong();

  private ReplayProgress() {}

  /** Forgets the previous run's replays. */
  public static void reset() {
    RECORDS.reset();
    TRACE_NS.set(0);
    END_NS.set(0);
  }

  /** {@code records} more records read, the furthest at {@code traceNs}. */
  static void record(long records, long traceNs) {
    RECORDS.add(records);
    if (traceNs > TRACE_NS.get()) {
      TRACE_NS.accumulateAndGet(traceNs, Math::max);
    }
  }

  static void windowEnd(long endNs) {
    END_NS.accumulateAndGet(endNs, Math::max);
  }

  /** Records read by every replay so far. */
  public static long records() {
    return RECORDS.sum();
  }

  /** The furthest trace time reached, ns from the start of its trace. */
  public static long traceNs() {
    return TRACE_NS.get();
  }

  /** The furthest {@code replay_end} of the replays, 0 when none has one. */
  public static long windowEndNs() {
    return END_NS.get();
  }
}
