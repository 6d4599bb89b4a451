package blksim.engine;

import java.util.SplittableRandom;

/**
 * What a component sees while it handles one message: the virtual clock, a way to send, its own
 * random stream.
 *
 * <p>Virtual time is a {@code long} count of nanoseconds since the start of the run, owned by the
 * engine. Model code never reads the wall clock.
 */
public interface Context {

  /** The current virtual time, in nanoseconds since the start of the run. */
  long now();

  /** The index of the component now handling a message. */
  int self();

  /**
   * Sends {@code message} to the component with index {@code target}, to be delivered at
   * {@code now() + delayNs}. A send to a component in another partition must have a delay of at
   * least the run's lookahead; a shorter one fails the run with an error naming both components.
   */
  void send(int target, Message message, long delayNs);

  /** Sends a message to oneself after {@code delayNs}: the engine's only timer. */
  default void schedule(long delayNs, Message message) {
    send(self(), message, delayNs);
  }

  /** This component's random stream, seeded from (run seed, component id). */
  SplittableRandom random();

  /** The index of the component with the given id; throws if there is none. */
  int indexOf(String componentId);

  /**
   * Declares that this component no longer keeps the run alive (a fio job that finished). The run
   * ends one lookahead after the last such component is done, or when no event is left.
   */
  void done();
}
