package blksim.kernel.device;

import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.topology.Cpu;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A task that submits a fixed list of bios one at a time, as a synchronous submitter does: pays
 * {@link BlockQueue#submitCostNs} as system time, calls {@link BlockQueue#issue}, and sleeps until
 * the completion if it did not happen inline. Records each completion.
 */
final class ScriptedSubmitter extends Task {
  static final SchedParams SCHED = new SchedParams(0, 0, 1_000);

  /** One completed bio: when, with which error, and whether it completed inside issue(). */
  record Completion(long timeNs, int error, boolean inline) {}

  final BlockQueue q;
  private final List<Bio> bios;
  final List<Completion> completions = new ArrayList<>();
  private int next;
  private boolean paid;
  private boolean waiting;
  private boolean inIssue;

  ScriptedSubmitter(BlockQueue q, List<Bio> bios) {
    super("sub", 1, 0);
    this.q = q;
    this.bios = bios;
  }

  @Override
  public boolean keepsRunAlive() {
    return true;
  }

  @Override
  protected void step(TaskCpu cpu) {
    if (waiting) {
      if (completions.size() <= next) {
        cpu.sleep();
        return;
      }
      waiting = false;
      next++;
    }
    if (next == bios.size()) {
      cpu.exit();
      return;
    }
    Bio bio = bios.get(next);
    if (!paid) {
      paid = true;
      cpu.runFor(CpuMode.SYSTEM, q.submitCostNs(bio));
      return;
    }
    inIssue = true;
    boolean taken = q.issue(bio, (b, err) -> {
      completions.add(new Completion(cpu.now(), err, inIssue));
      cpu.cpu().wake(this);
    }, () -> cpu.cpu().wake(this));
    inIssue = false;
    if (!taken) {
      cpu.sleep();
      return;
    }
    paid = false;
    waiting = true;
    if (completions.size() > next) {
      waiting = false;
      next++;
      cpu.runFor(CpuMode.SYSTEM, 0);
    } else {
      cpu.sleep();
    }
  }

  /** Runs the bios on a fresh CPU 0 through the queue {@code make} builds; returns the task. */
  static ScriptedSubmitter run(Function<CpuComponent, BlockQueue> make, List<Bio> bios) {
    CpuComponent cpu = new CpuComponent(new Cpu(0, 0, 0, 0, 0), SCHED);
    BlockQueue q = make.apply(cpu);
    cpu.attach(q);
    ScriptedSubmitter s = new ScriptedSubmitter(q, bios);
    cpu.addTask(s);
    LocalRunner.run(new Model(List.of(cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE, 1,
        ProgressListener.NONE);
    return s;
  }
}
