package blksim.engine.synthetic;

import blksim.engine.Component;
import blksim.engine.ComponentReport;
import blksim.engine.Context;
import blksim.engine.InputException;
import blksim.engine.Locality;
import blksim.engine.Message;
import blksim.engine.Model;
import blksim.engine.ModelFactory;
import blksim.engine.Seeds;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A synthetic model for engine tests and benchmarks: components that bounce {@link Ping} tokens at
 * random, with nothing of the kernel in them.
 *
 * <p>Spec text is a whitespace-separated list of {@code key=value} pairs, for example
 * {@code components=1000 cpus=8 nodes=2 lookahead=1000 inflight=4 endNs=5000000 seed=1}:
 *
 * <ul>
 *   <li>{@code components} (default 100, at least 2): ping components {@code ping/0} ...;
 *   <li>{@code cpus} (default 8), {@code nodes} (default 1), {@code llcs} (default = nodes): the
 *       simulated machine the components are spread over (component i sits on CPU i mod cpus);
 *       cpus must be a multiple of nodes and of llcs;
 *   <li>{@code lookahead} (ns, default 1000): the run's lookahead; every ping has a delay of
 *       lookahead + uniform[0, 4 * lookahead];
 *   <li>{@code inflight} (default 4): pings each component sends at start;
 *   <li>{@code endNs} (default 5,000,000): the model's maximum virtual time;
 *   <li>{@code seed} (default 1): the run seed;
 *   <li>{@code live} (default 0): the first {@code live} components keep the run alive, and each
 *       declares itself done after handling {@code doneAfter} (default 100) pings, so the run
 *       ends one lookahead after the last of them (the stop rule) unless endNs comes first.
 * </ul>
 *
 * <p>On each ping a component folds the token, the virtual time and one draw of its random stream
 * into a checksum, then sends a new ping to a random other component. Its report holds the
 * checksum and counts (see {@link PingStats}), so any difference in event order between hosts or
 * partitionings shows up in the reports.
 */
public final class PingModelFactory implements ModelFactory {

  /** Report kind of ping components. */
  public static final String REPORT_KIND = "ping";

  private static final Map<String, Long> DEFAULTS = new LinkedHashMap<>();

  static {
    DEFAULTS.put("components", 100L);
    DEFAULTS.put("cpus", 8L);
    DEFAULTS.put("nodes", 1L);
    DEFAULTS.put("llcs", -1L);
    DEFAULTS.put("lookahead", 1000L);
    DEFAULTS.put("inflight", 4L);
    DEFAULTS.put("endNs", 5_000_000L);
    DEFAULTS.put("seed", 1L);
    DEFAULTS.put("live", 0L);
    DEFAULTS.put("doneAfter", 100L);
    DEFAULTS.put("groups", 1L);
  }

  /** Creates the factory (public no-argument constructor, as {@link ModelFactory} requires). */
  public PingModelFactory() {}

  @Override
  public Model build(String spec) {
    Map<String, Long> v = parse(spec);
    int components = (int) require(v, "components", 2, 10_000_000);
    int cpus = (int) require(v, "cpus", 1, 1 << 20);
    int nodes = (int) require(v, "nodes", 1, cpus);
    long llcsRaw = v.get("llcs");
    int llcs = llcsRaw < 0 ? nodes : (int) require(v, "llcs", 1, cpus);
    long lookahead = require(v, "lookahead", 1, 1L << 40);
    int inflight = (int) require(v, "inflight", 0, 1 << 16);
    long endNs = require(v, "endNs", 1, Long.MAX_VALUE);
    long seed = v.get("seed");
    int live = (int) require(v, "live", 0, components);
    long doneAfter = require(v, "doneAfter", 1, Long.MAX_VALUE);
    int groups = (int) require(v, "groups", 1, cpus);
    if (cpus % nodes != 0) {
      throw new InputException(null, 0, "cpus", "cpus must be a multiple of nodes (" + nodes
          + "), was " + cpus);
    }
    if (cpus % llcs != 0) {
      throw new InputException(null, 0, "llcs", "llcs must divide cpus (" + cpus + "), was "
          + llcs);
    }
    List<Component> list = new ArrayList<>(components);
    for (int i = 0; i < components; i++) {
      int cpu = i % cpus;
      Locality loc = new Locality(cpu / (cpus / nodes), cpu / (cpus / llcs), cpu);
      list.add(new PingComponent("ping/" + i, loc, components, lookahead, inflight, i < live,
          doneAfter));
    }
    return new Model(list, lookahead, endNs, endNs, seed, groups);
  }

