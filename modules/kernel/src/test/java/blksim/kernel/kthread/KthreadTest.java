package blksim.kernel.kthread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.SimulationException;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.sched.TaskState;
import blksim.kernel.topology.Cpu;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class KthreadTest {
  static final SchedParams P = new SchedParams(1_000, 2_000, 4_000);
  static final long SW = P.ctxSwitchNs();
  static final long WORK = 10_000;

  /** Processes queued items, one system-mode burst each. */
  static final class Worker extends Kthread {
    final List<Long> workTimes = new ArrayList<>();
    int pending;
    int stops;

    Worker() {
      super("worker", 2, 0);
    }

    /** The waker's side: change the condition, then wake_up_process(). */
    void queue(CpuComponent cpu) {
      pending++;
      cpu.wake(this);
    }

    @Override
    protected boolean hasWork() {
      return pending > 0;
    }

    @Override
    protected void doWork(TaskCpu cpu) {
      pending--;
      workTimes.add(cpu.now());
      cpu.runFor(CpuMode.SYSTEM, WORK);
    }

    @Override
    protected void onStop() {
      stops++;
    }
  }

  /** A live task running a script of actions, one per step. */
  static final class Driver extends Task {
    final List<Consumer<TaskCpu>> script = new ArrayList<>();

    Driver() {
      super("driver", 1, 0);
    }

    Driver then(Consumer<TaskCpu> a) {
      script.add(a);
      return this;
    }

    @Override
    public boolean keepsRunAlive() {
      return true;
    }

    @Override
    protected void step(TaskCpu cpu) {
      script.remove(0).accept(cpu);
    }
  }

  static void sleepFor(TaskCpu c, Task self, long ns) {
    CpuComponent cpu = c.cpu();
    cpu.callAfter(ns, () -> cpu.wake(self));
    c.sleep();
  }

  @Test
  void sleepLoop_losesNoWakeup_ignoresWakesWhileRunning_andStopsOnRequest() {
    CpuComponent cpu = new CpuComponent(new Cpu(0, 0, 0, 0, 0), P);
    Worker w = new Worker();
    Driver d = new Driver();
    long ms = 1_000_000;
    d.then(c -> {
      w.queue(c.cpu());
      w.queue(c.cpu());
      sleepFor(c, d, ms);
    }).then(c -> {
      w.queue(c.cpu());
      // During the worker's first burst: more work, and a bare wake of the running thread.
      c.cpu().callAfter(5_000, () -> w.queue(c.cpu()));
      c.cpu().callAfter(6_000, () -> c.cpu().wake(w));
      sleepFor(c, d, ms);
    }).then(c -> {
      w.kthreadStop(c.cpu());
      c.exit();
    });
    cpu.addTask(w);
    cpu.addTask(d);
    LocalRunner.run(new Model(List.of(cpu), P.wakeupLatencyNs(), Long.MAX_VALUE, 0, 1),
        Partitioning.ONE, 1, ProgressListener.NONE);
    // w: 0-1000 switch, no work, sleeps. d: 1000-2000 switch, queues 2 at 2000, sleeps.
    long second = 2 * SW + ms + SW;
    assertEquals(List.of(3 * SW, 3 * SW + WORK, second + SW, second + SW + WORK), w.workTimes,
        "two items, then two more: the one queued while the worker ran was not lost");
    assertEquals(3, w.nvcsw(), "slept at start and after each batch: the bare wake did nothing");
    assertEquals(0, w.nivcsw());
    assertEquals(TaskState.DEAD, w.state());
    assertEquals(1, w.stops);
    assertTrue(w.kthreadShouldStop());
    assertEquals(4 * WORK + 4 * SW, w.stimeNs(), "four items and four switch-ins");
  }

  @Test
  void kthreadStop_fromAnotherCpu_isRefused() {
    CpuComponent c0 = new CpuComponent(new Cpu(0, 0, 0, 0, 0), P);
    CpuComponent c1 = new CpuComponent(new Cpu(1, 0, 0, 0, 1), P);
    Worker w = new Worker();
    c1.addTask(w);
    c0.addTask(new Driver().then(c -> {
      w.kthreadStop(c.cpu());
      c.exit();
    }));
    SimulationException e = assertThrows(SimulationException.class,
        () -> LocalRunner.run(new Model(List.of(c0, c1), P.wakeupLatencyNs(), Long.MAX_VALUE, 0,
            1), Partitioning.ONE, 1, ProgressListener.NONE));
    assertTrue(e.getMessage().contains("runs on cpu/1"), e.getMessage());
  }
}
