package blksim.kernel.block;

import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Writeback throttling on a request queue ({@code struct rq_wb}, block/blk-wbt.c with
 * {@code rq_depth_*()} of block/blk-rq-qos.c; kernel-model.md §15.1.6): buffered writes may have
 * at most a limit of requests in flight, from their allocation to their completion; a write over
 * the limit sleeps before it gets a request, first come first served.
 *
 * <ul>
 *   <li>Which bios: writes, except O_DIRECT ones (REQ_SYNC and REQ_IDLE), and discards
 *       ({@code wbt_should_throttle()}). Reads are not throttled; they timestamp
 *       {@code last_issue} / {@code last_comp} and the first outstanding read is the
 *       {@code sync_cookie}.</li>
 *   <li>The limit ({@code get_limit()}): {@code max_depth} for REQ_SYNC / REQ_META / REQ_PRIO
 *       writes (WB_SYNC_ALL writeback); {@code wb_background} for REQ_BACKGROUND writes, for
 *       discards, and for any write within {@code HZ / 10} of a read's issue or completion
 *       ({@code close_io()}); {@code wb_normal} otherwise. With {@code default_depth} 16
 *       ({@code RWB_DEF_DEPTH}) and {@code queue_depth} at least 16: {@code max_depth} 16,
 *       {@code wb_normal} 8, {@code wb_background} 4 ({@code calc_wb_limits()}).</li>
 *   <li>Wake-up ({@code wbt_rqw_done()}): a completion wakes the sleepers only when in flight
 *       falls below the limit (0 on a queue with a volatile write cache, else {@code wb_normal})
 *       and either nothing is in flight or the room is at least {@code wb_background / 2}; the
 *       woken take their token in order while it fits ({@code rq_qos_wake_function()}).</li>
 *   <li>Scaling ({@code wb_timer_fn()}, every {@code cur_win_nsec}, 100 ms at step 0 and
 *       {@code 100 ms * 16 / int_sqrt((step + 1) << 8)} above): a read outstanding for longer
 *       than the window, or longer than {@code min_lat_nsec} (75 ms rotational, 2 ms
 *       non-rotational) in a window without read completions, or a window whose fastest read
 *       took longer than {@code min_lat_nsec}, scales down (depth {@code 1 + ((d - 1) >> step)},
 *       down to 1); a window with valid reads under the target scales up; a window of writes
 *       only scales up, past step 0 to {@code 3 * queue_depth / 4}; windows without
 *       information drift back to step 0 after {@code RWB_UNKNOWN_BUMP} (5) of them.</li>
 * </ul>
 *
 * <p>Simplified: one counter for all writes and discards ({@code WBT_RWQ_BG}; no kswapd here,
 * and a discard's own counter is merged into it); {@code wb_recent_wait()} is false (no task is
 * throttled in {@code balance_dirty_pages()} on the disk's own bdi: dirtying happens on the
 * filesystem's device above the disk); blksim's O_DIRECT paths set REQ_SYNC but not REQ_IDLE, so
 * with wbt on they are throttled like WB_SYNC_ALL writeback (at {@code max_depth}). Latencies
 * are the request's, from its dispatch to the driver ({@code io_start_time_ns}) to its end.
 * Only the queue's owner calls it (the queue's own partition rule).
 */
public final class Wbt {
  /** {@code RWB_DEF_DEPTH} [S]. */
  public static final int DEF_DEPTH = 16;
  /** {@code RWB_WINDOW_NSEC}: 100 ms [S]. */
  public static final long WINDOW_NS = 100_000_000L;
  /** {@code RWB_MIN_WRITE_SAMPLES} [S]. */
  public static final int MIN_WRITE_SAMPLES = 3;
  /** {@code RWB_UNKNOWN_BUMP} [S]. */
  public static final int UNKNOWN_BUMP = 5;
  /** {@code wbt_default_latency_nsec()} of a rotational queue: 75 ms [S]. */
  public static final long ROTATIONAL_LAT_NS = 75_000_000L;
  /** {@code wbt_default_latency_nsec()} of a non-rotational queue: 2 ms [S]. */
  public static final long NONROT_LAT_NS = 2_000_000L;

  /** A request's wbt flags ({@code enum wbt_flags}). */
  static final int TRACKED = 1;
  static final int READ = 2;
  static final int DISCARD = 8;

