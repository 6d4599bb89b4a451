package blksim.engine.kryo;

import blksim.engine.Message;
import blksim.engine.TestModels;
import com.esotericsoftware.kryo.Kryo;

/** Registers the engine tests' message types, ids 9000 and up. */
public final class TestKryoRegistrar implements KryoRegistrar {

  /** A message of the tests' own module. */
  public record Probe(String text, long value) implements Message {}

  @Override
  public void register(Kryo kryo) {
    KryoRegistrar.register(kryo, TestModels.Tick.class, 9000);
    KryoRegistrar.register(kryo, Probe.class, 9001);
  }
}
