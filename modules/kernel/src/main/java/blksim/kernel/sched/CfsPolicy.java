package blksim.kernel.sched;

import java.util.Comparator;

/**
 * The Completely Fair Scheduler of one CPU, as in Linux 6.4 (kernel/sched/fair.c): one
 * {@code struct cfs_rq} with its red-black timeline ordered by {@code vruntime}.
 *
 * <p>Mirrors:
 * <ul>
 *   <li>{@code update_curr()} / {@code update_min_vruntime()}: the current task's virtual runtime
 *       grows by {@code delta * NICE_0_LOAD / weight}; {@code min_vruntime} only moves forward.
 *   <li>{@code pick_next_task_fair()} / {@code pick_next_entity()} / {@code set_next_entity()}:
 *       the leftmost task, unless the <em>next</em> buddy (a waker-preempting wakee) or the
 *       <em>last</em> buddy (the task it preempted) is not too far right of it
 *       ({@code wakeup_preempt_entity() < 1}).
 *   <li>{@code place_entity()}: a woken task gets {@code max(vruntime, min_vruntime -
 *       sched_latency/2)} (sleeper credit halved by {@code GENTLE_FAIR_SLEEPERS}); a new task
 *       gets {@code max(parent's vruntime, min_vruntime + sched_vslice())} ({@code START_DEBIT}).
 *   <li>{@code sched_slice()}: {@code __sched_period(nr_running) * weight / cfs_rq load}, at least
 *       {@code min_granularity} ({@code BASE_SLICE}); the period is {@code sched_latency}, or
 *       {@code nr_running * min_granularity} above {@code sched_nr_latency} tasks.
 *   <li>{@code check_preempt_tick()}: resched when the task ran more than
 *       {@code min(sched_slice, sched_latency)} since it was picked, or (after at least
 *       {@code min_granularity}) when it is that far right of the leftmost task.
 *   <li>{@code check_preempt_wakeup()} / {@code wakeup_preempt_entity()} /
 *       {@code wakeup_gran()}: the wakee preempts when {@code curr.vruntime - wakee.vruntime >
 *       calc_delta_fair(wakeup_granularity, wakee)}; it then becomes the next buddy, and the
 *       current task the last buddy if {@code nr_running >= sched_nr_latency}.
 * </ul>
 *
 * <p>Simplified: no group scheduling (one flat {@code cfs_rq}, so {@code h_nr_running ==
 * nr_running}), no SCHED_BATCH/SCHED_IDLE, no skip buddy ({@code sched_yield()} is not modelled),
 * no {@code NEXT_BUDDY} (off by default), no PELT load tracking; a task that migrates at wakeup
 * is renormalised by its CPU ({@code migrate_task_rq_fair()}, see {@link CpuComponent}); weights
 * divide exactly (see {@link LoadWeight}). Ties in the timeline break on the task's home CPU and
 * per-CPU id (creation order), never on identity. Owned by one {@link CpuComponent}.
 */
public final class CfsPolicy implements SchedPolicy {
  /**
   * {@code entity_before()}: smaller vruntime first; equal vruntimes by per-CPU task id, which is
   * the kernel's rb-tree order for equal keys (a later insert goes right).
   */
  private static final Comparator<Task> ENTITY_BEFORE =
      Comparator.comparingLong((Task t) -> t.se.vruntime).thenComparingLong(Task::orderKey);

  private final long latencyNs;
  private final long minGranularityNs;
  private final long wakeupGranularityNs;
  private final int nrLatency;
  private final Timeline timeline = new Timeline(ENTITY_BEFORE);

  private Task curr;
  private Task nextBuddy;
  private Task lastBuddy;
  private long loadWeight;
  private int nrRunning;
  private long minVruntime;

  /** A CFS run queue with the tunables of {@code params}. */
  public CfsPolicy(SchedParams params) {
    this.latencyNs = params.schedLatencyNs();
    this.minGranularityNs = params.minGranularityNs();
    this.wakeupGranularityNs = params.wakeupGranularityNs();
    this.nrLatency = params.schedNrLatency();
  }

  @Override
  public void enqueueInitial(Task t) {
    t.se.vruntime = minVruntime;
    enqueue(t);
  }

  @Override
  public void enqueueNew(Task t, Task parent, long now) {
    updateCurr(now);
    // task_fork_fair(): start from the parent's vruntime, then place_entity(initial = 1).
    long v = parent != null ? parent.se.vruntime : 0;
    t.se.vruntime = Math.max(v, minVruntime + schedVslice(t));
    enqueue(t);
  }

  @Override
  public void enqueueWakeup(Task t, long now) {
    updateCurr(now);
    // place_entity(initial = 0): sleeps up to half a latency period are credited.
    long thresh = latencyNs >> 1;
    t.se.vruntime = Math.max(t.se.vruntime, minVruntime - thresh);
    enqueue(t);
  }

  private void enqueue(Task t) {
    SchedEntity se = t.se;
    se.onRq = true;
    loadWeight += se.weight;
    nrRunning++;
    timeline.add(t);
  }

  @Override
  public Task pickNextTask(long now) {
    if (curr != null) {
      throw new IllegalStateException("pick with a current task " + curr.comm());
    }
    if (timeline.isEmpty()) {
      return null;
    }
    Task left = timeline.first();
    Task se = left;
    if (nextBuddy != null && wakeupPreemptEntity(nextBuddy, left) < 1) {
      se = nextBuddy;
    } else if (lastBuddy != null && wakeupPreemptEntity(lastBuddy, left) < 1) {
      se = lastBuddy;
    }
    setNextEntity(se, now);
    return se;
  }

