package blksim.engine;

/**
 * A run failed: a broken model invariant, a lookahead violation, a lost message or a stall. The
 * message names the component and the virtual time when known.
 */
public class SimulationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SimulationException(String message) {
    super(message);
  }

  public SimulationException(String message, Throwable cause) {
    super(message, cause);
  }
}
