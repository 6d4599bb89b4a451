package blksim.engine;

/**
 * A component sent a message to a component in another partition with a delay below the run's
 * lookahead. Such a send could arrive in a window that is already running, so the run stops.
 */
public final class LookaheadViolation extends SimulationException {
  private static final long serialVersionUID = 1L;

  public LookaheadViolation(String sender, String target, long delayNs, long lookaheadNs, long now) {
    super(String.format(
        "cross-partition send from %s to %s with delay %d ns is below the lookahead of %d ns"
            + " (at virtual time %d ns): place the two components in the same partition or"
            + " give the message a delay of at least the lookahead",
        sender, target, delayNs, lookaheadNs, now));
  }

  /**
   * Re-creates a violation from its message, as the cluster host does when a remote partition
   * reports one: the message is the one the partition produced, naming both components.
   */
  public LookaheadViolation(String message) {
    super(message);
  }
}
