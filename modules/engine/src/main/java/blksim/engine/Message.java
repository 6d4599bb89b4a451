package blksim.engine;

/**
 * Marker for everything one component sends to another: a bio, a completion, a wakeup, a credit.
 *
 * <p>Messages are immutable (Java records) and every concrete type is registered with Kryo (see
 * {@link blksim.engine.kryo.KryoRegistrar}) so that it can cross JVMs when partitions are hosted on
 * different cluster nodes.
 */
public interface Message {}