  private final long minLatNs;
  private final int queueDepth;
  private final boolean writeCache;
  private final int hz;
  // struct rq_depth
  private int scaleStep;
  private boolean scaledMax;
  private int maxDepth;
  private int wbNormal;
  private int wbBackground;
  private int unknownCnt;
  private long curWinNs = WINDOW_NS;
  private int inflight;
  private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
  /** Bios woken with a token, not yet given a request (identity: a retry passes the same bio). */
  private final Map<Bio, Boolean> granted = new IdentityHashMap<>();
  private long lastIssueJiffies;
  private long lastCompJiffies;
  private long syncIssueNs;
  private Request syncCookie;
  // blk_stat window: active while a timer is pending
  private boolean statActive;
  private long readSamples;
  private long readMinNs = Long.MAX_VALUE;
  private long writeSamples;
  private final Stats stats = new Stats();

  /** What a run did, for tests and the report. */
  public static final class Stats {
    public long throttled;
    public long waits;
    public long scaleUps;
    public long scaleDowns;
    public int minStep;
    public int maxStep;
    public long windows;
  }

  /** One line for a run's report: the limits now, the scaling and the waits. */
  public String summary() {
    return "wbt: min_lat " + minLatNs / 1000 + " us, max_depth " + maxDepth + ", wb_normal "
        + wbNormal + ", wb_background " + wbBackground + ", scale_step " + scaleStep
        + " (range " + stats.minStep + ".." + stats.maxStep + "), scale up/down "
        + stats.scaleUps + "/" + stats.scaleDowns + ", windows " + stats.windows
        + ", throttled writes " + stats.throttled + ", waits " + stats.waits;
  }

  private record Waiter(Bio bio, DriverCpu cpu, Runnable wake) {}

  /**
   * {@code wbt_init()}: enabled with {@code min_lat_nsec} {@code minLatNs} (the sysfs
   * {@code wbt_lat_usec} times 1,000), for a queue of {@code queueDepth} driver tags
   * ({@code blk_queue_depth()}), with or without a volatile write cache, at {@code hz}.
   */
  public Wbt(long minLatNs, int queueDepth, boolean writeCache, int hz) {
    if (minLatNs <= 0) {
      throw new IllegalArgumentException("wbt min latency must be > 0, was " + minLatNs);
    }
    this.minLatNs = minLatNs;
    this.queueDepth = queueDepth;
    this.writeCache = writeCache;
    this.hz = hz;
    calcMaxDepth();
    calcWbLimits();
  }

  /** {@code wb_normal}. */
  public int wbNormal() {
    return wbNormal;
  }

  /** {@code wb_background}. */
  public int wbBackground() {
    return wbBackground;
  }

  /** {@code rq_depth.max_depth}. */
  public int maxDepth() {
    return maxDepth;
  }

  /** {@code rq_depth.scale_step}. */
  public int scaleStep() {
    return scaleStep;
  }

  /** Tracked requests in flight. */
  public int inflight() {
    return inflight;
  }

  /** Bios sleeping for a token. */
  public int waiting() {
    return waiters.size();
  }

  /** The counters. */
  public Stats stats() {
    return stats;
  }

  private long jiffies(long ns) {
    return ns * hz / 1_000_000_000L;
  }

  /** {@code rq_depth_calc_max_depth()}; true when the scale-up ceiling was hit. */
  private boolean calcMaxDepth() {
    boolean ret = false;
    if (queueDepth == 1) {
      if (scaleStep > 0) {
        maxDepth = 1;
      } else {
        maxDepth = 2;
        ret = true;
      }
    } else {
      int depth = Math.min(DEF_DEPTH, queueDepth);
      if (scaleStep > 0) {
        depth = 1 + ((depth - 1) >> Math.min(31, scaleStep));
      } else if (scaleStep < 0) {
        int maxd = 3 * queueDepth / 4;
        depth = 1 + ((depth - 1) << Math.min(30, -scaleStep));
        if (depth > maxd || depth <= 0) {
          depth = maxd;
          ret = true;
        }
      }
      maxDepth = depth;
    }
    return ret;
  }

  /** {@code calc_wb_limits()}. */
  private void calcWbLimits() {
    if (maxDepth <= 2) {
      wbNormal = maxDepth;
      wbBackground = 1;
    } else {
      wbNormal = (maxDepth + 1) / 2;
      wbBackground = (maxDepth + 3) / 4;
    }
  }

  /** {@code scale_up()} ({@code rq_depth_scale_up()}); the sleepers are woken. */
  void scaleUp(DriverCpu cpu) {
    if (scaledMax) {
      return;
    }
    scaleStep--;
    scaledMax = calcMaxDepth();
    calcWbLimits();
    unknownCnt = 0;
    stats.scaleUps++;
    stats.minStep = Math.min(stats.minStep, scaleStep);
    wakeAll(cpu);
  }

