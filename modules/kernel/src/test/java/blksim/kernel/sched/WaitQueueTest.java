package blksim.kernel.sched;

import static blksim.kernel.sched.ScriptedTask.cpu;
import static blksim.kernel.sched.ScriptedTask.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Wait queues and completions on one CPU: who a wake_up() wakes, in which order, and that a
 * completion counts complete() calls made before anybody waits. 1 us switches.
 */
@Timeout(30)
class WaitQueueTest {
  static final SchedParams P = CfsSchedulerTest.P;
  final CpuComponent cpu = cpu(0, P);
  final List<String> order = new ArrayList<>();

  /** A task that queues itself (exclusive or not), sleeps, then notes that it ran. */
  ScriptedTask waiter(String name, WaitQueue wq, boolean exclusive) {
    ScriptedTask[] self = new ScriptedTask[1];
    self[0] = new ScriptedTask(name, 0, true).then(c -> {
      if (exclusive) {
        wq.prepareToWaitExclusive(self[0]);
      } else {
        wq.prepareToWait(self[0]);
      }
      c.sleep();
    }).then(c -> {
      order.add(name);
      c.exit();
    });
    return self[0];
  }

  @Test
  void wakeUp_wakesEveryNonExclusiveWaiter_andOneExclusive_wakeUpAllTheRest() {
    WaitQueue wq = new WaitQueue();
    int[] woken = new int[2];
    List<ScriptedTask> ws = List.of(waiter("x1", wq, true), waiter("n1", wq, false),
        waiter("x2", wq, true), waiter("n2", wq, false));
    ws.forEach(cpu::addTask);
    List<List<TaskState>> states = new ArrayList<>();
    cpu.addTask(ScriptedTask.live("waker").then(c -> c.runFor(CpuMode.SYSTEM, 10_000))
        .then(c -> {
          woken[0] = wq.wakeUp(c.cpu());
          states.add(ws.stream().map(Task::state).toList());
          woken[1] = wq.wakeUpAll(c.cpu());
          states.add(ws.stream().map(Task::state).toList());
          assertFalse(wq.active());
          c.runFor(CpuMode.SYSTEM, 100_000);
        }));
    run(P, Long.MAX_VALUE, cpu);
    TaskState r = TaskState.RUNNING;
    TaskState b = TaskState.BLOCKED;
    assertEquals(3, woken[0], "both non-exclusive waiters and the first exclusive one");
    assertEquals(List.of(r, r, b, r), states.get(0), "x1 n1 x2 n2");
    assertEquals(1, woken[1], "x2");
    assertEquals(List.of(r, r, r, r), states.get(1));
    assertEquals(4, order.size(), "all ran: " + order);
  }

  @Test
  void conditionalEntry_staysQueuedUntilItsConditionHolds() {
    WaitQueue wq = new WaitQueue();
    boolean[] ready = new boolean[1];
    ScriptedTask[] self = new ScriptedTask[1];
    self[0] = new ScriptedTask("w", 0, false).then(c -> {
      wq.prepareToWait(self[0], () -> ready[0]);
      c.sleep();
    }).then(c -> {
      order.add("w");
      c.exit();
    });
    cpu.addTask(self[0]);
    int[] woken = new int[2];
    cpu.addTask(ScriptedTask.live("waker").then(c -> c.runFor(CpuMode.SYSTEM, 1_000))
        .then(c -> {
          woken[0] = wq.wakeUp(c.cpu());
          ready[0] = true;
          woken[1] = wq.wakeUp(c.cpu());
          c.runFor(CpuMode.SYSTEM, 1_000);
        }));
    run(P, Long.MAX_VALUE, cpu);
    assertEquals(0, woken[0], "refused while the condition is false");
    assertEquals(1, woken[1]);
    assertEquals(List.of("w"), order);
  }

  @Test
  void completion_countsCompletesBeforeTheWait_andWakesOneWaiterPerComplete() {
    Completion done = new Completion();
    ScriptedTask[] self = new ScriptedTask[2];
    // a: completes itself twice, then waits twice without sleeping, then once with sleeping.
    self[0] = new ScriptedTask("a", 0, true).then(c -> {
      done.complete(c.cpu());
      done.complete(c.cpu());
      assertTrue(done.tryWait(self[0]) && done.tryWait(self[0]), "two counted completions");
      assertFalse(done.tryWait(self[0]));
      c.sleep();
    }).then(c -> {
      assertTrue(done.tryWait(self[0]), "woken by b's complete(), which it consumes");
      order.add("a");
      c.exit();
    });
    self[1] = new ScriptedTask("b", 0, true).then(c -> c.runFor(CpuMode.SYSTEM, 5_000))
        .then(c -> {
          assertTrue(done.hasWaiters());
          done.complete(c.cpu());
          order.add("b");
          c.exit();
        });
    cpu.addTask(self[0]);
    cpu.addTask(self[1]);
    run(P, Long.MAX_VALUE, cpu);
    assertEquals(List.of("b", "a"), order);
    assertEquals(1, self[0].nvcsw(), "a slept once: the completions before its wait were kept");
    assertFalse(done.isDone());
  }

  @Test
  void completeAll_letsEveryWaitPass_untilReinit() {
    Completion c0 = new Completion();
    ScriptedTask w1 = new ScriptedTask("w1", 0, true);
    w1.then(c -> {
      assertFalse(c0.tryWait(w1));
      c.sleep();
    }).then(c -> {
      assertTrue(c0.tryWait(w1) && c0.tryWait(w1) && c0.tryWait(w1),
          "complete_all: every wait passes");
      c0.reinit();
      assertFalse(c0.isDone());
      assertFalse(c0.tryWait(w1), "after reinit a wait queues again");
      order.add("w1");
      c.exit();
    });
    cpu.addTask(w1);
    cpu.addTask(new ScriptedTask("all", 0, false).then(c -> c.runFor(CpuMode.SYSTEM, 1_000))
        .then(c -> {
          c0.completeAll(c.cpu());
          assertTrue(c0.isDone());
          c.exit();
        }));
    run(P, Long.MAX_VALUE, cpu);
    assertEquals(List.of("w1"), order);
  }

  @Test
  void membership_throughALoneWaiterASecondAndBackToNone() {
    WaitQueue wq = new WaitQueue();
    Task a = new CfsPolicyTest.Idle("a", 0, 1);
    Task b = new CfsPolicyTest.Idle("b", 0, 2);
    Task c = new CfsPolicyTest.Idle("c", 0, 3);
    assertFalse(wq.active());
    wq.prepareToWait(a);
    wq.prepareToWait(a);
    assertTrue(wq.active());
    assertTrue(wq.queued(a));
    wq.finishWait(b);
    assertTrue(wq.queued(a), "finish_wait() of another task leaves the lone waiter");
    wq.prepareToWaitExclusive(b);
    assertTrue(wq.queued(a) && wq.queued(b));
    wq.finishWait(a);
    assertFalse(wq.queued(a));
    assertTrue(wq.queued(b));
    wq.finishWait(b);
    assertFalse(wq.active());
    wq.prepareToWait(c);
    assertTrue(wq.queued(c) && !wq.queued(a) && !wq.queued(b));
    wq.finishWait(c);
    assertFalse(wq.active());
  }
}
