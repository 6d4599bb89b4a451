package blksim.kernel.timer;

import blksim.kernel.sched.CpuComponent;
import java.util.function.LongSupplier;

/**
 * Where timers run: mirrors the per-CPU {@code struct timer_base} of kernel/time/timer.c, reduced
 * to what a {@link TimerList} needs: the clock, a way to be called back at a virtual time, and
 * the softirq in which expired timers' callbacks run.
 *
 * <p>{@link #onCpu} is the usual base: callbacks run on that CPU as an interrupt of
 * {@link TimerParams#timerSoftirqLatencyNs} (a {@code callAfter} to the tick, then an
 * {@code interrupt} for the softirq cost, which the running task pays). {@link #of} serves a
 * component that is not a CPU (a workqueue pool host's mayday timer): it is called back after the
 * same latency but charges no CPU.
 *
 * <p>A base holds no mutable state; any number may exist for one CPU. It must be used only by
 * code running in the component that owns the clock and callbacks it was built from.
 */
public abstract class TimerBase {
  private final TimerParams params;
  private final Jiffies jiffies;

  TimerBase(TimerParams params) {
    this.params = params;
    this.jiffies = params.jiffies();
  }

  /** The base of CPU {@code cpu}: callbacks run on it in softirq (interrupt) context. */
  public static TimerBase onCpu(CpuComponent cpu, TimerParams params) {
    return new TimerBase(params) {
      @Override
      public long now() {
        return cpu.now();
      }

      @Override
      public void callAfter(long delayNs, Runnable callback) {
        cpu.callAfter(delayNs, callback);
      }

      @Override
      public void softirq(long costNs, Runnable handler) {
        cpu.interrupt(costNs, handler);
      }
    };
  }

  /**
   * A base for a component that is not a CPU: {@code now} reads its clock, {@code callAfter}
   * schedules one of its own callbacks; softirq cost is a plain delay.
   */
  public static TimerBase of(TimerParams params, LongSupplier now, CallAfter callAfter) {
    return new TimerBase(params) {
      @Override
      public long now() {
        return now.getAsLong();
      }

      @Override
      public void callAfter(long delayNs, Runnable callback) {
        callAfter.callAfter(delayNs, callback);
      }

      @Override
      public void softirq(long costNs, Runnable handler) {
        callAfter.callAfter(costNs, handler);
      }
    };
  }

  /** A component's "call me back after a delay" primitive. */
  @FunctionalInterface
  public interface CallAfter {
    /** Runs {@code callback} in the owning component after {@code delayNs}. */
    void callAfter(long delayNs, Runnable callback);
  }

  /** Current virtual time, ns. */
  public abstract long now();

  /** Runs {@code callback} after {@code delayNs} (an hrtimer or a local event). */
  public abstract void callAfter(long delayNs, Runnable callback);

  /** Runs {@code handler} in softirq context after {@code costNs} of interrupt time. */
  public abstract void softirq(long costNs, Runnable handler);

  /** The timer parameters. */
  public TimerParams params() {
    return params;
  }

  /** The jiffies clock. */
  public Jiffies clock() {
    return jiffies;
  }

  /** The current value of {@code jiffies}. */
  public long jiffies() {
    return jiffies.at(now());
  }
}