  /** {@code scale_down()} ({@code rq_depth_scale_down()}). */
  void scaleDown(boolean hardThrottle) {
    if (maxDepth == 1) {
      return;
    }
    if (scaleStep < 0 && hardThrottle) {
      scaleStep = 0;
    } else {
      scaleStep++;
    }
    scaledMax = false;
    calcMaxDepth();
    calcWbLimits();
    unknownCnt = 0;
    stats.scaleDowns++;
    stats.maxStep = Math.max(stats.maxStep, scaleStep);
  }

  /** {@code bio_to_wbt_flags()}. */
  static int flagsOf(Bio bio) {
    if (bio.op() == ReqOp.READ) {
      return READ;
    }
    if (bio.op() == ReqOp.WRITE) {
      boolean direct = (bio.flags() & (Bio.REQ_SYNC | Bio.REQ_IDLE))
          == (Bio.REQ_SYNC | Bio.REQ_IDLE);
      return direct ? 0 : TRACKED;
    }
    if (bio.op() == ReqOp.DISCARD) {
      return TRACKED | DISCARD;
    }
    return 0;
  }

  /** {@code close_io()}: a read issued or completed less than HZ / 10 ago. */
  private boolean closeIo(long nowNs) {
    long j = jiffies(nowNs);
    return j < lastIssueJiffies + hz / 10 || j < lastCompJiffies + hz / 10;
  }

  /** {@code get_limit()} for a bio of {@code flags} and wbt flags {@code wf}. */
  int limit(int flags, int wf, long nowNs) {
    if ((wf & DISCARD) != 0) {
      return wbBackground;
    }
    if ((flags & (Bio.REQ_SYNC | Bio.REQ_META | Bio.REQ_PRIO)) != 0) {
      return maxDepth;
    }
    if ((flags & Bio.REQ_BACKGROUND) != 0 || closeIo(nowNs)) {
      return wbBackground;
    }
    return wbNormal;
  }

  /**
   * {@code wbt_wait()} of {@code bio} before it gets a request, on {@code cpu}: true if it may
   * go on (not tracked, or a token taken), false if it sleeps until {@code wake} runs (then it
   * holds a token and the caller submits it again). A token is held until the bio gets its
   * request ({@link #track}), across a wait for a request, or is given back
   * ({@link #cleanup}).
   */
  boolean throttle(Bio bio, DriverCpu cpu, Runnable wake) {
    int wf = flagsOf(bio);
    long now = cpu.now();
    if ((wf & TRACKED) == 0) {
      if ((wf & READ) != 0) {
        lastIssueJiffies = jiffies(now);
      }
      return true;
    }
    if (granted.containsKey(bio)) {
      return true;
    }
    stats.throttled++;
    if (!statActive) {
      armTimer(cpu);
    }
    // rq_qos_wait(): a newcomer does not pass sleepers.
    if (waiters.isEmpty() && inflight < limit(bio.flags(), wf, now)) {
      inflight++;
      granted.put(bio, Boolean.TRUE);
      return true;
    }
    stats.waits++;
    waiters.add(new Waiter(bio, cpu, wake));
    return false;
  }

  /** Whether {@code bio} holds a token from a wake-up (it must keep or give it back). */
  boolean holdsToken(Bio bio) {
    return granted.containsKey(bio);
  }

  /**
   * {@code wbt_cleanup()}: a bio that took a token and then merged into a request gives it back.
   */
  void cleanup(Bio bio, DriverCpu cpu) {
    if (granted.remove(bio) != null) {
      done(flagsOf(bio), cpu);
    }
  }

  /** {@code wbt_track()}: the wbt flags a new request carries; its token goes with it. */
  int track(Bio bio) {
    granted.remove(bio);
    return flagsOf(bio);
  }

  /** {@code wbt_issue()}: the request reaches the driver. */
  void issue(Request rq, long nowNs) {
    if ((rq.wbtFlags & READ) != 0 && syncIssueNs == 0) {
      syncCookie = rq;
      syncIssueNs = Math.max(1, nowNs);
    }
  }

