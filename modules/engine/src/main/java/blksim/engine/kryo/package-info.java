/**
 * Kryo serialization of everything that crosses JVMs: {@link blksim.engine.kryo.KryoSerializer}
 * (a Pekko serializer, registration required, pooled Kryo instances), the per-module
 * {@link blksim.engine.kryo.KryoRegistrar}s listed in {@code blksim.kryo.registrars}, and the
 * {@link blksim.engine.kryo.KryoRoundTrip} test helper. See {@link blksim.engine.kryo.KryoRegistrar}
 * for the id ranges and how a module adds its classes.
 */
package blksim.engine.kryo;
