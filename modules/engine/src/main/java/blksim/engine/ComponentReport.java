package blksim.engine;

/**
 * Results of one component at the end of a run, as an opaque payload that crosses JVMs unchanged.
 *
 * @param componentId the reporting component
 * @param kind what the payload is ({@code "fio-job"}, {@code "disk"}, ...), chosen by the model
 * @param payload the encoded results; the model that wrote it decodes it
 */
public record ComponentReport(String componentId, String kind, byte[] payload) {}