  /** {@code wbt_done()} and the blk-stat sample of a request that ends on {@code cpu}. */
  void requestDone(Request rq, DriverCpu cpu) {
    long now = cpu.now();
    if (statActive && rq.dispatchNs() >= 0) {
      if (rq.op() == ReqOp.READ) {
        readSamples++;
        readMinNs = Math.min(readMinNs, now - rq.dispatchNs());
      } else if (rq.op() == ReqOp.WRITE || rq.op() == ReqOp.DISCARD
          || rq.op() == ReqOp.ZONE_RESET || rq.op() == ReqOp.ZONE_CLOSE) {
        writeSamples++;
      }
    }
    requestFreed(rq, cpu);
  }

  /** {@code wbt_done()} of a request freed without completing (merged into another). */
  void requestFreed(Request rq, DriverCpu cpu) {
    int wf = rq.wbtFlags;
    rq.wbtFlags = 0;
    if ((wf & TRACKED) == 0) {
      if (syncCookie == rq) {
        syncIssueNs = 0;
        syncCookie = null;
      }
      if ((wf & READ) != 0) {
        lastCompJiffies = jiffies(cpu.now());
      }
      return;
    }
    done(wf, cpu);
  }

  /** {@code wbt_rqw_done()}. */
  private void done(int wf, DriverCpu cpu) {
    inflight--;
    int limit;
    if ((wf & DISCARD) != 0) {
      limit = wbBackground;
    } else if (writeCache) {
      limit = 0;
    } else {
      limit = wbNormal;
    }
    if (inflight != 0 && inflight >= limit) {
      return;
    }
    if (!waiters.isEmpty()) {
      int diff = limit - inflight;
      if (inflight == 0 || diff >= wbBackground / 2) {
        wakeAll(cpu);
      }
    }
  }

  /**
   * {@code wake_up_all()} through {@code rq_qos_wake_function()}: sleepers take their token in
   * order while {@code rq_wait_inc_below()} allows, the first refused stops the walk.
   */
  private void wakeAll(DriverCpu cpu) {
    long now = cpu.now();
    while (!waiters.isEmpty()) {
      Waiter w = waiters.peek();
      if (inflight >= limit(w.bio.flags(), flagsOf(w.bio), now)) {
        return;
      }
      waiters.poll();
      inflight++;
      granted.put(w.bio, Boolean.TRUE);
      w.cpu.callAfter(0, w.wake);
    }
  }

  /** {@code rwb_arm_timer()}: the window length for the step, stats on, the timer set. */
  private void armTimer(DriverCpu cpu) {
    if (scaleStep > 0) {
      curWinNs = (WINDOW_NS << 4) / intSqrt((long) (scaleStep + 1) << 8);
    } else {
      curWinNs = WINDOW_NS;
    }
    statActive = true;
    readSamples = 0;
    writeSamples = 0;
    readMinNs = Long.MAX_VALUE;
    cpu.callAfter(curWinNs, () -> timer(cpu));
  }

  /** {@code int_sqrt()}. */
  static long intSqrt(long x) {
    long r = (long) Math.sqrt((double) x);
    while (r * r > x) {
      r--;
    }
    while ((r + 1) * (r + 1) <= x) {
      r++;
    }
    return r;
  }

  private enum Lat { OK, UNKNOWN, UNKNOWN_WRITES, EXCEEDED }

  /** {@code latency_exceeded()}. */
  private Lat latencyExceeded(long nowNs) {
    long thislat = syncIssueNs == 0 || syncCookie == null ? 0 : nowNs - syncIssueNs;
    if (thislat > curWinNs || (thislat > minLatNs && readSamples == 0)) {
      return Lat.EXCEEDED;
    }
    if (!(readSamples >= 1 && writeSamples >= MIN_WRITE_SAMPLES)) {
      if (writeSamples > 0 || inflight > 0) {
        return Lat.UNKNOWN_WRITES;
      }
      return Lat.UNKNOWN;
    }
    if (readMinNs > minLatNs) {
      return Lat.EXCEEDED;
    }
    return Lat.OK;
  }

  /** {@code wb_timer_fn()}. */
  private void timer(DriverCpu cpu) {
    statActive = false;
    stats.windows++;
    int inflightNow = inflight;
    switch (latencyExceeded(cpu.now())) {
      case EXCEEDED -> scaleDown(true);
      case OK, UNKNOWN_WRITES -> scaleUp(cpu);
      case UNKNOWN -> {
        if (++unknownCnt >= UNKNOWN_BUMP) {
          if (scaleStep > 0) {
            scaleUp(cpu);
          } else if (scaleStep < 0) {
            scaleDown(false);
          }
        }
      }
      default -> throw new IllegalStateException();
    }
    if (scaleStep != 0 || inflightNow > 0) {
      armTimer(cpu);
    }
  }
}
