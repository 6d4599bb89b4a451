package blksim.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A group of components run by one local event queue, one window at a time.
 *
 * <p>The partition runs its events in the total event order up to the end of a window. Sends to
 * local components go straight into the queue; sends to other partitions are checked against the
 * lookahead and collected into one outgoing batch per destination, which the host ships before the
 * next window. Not thread-safe: one host thread drives a partition at a time.
 *
 * <p>Locality groups ({@link Model#localityGroups()}): the partition keeps one event queue per
 * group, the groups being where {@link Partitioning} {@code N} would put its components (with
 * several partitions, each has the groups of its own components), and runs its window in steps
 * of one lookahead, each group after group: first
 * every event of group 0 before the step's end, then group 1's, and so on. A send to another group
 * is what a send to another partition would be: at least one lookahead (checked), so it lands at
 * or after the step's end, and the groups of one step never see each other's events; the order is
 * thus the one of {@code N} partitions run one after the other by one thread in windows of one
 * lookahead (as {@link LocalRunner} does), and results are those of any partitioning. What it
 * buys is locality: on a machine of thousands of CPUs, events in the total order touch a different
 * CPU's objects each time, each a cache miss; a group's events run together and find its objects
 * in the cache (the scaling benchmark measures it).
 *
 * <p>The run ends at a virtual time that does not depend on the partitioning: one lookahead after
 * the last {@link Component#keepsRunAlive() live} component declared itself done (see
 * {@link #setStopAt}), at {@link Model#maxTimeNs()}, or when no event is left anywhere.
 */
public final class Partition implements Context {
  private final int index;
  private final int partitionCount;
  private final Model model;
  private final int[] placement;
  private final Component[] all;
  private final int[] local;
  private final long[] sendCount;
  private final SplittableRandom[] randoms;
  private final boolean[] alive;
  private final EventQueue queue;
  /** One queue per locality group ({@code queues[0] == queue}). */
  private final EventQueue[] queues;
  /** The locality group of every component, null without groups. */
  private final int[] groupOf;
  private final long lookahead;
  private final java.util.Map<String, Integer> idIndex;

  private List<Event>[] outgoing;
  private int current = -1;
  private long now;
  private long stopAt = Long.MAX_VALUE;
  private long eventsTotal;
  private long lastEventTime;
  private int liveCount;
  private int doneInWindow;
  private long maxDoneTime = -1;
  private long minSentTime = Long.MAX_VALUE;

  /**
   * @param index this partition's number
   * @param model the whole model (only the components placed here are used)
   * @param placement partition number of every component, from {@link Partitioning#place}
   */
  @SuppressWarnings("unchecked")
  public Partition(int index, Model model, int[] placement) {
    this.index = index;
    this.model = model;
    this.placement = placement.clone();
    int count = 0;
    for (int p : placement) {
      count = Math.max(count, p + 1);
    }
    this.partitionCount = count;
    this.all = model.components().toArray(new Component[0]);
    this.lookahead = model.lookaheadNs();
    int n = all.length;
    this.sendCount = new long[n];
    this.randoms = new SplittableRandom[n];
    this.alive = new boolean[n];
    this.idIndex = new java.util.HashMap<>(n * 2);
    List<Integer> mine = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      idIndex.put(all[i].id(), i);
      if (placement[i] == index) {
        mine.add(i);
        // Made here, not at the first draw: the handlers' hot path then has no creation branch
        // (and its inlined seed hashing) in it, and the streams sit together in memory.
        randoms[i] = new SplittableRandom(Seeds.forComponent(model.seed(), all[i].id()));
        if (all[i].keepsRunAlive()) {
          alive[i] = true;
          liveCount++;
        }
      }
    }
    this.local = mine.stream().mapToInt(Integer::intValue).toArray();
    this.outgoing = new List[partitionCount];
    int groups = 1;
    int[] g = null;
    if (model.localityGroups() > 1) {
      // Where partitioning N would put each component, renumbered densely over the groups that
      // hold a local component (with several partitions, each runs its share of the groups).
      g = new Partitioning(Partitioning.Kind.COUNT, model.localityGroups())
          .place(model.components());
      int[] dense = new int[n];
      java.util.Arrays.fill(dense, -1);
      int next = 0;
      for (int i : local) {
        if (dense[g[i]] < 0) {
          dense[g[i]] = next++;
        }
      }
      groups = Math.max(1, next);
      for (int i = 0; i < n; i++) {
        g[i] = dense[g[i]];
      }
    }
    this.groupOf = groups > 1 ? g : null;
    this.queues = new EventQueue[groups];
    for (int i = 0; i < groups; i++) {
      queues[i] = new EventQueue();
    }
    this.queue = queues[0];
  }

  /** Number of locality groups (1: none). */
  public int localityGroups() {
    return queues.length;
  }

  /** This partition's number. */
  public int index() {
    return index;
  }

  /** Number of partitions in the run. */
  public int partitionCount() {
    return partitionCount;
  }

  /** Number of components hosted here. */
  public int componentCount() {
    return local.length;
  }

  /** Local components that still keep the run alive. */
  public int liveCount() {
    return liveCount;
  }

  /** Events run so far. */
  public long eventsProcessed() {
    return eventsTotal;
  }

  /** Virtual time of the last event run here (0 before any). */
  public long lastEventTime() {
    return lastEventTime;
  }

  /** The earliest pending local event's time, {@link Long#MAX_VALUE} if none. */
  public long nextEventTime() {
    long t = queue.peekTime();
    for (int i = 1; i < queues.length; i++) {
      t = Math.min(t, queues[i].peekTime());
    }
    return t;
  }

  /** Sets the virtual time at which the run ends: events at or after it are never run. */
  public void setStopAt(long t) {
    stopAt = Math.min(stopAt, t);
  }

  /** Adds events sent here by other partitions. */
  public void deliver(List<Event> events) {
    for (Event e : events) {
      if (placement[e.target()] != index) {
        throw new SimulationException("partition " + index + " received an event for "
            + all[e.target()].id() + ", which lives in partition " + placement[e.target()]);
      }
      (groupOf == null ? queue : queues[groupOf[e.target()]]).add(e);
    }
  }

  /** Calls {@link Component#start} of every local component at virtual time 0. */
  public WindowResult start() {
    beginWindow();
    now = 0;
    for (int i : local) {
      current = i;
      try {
        all[i].start(this);
      } catch (RuntimeException e) {
        throw failure(i, e);
      }
    }
    current = -1;
    return endWindow(0);
  }

  /**
   * Runs every local event with a time before {@code windowEnd} (and before the stop time and the
   * model's maximum time), in the total event order.
   */
  public WindowResult runWindow(long windowEnd) {
    beginWindow();
    long end = Math.min(windowEnd, Math.min(stopAt, model.maxTimeNs()));
    if (groupOf != null) {
      return runGroups(end);
    }
    long events = 0;
    EventQueue q = queue;
    while (q.peekTime() < end) {
      runNext(q);
      events++;
      end = soloStop(end);
    }
    return finishWindow(events, now);
  }

  /**
   * The window's end after the stop rule: alone, the partition knows the global live count, so
   * once every live component is done the run stops one lookahead after the last of them.
   */
  private long soloStop(long end) {
    if (liveCount == 0 && maxDoneTime >= 0 && partitionCount == 1) {
      long stop = maxDoneTime + lookahead;
      if (stop < end) {
        stopAt = Math.min(stopAt, stop);
        return stop;
      }
    }
    return end;
  }

  private WindowResult finishWindow(long events, long last) {
    if (events > 0) {
      lastEventTime = last;
    }
    current = -1;
    eventsTotal += events;
    return endWindow(events);
  }

  /**
   * {@link #runWindow} with locality groups: the window in steps of at most one lookahead, from
   * the earliest pending event; in each step every group's events before the step's end, group
   * after group. The stop rule is applied between steps: a component done inside a step stops
   * the run one lookahead later, never inside the step.
   */
  private WindowResult runGroups(long end) {
    long events = 0;
    long last = -1;
    while (true) {
      long start = nextEventTime();
      if (start >= end) {
        break;
      }
      long stepEnd = start + lookahead < start ? end : Math.min(end, start + lookahead);
      for (EventQueue q : queues) {
        while (q.peekTime() < stepEnd) {
          runNext(q);
          events++;
          if (now > last) {
            last = now;
          }
        }
      }
      end = soloStop(end);
    }
    return finishWindow(events, last);
  }

  /** Runs the earliest event of {@code q} (whose time is below the window's end). */
  private void runNext(EventQueue q) {
    Message m = q.pollNext();
    int t = q.polledTarget();
    now = q.polledTime();
    current = t;
    try {
      all[t].handle(m, this);
    } catch (RuntimeException ex) {
      throw failure(t, ex);
    }
  }

  private RuntimeException failure(int component, RuntimeException e) {
    if (e instanceof SimulationException || e instanceof InputException) {
      return e;
    }
    return new SimulationException("component " + all[component].id() + " failed at virtual time "
        + now + " ns: " + e, e);
  }

  private void beginWindow() {
    doneInWindow = 0;
    minSentTime = Long.MAX_VALUE;
  }

  @SuppressWarnings("unchecked")
  private WindowResult endWindow(long events) {
    List<Event>[] out = outgoing;
    outgoing = new List[partitionCount];
    return new WindowResult(out, events, nextEventTime(), minSentTime, doneInWindow, maxDoneTime);
  }

  /** The reports of the local components, in component order, each with its component index. */
  public List<IndexedReport> reports(long endNs) {
    List<IndexedReport> out = new ArrayList<>();
    for (int i : local) {
      now = endNs;
      ComponentReport r = all[i].report(endNs);
      if (r != null) {
        out.add(new IndexedReport(i, r));
      }
    }
    return out;
  }

  /** The stop time set so far ({@link Long#MAX_VALUE} if none). */
  public long stopAt() {
    return stopAt;
  }

  /** Ids of the local components still keeping the run alive, for stall diagnostics. */
  public List<String> liveComponents() {
    List<String> out = new ArrayList<>();
    for (int i : local) {
      if (alive[i]) {
        out.add(all[i].id());
      }
    }
    return out;
  }

  // ---- Context -------------------------------------------------------------------------

  @Override
  public long now() {
    return now;
  }

  @Override
  public int self() {
    return current;
  }

  @Override
  public void send(int target, Message message, long delayNs) {
    if (delayNs < 0) {
      throw new IllegalArgumentException("negative delay " + delayNs + " ns from "
          + all[current].id() + " to " + all[target].id());
    }
    int sender = current;
    int p = placement[target];
    if (p == index) {
      if (groupOf == null) {
        queue.add(now + delayNs, target, sender, sendCount[sender]++, message);
        return;
      }
      int g = groupOf[target];
      if (g != groupOf[sender] && delayNs < lookahead) {
        throw new LookaheadViolation(all[sender].id(), all[target].id(), delayNs, lookahead, now);
      }
      queues[g].add(now + delayNs, target, sender, sendCount[sender]++, message);
      return;
    }
    Event e = new Event(now + delayNs, target, sender, sendCount[sender]++, message);
    if (delayNs < lookahead) {
      throw new LookaheadViolation(all[sender].id(), all[target].id(), delayNs, lookahead, now);
    }
    List<Event> batch = outgoing[p];
    if (batch == null) {
      batch = new ArrayList<>();
      outgoing[p] = batch;
    }
    batch.add(e);
    minSentTime = Math.min(minSentTime, e.time());
  }

  @Override
  public SplittableRandom random() {
    return randoms[current];
  }

  @Override
  public int indexOf(String componentId) {
    Integer i = idIndex.get(componentId);
    if (i == null) {
      throw new IllegalArgumentException("no component with id " + componentId);
    }
    return i;
  }

  @Override
  public void done() {
    if (alive[current]) {
      alive[current] = false;
      liveCount--;
      doneInWindow++;
      maxDoneTime = Math.max(maxDoneTime, now);
    }
  }

  /**
   * What one window produced.
   *
   * @param outgoing events for each other partition (entry null when none)
   * @param events events run in the window
   * @param nextEventTime the earliest local event left, {@link Long#MAX_VALUE} if none
   * @param minSentTime the earliest outgoing event, {@link Long#MAX_VALUE} if none
   * @param doneCount live components that became done in the window
   * @param maxDoneTime the latest time any local component became done, -1 if none yet
   */
  public record WindowResult(
      List<Event>[] outgoing,
      long events,
      long nextEventTime,
      long minSentTime,
      int doneCount,
      long maxDoneTime) {}
}
