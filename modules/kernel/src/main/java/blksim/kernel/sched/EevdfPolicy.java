package blksim.kernel.sched;

import java.util.Comparator;

/**
 * The fair scheduler of one CPU as Linux 6.6 made it: Earliest Eligible Virtual Deadline First
 * (kernel/sched/fair.c, kernel-model.md §1.2). Mirrors:
 * <ul>
 *   <li>{@code avg_vruntime()}: the load-weighted average vruntime V of the runnable tasks,
 *       current included, kept as sums of {@code (vruntime - min_vruntime) * weight} and weights
 *       ({@code avg_vruntime_add/sub/update()}), rounded as the kernel divides.
 *   <li>{@code entity_eligible()}: a task is eligible when its vruntime is not after V.
 *   <li>{@code pick_eevdf()}: of the eligible tasks, the one with the earliest virtual deadline;
 *       the current task is kept while eligible and still on the request it was picked with
 *       ({@code RUN_TO_PARITY}: {@code vlag == deadline}, stashed by {@code set_next_entity()}).
 *   <li>{@code update_deadline()}: once the current task's vruntime reaches its deadline, it gets
 *       a new request ({@code deadline = vruntime + base_slice * 1024 / weight}) and, with others
 *       runnable, is rescheduled; the tick and wakeups drive it through {@code update_curr()}.
 *   <li>{@code place_entity()}: a woken task is placed at {@code V - vlag * (W + w) / W} with W
 *       the queue's load ({@code PLACE_LAG}); a new task with lag 0 and half a slice as its first
 *       request ({@code PLACE_DEADLINE_INITIAL}).
 *   <li>{@code update_entity_lag()}: at dequeue, {@code vlag = V - vruntime}, clamped to the
 *       virtual time of {@code max(2 * slice, TICK_NSEC)}.
 *   <li>wakeup preemption ({@code check_preempt_wakeup()}): the woken task preempts exactly when
 *       {@code pick_eevdf()} would now pick it. There is no wakeup granularity.
 * </ul>
 *
 * <p>Simplified: no group scheduling, SCHED_IDLE or NEXT_BUDDY (off by default); the eligible
 * task with the earliest deadline is found by a scan in vruntime order instead of the augmented
 * rb-tree (the same choice; ties go to the smaller vruntime, then the task's order key); the
 * later refinements (6.12's DELAY_DEQUEUE, PREEMPT_SHORT, custom slices) are not modelled; a
 * migrating task keeps its vlag, as 6.6 does, so the renormalised vruntime its CPU gives it is
 * overwritten at placement. Owned by one {@link CpuComponent}.
 */
public final class EevdfPolicy implements SchedPolicy {
  private static final Comparator<Task> BY_VRUNTIME =
      Comparator.comparingLong((Task t) -> t.se.vruntime).thenComparingLong(Task::orderKey);

  private final long baseSliceNs;
  private final long tickNs;
  private final Timeline timeline = new Timeline(BY_VRUNTIME);

  private Task curr;
  private long minVruntime;
  /** {@code cfs_rq->avg_vruntime}: sum of key * weight over the queued tasks (not current). */
  private long avgVruntimeSum;
  /** {@code cfs_rq->avg_load}: sum of the queued tasks' weights (not current). */
  private long avgLoad;
  private long loadWeight;
  private int nrRunning;
  /** {@code update_deadline()} asked for a reschedule not yet acted on. */
  private boolean reschedPending;

  /** An EEVDF run queue with the base slice and tick of {@code params}. */
  public EevdfPolicy(SchedParams params) {
    this.baseSliceNs = params.baseSliceNs();
    this.tickNs = params.tickNs();
  }

  private long key(Task t) {
    return t.se.vruntime - minVruntime;
  }

  private void avgAdd(Task t) {
    avgVruntimeSum += key(t) * t.se.weight;
    avgLoad += t.se.weight;
  }

  private void avgSub(Task t) {
    avgVruntimeSum -= key(t) * t.se.weight;
    avgLoad -= t.se.weight;
  }

