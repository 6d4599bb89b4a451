package blksim.engine.pekko;

import blksim.engine.InputException;
import blksim.engine.LookaheadViolation;
import blksim.engine.SimulationException;

/**
 * A failure inside a partition, in a form that crosses JVMs (Java serialization is off, so
 * exceptions themselves are never shipped). The run coordinator turns it back into an exception
 * of the same type with the same message, which {@link ClusterRunner} throws.
 *
 * @param type which exception it was
 * @param message the exception's message
 * @param file for {@link Type#INPUT}: {@link InputException#file()}, else null
 * @param line for {@link Type#INPUT}: {@link InputException#line()}, else 0
 * @param key for {@link Type#INPUT}: {@link InputException#key()}, else null
 * @param rule for {@link Type#INPUT}: {@link InputException#rule()}, else null
 */
public record PartitionError(Type type, String message, String file, int line, String key,
    String rule) {

  /** The kinds of failure that are rethrown as themselves. */
  public enum Type {
    /** A {@link LookaheadViolation}. */
    LOOKAHEAD,
    /** An {@link InputException}. */
    INPUT,
    /** Any other {@link SimulationException}, or an unexpected exception (wrapped). */
    SIMULATION
  }

  /** Captures {@code e}, thrown in partition {@code partition}. */
  public static PartitionError of(int partition, Throwable e) {
    if (e instanceof LookaheadViolation) {
      return new PartitionError(Type.LOOKAHEAD, e.getMessage(), null, 0, null, null);
    }
    if (e instanceof InputException ie) {
      return new PartitionError(Type.INPUT, e.getMessage(), ie.file(), ie.line(), ie.key(),
          ie.rule());
    }
    if (e instanceof SimulationException) {
      return new PartitionError(Type.SIMULATION, e.getMessage(), null, 0, null, null);
    }
    return new PartitionError(Type.SIMULATION, "partition " + partition + " failed: " + e, null,
        0, null, null);
  }

  /** The exception to throw on the launching node: same type, same message. */
  public RuntimeException toException() {
    switch (type) {
      case LOOKAHEAD:
        return new LookaheadViolation(message);
      case INPUT:
        return new InputException(file, line, key, rule);
      default:
        return new SimulationException(message);
    }
  }
}
