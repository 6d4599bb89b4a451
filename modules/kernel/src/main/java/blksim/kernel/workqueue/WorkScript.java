package blksim.kernel.workqueue;

import java.util.List;

/**
 * A work item's behaviour as data (kernel-model.md §4.1): CPU bursts, blocking waits and
 * re-queueing, run in order; the callback returns after the last step. Serializable with Kryo, so
 * it can run on any CPU of any partition.
 *
 * @param steps the steps, in order
 */
public record WorkScript(List<WorkStep> steps) implements WorkFn {

  public WorkScript {
    steps = List.copyOf(steps);
  }

  /** A script of the given steps. */
  public static WorkScript of(WorkStep... steps) {
    return new WorkScript(List.of(steps));
  }

  /** A CPU-bound item: one burst of {@code ns}. */
  public static WorkScript cpu(long ns) {
    return of(new WorkStep.Run(ns));
  }

  /** An item that runs {@code cpuNs}, then blocks for {@code blockNs}, then runs {@code cpuNs}. */
  public static WorkScript blocking(long cpuNs, long blockNs) {
    return of(new WorkStep.Run(cpuNs), new WorkStep.Sleep(blockNs), new WorkStep.Run(cpuNs));
  }

  @Override
  public WorkRun begin() {
    int[] pc = {0};
    return cpu -> {
      if (pc[0] >= steps.size()) {
        cpu.finish();
        return;
      }
      WorkStep s = steps.get(pc[0]++);
      if (s instanceof WorkStep.Run r) {
        cpu.runFor(r.ns());
      } else if (s instanceof WorkStep.Sleep sl) {
        cpu.sleepFor(sl.ns());
      } else if (s instanceof WorkStep.CondResched) {
        cpu.condResched();
      } else {
        cpu.requeue();
        cpu.runFor(0);
      }
    };
  }
}
