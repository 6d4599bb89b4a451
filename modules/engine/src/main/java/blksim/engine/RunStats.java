package blksim.engine;

/**
 * How a run went, for the {@code blksim} section of the results.
 *
 * @param events events run in all partitions
 * @param windows synchronisation windows (rounds of the window protocol)
 * @param partitions number of partitions
 * @param simulatedTimeNs virtual time at the end of the run
 * @param wallTimeNs wall-clock duration of the run (host measurement, not part of the model)
 */
public record RunStats(long events, long windows, int partitions, long simulatedTimeNs, long wallTimeNs) {

  /** Events per window per partition: how much work each synchronisation round amortises. */
  public double couplingFactor() {
    return windows == 0 ? 0 : (double) events / windows / partitions;
  }

  /** Events run per wall-clock second. */
  public double eventsPerWallSecond() {
    return wallTimeNs == 0 ? 0 : events * 1e9 / wallTimeNs;
  }
}
