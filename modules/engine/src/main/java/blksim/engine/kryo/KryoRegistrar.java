package blksim.engine.kryo;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.serializers.RecordSerializer;

/**
 * Registers one module's serializable classes (its {@link blksim.engine.Message} records and
 * anything they hold) with a Kryo instance, under fixed ids.
 *
 * <p>Kryo runs with registration required: a class that is not registered cannot cross JVMs, and
 * ids (not class names) go on the wire, so every node of a cluster must register the same classes
 * under the same ids. Each module therefore owns an id range and registers with explicit ids
 * through {@link #register(Kryo, Class, int)}, which refuses an id already taken by another class:
 *
 * <table>
 *   <caption>Kryo id ranges</caption>
 *   <tr><th>ids</th><th>owner</th></tr>
 *   <tr><td>0 - 9</td><td>Kryo's own defaults (primitives, String)</td></tr>
 *   <tr><td>10 - 99</td><td>{@link KryoSerializer} itself (actor refs)</td></tr>
 *   <tr><td>100 - 999</td><td>engine ({@link EngineKryoRegistrar})</td></tr>
 *   <tr><td>1000 - 2999</td><td>kernel</td></tr>
 *   <tr><td>3000 - 3999</td><td>workload</td></tr>
 *   <tr><td>4000 - 4999</td><td>report and cli</td></tr>
 *   <tr><td>9000 - 9999</td><td>tests</td></tr>
 * </table>
 *
 * <h2>How a module adds its classes</h2>
 *
 * <ol>
 *   <li>Write a public class with a public no-argument constructor implementing this interface,
 *       for example {@code blksim.kernel.KernelKryoRegistrar}, that calls
 *       {@code KryoRegistrar.register(kryo, Bio.class, 1000)} and so on for every message record
 *       (records get Kryo's record serializer automatically), in a fixed order.
 *   <li>Append it to the list in the module's own {@code src/main/resources/reference.conf}:
 *       <pre>
 * blksim.kryo.registrars = ${?blksim.kryo.registrars} ["blksim.kernel.KernelKryoRegistrar"]
 * </pre>
 *       The optional self-reference {@code ${?...}} appends to whatever the other modules'
 *       reference.conf files put there, whichever order the class path merges them in (the
 *       engine's own entry uses the same form). Because ids are explicit, the order of the list
 *       does not change the wire format; {@link KryoSerializer} runs the engine's registrar
 *       first and each listed registrar once.
 *   <li>Round-trip every message type in a test with {@link KryoRoundTrip}.
 * </ol>
 */
public interface KryoRegistrar {

  /** Registers this module's classes with {@code kryo}, each under its fixed id. */
  void register(Kryo kryo);

  /**
   * Registers {@code type} under {@code id} with Kryo's default serializer for it (the record
   * serializer for records). Fails if the id is already taken by another class, or the class is
   * already registered under another id: Kryo itself would silently overwrite.
   */
  static Registration register(Kryo kryo, Class<?> type, int id) {
    return register(kryo, type, id, null);
  }

  /**
   * Registers {@code type} under {@code id} with the given serializer ({@code null}: Kryo's
   * default for the type), refusing id clashes as {@link #register(Kryo, Class, int)} does.
   */
  static Registration register(Kryo kryo, Class<?> type, int id, Serializer<?> serializer) {
    Registration taken = kryo.getRegistration(id);
    if (taken != null && taken.getType() != type) {
      throw new IllegalStateException("Kryo id " + id + " is already taken by "
          + taken.getType().getName() + ", cannot register " + type.getName() + " under it");
    }
    Registration existing = kryo.getClassResolver().getRegistration(type);
    if (existing != null && existing.getId() != id && existing.getId() >= 0) {
      throw new IllegalStateException(type.getName() + " is already registered with Kryo id "
          + existing.getId() + ", cannot register it again under " + id);
    }
    Serializer<?> s = serializer;
    if (s == null && type.isRecord()) {
      s = new RecordSerializer<>(type);
    }
    return s == null ? kryo.register(type, id) : kryo.register(type, s, id);
  }
}
