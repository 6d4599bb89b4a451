package blksim.kernel.workqueue;

import blksim.engine.Component;
import blksim.engine.ComponentReport;
import blksim.engine.IndexedReport;
import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.timer.TimerParams;
import blksim.kernel.topology.Topology;
import blksim.kernel.topology.TopologyParams;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * Test scaffolding: a machine with a workqueue system, driver tasks that queue work, and a log of
 * every item execution (start, end, CPU) to measure concurrency. Single JVM, one thread.
 */
final class WqHarness {
  static final long US = 1_000L;
  static final long MS = 1_000_000L;
  /** Costs of the test machine: 1 us switch, 1 us idle exit, 4 us wakeup latency, HZ 250. */
  static final SchedParams SCHED = new SchedParams(1_000, 1_000, 4_000);

  final Topology topo;
  final WorkqueueSystem.Builder builder;
  final List<CpuComponent> cpus = new ArrayList<>();
  final List<Exec> log = new ArrayList<>();
  WorkqueueSystem sys;
  RunOutcome outcome;

  /** One execution of a logged item. */
  record Exec(String item, int tag, int cpu, int node, String worker, long start, long end) {}

  WqHarness(TopologyParams tp, WorkqueueParams wp) {
    topo = Topology.of(tp);
    builder = WorkqueueSystem.builder(topo, SCHED, TimerParams.defaults(SCHED.hz()), wp);
    for (var c : topo.cpus()) {
      cpus.add(new CpuComponent(c, SCHED));
    }
  }

  static TopologyParams cpus(int n) {
    return new TopologyParams(1, 1, 1, n, 1);
  }

  WorkqueueSystem build() {
    sys = builder.build();
    return sys;
  }

  /** A work function that logs its execution: CPU {@code runNs}, block {@code sleepNs}, CPU. */
  WorkFn logged(String name, int tag, long runNs, long sleepNs) {
    return () -> {
      int[] pc = {0};
      Exec[] rec = new Exec[1];
      return w -> {
        switch (pc[0]++) {
          case 0 -> {
            rec[0] = new Exec(name, tag, w.cpu().cpu().id(), w.cpu().cpu().node(),
                w.worker().comm(), w.now(), -1);
            w.runFor(runNs);
          }
          case 1 -> {
            if (sleepNs > 0) {
              w.sleepFor(sleepNs);
            } else {
              w.runFor(0);
            }
          }
          case 2 -> w.runFor(sleepNs > 0 ? runNs : 0);
          default -> {
            Exec e = rec[0];
            log.add(new Exec(e.item, e.tag, e.cpu, e.node, e.worker, e.start, w.now()));
            w.finish();
          }
        }
      };
    };
  }

  /** A live task on CPU {@code cpu} running {@code steps}, one per step, then exiting. */
  Driver driver(int cpu) {
    Driver d = new Driver("driver/" + cpu);
    cpus.get(cpu).addTask(d);
    return d;
  }

  static final class Driver extends Task {
    final List<Consumer<TaskCpu>> steps = new ArrayList<>();
    int pc;

    Driver(String name) {
      super(name, 1, 0);
    }

    Driver then(Consumer<TaskCpu> s) {
      steps.add(s);
      return this;
    }

    /** Sleeps until {@code t} (absolute virtual time). */
    Driver at(long t) {
      return then(c -> {
        long d = t - c.now();
        if (d <= 0) {
          c.runFor(blksim.kernel.sched.CpuMode.SYSTEM, 0);
          return;
        }
        c.cpu().callAfter(d, () -> c.cpu().wake(this));
        c.sleep();
      });
    }

    /** {@code flush_workqueue(wq)}: sleeps until it is done. */
    Driver flush(WorkqueueSystem sys, Workqueue wq) {
      return then(c -> {
        sys.flushWorkqueue(c.cpu(), wq, () -> c.cpu().wake(this));
        c.sleep();
      });
    }

    /** {@code drain_workqueue(wq)}: sleeps until it is done. */
    Driver drain(WorkqueueSystem sys, Workqueue wq) {
      return then(c -> {
        sys.drainWorkqueue(c.cpu(), wq, () -> c.cpu().wake(this));
        c.sleep();
      });
    }

    @Override
    public boolean keepsRunAlive() {
      return true;
    }

    @Override
    protected void step(TaskCpu cpu) {
      if (pc < steps.size()) {
        steps.get(pc++).accept(cpu);
      } else {
        cpu.exit();
      }
    }
  }

  RunOutcome run(Partitioning p, long maxTimeNs) {
    List<Component> comps = new ArrayList<>(sys.components(cpus));
    Model m = new Model(comps, SCHED.wakeupLatencyNs(), maxTimeNs, 0, 42);
    outcome = LocalRunner.run(m, p, 1, ProgressListener.NONE);
    return outcome;
  }

  /** The component reports of the last run, in model order. */
  List<ComponentReport> reports() {
    List<ComponentReport> out = new ArrayList<>();
    for (IndexedReport r : outcome.reports()) {
      out.add(r.report());
    }
    return out;
  }

  /** Largest number of logged executions overlapping in time (optionally on one node). */
  int maxConcurrency(String item, int node) {
    List<long[]> ev = new ArrayList<>();
    for (Exec e : log) {
      if (e.item.equals(item) && (node < 0 || e.node == node)) {
        ev.add(new long[] {e.start, 1});
        ev.add(new long[] {e.end, -1});
      }
    }
    ev.sort(Comparator.<long[]>comparingLong(a -> a[0]).thenComparingLong(a -> a[1]));
    int cur = 0;
    int max = 0;
    for (long[] a : ev) {
      cur += (int) a[1];
      max = Math.max(max, cur);
    }
    return max;
  }

  /** Logged executions of {@code item} running at {@code t} (start <= t < end). */
  long runningAt(String item, long t) {
    return log.stream().filter(e -> e.item.equals(item) && e.start <= t && t < e.end).count();
  }
}
