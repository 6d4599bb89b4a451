package blksim.engine.pekko;

/**
 * Marker for the messages of the window protocol between the run coordinator and the partition
 * entities. Bound to {@link blksim.engine.kryo.KryoSerializer} in the engine's reference.conf
 * ({@code pekko.actor.serialization-bindings}), so they cross JVMs with Kryo; Java serialization
 * is off.
 */
public interface ProtocolMessage {}
