package blksim.bench;

import blksim.engine.Event;
import blksim.engine.EventQueue;
import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.engine.synthetic.EngineBench;
import blksim.engine.synthetic.Ping;
import blksim.engine.synthetic.PingModelFactory;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH micro-benchmarks of the engine's hot path: the event queue, and a whole single-partition run
 * of the synthetic ping workload on the local host (no Pekko). {@code ./blksim bench} measures the
 * end-to-end figures of the README; these isolate the parts.
 *
 * <pre>
 * mvn -q -DskipTests package -pl modules/bench -am
 * java -cp "modules/bench/target/blksim-bench-0.1.0-SNAPSHOT.jar:modules/bench/target/lib/*" \
 *     org.openjdk.jmh.Main EngineJmh -f 1 -wi 3 -i 5
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EngineJmh {
  @Param({"1024", "65536"})
  public int queueSize;

  private EventQueue queue;
  private SplittableRandom random;
  private long seq;
  private String pingSpec;

  @Setup
  public void setup() {
    queue = new EventQueue();
    random = new SplittableRandom(1);
    for (int i = 0; i < queueSize; i++) {
      queue.add(event());
    }
    pingSpec = EngineBench.spec(1000, 200_000);
  }

  private Event event() {
    return new Event(random.nextLong(1_000_000), 0, random.nextInt(1000), seq++, new Ping(0, 0));
  }

  /** One poll and one add on a queue of {@code queueSize} events: the per-event queue cost. */
  @Benchmark
  public Event pollAndAdd() {
    Event e = queue.poll();
    queue.add(new Event(e.time() + random.nextLong(1000), e.target(), e.sender(), seq++,
        e.message()));
    return e;
  }

  /** A whole local run of 1,000 ping components for 0.2 ms of virtual time, one partition. */
  @Benchmark
  public RunOutcome pingRun() {
    Model model = new PingModelFactory().build(pingSpec);
    return LocalRunner.run(model, Partitioning.ONE, 1, ProgressListener.NONE);
  }
}
