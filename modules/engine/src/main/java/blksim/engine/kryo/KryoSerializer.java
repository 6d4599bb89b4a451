package blksim.engine.kryo;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.Pool;
import com.typesafe.config.Config;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.JSerializer;

/**
 * Pekko serializer for everything blksim ships between JVMs (protocol messages, events, model
 * messages, reports), with Kryo 5 and registration required.
 *
 * <p>Configured in the engine's reference.conf as serializer {@code blksim-kryo}, bound to
 * {@link blksim.engine.Message}, {@link blksim.engine.pekko.ProtocolMessage} and the engine's
 * records. The classes it knows come from the registrars listed in {@code blksim.kryo.registrars}
 * (see {@link KryoRegistrar} for how a module adds its own); the engine's registrar always runs
 * first and each registrar runs once. Typed actor refs are written as their serialization string
 * ({@link ActorRefResolver}) and resolved on the receiving system.
 *
 * <p>Kryo instances are not thread-safe: each call borrows one from a pool (and an output buffer
 * from another), so the serializer may be used by any number of threads at once.
 */
public final class KryoSerializer extends JSerializer {

  /** Pekko serializer id of blksim's Kryo serializer (Pekko reserves 0 to 40). */
  public static final int IDENTIFIER = 1_447_001;

  /** Kryo id of typed actor refs. */
  static final int ACTOR_REF_ID = 10;

  private final ExtendedActorSystem system;
  private final List<KryoRegistrar> registrars;
  private volatile ActorRefResolver resolver;

  private final Pool<Kryo> kryos = new Pool<>(true, false, 64) {
    @Override
    protected Kryo create() {
      return newKryo(registrars, KryoSerializer.this::resolver,
          Adapter.toTyped(system.deadLetters()).getClass());
    }
  };

  private final Pool<Output> outputs = new Pool<>(true, false, 64) {
    @Override
    protected Output create() {
      return new Output(16 * 1024, -1);
    }
  };

  /** Created by Pekko's serialization extension, once per actor system. */
  public KryoSerializer(ExtendedActorSystem system) {
    this.system = system;
    this.registrars = registrars(system.settings().config());
  }

  @Override
  public int identifier() {
    return IDENTIFIER;
  }

  @Override
  public boolean includeManifest() {
    return false;
  }

  @Override
  public byte[] toBinary(Object o) {
    Kryo kryo = kryos.obtain();
    Output out = outputs.obtain();
    try {
      out.reset();
      kryo.writeClassAndObject(out, o);
      return out.toBytes();
    } finally {
      outputs.free(out);
      kryos.free(kryo);
    }
  }

  @Override
  public Object fromBinaryJava(byte[] bytes, Class<?> manifest) {
    Kryo kryo = kryos.obtain();
    try {
      return kryo.readClassAndObject(new Input(bytes));
    } finally {
      kryos.free(kryo);
    }
  }

  private ActorRefResolver resolver() {
    ActorRefResolver r = resolver;
    if (r == null) {
      // Resolved lazily: the serializer is created while the actor system starts.
      r = ActorRefResolver.get(Adapter.toTyped(system));
      resolver = r;
    }
    return r;
  }

  /**
   * The registrars listed under {@code blksim.kryo.registrars}, instantiated, the engine's first,
   * each once.
   */
  public static List<KryoRegistrar> registrars(Config config) {
    Set<String> names = new LinkedHashSet<>();
    names.add(EngineKryoRegistrar.class.getName());
    names.addAll(config.getStringList("blksim.kryo.registrars"));
    List<KryoRegistrar> out = new ArrayList<>();
    for (String name : names) {
      try {
        Class<?> c = Class.forName(name, true, KryoSerializer.class.getClassLoader());
        out.add((KryoRegistrar) c.getDeclaredConstructor().newInstance());
      } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
        throw new IllegalStateException("blksim.kryo.registrars: cannot instantiate " + name
            + " as a " + KryoRegistrar.class.getName() + ": " + e, e);
      }
    }
    return out;
  }

  /**
   * A Kryo instance with registration required, references off, and the classes of every
   * registrar. With a resolver, typed actor refs (concrete class {@code refClass}) are registered
   * too; without one (standalone use in tests), they cannot be serialized.
   */
  static Kryo newKryo(List<KryoRegistrar> registrars,
      java.util.function.Supplier<ActorRefResolver> resolver, Class<?> refClass) {
    Kryo kryo = new Kryo();
    kryo.setRegistrationRequired(true);
    kryo.setReferences(false);
    if (resolver != null) {
      KryoRegistrar.register(kryo, refClass, ACTOR_REF_ID, new TypedActorRefSerializer(resolver));
    }
    for (KryoRegistrar r : registrars) {
      r.register(kryo);
    }
    return kryo;
  }

  /** Writes a typed actor ref as its serialization string and resolves it on read. */
  private static final class TypedActorRefSerializer
      extends com.esotericsoftware.kryo.Serializer<ActorRef<?>> {
    private final java.util.function.Supplier<ActorRefResolver> resolver;

    TypedActorRefSerializer(java.util.function.Supplier<ActorRefResolver> resolver) {
      super(false, true);
      this.resolver = resolver;
    }

    @Override
    public void write(Kryo kryo, Output output, ActorRef<?> ref) {
      output.writeString(resolver.get().toSerializationFormat(ref));
    }

    @Override
    public ActorRef<?> read(Kryo kryo, Input input, Class<? extends ActorRef<?>> type) {
      return resolver.get().resolveActorRef(input.readString());
    }
  }
}
