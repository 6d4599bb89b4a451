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
  private final EventQueue queue = new EventQueue();
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
    return queue.peekTime();
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
      queue.add(e);
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
    long events = 0;
    EventQueue q = queue;
    while (q.peekTime() < end) {
      Message m = q.pollNext();
      int t = q.polledTarget();
      now = q.polledTime();
      current = t;
      try {
        all[t].handle(m, this);
      } catch (RuntimeException ex) {
        throw failure(t, ex);
      }
      events++;
      if (liveCount == 0 && maxDoneTime >= 0 && partitionCount == 1) {
        // Alone, the partition knows the global live count: apply the stop rule at once.
        long stop = maxDoneTime + lookahead;
        if (stop < end) {
          end = stop;
          stopAt = Math.min(stopAt, stop);
        }
      }
    }
    if (events > 0) {
      lastEventTime = now;
    }
    current = -1;
    eventsTotal += events;
    return endWindow(events);
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
    return new WindowResult(out, events, queue.peekTime(), minSentTime, doneInWindow, maxDoneTime);
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
      queue.add(now + delayNs, target, sender, sendCount[sender]++, message);
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
