package blksim.kernel.sched;

/**
 * A task's results, as an opaque payload the layer that created the task decodes.
 *
 * @param name task name
 * @param kind what the payload is ({@code "fio-job"})
 * @param payload encoded results
 */
public record TaskReport(String name, String kind, byte[] payload) {}