  private static Map<String, Long> parse(String spec) {
    Map<String, Long> v = new LinkedHashMap<>(DEFAULTS);
    for (String tok : spec.trim().split("\\s+")) {
      if (tok.isEmpty()) {
        continue;
      }
      int eq = tok.indexOf('=');
      if (eq <= 0) {
        throw new InputException(null, 0, null,
            "ping spec items must be key=value, was '" + tok + "'");
      }
      String key = tok.substring(0, eq);
      if (!DEFAULTS.containsKey(key)) {
        throw new InputException(null, 0, key,
            "unknown ping spec key; known keys are " + DEFAULTS.keySet());
      }
      try {
        v.put(key, Long.parseLong(tok.substring(eq + 1).replace("_", "")));
      } catch (NumberFormatException e) {
        throw new InputException(null, 0, key,
            key + " must be an integer, was '" + tok.substring(eq + 1) + "'");
      }
    }
    return v;
  }

  private static long require(Map<String, Long> v, String key, long min, long max) {
    long x = v.get(key);
    if (x < min || x > max) {
      throw new InputException(null, 0, key,
          key + " must be in [" + min + ", " + max + "], was " + x);
    }
    return x;
  }

  /**
   * What a ping component reports.
   *
   * @param checksum the fold of every token, arrival time and random draw it saw, in order
   * @param handled pings handled
   * @param doneAtNs virtual time at which it declared itself done, -1 if never (or not live)
   */
  public record PingStats(long checksum, long handled, long doneAtNs) {

    /** Decodes the payload of a ping component's report. */
    public static PingStats decode(ComponentReport r) {
      if (!REPORT_KIND.equals(r.kind())) {
        throw new IllegalArgumentException("not a ping report: " + r.kind());
      }
      ByteBuffer b = ByteBuffer.wrap(r.payload());
      return new PingStats(b.getLong(), b.getLong(), b.getLong());
    }
  }

  /** One ping component; all state is owned by the partition that hosts it. */
  private static final class PingComponent implements Component {
    private final String id;
    private final Locality locality;
    private final int components;
    private final long lookahead;
    private final int inflight;
    private final boolean live;
    private final long doneAfter;
    private long checksum;
    private long handled;
    private long doneAtNs = -1;

    PingComponent(String id, Locality locality, int components, long lookahead, int inflight,
        boolean live, long doneAfter) {
      this.id = id;
      this.locality = locality;
      this.components = components;
      this.lookahead = lookahead;
      this.inflight = inflight;
      this.live = live;
      this.doneAfter = doneAfter;
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public Locality locality() {
      return locality;
    }

    @Override
    public boolean keepsRunAlive() {
      return live;
    }

    @Override
    public void start(Context ctx) {
      for (int k = 0; k < inflight; k++) {
        forward(ctx, ((long) ctx.self() << 20) + k);
      }
    }

    @Override
    public void handle(Message message, Context ctx) {
      Ping p = (Ping) message;
      handled++;
      long draw = ctx.random().nextLong();
      checksum = Seeds.mix(checksum ^ p.token() ^ (ctx.now() * 0x9E3779B97F4A7C15L) ^ draw)
          + p.origin();
      forward(ctx, p.token() + draw);
      if (live && doneAtNs < 0 && handled >= doneAfter) {
        doneAtNs = ctx.now();
        ctx.done();
      }
    }

    /** Sends a ping to a random other component, at least one lookahead away. */
    private void forward(Context ctx, long token) {
      int self = ctx.self();
      int target = ctx.random().nextInt(components - 1);
      if (target >= self) {
        target++;
      }
      long delay = lookahead + ctx.random().nextLong(4 * lookahead + 1);
      ctx.send(target, new Ping(self, token), delay);
    }

    @Override
    public ComponentReport report(long endNs) {
      ByteBuffer b = ByteBuffer.allocate(24);
      b.putLong(checksum).putLong(handled).putLong(doneAtNs);
      return new ComponentReport(id, REPORT_KIND, b.array());
    }
  }
}
