package blksim.kernel.timer;

import blksim.engine.CostDistribution;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;

/**
 * Timed sleeps of one task (kernel-model.md §3.5): the high-resolution {@code usleep_range()} and
 * {@code fsleep()} (hrtimers, microsecond resolution, not tied to jiffies), and the jiffy-based
 * {@code msleep()} / {@code schedule_timeout()} on the timer wheel.
 *
 * <p>Use from the task's {@link Task#step}: a sleep method is the step's action (the task blocks
 * and its CPU arms the timer). The kernel's sleeps are uninterruptible loops
 * ({@code usleep_range_state()}, {@code msleep()}): a {@code wake_up_process()} before the
 * deadline does not end them. A task that may be woken early therefore starts its step with
 * {@code if (sleep.continueSleep(cpu)) return;}, which blocks it again until the deadline.
 *
 * <p>Mirrors include/linux/delay.h and kernel/time/sleep_timeout.c (up to 6.12):
 * <ul>
 *   <li>{@code usleep_range(min, max)}: an hrtimer with soft expiry min and hard expiry max. The
 *       model wakes the task at the hard expiry, which is what an hrtimer does when no other
 *       hrtimer interrupt (such as the tick of a busy CPU) expires it earlier; that coalescing is
 *       not modelled. The wakeup costs {@link TimerParams#hrtimerLatencyNs} of interrupt time.
 *   <li>{@code fsleep(us)}: {@code udelay} (a busy system-mode burst) up to
 *       {@link #FSLEEP_UDELAY_MAX_US}, {@code usleep_range(us, 2 * us)} up to
 *       {@link #FSLEEP_USLEEP_MAX_US}, {@code msleep(DIV_ROUND_UP(us, 1000))} beyond.
 *   <li>{@code msleep(ms)}: {@code schedule_timeout(msecs_to_jiffies(ms) + 1)}, a
 *       {@link TimerList} on the task's CPU, so it is rounded by the wheel.
 *   <li>{@link #hrtimerSleepNs}: {@code schedule_hrtimeout()} with no slack.
 * </ul>
 *
 * <p>An hrtimer's handler runs after its expiry by the local APIC timer interrupt's latency
 * ({@link #expiry}, {@code costs.timer.hrtimer-expiry}, issue 10 item 9), drawn per sleep from a
 * stream the owner gives, its own; without one (the default) the wakeup is at the exact expiry.
 *
 * <p>Owned by the task it serves, on that task's CPU.
 */
public final class HrtimerSleep {
  /** {@code fsleep()} busy-waits with {@code udelay()} up to this many us. */
  public static final long FSLEEP_UDELAY_MAX_US = 10;
  /** {@code fsleep()} uses {@code usleep_range()} up to this many us (20 ms), msleep beyond. */
  public static final long FSLEEP_USLEEP_MAX_US = 20_000;

  private final TimerParams params;
  private boolean sleeping;
  private long generation;
  private TimerList wheelTimer;
  private CostDistribution expiry = CostDistribution.constant(0);
  private java.util.SplittableRandom expiryStream;

  /** A sleeper for one task, with the machine's timer parameters. */
  public HrtimerSleep(TimerParams params) {
    this.params = params;
  }

  /**
   * The hrtimer expiry latency of this sleeper's hrtimer sleeps, drawn from {@code stream}
   * (the owner's own; unused while {@code d} is a constant).
   */
  public HrtimerSleep expiry(CostDistribution d, java.util.SplittableRandom stream) {
    this.expiry = java.util.Objects.requireNonNull(d, "expiry");
    this.expiryStream = stream;
    return this;
  }

  /** Whether a sleep is in progress (its deadline has not been reached). */
  public boolean sleeping() {
    return sleeping;
  }

  /**
   * Called first in the task's step: if a sleep is in progress (the task was woken early), blocks
   * again and returns true (the step's action is taken); otherwise returns false.
   */
  public boolean continueSleep(TaskCpu cpu) {
    if (!sleeping) {
      return false;
    }
    cpu.sleep();
    return true;
  }

  /** {@code usleep_range(minUs, maxUs)}: blocks until the hard expiry {@code maxUs}. */
  public void usleepRange(TaskCpu cpu, long minUs, long maxUs) {
    if (minUs < 0 || maxUs < minUs) {
      throw new IllegalArgumentException("usleep_range needs 0 <= min <= max, was " + minUs
          + ", " + maxUs);
    }
    hrtimerSleepNs(cpu, maxUs * Jiffies.NSEC_PER_USEC);
  }

  /** {@code fsleep(us)}: udelay, usleep_range or msleep by length (see the class comment). */
  public void fsleep(TaskCpu cpu, long us) {
    if (us < 0) {
      throw new IllegalArgumentException("fsleep needs us >= 0, was " + us);
    }
    if (us <= FSLEEP_UDELAY_MAX_US) {
      cpu.runFor(CpuMode.SYSTEM, us * Jiffies.NSEC_PER_USEC);
    } else if (us <= FSLEEP_USLEEP_MAX_US) {
      usleepRange(cpu, us, 2 * us);
    } else {
      msleep(cpu, (us + Jiffies.MSEC_PER_SEC - 1) / Jiffies.MSEC_PER_SEC);
    }
  }

  /**
   * {@code schedule_hrtimeout(ns)}: blocks for {@code ns}, plus the expiry latency
   * ({@link #expiry}), plus the hrtimer interrupt's cost.
   */
  public void hrtimerSleepNs(TaskCpu cpu, long ns) {
    if (ns < 0) {
      throw new IllegalArgumentException("sleep needs ns >= 0, was " + ns);
    }
    CpuComponent c = cpu.cpu();
    Task self = c.current();
    long gen = begin();
    long late = expiry.isConstant() ? expiry.sampleNs(null) : expiry.sampleNs(expiryStream);
    c.callAfter(ns + late, () -> c.interrupt(params.hrtimerLatencyNs(), () -> end(c, self, gen)));
    cpu.sleep();
  }

  /**
   * {@code msleep(ms)}: blocks until the timer-wheel tick that expires
   * {@code jiffies + msecs_to_jiffies(ms) + 1}.
   */
  public void msleep(TaskCpu cpu, long ms) {
    scheduleTimeout(cpu, params.jiffies().msecsToJiffies(ms) + 1);
  }

  /** {@code schedule_timeout_uninterruptible(timeout)}: a wheel timer {@code timeout} jiffies on. */
  public void scheduleTimeout(TaskCpu cpu, long timeoutJiffies) {
    if (timeoutJiffies < 0) {
      throw new IllegalArgumentException("timeout must be >= 0 jiffies, was " + timeoutJiffies);
    }
    CpuComponent c = cpu.cpu();
    Task self = c.current();
    long gen = begin();
    TimerBase base = TimerBase.onCpu(c, params);
    wheelTimer = new TimerList(base, () -> end(c, self, gen));
    wheelTimer.modTimer(base.jiffies() + timeoutJiffies);
    cpu.sleep();
  }

  private long begin() {
    if (sleeping) {
      throw new IllegalStateException("a sleep is already in progress; call continueSleep() first");
    }
    sleeping = true;
    return ++generation;
  }

  private void end(CpuComponent c, Task self, long gen) {
    if (gen != generation || !sleeping) {
      return;
    }
    sleeping = false;
    wheelTimer = null;
    c.wake(self);
  }
}
