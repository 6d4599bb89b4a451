package blksim.engine.pekko;

import blksim.engine.Event;
import blksim.engine.IndexedReport;
import blksim.engine.Model;
import blksim.engine.ModelFactory;
import blksim.engine.Partition;
import blksim.engine.Partitioning;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * One partition of a run, hosted as a Cluster Sharding entity: the Pekko side of {@link Partition}.
 *
 * <p>The entity builds its {@link Partition} itself from an {@link Init} (model factory class name,
 * spec text, partitioning), so nothing but text crosses JVMs to set up a run. It then follows the
 * window protocol of {@link blksim.engine.LocalRunner}, driven by the {@link RunCoordinator}:
 *
 * <ol>
 *   <li>{@link Init}: build the partition, answer {@link RunCoordinator.Ready} with its own ref.
 *   <li>{@link Start}: learn the refs of all partitions, run the local components' start at
 *       virtual time 0 (window 0).
 *   <li>{@link RunWindow} n: once every event sent here in window n-1 has arrived (the
 *       coordinator says how many), run the window.
 * </ol>
 *
 * After each window the entity ships its outgoing events straight to the destination partitions
 * in {@link Chunk}s of at most {@code blksim.engine.max-events-per-chunk} events (so no message
 * comes near Artery's frame size), then sends the coordinator a {@link RunCoordinator.WindowDone}
 * summary with the number of events it sent to each destination. Chunks may arrive before the
 * window they feed is announced; the events order themselves in the event queue by their own
 * key, never by arrival. A failure of the model is reported as {@link RunCoordinator.Failed} and
 * the entity then only answers probes and {@link Stop}.
 *
 * <p>State owned by this actor (and only touched on its dispatcher, {@code blksim-dispatcher}):
 * the {@link Partition} with its components and event queue, the peer refs, the per-window
 * received counts and the pending {@link RunWindow}.
 */
public final class PartitionEntity extends AbstractBehavior<PartitionEntity.Command> {

  /** Everything a partition entity understands. */
  public sealed interface Command extends ProtocolMessage
      permits Init, Start, RunWindow, Chunk, Probe, GetLiveComponents, CollectReports, Stop {}

  /**
   * Builds the partition: {@code ModelFactory.byName(factoryClass).build(spec)} placed with
   * {@code Partitioning.parse(partitioning)}, keeping partition {@code index}.
   */
  public record Init(String runId, String factoryClass, String spec, String partitioning,
      int index, ActorRef<RunCoordinator.Command> coordinator) implements Command {}

  /** Starts the run (window 0); {@code peers.get(i)} is partition i. */
  public record Start(List<ActorRef<Command>> peers) implements Command {
    public Start {
      peers = List.copyOf(peers);
    }
  }

  /**
   * Runs window {@code window} up to {@code endNs} (exclusive) with stop time {@code stopAtNs},
   * once {@code expectedEvents} events sent here in window {@code window - 1} have arrived.
   */
  public record RunWindow(long window, long endNs, long stopAtNs, long expectedEvents)
      implements Command {}

  /**
   * Part {@code seq} (0-based) of {@code chunks} of the events partition {@code from} sent here in
   * window {@code window}.
   */
  public record Chunk(long window, int from, int seq, int chunks, List<Event> events)
      implements Command {}

  /** Asks for a one-line status, sent by the coordinator's watchdog. */
  public record Probe(ActorRef<RunCoordinator.Command> replyTo) implements Command {}

  /** Asks for the ids of local components still keeping the run alive (stall diagnosis). */
  public record GetLiveComponents() implements Command {}

  /** Asks for the local components' reports at the run's end time. */
  public record CollectReports(long endNs) implements Command {}

  /** Stops the entity (end of run, failure, or shard hand-off). */
  public record Stop() implements Command {}

  /** The behavior of a partition entity that ships at most {@code maxEventsPerChunk} per chunk. */
  public static Behavior<Command> create(int maxEventsPerChunk) {
    if (maxEventsPerChunk < 1) {
      throw new IllegalArgumentException(
          "maxEventsPerChunk must be at least 1, was " + maxEventsPerChunk);
    }
    return Behaviors.setup(ctx -> new PartitionEntity(ctx, maxEventsPerChunk));
  }

  private final int maxEventsPerChunk;
  private final String address;
  private String runId;
  private int index = -1;
  private ActorRef<RunCoordinator.Command> coordinator;
  private Partition partition;
  private List<ActorRef<Command>> peers;
  /** The last window run here (0 = start), -1 before start. */
  private long completedWindow = -1;
  /** Events received per source window, by window parity: only windows k and k+1 can be open. */
  private final long[] received = new long[2];
  private RunWindow pending;
  private String failure;

  private PartitionEntity(ActorContext<Command> ctx, int maxEventsPerChunk) {
    super(ctx);
    this.maxEventsPerChunk = maxEventsPerChunk;
    this.address = ctx.getSystem().address().toString();
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Init.class, this::onInit)
        .onMessage(Start.class, this::onStart)
        .onMessage(RunWindow.class, this::onRunWindow)
        .onMessage(Chunk.class, this::onChunk)
        .onMessage(Probe.class, this::onProbe)
        .onMessage(GetLiveComponents.class, this::onGetLiveComponents)
        .onMessage(CollectReports.class, this::onCollectReports)
        .onMessage(Stop.class, m -> Behaviors.stopped())
        .build();
  }

  private Behavior<Command> onInit(Init m) {
    if (partition != null || failure != null) {
      getContext().getLog().warn("partition {} of run {} ignores a second Init", index, runId);
      return this;
    }
    runId = m.runId();
    index = m.index();
    coordinator = m.coordinator();
    try {
      // The class name came over the wire: only an allow-listed factory is instantiated.
      Model model = ModelFactory.byName(m.factoryClass(), getContext().getSystem().settings()
          .config().getStringList("blksim.engine.model-factories")).build(m.spec());
      int[] placement = Partitioning.parse(m.partitioning()).place(model.components());
      partition = new Partition(index, model, placement);
      if (index >= partition.partitionCount()) {
        throw new IllegalStateException("partition index " + index + " is out of range: the "
            + "model has " + partition.partitionCount() + " partition(s)");
      }
    } catch (RuntimeException e) {
      return fail(e);
    }
    coordinator.tell(new RunCoordinator.Ready(index, getContext().getSelf(), address,
        partition.liveCount()));
    return this;
  }

  private Behavior<Command> onStart(Start m) {
    if (failure != null) {
      return this;
    }
    peers = m.peers();
    Partition.WindowResult r;
    try {
      r = partition.start();
    } catch (RuntimeException e) {
      return fail(e);
    }
    completedWindow = 0;
    ship(0, r);
    return this;
  }

  private Behavior<Command> onRunWindow(RunWindow m) {
    if (failure != null) {
      return this;
    }
    if (pending != null || m.window() != completedWindow + 1) {
      return fail(new IllegalStateException("partition " + index + " got RunWindow "
          + m.window() + " after window " + completedWindow
          + (pending != null ? " while window " + pending.window() + " was pending" : "")));
    }
    pending = m;
    return tryRun();
  }

  private Behavior<Command> onChunk(Chunk m) {
    if (failure != null) {
      return this;
    }
    if (m.window() < completedWindow || m.window() > completedWindow + 1) {
      return fail(new IllegalStateException("partition " + index + " got events that partition "
          + m.from() + " sent in window " + m.window() + " while at window " + completedWindow));
    }
    try {
      partition.deliver(m.events());
    } catch (RuntimeException e) {
      return fail(e);
    }
    received[(int) (m.window() & 1)] += m.events().size();
    return pending == null ? this : tryRun();
  }

  /** Runs the pending window if every event sent here in the previous window has arrived. */
  private Behavior<Command> tryRun() {
    RunWindow m = pending;
    int slot = (int) ((m.window() - 1) & 1);
    long have = received[slot];
    if (have < m.expectedEvents()) {
      return this;
    }
    if (have > m.expectedEvents()) {
      return fail(new IllegalStateException("partition " + index + " received " + have
          + " events sent to it in window " + (m.window() - 1) + ", but only "
          + m.expectedEvents() + " were sent"));
    }
    received[slot] = 0;
    pending = null;
    Partition.WindowResult r;
    try {
      partition.setStopAt(m.stopAtNs());
      r = partition.runWindow(m.endNs());
    } catch (RuntimeException e) {
      return fail(e);
    }
    completedWindow = m.window();
    ship(m.window(), r);
    return this;
  }

  /** Ships a window's outgoing events in chunks, then reports the window to the coordinator. */
  private void ship(long window, Partition.WindowResult r) {
    List<Event>[] out = r.outgoing();
    long[] sentTo = new long[out.length];
    for (int d = 0; d < out.length; d++) {
      List<Event> events = out[d];
      if (events == null || events.isEmpty()) {
        continue;
      }
      int n = events.size();
      sentTo[d] = n;
      int chunks = (n + maxEventsPerChunk - 1) / maxEventsPerChunk;
      ActorRef<Command> peer = peers.get(d);
      for (int c = 0; c < chunks; c++) {
        List<Event> part = chunks == 1 ? events
            : events.subList(c * maxEventsPerChunk, Math.min(n, (c + 1) * maxEventsPerChunk));
        peer.tell(new Chunk(window, index, c, chunks, part));
      }
    }
    coordinator.tell(new RunCoordinator.WindowDone(index, window, r.events(), r.nextEventTime(),
        r.minSentTime(), r.doneCount(), r.maxDoneTime(), partition.stopAt(),
        partition.lastEventTime(), sentTo));
  }

  private Behavior<Command> onProbe(Probe m) {
    m.replyTo().tell(new RunCoordinator.Status(index, describe()));
    return this;
  }

  private String describe() {
    if (failure != null) {
      return "failed: " + failure;
    }
    if (partition == null) {
      return "not initialised (no Init arrived)";
    }
    if (pending != null) {
      long w = pending.window();
      return "waiting to run window " + w + ": received " + received[(int) ((w - 1) & 1)]
          + " of the " + pending.expectedEvents() + " events sent to it in window " + (w - 1)
          + " (a message was lost)";
    }
    return "completed window " + completedWindow + " and is waiting for the next RunWindow";
  }

  private Behavior<Command> onGetLiveComponents(GetLiveComponents m) {
    if (failure == null) {
      coordinator.tell(new RunCoordinator.LiveComponents(index, partition.liveComponents()));
    }
    return this;
  }

  private Behavior<Command> onCollectReports(CollectReports m) {
    if (failure != null) {
      return this;
    }
    List<IndexedReport> reports;
    try {
      reports = partition.reports(m.endNs());
    } catch (RuntimeException e) {
      return fail(e);
    }
    coordinator.tell(new RunCoordinator.Reports(index, reports));
    return this;
  }

  private Behavior<Command> fail(RuntimeException e) {
    failure = String.valueOf(e.getMessage());
    getContext().getLog().debug("partition {} of run {} failed", index, runId, e);
    if (coordinator != null) {
      coordinator.tell(new RunCoordinator.Failed(index, PartitionError.of(index, e)));
    }
    return this;
  }
}
