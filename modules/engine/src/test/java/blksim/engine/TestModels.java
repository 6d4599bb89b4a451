package blksim.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import blksim.engine.synthetic.PingModelFactory;
import java.util.ArrayList;
import java.util.List;

/** Small models and assertions shared by the engine's tests. */
public final class TestModels {
  private TestModels() {}

  /**
   * A ping workload over 8 CPUs, 2 nodes, 4 LLCs with 8 live components, ending by the stop rule
   * (well before endNs).
   */
  public static final String PING_SPEC = "components=48 cpus=8 nodes=2 llcs=4 lookahead=1000"
      + " inflight=3 endNs=2000000 seed=7 live=8 doneAfter=150";

  /** The ping model of {@code spec}. */
  public static Model ping(String spec) {
    return new PingModelFactory().build(spec);
  }

  /**
   * Asserts two outcomes are the same run: same reports (index, id, kind, payload bytes), same
   * event count, same simulated end time, and same window count when {@code sameWindows}.
   */
  public static void assertSameOutcome(RunOutcome expected, RunOutcome actual,
      boolean sameWindows) {
    assertEquals(expected.reports().size(), actual.reports().size(), "number of reports");
    for (int i = 0; i < expected.reports().size(); i++) {
      IndexedReport e = expected.reports().get(i);
      IndexedReport a = actual.reports().get(i);
      assertEquals(e.index(), a.index(), "report index at " + i);
      assertEquals(e.report().componentId(), a.report().componentId());
      assertEquals(e.report().kind(), a.report().kind());
      assertArrayEquals(e.report().payload(), a.report().payload(),
          "payload of " + e.report().componentId());
    }
    assertEquals(expected.stats().events(), actual.stats().events(), "events");
    assertEquals(expected.stats().simulatedTimeNs(), actual.stats().simulatedTimeNs(),
        "simulated time");
    if (sameWindows) {
      assertEquals(expected.stats().windows(), actual.stats().windows(), "windows");
      assertEquals(expected.stats().partitions(), actual.stats().partitions(), "partitions");
    }
  }

  /** A component for placement and protocol tests. */
  public static Component component(String id, Locality loc, boolean live) {
    return new Component() {
      @Override
      public String id() {
        return id;
      }

      @Override
      public Locality locality() {
        return loc;
      }

      @Override
      public boolean keepsRunAlive() {
        return live;
      }

      @Override
      public void handle(Message message, Context ctx) {}
    };
  }

  /** A message without content. */
  public record Tick() implements Message {}

  /**
   * A model that stalls: {@code cpu/0} keeps the run alive and waits for a message nobody sends,
   * while {@code cpu/1} ticks 5 times (every 1000 ns) and stops. Spec text is ignored.
   */
  public static final class StallModelFactory implements ModelFactory {
    @Override
    public Model build(String spec) {
      List<Component> cs = new ArrayList<>();
      cs.add(component("cpu/0", new Locality(0, 0, 0), true));
      cs.add(new Component() {
        private int ticks;

        @Override
        public String id() {
          return "cpu/1";
        }

        @Override
        public Locality locality() {
          return new Locality(0, 0, 1);
        }

        @Override
        public void start(Context ctx) {
          ctx.schedule(1000, new Tick());
        }

        @Override
        public void handle(Message message, Context ctx) {
          if (++ticks < 5) {
            ctx.schedule(1000, new Tick());
          }
        }
      });
      return new Model(cs, 1000, Long.MAX_VALUE, 0, 1);
    }
  }

  /**
   * A model in which {@code cpu/0} sends {@code cpu/1} a message with a delay of 10 ns at virtual
   * time 5000, below the lookahead of 1000 ns: a violation whenever the two are in different
   * partitions. Spec text is ignored.
   */
  public static final class ViolationModelFactory implements ModelFactory {
    @Override
    public Model build(String spec) {
      List<Component> cs = new ArrayList<>();
      cs.add(new Component() {
        @Override
        public String id() {
          return "cpu/0";
        }

        @Override
        public Locality locality() {
          return new Locality(0, 0, 0);
        }

        @Override
        public void start(Context ctx) {
          ctx.schedule(5000, new Tick());
        }

        @Override
        public void handle(Message message, Context ctx) {
          ctx.send(1, new Tick(), 10);
        }
      });
      cs.add(component("cpu/1", new Locality(0, 0, 1), false));
      return new Model(cs, 1000, 1_000_000, 0, 1);
    }
  }
}