  /** {@code avg_vruntime()}: V, the weighted average vruntime of the runnable tasks. */
  long avgVruntime() {
    long avg = avgVruntimeSum;
    long load = avgLoad;
    if (curr != null && curr.se.onRq) {
      avg += key(curr) * curr.se.weight;
      load += curr.se.weight;
    }
    if (load != 0) {
      // The sign flips the effective floor / ceiling (div_s64 truncates towards zero).
      if (avg < 0) {
        avg -= load - 1;
      }
      avg = avg / load;
    }
    return minVruntime + avg;
  }

  /** {@code entity_eligible()}: {@code t.vruntime <= V}, without the division. */
  boolean eligible(Task t) {
    long avg = avgVruntimeSum;
    long load = avgLoad;
    if (curr != null && curr.se.onRq) {
      avg += key(curr) * curr.se.weight;
      load += curr.se.weight;
    }
    return avg >= key(t) * load;
  }

  /** {@code update_min_vruntime()}: min of current and leftmost, never backwards. */
  private void updateMinVruntime() {
    long v = minVruntime;
    boolean haveCurr = curr != null && curr.se.onRq;
    if (haveCurr) {
      v = curr.se.vruntime;
    }
    if (!timeline.isEmpty()) {
      long left = timeline.first().se.vruntime;
      v = haveCurr ? Math.min(v, left) : left;
    }
    long delta = v - minVruntime;
    if (delta > 0) {
      // avg_vruntime_update(): the keys all shrink by delta.
      avgVruntimeSum -= avgLoad * delta;
      minVruntime = v;
    }
  }

  @Override
  public void updateCurr(long now) {
    Task t = curr;
    if (t == null) {
      return;
    }
    long start = t.se.execStart;
    long delta = now - start;
    if (delta <= 0) {
      return;
    }
    long v0 = t.se.vruntime;
    t.se.execStart = now;
    t.se.sumExecRuntime += delta;
    t.se.vruntime += LoadWeight.calcDeltaFair(delta, t.se.weight);
    if (nrRunning == 1) {
      catchUpTicks(t, start, now, v0);
    }
    updateDeadline(t);
    updateMinVruntime();
  }

  /**
   * The ticks a lone task's CPU skips ({@link CpuComponent} runs its tick only with two or more
   * runnable tasks): the kernel's {@code entity_tick()} called {@code update_deadline()} at each
   * of them, renewing the request at the first tick past each deadline, so the deadline a
   * newcomer meets is the one the last such tick set.
   */
  private void catchUpTicks(Task t, long from, long to, long vFrom) {
    long w = t.se.weight;
    long vslice = LoadWeight.calcDeltaFair(baseSliceNs, w);
    while (true) {
      long need = t.se.deadline - vFrom;
      // Real time at which the vruntime reaches the deadline (vruntime grows 1024/w per ns).
      long reach = need <= 0 ? from : from + (need * w + 1023) / 1024;
      long tick = Math.max(reach, from + 1);
      tick = ((tick + tickNs - 1) / tickNs) * tickNs;
      if (tick > to) {
        return;
      }
      t.se.deadline = vFrom + LoadWeight.calcDeltaFair(tick - from, w) + vslice;
    }
  }

  /** {@code update_deadline()}: a new request once the current one is served. */
  private void updateDeadline(Task t) {
    if (t.se.vruntime - t.se.deadline < 0) {
      return;
    }
    t.se.deadline = t.se.vruntime + LoadWeight.calcDeltaFair(baseSliceNs, t.se.weight);
    if (nrRunning > 1) {
      reschedPending = true;
    }
  }

  /** {@code place_entity()}: vruntime from V and the task's lag, then its first deadline. */
  private void placeEntity(Task t, boolean initial) {
    long v = avgVruntime();
    long vslice = LoadWeight.calcDeltaFair(baseSliceNs, t.se.weight);
    long lag = 0;
    if (nrRunning > 0) {
      lag = t.se.vlag;
      long load = avgLoad;
      if (curr != null && curr.se.onRq) {
        load += curr.se.weight;
      }
      lag *= load + t.se.weight;
      if (load == 0) {
        load = 1;
      }
      lag = lag / load;
    }
    t.se.vruntime = v - lag;
    if (initial) {
      vslice /= 2;
    }
    t.se.deadline = t.se.vruntime + vslice;
  }

  private void enqueue(Task t) {
    t.se.onRq = true;
    loadWeight += t.se.weight;
    nrRunning++;
    timeline.add(t);
    avgAdd(t);
  }

