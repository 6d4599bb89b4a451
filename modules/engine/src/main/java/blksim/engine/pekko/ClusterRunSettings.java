package blksim.engine.pekko;

import com.typesafe.config.Config;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code blksim.engine} section of the configuration: settings of runs hosted on Pekko.
 * Defaults live in the engine's reference.conf; unknown keys are refused.
 *
 * @param watchdog wall time a run may go without any phase (window) completing before it fails
 * @param maxEventsPerChunk most events in one message between partitions
 * @param startTimeout wall time allowed for an embedded cluster to come up and register regions
 * @param windowProtocol {@code coordinator}, {@code peer} or {@code auto} (peer windows up to
 *     {@link #PEER_MAX_PARTITIONS} partitions): see {@link PartitionEntity}
 */
public record ClusterRunSettings(Duration watchdog, int maxEventsPerChunk, Duration startTimeout,
    String windowProtocol) {

  /**
   * Most partitions for which {@code auto} picks peer windows: their marks are all-to-all
   * (n(n-1) messages a window against the coordinator's 2n).
   */
  public static final int PEER_MAX_PARTITIONS = 16;

  private static final Set<String> KEYS =
      Set.of("watchdog", "max-events-per-chunk", "start-timeout", "model-factories",
          "auto-down-after", "window-protocol");

  public ClusterRunSettings {
    if (watchdog.isNegative() || watchdog.isZero()) {
      throw new IllegalArgumentException("blksim.engine.watchdog must be positive, was "
          + watchdog);
    }
    if (maxEventsPerChunk < 1) {
      throw new IllegalArgumentException(
          "blksim.engine.max-events-per-chunk must be at least 1, was " + maxEventsPerChunk);
    }
    if (startTimeout.isNegative() || startTimeout.isZero()) {
      throw new IllegalArgumentException("blksim.engine.start-timeout must be positive, was "
          + startTimeout);
    }
    if (!Set.of("auto", "coordinator", "peer").contains(windowProtocol)) {
      throw new IllegalArgumentException("blksim.engine.window-protocol must be auto, coordinator"
          + " or peer, was " + windowProtocol);
    }
  }

  /** Whether a run of {@code partitions} partitions plans its windows among its partitions. */
  public boolean peerWindows(int partitions) {
    return switch (windowProtocol) {
      case "peer" -> true;
      case "coordinator" -> false;
      default -> partitions <= PEER_MAX_PARTITIONS;
    };
  }

  /** Reads {@code blksim.engine} from a full configuration. */
  public static ClusterRunSettings from(Config config) {
    Config c = config.getConfig("blksim.engine");
    Set<String> unknown = new TreeSet<>();
    for (var e : c.root().entrySet()) {
      if (!KEYS.contains(e.getKey())) {
        unknown.add(e.getKey());
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown key(s) under blksim.engine: " + unknown
          + "; known keys are " + new TreeSet<>(KEYS));
    }
    return new ClusterRunSettings(c.getDuration("watchdog"), c.getInt("max-events-per-chunk"),
        c.getDuration("start-timeout"),
        c.hasPath("window-protocol") ? c.getString("window-protocol") : "auto");
  }

  /** A copy with another watchdog time. */
  public ClusterRunSettings withWatchdog(Duration d) {
    return new ClusterRunSettings(d, maxEventsPerChunk, startTimeout, windowProtocol);
  }
}
