package blksim.kernel.block;

import java.util.PriorityQueue;

/** A tiny event loop with CPUs that implement {@link DriverCpu}, for block-layer unit tests. */
final class FakeCpus {
  private record Ev(long at, long seq, Runnable r) {}

  private final PriorityQueue<Ev> events = new PriorityQueue<>(
      (a, b) -> a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
  private long now;
  private long seq;

  long now() {
    return now;
  }

  void at(long t, Runnable r) {
    events.add(new Ev(t, seq++, r));
  }

  /** Runs events up to and including {@code t}. */
  void runUntil(long t) {
    while (!events.isEmpty() && events.peek().at <= t) {
      Ev e = events.poll();
      now = e.at;
      e.r.run();
    }
    now = Math.max(now, t);
  }

  void runAll() {
    runUntil(Long.MAX_VALUE / 4);
  }

  DriverCpu cpu(int id) {
    return new DriverCpu() {
      @Override
      public int cpuId() {
        return id;
      }

      @Override
      public long now() {
        return now;
      }

      @Override
      public void interrupt(long costNs, Runnable handler) {
        at(now + costNs, handler);
      }

      @Override
      public void callAfter(long delayNs, Runnable callback) {
        at(now + delayNs, callback);
      }
    };
  }
}