  /** {@code set_next_entity()}: out of the timeline, runtime accounting restarts. */
  private void setNextEntity(Task t, long now) {
    clearBuddies(t);
    timeline.remove(t);
    curr = t;
    t.se.execStart = now;
    t.se.prevSumExecRuntime = t.se.sumExecRuntime;
  }

  @Override
  public void putPrevTask(long now) {
    updateCurr(now);
    Task t = curr;
    curr = null;
    timeline.add(t);
  }

  @Override
  public void dequeueCurr(long now) {
    updateCurr(now);
    Task t = curr;
    clearBuddies(t);
    t.se.onRq = false;
    loadWeight -= t.se.weight;
    nrRunning--;
    curr = null;
    updateMinVruntime();
  }

  @Override
  public java.util.List<Task> queued() {
    return timeline.toList();
  }

  @Override
  public void dequeueQueued(Task t, long now) {
    if (t == curr || !timeline.remove(t)) {
      throw new IllegalStateException("dequeue of " + t.comm() + ", which is not queued");
    }
    updateCurr(now);
    clearBuddies(t);
    t.se.onRq = false;
    loadWeight -= t.se.weight;
    nrRunning--;
    updateMinVruntime();
  }

  @Override
  public void enqueueMigrated(Task t, long srcMinVruntime, long now) {
    updateCurr(now);
    // dequeue_entity() made the vruntime relative to the source's min_vruntime,
    // enqueue_entity() adds this queue's.
    t.se.vruntime = t.se.vruntime - srcMinVruntime + minVruntime;
    enqueue(t);
  }

  @Override
  public void updateCurr(long now) {
    Task t = curr;
    if (t == null) {
      return;
    }
    long delta = now - t.se.execStart;
    if (delta <= 0) {
      return;
    }
    t.se.execStart = now;
    t.se.sumExecRuntime += delta;
    t.se.vruntime += LoadWeight.calcDeltaFair(delta, t.se.weight);
    updateMinVruntime();
  }

  /** {@code update_min_vruntime()}: the smaller of current and leftmost, never backwards. */
  private void updateMinVruntime() {
    long v = minVruntime;
    boolean have = false;
    if (curr != null && curr.se.onRq) {
      v = curr.se.vruntime;
      have = true;
    }
    if (!timeline.isEmpty()) {
      long left = timeline.first().se.vruntime;
      v = have ? Math.min(v, left) : left;
    }
    minVruntime = Math.max(minVruntime, v);
  }

  @Override
  public boolean taskTick(long now) {
    updateCurr(now);
    if (curr == null || nrRunning <= 1) {
      return false;
    }
    return checkPreemptTick();
  }

  /** {@code check_preempt_tick()}. */
  private boolean checkPreemptTick() {
    long idealRuntime = Math.min(schedSlice(curr), latencyNs);
    long deltaExec = curr.se.sumExecRuntime - curr.se.prevSumExecRuntime;
    if (deltaExec > idealRuntime) {
      // The current task ran long enough: make sure buddy favours do not re-elect it.
      clearBuddies(curr);
      return true;
    }
    // A task that missed wakeup preemption by a narrow margin need not wait a full slice.
    if (deltaExec < minGranularityNs || timeline.isEmpty()) {
      return false;
    }
    long delta = curr.se.vruntime - timeline.first().se.vruntime;
    return delta > idealRuntime;
  }

  @Override
  public boolean checkPreemptWakeup(Task woken, long now) {
    if (curr == null || woken == curr) {
      return false;
    }
    boolean scale = nrRunning >= nrLatency;
    updateCurr(now);
    if (wakeupPreemptEntity(curr, woken) == 1) {
      nextBuddy = woken;
      if (scale) {
        lastBuddy = curr;
      }
      return true;
    }
    return false;
  }

  /**
   * {@code wakeup_preempt_entity()}: -1 if {@code se} is not left of {@code c}, 1 if it is left
   * by more than the wakeup granularity in {@code se}'s virtual time, else 0.
   */
  private int wakeupPreemptEntity(Task c, Task se) {
    long vdiff = c.se.vruntime - se.se.vruntime;
    if (vdiff <= 0) {
      return -1;
    }
    long gran = LoadWeight.calcDeltaFair(wakeupGranularityNs, se.se.weight);
    return vdiff > gran ? 1 : 0;
  }

  private void clearBuddies(Task t) {
    if (nextBuddy == t) {
      nextBuddy = null;
    }
    if (lastBuddy == t) {
      lastBuddy = null;
    }
  }

  /** {@code __sched_period()}. */
  long schedPeriod(int nr) {
    return nr > nrLatency ? nr * minGranularityNs : latencyNs;
  }

  /** {@code sched_slice()} of a runnable task (current or queued). */
  long schedSlice(Task t) {
    long slice = LoadWeight.calcDelta(schedPeriod(nrRunning), t.se.weight, loadWeight);
    return Math.max(slice, minGranularityNs);
  }

  /** {@code sched_vslice()} of a task not yet enqueued: its slice once it joins, in its vtime. */
  private long schedVslice(Task t) {
    long w = t.se.weight;
    long slice = LoadWeight.calcDelta(schedPeriod(nrRunning + 1), w, loadWeight + w);
    return LoadWeight.calcDeltaFair(Math.max(slice, minGranularityNs), w);
  }

  @Override
  public int nrRunning() {
    return nrRunning;
  }

  @Override
  public Task curr() {
    return curr;
  }

  /** {@code cfs_rq->min_vruntime}, ns of virtual time. */
  @Override
  public long minVruntime() {
    return minVruntime;
  }

  /** {@code cfs_rq->load.weight}: the sum of the runnable tasks' weights. */
  public long loadWeight() {
    return loadWeight;
  }
}
