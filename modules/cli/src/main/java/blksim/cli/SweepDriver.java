package blksim.cli;

import blksim.cli.SweepWork.DriverCommand;
import blksim.cli.SweepWork.RunReply;
import blksim.cli.SweepWork.RunRequest;
import blksim.cli.SweepWork.WorkerCommand;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * Farms the runs of a sweep out to the sweep workers of a cluster ({@link SweepWork#worker}), one
 * run per worker at a time, each run entirely on the node of its worker; the sweep's own JVM is
 * a member with a worker of its own.
 *
 * <p>Runs are handed out in index order to whichever worker is free, once workers of {@code
 * --nodes} members are listed (or 10 s have passed). A worker whose member
 * leaves, is removed or becomes unreachable while it holds a run loses it: the run goes back to
 * the front of the queue, is re-run elsewhere, and the outcome lists it. A reply for a run
 * that already has one (a worker that came back) is ignored: runs are deterministic. A run
 * that fails in the model fails the sweep with its error, as in a local sweep.
 *
 * <p>Progress (runs done, running, failed, members, ETA) goes to stderr about once a second
 * while it changes; nothing of it reaches the table, which is assembled from the replies in run
 * order.
 */
final class SweepDriver {
  private SweepDriver() {}

  /** Run {@code index}: its resolved scenario and a label for messages. */
  record Job(int index, String spec, String label) {}

  /** The figures of every run, in run order, and what happened to runs that were re-run. */
  record Outcome(List<SweepWork.Values> values, List<String> reruns) {}

  private record Workers(Set<ActorRef<WorkerCommand>> refs) implements DriverCommand {}

  private record Found(ActorRef<WorkerCommand> ref) implements DriverCommand {}

  /**
   * A worker the sweep's JVM found without the receptionist (its own, or a member's identified
   * at its well-known path), which the receptionist's gossip would list only some 0.5-1 s later.
   */
  static DriverCommand found(ActorRef<WorkerCommand> worker) {
    return new Found(worker);
  }

  private record Gone(Address address, String why) implements DriverCommand {}

  private record Ignore() implements DriverCommand {}

  private record Tick() implements DriverCommand {}

  /**
   * The driver of sweep {@code sweepId}: it starts handing out runs once {@code nodes} workers
   * are listed, or after 10 s with those there are. Run {@code preRun} (-1: none) is already
   * running on this JVM's worker, started before the cluster was joined: its reply comes with
   * no worker, and this JVM's worker gets no other run before it.
   */
  static Behavior<DriverCommand> create(String sweepId, List<Job> jobs, String host,
      List<String> metrics, int nodes, int preRun, PrintWriter err,
      CompletableFuture<Outcome> done) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      timers.startTimerWithFixedDelay(new Tick(), Duration.ofSeconds(1));
      return new State(ctx, sweepId, jobs, host, metrics, nodes, preRun, err, done).behavior();
    }));
  }

  private static final class State {
    private final ActorContext<DriverCommand> ctx;
    private final String sweepId;
    private final List<Job> jobs;
    private final String host;
    private final List<String> metrics;
    private final PrintWriter err;
    private final CompletableFuture<Outcome> done;
    /** Workers to wait for before the first run is handed out (then: never again). */
    private int waitFor;
    private final SweepWork.Values[] results;
    private final Deque<Integer> pending = new ArrayDeque<>();
    /** The run each busy worker holds, workers in the order they were given it. */
    private final Map<ActorRef<WorkerCommand>, Integer> busy = new LinkedHashMap<>();
    private final Set<ActorRef<WorkerCommand>> workers = new TreeSet<>(
        Comparator.comparing(r -> r.path().toString()));
    private final Set<Address> gone = new java.util.HashSet<>();
    /** Workers the receptionist has listed at some time (by path). */
    private final Set<String> everListed = new java.util.HashSet<>();
    /** Why each re-run run was re-run, by run index. */
    private final Map<Integer, String> rerunWhy = new java.util.TreeMap<>();
    private final List<String> reruns = new ArrayList<>();
    private final long startNs = System.nanoTime();
    /** The run this JVM's worker started before the driver existed, or -1. */
    private final int preRun;
    /** Whether this JVM's worker, once listed, was marked busy with {@link #preRun}. */
    private boolean preRunMarked;
    private int finished;
    private int failed;
    private String lastLine = "";
    private long lastPrintNs;

    State(ActorContext<DriverCommand> ctx, String sweepId, List<Job> jobs, String host,
        List<String> metrics, int nodes, int preRun, PrintWriter err,
        CompletableFuture<Outcome> done) {
      this.ctx = ctx;
      this.preRun = preRun;
      this.waitFor = nodes;
      this.sweepId = sweepId;
      this.jobs = jobs;
      this.host = host;
      this.metrics = metrics;
      this.err = err;
      this.done = done;
      this.results = new SweepWork.Values[jobs.size()];
      for (int i = 0; i < jobs.size(); i++) {
        if (i != preRun) {
          pending.add(i);
        }
      }
      ActorRef<Receptionist.Listing> listing = ctx.messageAdapter(Receptionist.Listing.class,
          l -> new Workers(l.getServiceInstances(SweepWork.WORKER_KEY)));
      ctx.getSystem().receptionist().tell(Receptionist.subscribe(SweepWork.WORKER_KEY, listing));
      ActorRef<ClusterEvent.MemberEvent> members = ctx.messageAdapter(
          ClusterEvent.MemberEvent.class, e -> {
            if (e instanceof ClusterEvent.MemberRemoved || e instanceof ClusterEvent.MemberExited
                || e instanceof ClusterEvent.MemberLeft || e instanceof ClusterEvent.MemberDowned) {
              return new Gone(e.member().address(), "left the cluster ("
                  + e.getClass().getSimpleName().replace("Member", "").toLowerCase(Locale.ROOT)
                  + ")");
            }
            return new Ignore();
          });
      ActorRef<ClusterEvent.ReachabilityEvent> reach = ctx.messageAdapter(
          ClusterEvent.ReachabilityEvent.class, e -> e instanceof ClusterEvent.UnreachableMember
              ? new Gone(e.member().address(), "became unreachable") : new Ignore());
      Cluster cluster = Cluster.get(ctx.getSystem());
      cluster.subscriptions().tell(Subscribe.create(members, ClusterEvent.MemberEvent.class));
      cluster.subscriptions().tell(Subscribe.create(reach, ClusterEvent.ReachabilityEvent.class));
    }

    Behavior<DriverCommand> behavior() {
      return Behaviors.receive(DriverCommand.class)
          .onMessage(Workers.class, this::onWorkers)
          .onMessage(Found.class, this::onFound)
          .onMessage(Gone.class, this::onGone)
          .onMessage(RunReply.class, this::onReply)
          .onMessage(Tick.class, t -> {
            if (waitFor > 0 && System.nanoTime() - startNs > 10_000_000_000L) {
              waitFor = 0; // start with the workers there are
              dispatch();
            }
            progress(false);
            return Behaviors.same();
          })
          .onMessage(Ignore.class, m -> Behaviors.same())
          .build();
    }

    private Behavior<DriverCommand> onWorkers(Workers m) {
      SweepTrace.mark("driver: " + m.refs().size() + " workers listed");
      Set<String> listed = new java.util.HashSet<>();
      m.refs().forEach(w -> listed.add(key(w)));
      // A worker leaves the listing when it stops; one found but not listed yet stays.
      for (ActorRef<WorkerCommand> w : new ArrayList<>(busy.keySet())) {
        if (everListed.contains(key(w)) && !listed.contains(key(w))) {
          lose(w, "left the worker listing");
        }
      }
      workers.removeIf(w -> everListed.contains(key(w)) && !listed.contains(key(w)));
      everListed.addAll(listed);
      for (ActorRef<WorkerCommand> w : m.refs()) {
        if (!gone.contains(w.path().address()) && workers.add(w)) {
          if (!preRunMarked && preRun >= 0 && results[preRun] == null
              && w.path().address().hasLocalScope()) {
            busy.put(w, preRun); // this JVM's worker: busy with the run it started early
            preRunMarked = true;
          }
        }
      }
      dispatch();
      return Behaviors.same();
    }

    private Behavior<DriverCommand> onFound(Found m) {
      ActorRef<WorkerCommand> w = m.ref();
      SweepTrace.mark("driver: worker found at " + w.path());
      if (!gone.contains(w.path().address()) && workers.add(w) && !preRunMarked && preRun >= 0
          && results[preRun] == null && w.path().address().hasLocalScope()) {
        busy.put(w, preRun);
        preRunMarked = true;
      }
      dispatch();
      return Behaviors.same();
    }

    /** A worker's identity: its path (a ref's uid may differ between a listing and a reply). */
    private static String key(ActorRef<?> w) {
      return w.path().toStringWithoutAddress() + "@" + w.path().address();
    }

    private Behavior<DriverCommand> onGone(Gone m) {
      gone.add(m.address());
      for (ActorRef<WorkerCommand> w : new ArrayList<>(busy.keySet())) {
        if (w.path().address().equals(m.address())) {
          lose(w, m.why());
        }
      }
      workers.removeIf(w -> w.path().address().equals(m.address()));
      dispatch();
      return Behaviors.same();
    }

    private void lose(ActorRef<WorkerCommand> w, String why) {
      Integer run = busy.remove(w);
      workers.remove(w);
      if (run == null || results[run] != null) {
        return;
      }
      failed++;
      pending.addFirst(run);
      String node = w.path().address().toString();
      rerunWhy.put(run, "run " + (run + 1) + " (" + jobs.get(run).label() + ") was on " + node
          + ", which " + why);
      err.println("sweep: " + rerunWhy.get(run) + "; it will be re-run on another node");
      err.flush();
    }

    private Behavior<DriverCommand> onReply(RunReply r) {
      if (!r.sweepId().equals(sweepId)) {
        return Behaviors.same();
      }
      if (r.worker() == null) {
        // the run this JVM started early: its worker (if listed by now) is free again
        preRunMarked = true;
        busy.entrySet().removeIf(e -> e.getValue() == r.index()
            && e.getKey().path().address().hasLocalScope());
      } else {
        busy.entrySet().removeIf(e -> e.getValue() == r.index()
            && key(e.getKey()).equals(key(r.worker())));
      }
      if (results[r.index()] != null) {
        dispatch();
        return Behaviors.same();
      }
      if (r.failure() != null) {
        done.completeExceptionally(r.failure().toException());
        return Behaviors.stopped();
      }
      results[r.index()] = new SweepWork.Values(r.values(), r.errors());
      SweepTrace.mark("driver: run " + (r.index() + 1) + " result from " + r.node());
      finished++;
      String why = rerunWhy.get(r.index());
      if (why != null) {
        reruns.add(why + "; re-run on " + r.node());
      }
      if (finished == jobs.size()) {
        progress(true);
        done.complete(new Outcome(List.of(results), List.copyOf(reruns)));
        return Behaviors.stopped();
      }
      progress(false);
      dispatch();
      return Behaviors.same();
    }

    private void dispatch() {
      if (waitFor > 0 && workers.size() < waitFor) {
        return;
      }
      waitFor = 0;
      for (ActorRef<WorkerCommand> w : workers) {
        if (pending.isEmpty()) {
          return;
        }
        if (busy.containsKey(w)) {
          continue;
        }
        int run = pending.poll();
        busy.put(w, run);
        SweepTrace.mark("driver: run " + (run + 1) + " to " + w.path().address());
        w.tell(new RunRequest(sweepId, run, jobs.get(run).spec(), host, metrics,
            ctx.getSelf()));
      }
    }

    /** A progress line on stderr when something changed, or every 10 s (or at the end). */
    private void progress(boolean last) {
      long now = System.nanoTime();
      double elapsed = (now - startNs) / 1e9;
      String eta = finished == 0 ? "?" : String.format(Locale.ROOT, "%.0f s",
          elapsed / finished * (jobs.size() - finished));
      String line = String.format(Locale.ROOT, "sweep: %d of %d runs done, %d running, %d"
          + " failed, %d node%s", finished, jobs.size(), busy.size(), failed, workers.size(),
          workers.size() == 1 ? "" : "s");
      if (last) {
        err.printf(Locale.ROOT, "%s in %.1f s%n", line, elapsed);
      } else if (!line.equals(lastLine) || now - lastPrintNs > 10_000_000_000L) {
        err.println(line + ", ETA " + eta);
      } else {
        return;
      }
      err.flush();
      lastLine = line;
      lastPrintNs = now;
    }
  }
}
