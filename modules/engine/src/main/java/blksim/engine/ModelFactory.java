package blksim.engine;

/**
 * Builds a {@link Model} from a text description (a resolved scenario).
 *
 * <p>Every partition builds the whole model from the same text and keeps only its own components,
 * so that a partition hosted on another JVM needs nothing but this text. Implementations must have
 * a public no-argument constructor and be deterministic.
 */
public interface ModelFactory {

  /** Builds the model described by {@code spec}. */
  Model build(String spec);

  /** Instantiates a factory by class name (a name from this JVM's own code). */
  static ModelFactory byName(String className) {
    try {
      return (ModelFactory)
          Class.forName(className).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalStateException("cannot instantiate model factory " + className, e);
    }
  }

  /**
   * Instantiates a factory by a class name received over the wire, as a remote partition does:
   * only a name on {@code allowed} ({@code blksim.engine.model-factories}) is looked up at all,
   * so a forged start-up message cannot make this JVM load or initialise any other class.
   */
  static ModelFactory byName(String className, java.util.Collection<String> allowed) {
    if (!allowed.contains(className)) {
      throw new SecurityException("model factory " + className + " is not on the allow-list"
          + " blksim.engine.model-factories " + allowed + ": refused");
    }
    return byName(className);
  }
}
