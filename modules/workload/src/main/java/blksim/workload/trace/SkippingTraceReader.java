package blksim.workload.trace;

import blksim.engine.InputException;

/**
 * A line format's reader that skips malformed records ({@link TraceOptions#skipMalformed}):
 * each one is counted, the first three are named in a notice with their file, line, field and
 * rule, and the count is noticed when the trace ends. The line reader has consumed the bad line
 * when it throws, so reading simply goes on with the next.
 */
final class SkippingTraceReader implements TraceReader {
  /** Malformed records named one by one before only the total is. */
  static final int NAMED = 3;

  private final LineTraceReader inner;
  private final TraceOptions options;
  private long skipped;
  private boolean ended;

  SkippingTraceReader(LineTraceReader inner, TraceOptions options) {
    this.inner = inner;
    this.options = options;
  }

  @Override
  public TraceRecord next() {
    while (true) {
      try {
        TraceRecord r = inner.next();
        if (r == null && !ended) {
          ended = true;
          if (skipped > 0) {
            options.notices().accept(skipped + " malformed record(s) skipped and counted"
                + " (the replay's skip-malformed switch)");
          }
        }
        return r;
      } catch (InputException e) {
        skipped++;
        if (skipped <= NAMED) {
          options.notices().accept("skipped malformed record: " + e.getMessage());
        }
      }
    }
  }

  /** Malformed records skipped so far. */
  long skipped() {
    return skipped;
  }

  @Override
  public TraceFormat format() {
    return inner.format();
  }

  @Override
  public void close() {
    inner.close();
  }
}
