package blksim.workload.trace;

import blksim.engine.InputException;

/**
 * A stream of {@link TraceRecord}s read from one trace, one record at a time.
 *
 * <p>A reader never loads the whole trace: it holds its open input and O(1) state (the blktrace
 * readers add a bounded window of requests waiting for their completion, see {@link
 * TraceOptions#maxInFlight()}). It is used by one thread. Obtain one with {@link
 * TraceFormat#open(java.nio.file.Path, TraceFormat, TraceOptions)}.
 */
public interface TraceReader extends AutoCloseable {

  /**
   * The next record, or {@code null} at the end of the trace.
   *
   * @throws InputException when a record is malformed (file, line, field and rule) or the input
   *     cannot be read
   */
  TraceRecord next();

  /** The format being read. */
  TraceFormat format();

  /** Closes the input; never throws a checked exception. */
  @Override
  void close();
}