  @Override
  public void enqueueInitial(Task t) {
    t.se.vlag = 0;
    placeEntity(t, true);
    enqueue(t);
  }

  @Override
  public void enqueueNew(Task t, Task parent, long now) {
    updateCurr(now);
    t.se.vlag = 0;
    placeEntity(t, true);
    enqueue(t);
  }

  @Override
  public void enqueueWakeup(Task t, long now) {
    updateCurr(now);
    placeEntity(t, false);
    enqueue(t);
  }

  /** {@code pick_eevdf()}. */
  private Task pickEevdf() {
    Task c = curr;
    if (c != null && (!c.se.onRq || !eligible(c))) {
      c = null;
    }
    if (c != null && c.se.vlag == c.se.deadline) {
      return c;
    }
    Task best = null;
    Task single = timeline.single();
    if (single != null) {
      if (eligible(single)) {
        best = single;
      }
    } else {
      for (Task t : timeline) {
        if (!eligible(t)) {
          break;
        }
        if (best == null || t.se.deadline < best.se.deadline) {
          best = t;
        }
      }
    }
    if (best == null || (c != null && best.se.deadline > c.se.deadline)) {
      best = c;
    }
    if (best == null && !timeline.isEmpty()) {
      best = timeline.first();
    }
    return best;
  }

  @Override
  public Task pickNextTask(long now) {
    if (curr != null) {
      throw new IllegalStateException("pick with a current task " + curr.comm());
    }
    Task se = pickEevdf();
    if (se == null) {
      return null;
    }
    // set_next_entity()
    timeline.remove(se);
    avgSub(se);
    curr = se;
    se.se.execStart = now;
    se.se.prevSumExecRuntime = se.se.sumExecRuntime;
    se.se.vlag = se.se.deadline;
    reschedPending = false;
    return se;
  }

  @Override
  public void putPrevTask(long now) {
    updateCurr(now);
    Task t = curr;
    curr = null;
    timeline.add(t);
    avgAdd(t);
  }

  @Override
  public void dequeueCurr(long now) {
    updateCurr(now);
    Task t = curr;
    // update_entity_lag(), with the task still counted in V.
    long lag = avgVruntime() - t.se.vruntime;
    long limit = LoadWeight.calcDeltaFair(Math.max(2 * baseSliceNs, tickNs), t.se.weight);
    t.se.vlag = Math.max(-limit, Math.min(limit, lag));
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
    if (t == curr || !timeline.contains(t)) {
      throw new IllegalStateException("dequeue of " + t.comm() + ", which is not queued");
    }
    updateCurr(now);
    // update_entity_lag() with the task still counted in V, then out of the tree.
    long lag = avgVruntime() - t.se.vruntime;
    long limit = LoadWeight.calcDeltaFair(Math.max(2 * baseSliceNs, tickNs), t.se.weight);
    t.se.vlag = Math.max(-limit, Math.min(limit, lag));
    timeline.remove(t);
    avgSub(t);
    t.se.onRq = false;
    loadWeight -= t.se.weight;
    nrRunning--;
    updateMinVruntime();
  }

  @Override
  public void enqueueMigrated(Task t, long srcMinVruntime, long now) {
    updateCurr(now);
    // place_entity() from the lag kept at the dequeue (EEVDF has no min_vruntime renormalising).
    placeEntity(t, false);
    enqueue(t);
  }

  @Override
  public boolean taskTick(long now) {
    updateCurr(now);
    boolean r = reschedPending && curr != null && nrRunning > 1;
    reschedPending = false;
    return r;
  }

  @Override
  public boolean checkPreemptWakeup(Task woken, long now) {
    if (curr == null || woken == curr) {
      return false;
    }
    updateCurr(now);
    if (reschedPending) {
      reschedPending = false;
      return true;
    }
    return pickEevdf() == woken;
  }

  @Override
  public int nrRunning() {
    return nrRunning;
  }

  @Override
  public Task curr() {
    return curr;
  }

  @Override
  public long minVruntime() {
    return minVruntime;
  }

  /** {@code cfs_rq->load.weight}: the sum of the runnable tasks' weights. */
  public long loadWeight() {
    return loadWeight;
  }
}
