package blksim.kernel.locking;

import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.topology.Cpu;
import java.util.ArrayList;
import java.util.List;

/**
 * A test task running a program of lock operations, one operation at a time; logs
 * "time name event" lines into a shared list.
 */
final class LockTask extends Task {
  /** What an operation did in a step. */
  enum Did { NOTHING, ACTED, ACTED_AGAIN }

  interface Op {
    Did step(LockTask t, TaskCpu cpu);
  }

  private final List<Op> ops = new ArrayList<>();
  private final List<String> log;
  private int pc;

  LockTask(String name, List<String> log) {
    super(name, 100, 0);
    this.log = log;
  }

  @Override
  public boolean keepsRunAlive() {
    return true;
  }

  @Override
  protected void step(TaskCpu cpu) {
    while (pc < ops.size()) {
      Did d = ops.get(pc).step(this, cpu);
      if (d != Did.ACTED_AGAIN) {
        pc++;
      }
      if (d != Did.NOTHING) {
        return;
      }
    }
    cpu.exit();
  }

  void note(TaskCpu cpu, String what) {
    log.add(cpu.now() + " " + comm() + " " + what);
  }

  LockTask sleepFor(long ns) {
    ops.add((t, cpu) -> {
      CpuComponent c = cpu.cpu();
      c.callAfter(ns, () -> c.wakeUp(t));
      cpu.sleep();
      return Did.ACTED;
    });
    return this;
  }

  LockTask run(long ns) {
    ops.add((t, cpu) -> {
      cpu.runFor(CpuMode.SYSTEM, ns);
      return Did.ACTED;
    });
    return this;
  }

  LockTask downWrite(RwSemaphore l) {
    ops.add((t, cpu) -> {
      if (!l.downWrite(t, cpu)) {
        return Did.ACTED_AGAIN;
      }
      t.note(cpu, "W+");
      return Did.NOTHING;
    });
    return this;
  }

  LockTask downRead(RwSemaphore l) {
    ops.add((t, cpu) -> {
      if (!l.downRead(t, cpu)) {
        return Did.ACTED_AGAIN;
      }
      t.note(cpu, "R+");
      return Did.NOTHING;
    });
    return this;
  }

  LockTask upWrite(RwSemaphore l) {
    ops.add((t, cpu) -> release(t, cpu, l.upWrite(t, cpu.cpu()), "W-"));
    return this;
  }

  LockTask upRead(RwSemaphore l) {
    ops.add((t, cpu) -> release(t, cpu, l.upRead(t, cpu.cpu()), "R-"));
    return this;
  }

  LockTask lock(Mutex m) {
    ops.add((t, cpu) -> {
      if (!m.lock(t, cpu)) {
        return Did.ACTED_AGAIN;
      }
      t.note(cpu, "M+");
      return Did.NOTHING;
    });
    return this;
  }

  LockTask unlock(Mutex m) {
    ops.add((t, cpu) -> release(t, cpu, m.unlock(t, cpu.cpu()), "M-"));
    return this;
  }

  LockTask op(Op op) {
    ops.add(op);
    return this;
  }

  private static Did release(LockTask t, TaskCpu cpu, long cost, String what) {
    t.note(cpu, what);
    if (cost > 0) {
      cpu.runFor(CpuMode.SYSTEM, cost);
      return Did.ACTED;
    }
    return Did.NOTHING;
  }

  static CpuComponent cpu(int id, SchedParams p) {
    return new CpuComponent(new Cpu(id, 0, 0, 0, id), p);
  }

  static RunOutcome run(SchedParams p, Partitioning parts, List<CpuComponent> cpus) {
    Model m = new Model(List.copyOf(cpus), p.wakeupLatencyNs(), 10_000_000_000L, 0, 1);
    return LocalRunner.run(m, parts, 1, ProgressListener.NONE);
  }
}
