package blksim.engine.synthetic;

import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.engine.pekko.ClusterRunner;
import java.util.Arrays;

/**
 * A plain benchmark of the engine on the synthetic {@link PingModelFactory} workload, without
 * JMH: how many events per wall second a host runs, in one or several partitions.
 *
 * <p>The workload keeps 16 pings in flight per component with a lookahead of 1 µs, so a window
 * of 2 partitions holds about 2,700 events per partition (its coupling factor): enough for the
 * window protocol's cost to stay small next to the partitions' own work.
 *
 * <p>Example: {@code java -cp ... blksim.engine.synthetic.EngineBench 1000 2000000} prints the
 * median of 3 runs for 1 and 2 partitions on both hosts.
 */
public final class EngineBench {

  /** Where the partitions run. */
  public enum Host {
    /** {@link LocalRunner}, one thread per partition. */
    LOCAL,
    /** {@link ClusterRunner} on an embedded single-node cluster. */
    CLUSTER
  }

  /**
   * What one benchmark run measured.
   *
   * @param events events run
   * @param wallNs wall time of the run proper (building partitions and the window loop; not
   *     the actor system's start-up)
   * @param windows synchronisation windows
   */
  public record Result(long events, long wallNs, long windows) {

    /** Events per wall second. */
    public double eventsPerSecond() {
      return wallNs == 0 ? 0 : events * 1e9 / wallNs;
    }
  }

  private EngineBench() {}

  /** The synthetic workload's spec for {@code components} components up to {@code simNs}. */
  public static String spec(int components, long simNs) {
    return "components=" + components + " cpus=8 nodes=2 lookahead=1000 inflight=16 endNs="
        + simNs + " seed=1";
  }

  /** Runs the workload once on {@code host} with {@code partitions} partitions. */
  public static Result run(int components, int partitions, Host host, long simNs) {
    String spec = spec(components, simNs);
    Partitioning p = Partitioning.parse(Integer.toString(partitions));
    RunOutcome o;
    if (host == Host.LOCAL) {
      o = LocalRunner.run(new PingModelFactory().build(spec), p, partitions,
          ProgressListener.NONE);
    } else {
      o = ClusterRunner.run(PingModelFactory.class.getName(), spec, p, ProgressListener.NONE);
    }
    return new Result(o.stats().events(), o.stats().wallTimeNs(), o.stats().windows());
  }

  /**
   * Prints the median events per second of 3 runs (after two warm-up runs) for each host and 1 and
   * 2 partitions. Arguments: components (default 1000), virtual ns per run (default 2 ms, about
   * 10.7 million events with 1000 components), and optionally LOCAL or CLUSTER to run one host.
   */
  public static void main(String[] args) {
    int components = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    long simNs = args.length > 1 ? Long.parseLong(args[1]) : 2_000_000L;
    String only = args.length > 2 ? args[2] : "";
    for (Host host : Host.values()) {
      if (!only.isEmpty() && !host.name().equalsIgnoreCase(only)) {
        continue;
      }
      for (int partitions : new int[] {1, 2}) {
        for (int i = 0; i < 2; i++) {
          run(components, partitions, host, simNs);
        }
        double[] eps = new double[3];
        Result last = null;
        for (int i = 0; i < 3; i++) {
          last = run(components, partitions, host, simNs);
          eps[i] = last.eventsPerSecond();
        }
        Arrays.sort(eps);
        System.out.printf("%-7s partitions=%d events=%d windows=%d events/s median=%.0f"
            + " (runs %.0f %.0f %.0f)%n", host, partitions, last.events(), last.windows(),
            eps[1], eps[0], eps[1], eps[2]);
      }
    }
  }
}
