package blksim.kernel.kthread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.topology.Cpu;
import java.util.List;
import org.junit.jupiter.api.Test;

class HousekeepingKworkerTest {

  /** A user-space hog that runs 100 ms in 1 ms bursts and exits. */
  static final class Hog extends Task {
    int bursts;

    Hog() {
      super("hog", 1, 0);
    }

    @Override
    public boolean keepsRunAlive() {
      return true;
    }

    @Override
    protected void step(TaskCpu cpu) {
      if (bursts++ < 100) {
        cpu.runFor(CpuMode.USER, 1_000_000);
      } else {
        cpu.exit();
      }
    }
  }

  @Test
  void periodicWakeups_preemptABusyTask_onceEach_andTakeTheirCpuTime() {
    CpuComponent cpu = new CpuComponent(new Cpu(0, 0, 0, 0, 0),
        new SchedParams(0, 0, 1_000));
    Hog hog = new Hog();
    HousekeepingKworker kw = new HousekeepingKworker(0, 10_000_000, 50_000);
    cpu.addTask(hog);
    cpu.addTask(kw);
    LocalRunner.run(new Model(List.of(cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE, 1,
        ProgressListener.NONE);
    // About ten wakeups in the hog's 100 ms, each an involuntary switch of the hog.
    assertTrue(hog.nivcsw() >= 10 && hog.nivcsw() <= 12, "nivcsw " + hog.nivcsw());
    assertEquals(hog.nivcsw(), kw.nvcsw(), "every kworker run (the first, which sleeps to its"
        + " random phase, and each wakeup) preempts the hog once and ends in a sleep");
    assertEquals(kw.nvcsw() - 1, kw.stimeNs() / 50_000, "50 us of system time per wakeup");
    assertEquals(100_000_000, hog.utimeNs(), "the hog's own work is unchanged");
  }

  @Test
  void badParameters_areRejected() {
    assertThrows(IllegalArgumentException.class, () -> new HousekeepingKworker(0, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> new HousekeepingKworker(0, 1, -1));
  }
}
