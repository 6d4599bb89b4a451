package blksim.engine;

/**
 * One simulated actor: a CPU, a worker pool, a dm target, a device, an io_uring instance.
 *
 * <p>A component owns its state privately and changes it only in {@link #handle}, at the virtual
 * time given by the context. It never imports Pekko: the engine hosts it in a partition, which is
 * hosted in turn by a Pekko actor.
 */
public interface Component {

  /** Stable id derived from the topology, such as {@code cpu/17} or {@code dev/nullb0}. */
  String id();

  /** Where the component lives, for partitioning. */
  Locality locality();

  /**
   * Whether the run lasts until this component calls {@link Context#done()}. Workload components
   * (fio jobs) say yes; the machine (CPUs, ticks, devices) says no.
   */
  default boolean keepsRunAlive() {
    return false;
  }

  /** Called once at virtual time 0, before any message; may send the first messages. */
  default void start(Context ctx) {}

  /** Handles one message at {@code ctx.now()}. */
  void handle(Message message, Context ctx);

  /**
   * The component's results at the end of the run, or {@code null} if it has none. The payload
   * must be deterministic and self-contained: it may be shipped to another JVM.
   */
  default ComponentReport report(long endNs) {
    return null;
  }
}
