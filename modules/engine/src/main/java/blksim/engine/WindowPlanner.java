package blksim.engine;

/**
 * The coordinator's side of conservative synchronisation, independent of how partitions are
 * hosted (in-process or as Pekko entities).
 *
 * <p>After every window the planner learns each partition's next event time, the earliest time of
 * the events it shipped, and which live components finished. The next window is [T, T + L) where
 * T is the earliest pending event anywhere (idle stretches are skipped) and L the lookahead. With a
 * single partition nothing crosses partitions, so windows are longer ({@code soloChunkNs}) to keep
 * the protocol cheap (a lone partition with {@link Model#localityGroups() locality groups} steps
 * through its window one lookahead at a time itself); results do not depend on window length.
 *
 * <p>Stop rule: the run ends one lookahead after the last live component became done, at the
 * model's maximum time, or when no event is left.
 */
public final class WindowPlanner {
  private final long lookahead;
  private final long maxTime;
  private final int partitions;
  private final long soloChunkNs;
  private int live;
  private long maxDoneTime = -1;
  private long stopAt = Long.MAX_VALUE;
  private long windows;
  private long nextStart;

  /**
   * @param liveTotal components that keep the run alive, over all partitions
   */
  public WindowPlanner(Model model, int partitions, int liveTotal, long soloChunkNs) {
    this.lookahead = model.lookaheadNs();
    this.maxTime = model.maxTimeNs();
    this.partitions = partitions;
    this.live = liveTotal;
    this.soloChunkNs = Math.max(soloChunkNs, lookahead);
  }

  /** Takes in one partition's window result. */
  public void accept(Partition.WindowResult r) {
    live -= r.doneCount();
    maxDoneTime = Math.max(maxDoneTime, r.maxDoneTime());
  }

  /** Takes in a partition's own stop time (a lone partition applies the stop rule itself). */
  public void acceptStop(long partitionStopAt) {
    stopAt = Math.min(stopAt, partitionStopAt);
  }

  /**
   * Decides the next window given the earliest pending event time over all partitions (after the
   * last batches were delivered). Returns the window's exclusive end, or -1 when the run is over.
   */
  public long nextWindowEnd(long earliestEventTime) {
    if (live == 0 && maxDoneTime >= 0 && stopAt == Long.MAX_VALUE) {
      stopAt = maxDoneTime + lookahead;
    }
    long limit = Math.min(stopAt, maxTime);
    if (earliestEventTime == Long.MAX_VALUE || earliestEventTime >= limit) {
      return -1;
    }
    windows++;
    nextStart = earliestEventTime;
    long len = partitions == 1 ? soloChunkNs : lookahead;
    long end = earliestEventTime + len;
    if (end < earliestEventTime) {
      end = Long.MAX_VALUE;
    }
    return Math.min(end, limit);
  }

  /** The stop time partitions must respect ({@link Long#MAX_VALUE} if none yet). */
  public long stopAt() {
    return stopAt;
  }

  /** Live components left. */
  public int live() {
    return live;
  }

  /** Windows planned so far. */
  public long windows() {
    return windows;
  }

  /** Start of the last planned window. */
  public long windowStart() {
    return nextStart;
  }

  /**
   * The virtual time at which the run ended, the same for every partitioning: the stop time if
   * the stop rule applied, else the model's maximum time if reached, else the last event's time.
   */
  public long endTime(long lastEventTime, long earliestLeft) {
    long limit = Math.min(stopAt, maxTime);
    if (limit != Long.MAX_VALUE && earliestLeft != Long.MAX_VALUE) {
      return limit;
    }
    if (stopAt != Long.MAX_VALUE) {
      return stopAt;
    }
    return lastEventTime;
  }
}
