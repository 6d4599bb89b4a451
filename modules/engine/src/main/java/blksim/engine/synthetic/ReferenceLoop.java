package blksim.engine.synthetic;

import java.util.Arrays;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * The reference the engine's one-partition event rate is held against (issue 15, item 2): a
 * plain {@link PriorityQueue} hold model, exactly as the issue defines it. 1,000 pending events,
 * an {@code Event(time, seq, target)} record allocated per event, a comparator on (time, seq);
 * each step polls the earliest event and adds one at {@code time + 1 + random.nextInt(2000)}
 * from a {@code SplittableRandom(42)}. Two warm-up runs of 5 million events, then the median of
 * 3 runs. It does no work per event beyond the queue, so it is the cost of a textbook event loop
 * on this JVM and machine, measured in the same process as the engine.
 */
public final class ReferenceLoop {
  /** One pending event of the hold model. */
  record Event(long time, long seq, int target) {}

  private static final Comparator<Event> ORDER =
      Comparator.comparingLong(Event::time).thenComparingLong(Event::seq);

  /** Pending events. */
  public static final int PENDING = 1000;

  /** Events per measured run. */
  public static final long EVENTS = 5_000_000L;

  private ReferenceLoop() {}

  /**
   * Runs {@code events} steps of the hold model; returns the wall ns taken. The checksum of the
   * polled targets is kept in {@link #sink} so the JIT cannot drop the loop.
   */
  public static long run(long events) {
    SplittableRandom random = new SplittableRandom(42);
    PriorityQueue<Event> q = new PriorityQueue<>(PENDING, ORDER);
    long seq = 0;
    for (int i = 0; i < PENDING; i++) {
      q.add(new Event(1 + random.nextInt(2000), seq++, i));
    }
    long start = System.nanoTime();
    long sum = 0;
    for (long i = 0; i < events; i++) {
      Event e = q.poll();
      sum += e.target();
      q.add(new Event(e.time() + 1 + random.nextInt(2000), seq++, e.target()));
    }
    long wall = System.nanoTime() - start;
    sink += sum;
    return wall;
  }

  /** Keeps the loop's result alive. */
  public static volatile long sink;

  /** Two warm-up runs, then the events per second of {@code repeat} runs, sorted. */
  public static double[] eventsPerSecond(int repeat) {
    run(EVENTS);
    run(EVENTS);
    double[] eps = new double[repeat];
    for (int i = 0; i < repeat; i++) {
      eps[i] = EVENTS * 1e9 / run(EVENTS);
    }
    Arrays.sort(eps);
    return eps;
  }

  /** Prints the median of 3. */
  public static void main(String[] args) {
    double[] eps = eventsPerSecond(3);
    System.out.printf("reference PriorityQueue hold model: %.0f events/s (runs %.0f %.0f %.0f)%n",
        eps[1], eps[0], eps[1], eps[2]);
  }
}
