package blksim.engine.pekko;

import blksim.engine.IndexedReport;
import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partition;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.engine.RunStats;
import blksim.engine.SimulationException;
import blksim.engine.WindowPlanner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * The driver of one run, on the node that launched it: the Pekko side of the window loop of
 * {@link LocalRunner}, with the same {@link WindowPlanner}.
 *
 * <p>It sends every partition entity an {@link PartitionEntity.Init} through Cluster Sharding,
 * waits for all {@link Ready}s, then starts the run and plans windows from the partitions'
 * {@link WindowDone} summaries: the earliest pending event over all partitions is the minimum of
 * each partition's next local event and of the earliest event it shipped, and the number of
 * events partition p must receive before window n is the sum of what the others reported sending
 * to p in window n-1. When the planner ends the run it gathers the reports (or, for a stall, the
 * live components) and completes the run's future with a {@link RunOutcome} equal to
 * LocalRunner's, wall time aside.
 *
 * <p>With peer windows ({@link Plan#peerWindows()}, see {@link PartitionEntity}) the partitions
 * plan each window themselves from each other's marks, with the same planner fed the same
 * summaries; the coordinator sends no {@link PartitionEntity.RunWindow}, keeps summaries of later
 * windows that arrive early, and completes the windows in order to report progress, keep the
 * watchdog and end the run, all off the critical path.
 *
 * <p>The run fails, with the partition's own exception type and message, when a partition
 * reports a {@link Failed}; it fails loudly when no phase completes within the watchdog time
 * (after probing the silent partitions, whose status names a lost message), when a cluster
 * member hosting partitions leaves or becomes unreachable, or when a partition stops.
 *
 * <p>State owned by this actor: the planner, the per-phase report bookkeeping, the partition refs
 * and addresses, the event total and the result future (completed exactly once). The progress
 * listener is called on this actor's thread after each window.
 */
public final class RunCoordinator extends AbstractBehavior<RunCoordinator.Command> {

  /** Everything the coordinator understands; the public records cross JVMs. */
  public sealed interface Command extends ProtocolMessage {}

  /** Partition {@code partition} is built, on the node {@code address}, and hosts live ones. */
  public record Ready(int partition, ActorRef<PartitionEntity.Command> ref, String address,
      int liveCount) implements Command {}

  /**
   * Partition {@code partition} finished window {@code window} (0 = start).
   *
   * @param events events run in the window
   * @param nextEventTime the earliest local event left
   * @param minSentTime the earliest event shipped to other partitions
   * @param doneCount live components that became done in the window
   * @param maxDoneTime the latest done time of any local component, -1 if none
   * @param stopAt the partition's stop time
   * @param lastEventTime the time of the partition's last event so far
   * @param sentTo events shipped to each partition in the window
   */
  public record WindowDone(int partition, long window, long events, long nextEventTime,
      long minSentTime, int doneCount, long maxDoneTime, long stopAt, long lastEventTime,
      long[] sentTo) implements Command {}

  /** Partition {@code partition} failed; the run fails with {@code error}. */
  public record Failed(int partition, PartitionError error) implements Command {}

  /** Answer to a {@link PartitionEntity.Probe}. */
  public record Status(int partition, String description) implements Command {}

  /** Ids of the components of {@code partition} still keeping the run alive. */
  public record LiveComponents(int partition, List<String> componentIds) implements Command {
    public LiveComponents {
      componentIds = List.copyOf(componentIds);
    }
  }

  /**
   * Part {@code seq} (0-based) of {@code parts} of the reports of the components of
   * {@code partition} (a partition in another JVM cuts them below Artery's frame size).
   */
  public record Reports(int partition, int seq, int parts, List<IndexedReport> reports)
      implements Command {
    public Reports {
      reports = List.copyOf(reports);
    }

    /** All the reports of {@code partition} in one message. */
    public Reports(int partition, List<IndexedReport> reports) {
      this(partition, 0, 1, reports);
    }
  }

  // Local-only messages: never serialized, so exempt from serialize-messages verification.

  private record WatchdogTick() implements Command, NoSerializationVerificationNeeded {}

  private record ProbeDeadline() implements Command, NoSerializationVerificationNeeded {}

  private record MemberChanged(ClusterEvent.MemberEvent event)
      implements Command, NoSerializationVerificationNeeded {}

  private record ReachabilityChanged(ClusterEvent.ReachabilityEvent event)
      implements Command, NoSerializationVerificationNeeded {}

  private record PartitionStopped(int partition)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * What to run, as prepared by {@link ClusterRunner} on the launching node.
   *
   * @param model the model built from {@code spec} (the planner needs its lookahead and end)
   * @param partitions number of partitions of the placement
   * @param liveTotal components that keep the run alive, over all partitions
   * @param peerWindows the partitions plan windows among themselves (no RunWindow)
   */
  record Plan(String runId, String factoryClass, String spec, String partitioning, Model model,
      int partitions, int liveTotal, EntityTypeKey<PartitionEntity.Command> typeKey,
      Duration watchdog, ProgressListener progress, boolean peerWindows) {}

  private enum Phase {
    INIT("partition start-up (Init)"),
    WINDOW("window"),
    LIVE("the stall diagnosis"),
    REPORTS("report collection"),
    OVER("");

    final String what;

    Phase(String what) {
      this.what = what;
    }
  }

  /** The coordinator of {@code plan}, which completes {@code result} exactly once. */
  static Behavior<Command> create(Plan plan, CompletableFuture<RunOutcome> result) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(
        timers -> new RunCoordinator(ctx, timers, plan, result)));
  }

  private static final String WATCHDOG = "watchdog";
  private static final String PROBE = "probe";

  private final TimerScheduler<Command> timers;
  private final Plan plan;
  private final CompletableFuture<RunOutcome> result;
  private final int n;
  private final long wallStart = System.nanoTime();
  private final WindowPlanner planner;
  private final List<ActorRef<PartitionEntity.Command>> refs;
  private final String[] addresses;
  private final boolean[] reported;
  private final WindowDone[] done;
  private final long[] expected;
  private final int[] liveCounts;
  private final List<List<String>> live;
  private final List<IndexedReport> reports = new ArrayList<>();
  private final int[] reportParts;
  /** Peer windows: summaries of windows after the current one, which may arrive early. */
  private final TreeMap<Long, WindowDone[]> early = new TreeMap<>();
  private int outstanding;
  private Phase phase = Phase.INIT;
  private long window;
  private long windowEnd;
  private long windowStopAt;
  private long events;
  private long endTime;
  private long lastEventTime;
  private long phaseStartNanos;
  private boolean probing;
  private final TreeMap<Integer, String> probeAnswers = new TreeMap<>();
  private String stalledPhase;

  private RunCoordinator(ActorContext<Command> ctx, TimerScheduler<Command> timers, Plan plan,
      CompletableFuture<RunOutcome> result) {
    super(ctx);
    this.timers = timers;
    this.plan = plan;
    this.result = result;
    this.n = plan.partitions();
    this.planner = new WindowPlanner(plan.model(), n, plan.liveTotal(), LocalRunner.SOLO_CHUNK_NS);
    this.refs = new ArrayList<>(Collections.nCopies(n, null));
    this.addresses = new String[n];
    this.reported = new boolean[n];
    this.done = new WindowDone[n];
    this.expected = new long[n];
    this.liveCounts = new int[n];
    this.reportParts = new int[n];
    this.live = new ArrayList<>(Collections.nCopies(n, null));
    Cluster cluster = Cluster.get(ctx.getSystem());
    cluster.subscriptions().tell(Subscribe.create(
        ctx.messageAdapter(ClusterEvent.MemberEvent.class, MemberChanged::new),
        ClusterEvent.MemberEvent.class));
    cluster.subscriptions().tell(Subscribe.create(
        ctx.messageAdapter(ClusterEvent.ReachabilityEvent.class, ReachabilityChanged::new),
        ClusterEvent.ReachabilityEvent.class));
    ClusterSharding sharding = ClusterSharding.get(ctx.getSystem());
    // A periodic check rather than a timer restarted every window: windows can be very short.
    Duration check = plan.watchdog().dividedBy(4);
    timers.startTimerAtFixedRate(WATCHDOG, new WatchdogTick(),
        check.compareTo(Duration.ofSeconds(1)) < 0 ? check : Duration.ofSeconds(1));
    beginPhase(Phase.INIT);
    for (int i = 0; i < n; i++) {
      EntityRef<PartitionEntity.Command> entity =
          sharding.entityRefFor(plan.typeKey(), PartitionSharding.entityId(plan.runId(), i));
      entity.tell(new PartitionEntity.Init(plan.runId(), plan.factoryClass(), plan.spec(),
          plan.partitioning(), i, ctx.getSelf()));
    }
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Ready.class, this::onReady)
        .onMessage(WindowDone.class, this::onWindowDone)
        .onMessage(Failed.class, this::onFailed)
        .onMessage(LiveComponents.class, this::onLiveComponents)
        .onMessage(Reports.class, this::onReports)
        .onMessage(Status.class, this::onStatus)
        .onMessage(WatchdogTick.class, this::onWatchdog)
        .onMessage(ProbeDeadline.class, this::onProbeDeadline)
        .onMessage(MemberChanged.class, this::onMemberChanged)
        .onMessage(ReachabilityChanged.class, this::onReachabilityChanged)
        .onMessage(PartitionStopped.class, this::onPartitionStopped)
        .onSignal(PostStop.class, s -> onPostStop())
        .build();
  }

  // ---- phases ----------------------------------------------------------------------------

  private void beginPhase(Phase p) {
    phase = p;
    outstanding = n;
    Arrays.fill(reported, false);
    phaseStartNanos = System.nanoTime();
  }

  /** Marks partition {@code i} as reported in {@code p}; false if the report is unexpected. */
  private boolean take(Phase p, int i) {
    if (phase != p || i < 0 || i >= n || reported[i]) {
      return false;
    }
    reported[i] = true;
    outstanding--;
    return true;
  }

  private Behavior<Command> onReady(Ready m) {
    if (!take(Phase.INIT, m.partition())) {
      return unexpected(m);
    }
    refs.set(m.partition(), m.ref());
    addresses[m.partition()] = m.address();
    liveCounts[m.partition()] = m.liveCount();
    getContext().watchWith(m.ref(), new PartitionStopped(m.partition()));
    if (outstanding > 0) {
      return this;
    }
    int liveSum = Arrays.stream(liveCounts).sum();
    if (liveSum != plan.liveTotal()) {
      return fail(new SimulationException("the partitions of run " + plan.runId() + " host "
          + liveSum + " live component(s) but the launching node counted " + plan.liveTotal()
          + ": the model factory " + plan.factoryClass() + " is not deterministic"));
    }
    beginPhase(Phase.WINDOW);
    window = 0;
    PartitionEntity.Start start =
        new PartitionEntity.Start(refs, plan.peerWindows(), plan.liveTotal());
    for (ActorRef<PartitionEntity.Command> r : refs) {
      r.tell(start);
    }
    return this;
  }

  private Behavior<Command> onWindowDone(WindowDone m) {
    if (plan.peerWindows() && phase == Phase.WINDOW && m.window() > window
        && m.partition() >= 0 && m.partition() < n) {
      WindowDone[] later = early.computeIfAbsent(m.window(), w -> new WindowDone[n]);
      if (later[m.partition()] != null) {
        return unexpected(m);
      }
      later[m.partition()] = m;
      return this;
    }
    if (m.window() != window || !take(Phase.WINDOW, m.partition())) {
      return unexpected(m);
    }
    done[m.partition()] = m;
    if (outstanding > 0) {
      return this;
    }
    Behavior<Command> b = completeWindow();
    // Peer windows: summaries that came early may complete the next windows at once.
    while (b == this && plan.peerWindows() && phase == Phase.WINDOW && outstanding == 0) {
      b = completeWindow();
    }
    return b;
  }

  /** Mirrors one turn of LocalRunner's loop: route, plan, then run or finish. */
  private Behavior<Command> completeWindow() {
    Arrays.fill(expected, 0);
    long earliest = Long.MAX_VALUE;
    long last = 0;
    for (WindowDone r : done) {
      planner.accept(new Partition.WindowResult(null, r.events(), r.nextEventTime(),
          r.minSentTime(), r.doneCount(), r.maxDoneTime()));
      events += r.events();
      long[] sent = r.sentTo();
      for (int d = 0; d < sent.length; d++) {
        expected[d] += sent[d];
      }
      earliest = Math.min(earliest, Math.min(r.nextEventTime(), r.minSentTime()));
      last = Math.max(last, r.lastEventTime());
    }
    for (WindowDone r : done) {
      planner.acceptStop(r.stopAt());
    }
    if (window > 0) {
      try {
        plan.progress().progress(Math.min(windowEnd, windowStopAt), events);
      } catch (RuntimeException e) {
        return fail(e);
      }
    }
    long end = planner.nextWindowEnd(earliest);
    if (end < 0) {
      lastEventTime = last;
      if (earliest == Long.MAX_VALUE && planner.live() > 0) {
        beginPhase(Phase.LIVE);
        for (ActorRef<PartitionEntity.Command> r : refs) {
          r.tell(new PartitionEntity.GetLiveComponents());
        }
        return this;
      }
      endTime = planner.endTime(last, earliest);
      beginPhase(Phase.REPORTS);
      for (ActorRef<PartitionEntity.Command> r : refs) {
        r.tell(new PartitionEntity.CollectReports(endTime));
      }
      return this;
    }
    window++;
    windowEnd = end;
    windowStopAt = planner.stopAt();
    beginPhase(Phase.WINDOW);
    if (!plan.peerWindows()) {
      for (int i = 0; i < n; i++) {
        refs.get(i).tell(new PartitionEntity.RunWindow(window, end, windowStopAt, expected[i]));
      }
      return this;
    }
    // Peer windows: the partitions already run this window; take summaries that came early.
    WindowDone[] later = early.remove(window);
    if (later != null) {
      for (WindowDone d : later) {
        if (d != null) {
          take(Phase.WINDOW, d.partition());
          done[d.partition()] = d;
        }
      }
    }
    return this;
  }

  private Behavior<Command> onLiveComponents(LiveComponents m) {
    if (!take(Phase.LIVE, m.partition())) {
      return unexpected(m);
    }
    live.set(m.partition(), m.componentIds());
    if (outstanding > 0) {
      return this;
    }
    List<String> all = new ArrayList<>();
    for (List<String> l : live) {
      all.addAll(l);
    }
    return fail(LocalRunner.stallError(all, lastEventTime));
  }

  private Behavior<Command> onReports(Reports m) {
    int i = m.partition();
    if (phase != Phase.REPORTS || i < 0 || i >= n || reported[i] || m.parts() < 1
        || m.seq() != reportParts[i]) {
      return unexpected(m);
    }
    reports.addAll(m.reports());
    if (++reportParts[i] < m.parts()) {
      return this;
    }
    take(Phase.REPORTS, i);
    if (outstanding > 0) {
      return this;
    }
    reports.sort(Comparator.comparingInt(IndexedReport::index));
    RunStats stats = new RunStats(events, planner.windows(), n, endTime,
        System.nanoTime() - wallStart);
    result.complete(new RunOutcome(List.copyOf(reports), stats));
    return finish();
  }

  // ---- failures --------------------------------------------------------------------------

  private Behavior<Command> onFailed(Failed m) {
    if (phase == Phase.OVER) {
      return this;
    }
    return fail(m.error().toException());
  }

  private Behavior<Command> unexpected(Command m) {
    if (phase == Phase.OVER) {
      return this;
    }
    return fail(new SimulationException("run " + plan.runId() + ": unexpected " + m
        + " during " + describePhase()));
  }

  private Behavior<Command> onWatchdog(WatchdogTick m) {
    if (phase == Phase.OVER || probing
        || System.nanoTime() - phaseStartNanos < plan.watchdog().toNanos()) {
      return this;
    }
    probing = true;
    stalledPhase = describePhase();
    ClusterSharding sharding = ClusterSharding.get(getContext().getSystem());
    for (int i = 0; i < n; i++) {
      if (reported[i]) {
        continue;
      }
      PartitionEntity.Probe probe = new PartitionEntity.Probe(getContext().getSelf());
      if (refs.get(i) != null) {
        refs.get(i).tell(probe);
      } else {
        sharding.entityRefFor(plan.typeKey(), PartitionSharding.entityId(plan.runId(), i))
            .tell(probe);
      }
    }
    Duration wait = plan.watchdog().compareTo(Duration.ofSeconds(3)) < 0
        ? plan.watchdog() : Duration.ofSeconds(3);
    timers.startSingleTimer(PROBE, new ProbeDeadline(), wait);
    return this;
  }

  private Behavior<Command> onStatus(Status m) {
    if (!probing || phase == Phase.OVER) {
      return this;
    }
    probeAnswers.put(m.partition(), m.description());
    int silent = 0;
    for (int i = 0; i < n; i++) {
      if (!reported[i]) {
        silent++;
      }
    }
    return probeAnswers.size() >= silent ? failWatchdog() : this;
  }

  private Behavior<Command> onProbeDeadline(ProbeDeadline m) {
    return probing && phase != Phase.OVER ? failWatchdog() : this;
  }

  private Behavior<Command> failWatchdog() {
    List<Integer> silent = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (!reported[i]) {
        silent.add(i);
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append("run ").append(plan.runId()).append(": ").append(stalledPhase)
        .append(" did not complete within ").append(plan.watchdog().toMillis() / 1000.0)
        .append(" s of wall time (blksim.engine.watchdog); partition(s) ").append(silent)
        .append(" did not report.");
    for (int i : silent) {
      sb.append(" Partition ").append(i);
      if (addresses[i] != null) {
        sb.append(" (").append(addresses[i]).append(')');
      }
      String a = probeAnswers.get(i);
      sb.append(": ").append(a != null ? a : "no answer to a status probe (its node may be down"
          + " or overloaded)").append('.');
    }
    return fail(new SimulationException(sb.toString()));
  }

  private Behavior<Command> onMemberChanged(MemberChanged m) {
    ClusterEvent.MemberEvent e = m.event();
    if (e instanceof ClusterEvent.MemberLeft || e instanceof ClusterEvent.MemberExited
        || e instanceof ClusterEvent.MemberRemoved || e instanceof ClusterEvent.MemberDowned) {
      return memberLost(e.member(), "left the cluster (" + e.getClass().getSimpleName() + ")");
    }
    return this;
  }

  private Behavior<Command> onReachabilityChanged(ReachabilityChanged m) {
    if (m.event() instanceof ClusterEvent.UnreachableMember) {
      return memberLost(m.event().member(), "became unreachable");
    }
    return this;
  }

  private Behavior<Command> memberLost(Member member, String what) {
    if (phase == Phase.OVER) {
      return this;
    }
    String addr = member.address().toString();
    List<Integer> hosted = hostedOn(addr);
    if (hosted.isEmpty() && phase != Phase.INIT) {
      return this;
    }
    return fail(new SimulationException("run " + plan.runId() + " failed: cluster member "
        + addr + " " + what + " during " + describePhase()
        + (hosted.isEmpty() ? "" : "; it hosts partition(s) " + hosted)
        + ". A run cannot continue without its partitions: restart it on a stable cluster."));
  }

  private Behavior<Command> onPartitionStopped(PartitionStopped m) {
    if (phase == Phase.OVER) {
      return this;
    }
    int i = m.partition();
    return fail(new SimulationException("run " + plan.runId() + " failed: partition " + i
        + (addresses[i] != null ? " on " + addresses[i] : "") + " stopped during "
        + describePhase() + " (its node may have left the cluster or shut down)"));
  }

  private List<Integer> hostedOn(String address) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (address.equals(addresses[i])) {
        out.add(i);
      }
    }
    return out;
  }

  private String describePhase() {
    return phase == Phase.WINDOW ? "window " + window : phase.what;
  }

  private Behavior<Command> fail(RuntimeException e) {
    result.completeExceptionally(e);
    return finish();
  }

  /** Stops the partitions of the run and this coordinator. */
  private Behavior<Command> finish() {
    phase = Phase.OVER;
    timers.cancelAll();
    for (ActorRef<PartitionEntity.Command> r : refs) {
      if (r != null) {
        getContext().unwatch(r);
        r.tell(new PartitionEntity.Stop());
      }
    }
    return Behaviors.stopped();
  }

  private Behavior<Command> onPostStop() {
    result.completeExceptionally(new SimulationException("the coordinator of run "
        + plan.runId() + " stopped before the run finished (was its actor system shut down?)"));
    return this;
  }
}
