package blksim.kernel.kthread;

import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;

/**
 * The background kernel work every CPU does whatever the workload: per-CPU kworkers running
 * {@code vmstat_update()}, RCU callbacks, timer and statistics housekeeping. Modelled as one nice-0
 * kernel thread per CPU that wakes every {@code intervalNs} (first wake at a seeded random phase)
 * and runs {@code workNs} of system time.
 *
 * <p>Its only visible effect on a workload is the odd involuntary context switch of a task that
 * otherwise never leaves its CPU: it is what gives a fio thread doing inline I/O its few thousand
 * context switches per minute (kernel-model.md §12.5, nowait on). Simplified: one periodic thread
 * stands for all such work [A]; the interval is a calibration value.
 */
public final class HousekeepingKworker extends Task {
  private final long intervalNs;
  private final long workNs;
  private boolean started;
  private boolean working;

  /**
   * @param cpuId the CPU, for the thread's name ({@code kworker/C:1})
   * @param intervalNs time between wakeups, > 0
   * @param workNs system time per wakeup, >= 0
   */
  public HousekeepingKworker(int cpuId, long intervalNs, long workNs) {
    super("kworker/" + cpuId + ":1", 0, 0);
    if (intervalNs <= 0 || workNs < 0) {
      throw new IllegalArgumentException("housekeeping interval must be > 0 and work >= 0, was "
          + intervalNs + " and " + workNs);
    }
    this.intervalNs = intervalNs;
    this.workNs = workNs;
  }

  @Override
  protected void step(TaskCpu cpu) {
    if (!started) {
      started = true;
      sleepFor(cpu, cpu.random().nextLong(intervalNs));
      return;
    }
    if (!working) {
      working = true;
      cpu.runFor(CpuMode.SYSTEM, workNs);
      return;
    }
    working = false;
    sleepFor(cpu, intervalNs);
  }

  private void sleepFor(TaskCpu cpu, long ns) {
    cpu.cpu().callAfter(ns, () -> cpu.cpu().wake(this));
    cpu.sleep();
  }
}
