package blksim.kernel.sched;

import java.util.SplittableRandom;

/** What a task may do when the CPU hands it control (see {@link Task#step}). */
public interface TaskCpu {

  /** Current virtual time, ns. */
  long now();

  /** The CPU the task runs on. */
  CpuComponent cpu();

  /** Runs for {@code ns} of CPU time in {@code mode}; {@link Task#step} is called again after. */
  void runFor(CpuMode mode, long ns);

  /**
   * Blocks the task (a voluntary context switch). It runs again after someone calls
   * {@link CpuComponent#wake}; if that already happened during this step, it continues at once.
   */
  void sleep();

  /** Ends the task. */
  void exit();

  /** The CPU component's random stream. */
  SplittableRandom random();
}
