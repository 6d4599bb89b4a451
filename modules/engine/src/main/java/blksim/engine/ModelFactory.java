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

  /** Instantiates a factory by class name, as a remote partition does. */
  static ModelFactory byName(String className) {
    try {
      return (ModelFactory)
          Class.forName(className).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalStateException("cannot instantiate model factory " + className, e);
    }
  }
}
