package blksim.kernel.sched;

import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.topology.Cpu;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A test task running a script of actions, one per step, then a loop action (or exit). Records
 * the time of every step and counts the scheduler hooks. Shared by the kernel's task-level tests.
 */
public final class ScriptedTask extends Task {
  final List<Consumer<TaskCpu>> script = new ArrayList<>();
  /** Virtual time of every step. */
  public final List<Long> stepTimes = new ArrayList<>();
  private final boolean live;
  private Consumer<TaskCpu> loop;
  int pc;
  int submitWorkCalls;
  int updateWorkerCalls;

  public ScriptedTask(String name, int nice, boolean live) {
    super(name, 100, nice);
    this.live = live;
  }

  /** A nice-0 task that keeps the run alive until its script ends. */
  public static ScriptedTask live(String name) {
    return new ScriptedTask(name, 0, true);
  }

  /** Appends one step's action. */
  public ScriptedTask then(Consumer<TaskCpu> action) {
    script.add(action);
    return this;
  }

  /** After the script, repeats {@code action} at every step instead of exiting. */
  public ScriptedTask loop(Consumer<TaskCpu> action) {
    loop = action;
    return this;
  }

  @Override
  public boolean keepsRunAlive() {
    return live;
  }

  @Override
  protected void step(TaskCpu cpu) {
    stepTimes.add(cpu.now());
    if (pc < script.size()) {
      script.get(pc++).accept(cpu);
    } else if (loop != null) {
      loop.accept(cpu);
    } else {
      cpu.exit();
    }
  }

  @Override
  protected long schedSubmitWork(TaskCpu cpu) {
    submitWorkCalls++;
    return 0;
  }

  @Override
  protected void schedUpdateWorker(TaskCpu cpu) {
    updateWorkerCalls++;
  }

  static CpuComponent cpu(int id, SchedParams p) {
    return new CpuComponent(new Cpu(id, 0, 0, 0, id), p);
  }

  /** Runs the CPUs in one partition until the live tasks are done or {@code maxTimeNs}. */
  static RunOutcome run(SchedParams p, long maxTimeNs, CpuComponent... cpus) {
    return run(p, maxTimeNs, Partitioning.ONE, cpus);
  }

  static RunOutcome run(SchedParams p, long maxTimeNs, Partitioning parts,
      CpuComponent... cpus) {
    Model m = new Model(List.of(cpus), p.wakeupLatencyNs(), maxTimeNs, 0, 1);
    return LocalRunner.run(m, parts, 1, ProgressListener.NONE);
  }
}
