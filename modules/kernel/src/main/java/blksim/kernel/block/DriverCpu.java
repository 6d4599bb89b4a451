package blksim.kernel.block;

/**
 * What a block driver may do with the CPU it runs on: read the clock, take an interrupt, arm a
 * timer. The narrow view of a CPU that drivers get instead of the scheduler's CPU component, so
 * that the block layer does not depend on the scheduler (the kernel's drivers likewise see
 * {@code raise_softirq()}, {@code hrtimer_start()} and {@code ktime_get()}, not the run queue).
 *
 * <p>Tasks are never touched through it: a driver that completes a bio calls the bio's end_io
 * callback, and a submitter waiting for a tag is woken through the callback it passed to
 * {@link BlockQueue#issue}; both were made by the submitting side, which knows its task.
 */
public interface DriverCpu {

  /** The CPU's id (its position in the topology). */
  int cpuId();

  /** Current virtual time, ns. */
  long now();

  /**
   * Takes an interrupt costing {@code costNs} of CPU time on this CPU, then runs {@code handler}
   * in interrupt context (it may complete bios and so wake tasks).
   */
  void interrupt(long costNs, Runnable handler);

  /** Runs {@code callback} on this CPU after {@code delayNs} (an hrtimer). */
  void callAfter(long delayNs, Runnable callback);
}
