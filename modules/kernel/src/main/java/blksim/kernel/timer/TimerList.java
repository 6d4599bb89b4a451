package blksim.kernel.timer;

/**
 * A {@code struct timer_list}: one pending expiry, in jiffies, and a callback that runs in
 * softirq context on the base's CPU at the tick that expires it (kernel-model.md §3.1, §3.3).
 *
 * <p>Mirrors {@code timer_setup()} (the constructor), {@code mod_timer()}, {@code add_timer()},
 * {@code timer_reduce()}, {@code del_timer()} and {@code timer_pending()}. The tick that runs the
 * callback follows {@link TimerWheel#expiryTick}: a level-0 timer with {@code expires} E runs at
 * tick E+1. The callback then runs {@link TimerParams#timerSoftirqLatencyNs} after that tick, as
 * an interrupt of the CPU ({@link TimerBase#softirq}). The timer stays pending until its callback
 * runs (the kernel detaches it in {@code expire_timers()} just before calling it), so the
 * callback may re-arm it.
 *
 * <p>The callback runs in atomic context: it must not take a task action or block. Hand blocking
 * work to a workqueue or a kthread, as the kernel does.
 *
 * <p>Owned by the component of its {@link TimerBase} (usually a {@code CpuComponent}); use it only
 * from code running there. Cancellation is lazy: a re-armed or deleted timer's old callback event
 * still arrives and is ignored (a generation counter), which the kernel's detached list entry
 * makes unnecessary. {@code del_timer_sync()} equals {@link #delTimer} here, since a callback
 * never runs concurrently with its owner.
 */
public final class TimerList {
  private final TimerBase base;
  private final Runnable function;
  private boolean pending;
  private long expires;
  private long fireTick;
  private long generation;

  /** {@code timer_setup(timer, function, 0)}. */
  public TimerList(TimerBase base, Runnable function) {
    this.base = base;
    this.function = function;
  }

  /** The base the timer runs on. */
  public TimerBase base() {
    return base;
  }

  /**
   * {@code mod_timer(timer, expires)}: sets the one pending expiry to {@code expires} (jiffies),
   * whether or not the timer was pending. Returns whether it was pending before.
   */
  public boolean modTimer(long expires) {
    boolean was = pending;
    if (was && this.expires == expires) {
      return true;
    }
    arm(expires);
    return was;
  }

  /** {@code add_timer()}: arms a timer that must not be pending. */
  public void addTimer(long expires) {
    if (pending) {
      throw new IllegalStateException("add_timer() of a pending timer (expires " + this.expires
          + ") at jiffies " + base.jiffies());
    }
    arm(expires);
  }

  /**
   * {@code timer_reduce(timer, expires)}: arms the timer if it is not pending, or moves it to
   * {@code expires} if that is earlier than the pending expiry (dm-delay's
   * {@code queue_timeout()}). Returns whether it was pending before.
   */
  public boolean timerReduce(long expires) {
    if (pending && expires - this.expires >= 0) {
      return true;
    }
    boolean was = pending;
    arm(expires);
    return was;
  }

  /** {@code del_timer()}: deactivates the timer; returns whether it was pending. */
  public boolean delTimer() {
    boolean was = pending;
    pending = false;
    generation++;
    return was;
  }

  /** {@code timer_pending()}. */
  public boolean timerPending() {
    return pending;
  }

  /** {@code timer->expires}, jiffies (meaningful while pending). */
  public long expires() {
    return expires;
  }

  /** The tick at which the pending timer's callback runs (meaningful while pending). */
  public long fireTick() {
    return fireTick;
  }

  private void arm(long newExpires) {
    Jiffies clock = base.clock();
    long now = base.now();
    long jiffiesNow = clock.at(now);
    expires = newExpires;
    fireTick = TimerWheel.expiryTick(jiffiesNow, newExpires, clock.hz());
    pending = true;
    long gen = ++generation;
    long latency = base.params().timerSoftirqLatencyNs();
    base.callAfter(clock.tickTimeNs(fireTick) - now, () -> base.softirq(latency, () -> {
      if (gen == generation && pending) {
        pending = false;
        function.run();
      }
    }));
  }
}
