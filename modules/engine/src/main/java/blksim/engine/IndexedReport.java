package blksim.engine;

/**
 * A component's report tagged with the component's index, so reports from all partitions can be
 * put back in model order.
 */
public record IndexedReport(int index, ComponentReport report) {}
