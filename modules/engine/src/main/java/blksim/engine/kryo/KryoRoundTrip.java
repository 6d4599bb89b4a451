package blksim.engine.kryo;

import com.typesafe.config.ConfigFactory;
import java.util.List;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;

/**
 * Test helper: serializes a value and reads it back, as a remote node would, so each module can
 * check that its messages are registered and survive the trip ({@code assertEquals(m,
 * KryoRoundTrip.standalone(m))}).
 *
 * <p>{@link #standalone} uses a Kryo instance built from {@code blksim.kryo.registrars} of the
 * default configuration, with no actor system (values holding actor refs need {@link #viaPekko}).
 * {@link #viaPekko} goes through Pekko's serialization extension of {@code system} and also checks
 * that the value's class is bound to {@link KryoSerializer}.
 */
public final class KryoRoundTrip {
  private static volatile List<KryoRegistrar> defaultRegistrars;

  private KryoRoundTrip() {}

  /** The value after a trip through a standalone Kryo instance. */
  @SuppressWarnings("unchecked")
  public static <T> T standalone(T value) {
    List<KryoRegistrar> regs = defaultRegistrars;
    if (regs == null) {
      regs = KryoSerializer.registrars(ConfigFactory.load());
      defaultRegistrars = regs;
    }
    com.esotericsoftware.kryo.Kryo kryo = KryoSerializer.newKryo(regs, null, null);
    com.esotericsoftware.kryo.io.Output out = new com.esotericsoftware.kryo.io.Output(1024, -1);
    kryo.writeClassAndObject(out, value);
    return (T) kryo.readClassAndObject(new com.esotericsoftware.kryo.io.Input(out.toBytes()));
  }

  /**
   * The value after a trip through the serializer Pekko picks for it on {@code system}; fails if
   * that serializer is not {@link KryoSerializer}.
   */
  @SuppressWarnings("unchecked")
  public static <T> T viaPekko(ActorSystem<?> system, T value) {
    Serialization s = SerializationExtension.get(Adapter.toClassic(system));
    Serializer ser = s.findSerializerFor(value);
    if (!(ser instanceof KryoSerializer)) {
      throw new AssertionError(value.getClass().getName() + " is serialized by "
          + ser.getClass().getName() + ", not by " + KryoSerializer.class.getName()
          + ": add a serialization binding");
    }
    byte[] bytes = ser.toBinary(value);
    return (T) s.deserialize(bytes, ser.identifier(), "").get();
  }

  /** The number of bytes {@code value} takes on the wire, via {@code system}'s serializer. */
  public static int size(ActorSystem<?> system, Object value) {
    Serialization s = SerializationExtension.get(Adapter.toClassic(system));
    return s.findSerializerFor(value).toBinary(value).length;
  }
}
