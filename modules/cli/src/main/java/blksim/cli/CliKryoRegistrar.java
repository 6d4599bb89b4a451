package blksim.cli;

import blksim.engine.kryo.KryoRegistrar;
import com.esotericsoftware.kryo.Kryo;

/**
 * The cli module's Kryo registrations (ids 4000 to 4999, shared with report): the distributed
 * sweep's messages ({@link SweepWork}). Ids are part of the wire format; add new classes at the
 * end with a fresh id, never renumber.
 */
public final class CliKryoRegistrar implements KryoRegistrar {

  /** Creates the registrar (instantiated by name from {@code blksim.kryo.registrars}). */
  public CliKryoRegistrar() {}

  @Override
  public void register(Kryo kryo) {
    KryoRegistrar.register(kryo, double[].class, 4500);
    KryoRegistrar.register(kryo, SweepWork.RunRequest.class, 4501);
    KryoRegistrar.register(kryo, SweepWork.RunReply.class, 4502);
  }
}
