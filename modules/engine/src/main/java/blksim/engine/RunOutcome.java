package blksim.engine;

import java.util.List;

/**
 * The result of a run: every component's report in model order, and the run's statistics.
 */
public record RunOutcome(List<IndexedReport> reports, RunStats stats) {}
