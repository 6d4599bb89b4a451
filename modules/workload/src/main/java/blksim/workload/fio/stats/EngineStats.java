package blksim.workload.fio.stats;

/**
 * Discrete-event engine counters of one simulation run, reported in the extra top-level
 * {@code "blksim"} object of the JSON output. Not a fio structure.
 *
 * @param events events executed
 * @param windows synchronisation windows (conservative lookahead rounds) executed
 * @param partitions engine partitions the model ran on
 * @param couplingFactor cross-partition messages per event
 * @param simulatedTimeNs virtual time at the end of the run, in nanoseconds
 * @param wallTimeNs wall-clock duration of the run, in nanoseconds (not deterministic)
 * @param eventsPerWallSecond {@code events / wall seconds} (not deterministic)
 */
public record EngineStats(long events, long windows, int partitions, double couplingFactor, long simulatedTimeNs,
                          long wallTimeNs, double eventsPerWallSecond) {
}
