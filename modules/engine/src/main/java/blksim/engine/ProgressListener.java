package blksim.engine;

/** Told after each window how far a run has come; used by the CLI's progress line. */
@FunctionalInterface
public interface ProgressListener {

  /** The run has reached virtual time {@code simTimeNs} after {@code events} events. */
  void progress(long simTimeNs, long events);

  ProgressListener NONE = (t, e) -> {};
}
