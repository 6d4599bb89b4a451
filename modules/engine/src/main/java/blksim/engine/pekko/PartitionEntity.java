package blksim.engine.pekko;

import blksim.engine.Event;
import blksim.engine.IndexedReport;
import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.ModelFactory;
import blksim.engine.Partition;
import blksim.engine.Partitioning;
import blksim.engine.WindowPlanner;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
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
 * <p><b>Peer windows</b> ({@link Start#peerWindows()}, {@code blksim.engine.window-protocol}): no
 * {@link RunWindow} comes. After a window the entity sends every peer a {@link WindowMark}
 * carrying its {@link RunCoordinator.WindowDone} summary (after that window's chunks to the
 * peer), and keeps a replica of the coordinator's {@link WindowPlanner}. Once it holds the marks
 * of all partitions for window n and every event they announce sent here in n, it feeds the
 * summaries to its planner in partition order, exactly as the coordinator does, and runs window
 * n+1 itself: every partition takes the same decision from the same inputs, so the result is the
 * coordinator protocol's, without its round trip on the critical path. The summaries still go to
 * the coordinator (progress, the end of the run, the watchdog), off the critical path; when the
 * planner ends the run the entity waits for {@link GetLiveComponents} or {@link CollectReports}.
 * A partition can be at most one window ahead of any other (it needs every mark of the window
 * before). This is a conservative barrier among the partitions themselves; the window length is
 * the model's one lookahead (the kernel model sends every cross-CPU message with the same
 * wakeup latency, so it has no longer cross-node lookahead to offer per partition pair).
 *
 * <p>Reports to a coordinator in another JVM are cut into {@link RunCoordinator.Reports} parts of
 * at most {@link #reportBytes} serialized bytes (a 512-CPU partition's fio reports exceed
 * Artery's 256 KiB frame).
 *
 * <p>State owned by this actor (and only touched on its dispatcher, {@code blksim-dispatcher}):
 * the {@link Partition} with its components and event queue, the peer refs, the per-window
 * received counts and the pending {@link RunWindow}.
 */
public final class PartitionEntity extends AbstractBehavior<PartitionEntity.Command> {

  /** Everything a partition entity understands. */
  public sealed interface Command extends ProtocolMessage
      permits Init, Start, RunWindow, Chunk, Probe, GetLiveComponents, CollectReports, Stop,
      WindowMark {}

  /**
   * Builds the partition: {@code ModelFactory.byName(factoryClass).build(spec)} placed with
   * {@code Partitioning.parse(partitioning)}, keeping partition {@code index}.
   */
  public record Init(String runId, String factoryClass, String spec, String partitioning,
      int index, ActorRef<RunCoordinator.Command> coordinator) implements Command {}

  /**
   * Starts the run (window 0); {@code peers.get(i)} is partition i. With {@code peerWindows} the
   * partitions plan their windows among themselves ({@link WindowMark}); {@code liveTotal} is the
   * run's live component count over all partitions (the planner needs it).
   */
  public record Start(List<ActorRef<Command>> peers, boolean peerWindows, int liveTotal)
      implements Command {
    public Start {
      peers = List.copyOf(peers);
    }

    /** A start under the coordinator's window protocol. */
    public Start(List<ActorRef<Command>> peers) {
      this(peers, false, 0);
    }
  }

  /**
   * The end-of-window marker of peer windows: partition {@code done.partition()} finished window
   * {@code done.window()}, with this summary (the same one the coordinator gets).
   */
  public record WindowMark(RunCoordinator.WindowDone done) implements Command {}

  /**
   * Most serialized bytes of reports in one message to a coordinator in another JVM (a report
   * larger than this goes alone). Tests lower it to see reports cut into parts.
   */
  static volatile int reportBytes = 128 * 1024;

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
  private Model model;
  // Peer windows: the planner replica, the marks of windows k and k+1 by parity, and whether
  // the planner ended the run.
  private boolean peerWindows;
  private WindowPlanner planner;
  private RunCoordinator.WindowDone[][] marks;
  private final int[] markCount = new int[2];
  private boolean planOver;
  // Window statistics (system property blksim.window-stats=true): logged at report time.
  private final boolean stats = Boolean.getBoolean("blksim.window-stats");
  private long statRunNanos;
  private long statWaitNanos;
  private long statShipNanos;
  private long statIdleSince = -1;
  private long statMessages;
  private long statEventsOut;
  private long statBytesOut;

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
        .onMessage(WindowMark.class, this::onWindowMark)
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
      // In the launcher's JVM the first partition runs the launcher's model (ModelHandOff).
      model = ModelHandOff.take(m.runId());
      if (model == null) {
        // The class name came over the wire: only an allow-listed factory is instantiated.
        model = ModelFactory.byName(m.factoryClass(), getContext().getSystem().settings()
            .config().getStringList("blksim.engine.model-factories")).build(m.spec());
      }
      int[] placement = Partitioning.parse(m.partitioning()).place(model.components());
      partition = new Partition(index, model, placement);
      if (index >= partition.partitionCount()) {
        throw new IllegalStateException("partition index " + index + " is out of range: the "
            + "model has " + partition.partitionCount() + " partition(s)");
      }
      // Peer windows: a faster peer's mark of window 0 may come before this partition's Start.
      marks = new RunCoordinator.WindowDone[2][partition.partitionCount()];
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
    peerWindows = m.peerWindows();
    if (peerWindows) {
      if (peers.size() != partition.partitionCount()) {
        return fail(new IllegalStateException("partition " + index + " got " + peers.size()
            + " peers for " + partition.partitionCount() + " partitions"));
      }
      planner = new WindowPlanner(model, peers.size(), m.liveTotal(), LocalRunner.SOLO_CHUNK_NS);
    }
    Partition.WindowResult r;
    long t0 = System.nanoTime();
    try {
      r = partition.start();
    } catch (RuntimeException e) {
      return fail(e);
    }
    statRunNanos += System.nanoTime() - t0;
    completedWindow = 0;
    ship(0, r);
    return peerWindows ? tryAdvance() : this;
  }

  private Behavior<Command> onRunWindow(RunWindow m) {
    if (failure != null) {
      return this;
    }
    if (peerWindows || pending != null || m.window() != completedWindow + 1) {
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
    if (peerWindows) {
      return tryAdvance();
    }
    return pending == null ? this : tryRun();
  }

  private Behavior<Command> onWindowMark(WindowMark m) {
    if (failure != null) {
      return this;
    }
    RunCoordinator.WindowDone d = m.done();
    int from = d.partition();
    // Before Start (window -1) a mark of window 0 is kept: the protocol is not known yet.
    if ((!peerWindows && completedWindow >= 0) || marks == null
        || d.window() < completedWindow || d.window() > completedWindow + 1 || from < 0 || from >= marks[0].length || from == index) {
      return fail(new IllegalStateException("partition " + index + " got the mark of window "
          + d.window() + " from partition " + from + " while at window " + completedWindow
          + (peerWindows ? "" : " under the coordinator's window protocol")));
    }
    int slot = (int) (d.window() & 1);
    if (marks[slot][from] != null) {
      return fail(new IllegalStateException("partition " + index + " got the mark of window "
          + d.window() + " from partition " + from + " twice"));
    }
    marks[slot][from] = d;
    markCount[slot]++;
    return peerWindows ? tryAdvance() : this;
  }

  /**
   * Peer windows: once every partition's mark of the completed window is here, and every event
   * they sent here in it, plans the next window as the coordinator would and runs it.
   */
  private Behavior<Command> tryAdvance() {
    while (!planOver && failure == null) {
      long w = completedWindow;
      int slot = (int) (w & 1);
      RunCoordinator.WindowDone[] ms = marks[slot];
      if (markCount[slot] < ms.length) {
        return this;
      }
      long expected = 0;
      for (RunCoordinator.WindowDone d : ms) {
        expected += d.sentTo()[index];
      }
      long have = received[slot];
      if (have < expected) {
        return this;
      }
      if (have > expected) {
        return fail(new IllegalStateException("partition " + index + " received " + have
            + " events sent to it in window " + w + ", but only " + expected + " were sent"));
      }
      long earliest = Long.MAX_VALUE;
      for (RunCoordinator.WindowDone d : ms) {
        planner.accept(new Partition.WindowResult(null, d.events(), d.nextEventTime(),
            d.minSentTime(), d.doneCount(), d.maxDoneTime()));
        earliest = Math.min(earliest, Math.min(d.nextEventTime(), d.minSentTime()));
      }
      for (RunCoordinator.WindowDone d : ms) {
        planner.acceptStop(d.stopAt());
      }
      java.util.Arrays.fill(ms, null);
      markCount[slot] = 0;
      received[slot] = 0;
      long end = planner.nextWindowEnd(earliest);
      if (end < 0) {
        // The coordinator takes the same decision from the same summaries and asks for the
        // live components or the reports.
        planOver = true;
        return this;
      }
      Partition.WindowResult r;
      long t0 = System.nanoTime();
      if (statIdleSince >= 0) {
        statWaitNanos += t0 - statIdleSince;
      }
      try {
        partition.setStopAt(planner.stopAt());
        r = partition.runWindow(end);
      } catch (RuntimeException e) {
        return fail(e);
      }
      statRunNanos += System.nanoTime() - t0;
      completedWindow = w + 1;
      ship(w + 1, r);
    }
    return this;
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
    long t0 = System.nanoTime();
    if (statIdleSince >= 0) {
      statWaitNanos += t0 - statIdleSince;
    }
    try {
      partition.setStopAt(m.stopAtNs());
      r = partition.runWindow(m.endNs());
    } catch (RuntimeException e) {
      return fail(e);
    }
    statRunNanos += System.nanoTime() - t0;
    completedWindow = m.window();
    ship(m.window(), r);
    return this;
  }

  /**
   * Ships a window's outgoing events in chunks, then reports the window to the coordinator (and,
   * with peer windows, marks its end to every peer).
   */
  private void ship(long window, Partition.WindowResult r) {
    long t0 = System.nanoTime();
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
        Chunk chunk = new Chunk(window, index, c, chunks, part);
        if (stats) {
          statMessages++;
          statEventsOut += part.size();
          statBytesOut += serializedSize(chunk);
        }
        peer.tell(chunk);
      }
    }
    RunCoordinator.WindowDone done = new RunCoordinator.WindowDone(index, window, r.events(),
        r.nextEventTime(), r.minSentTime(), r.doneCount(), r.maxDoneTime(), partition.stopAt(),
        partition.lastEventTime(), sentTo);
    coordinator.tell(done);
    if (peerWindows) {
      int slot = (int) (window & 1);
      marks[slot][index] = done;
      markCount[slot]++;
      WindowMark mark = new WindowMark(done);
      for (int d = 0; d < peers.size(); d++) {
        if (d != index) {
          peers.get(d).tell(mark);
        }
      }
      if (stats) {
        statMessages += peers.size() - 1;
        statBytesOut += (peers.size() - 1) * serializedSize(mark);
      }
    }
    if (stats) {
      statMessages++;
      statBytesOut += serializedSize(done);
    }
    long t1 = System.nanoTime();
    statShipNanos += t1 - t0;
    statIdleSince = t1;
  }

  private int serializedSize(Object message) {
    Serialization s = SerializationExtension.get(Adapter.toClassic(getContext().getSystem()));
    return s.serialize(message).get().length;
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
    if (peerWindows && planOver) {
      return "completed window " + completedWindow + ", the run's last, and waits for the"
          + " coordinator";
    }
    if (peerWindows) {
      long w = completedWindow;
      int slot = (int) (w & 1);
      List<Integer> missing = new ArrayList<>();
      long expected = 0;
      for (int i = 0; i < marks[slot].length; i++) {
        if (marks[slot][i] == null) {
          missing.add(i);
        } else {
          expected += marks[slot][i].sentTo()[index];
        }
      }
      if (!missing.isEmpty()) {
        return "waiting to run window " + (w + 1) + ": no mark of window " + w
            + " from partition(s) " + missing + " yet; received " + received[slot]
            + " events sent to it in window " + w;
      }
      return "waiting to run window " + (w + 1) + ": received " + received[slot] + " of the "
          + expected + " events sent to it in window " + w + " (a message was lost)";
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
    if (stats) {
      getContext().getLog().warn("window stats, partition {} of run {}: {} windows ({} peer), "
          + "{} ms running windows, {} ms shipping, {} ms waiting between windows, {} messages "
          + "sent, {} events sent, {} bytes sent", index, runId, completedWindow, peerWindows,
          statRunNanos / 1_000_000, statShipNanos / 1_000_000, statWaitNanos / 1_000_000,
          statMessages, statEventsOut, statBytesOut);
    }
    if (coordinator.path().address().hasLocalScope()) {
      coordinator.tell(new RunCoordinator.Reports(index, reports));
      return this;
    }
    // Another JVM: parts below Artery's frame size.
    List<List<IndexedReport>> parts = new ArrayList<>();
    List<IndexedReport> part = new ArrayList<>();
    long bytes = 0;
    for (IndexedReport r : reports) {
      int size = serializedSize(r);
      if (!part.isEmpty() && bytes + size > reportBytes) {
        parts.add(part);
        part = new ArrayList<>();
        bytes = 0;
      }
      part.add(r);
      bytes += size;
    }
    parts.add(part);
    for (int i = 0; i < parts.size(); i++) {
      coordinator.tell(new RunCoordinator.Reports(index, i, parts.size(), parts.get(i)));
    }
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
