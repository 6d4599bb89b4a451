package blksim.kernel.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.sched.ScriptedTask;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.topology.Cpu;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class TimerTest {
  static final long MS = 1_000_000L;
  static final long US = 1_000L;

  /** Runs one CPU with HZ {@code hz} and no switch or idle-exit cost. */
  static CpuComponent run(int hz, Task t) {
    SchedParams p = new SchedParams(0, 0, 1_000).withHz(hz);
    CpuComponent cpu = new CpuComponent(new Cpu(0, 0, 0, 0, 0), p);
    cpu.addTask(t);
    LocalRunner.run(new Model(List.of(cpu), p.wakeupLatencyNs(), Long.MAX_VALUE, 0, 1),
        Partitioning.ONE, 1, ProgressListener.NONE);
    return cpu;
  }

  static TimerParams noLatency(int hz) {
    return new TimerParams(hz, 0, 0, 0);
  }

  @Test
  void msecsToJiffies_roundsUp_atEachHz() {
    Jiffies hz250 = Jiffies.of(250);
    assertEquals(4 * MS, hz250.tickNs());
    assertEquals(1, hz250.msecsToJiffies(1), "1 ms is 1 jiffy at HZ 250");
    assertEquals(3, hz250.msecsToJiffies(10), "10 ms is 3 jiffies at HZ 250");
    assertEquals(1, hz250.msecsToJiffies(4));
    assertEquals(2, hz250.msecsToJiffies(5));
    assertEquals(0, hz250.msecsToJiffies(0));
    Jiffies hz1000 = Jiffies.of(1000);
    for (long ms = 0; ms <= 100; ms++) {
      assertEquals(ms, hz1000.msecsToJiffies(ms), "identity at HZ 1000");
    }
    assertEquals(1, Jiffies.of(100).msecsToJiffies(1));
    assertEquals(1, Jiffies.of(100).msecsToJiffies(10));
    assertEquals(2, Jiffies.of(100).msecsToJiffies(11));
    assertEquals(3, Jiffies.of(300).msecsToJiffies(10));
    assertEquals(3_333_333, Jiffies.of(300).tickNs(), "TICK_NSEC rounds to nearest");
    assertEquals(1, hz250.usecsToJiffies(1));
    assertEquals(2, hz250.usecsToJiffies(4_001));
    assertEquals(1, hz1000.usecsToJiffies(1_000));
    assertEquals(4_000, hz250.tickUs());
  }

  @Test
  void jiffies_followTheTickGridAndItsPhase() {
    Jiffies j = new Jiffies(1000, 300_000);
    assertEquals(-1, j.at(0), "before the first tick");
    assertEquals(0, j.at(300_000));
    assertEquals(0, j.at(1_299_999));
    assertEquals(1, j.at(1_300_000));
    assertEquals(5_300_000, j.tickTimeNs(5));
    assertThrows(IllegalArgumentException.class, () -> new Jiffies(200, 0));
    assertThrows(IllegalArgumentException.class, () -> new Jiffies(1000, 1_000_000));
  }

  @Test
  void wheelLevel_followsLvlStart() {
    assertEquals(0, TimerWheel.level(0, 1000));
    assertEquals(0, TimerWheel.level(62, 1000));
    assertEquals(1, TimerWheel.level(63, 1000));
    assertEquals(1, TimerWheel.level(503, 1000));
    assertEquals(2, TimerWheel.level(504, 1000));
    assertEquals(2, TimerWheel.level(4_031, 1000));
    assertEquals(3, TimerWheel.level(4_032, 1000));
    assertEquals(3, TimerWheel.level(32_255, 1000));
    assertEquals(4, TimerWheel.level(32_256, 1000));
    assertEquals(8, TimerWheel.level(Long.MAX_VALUE / 2, 1000));
    assertEquals(7, TimerWheel.level(Long.MAX_VALUE / 2, 100), "HZ 100 has 8 levels");
  }

  @Test
  void expiryTick_roundsUpStrictlyAfterExpires_atEachLevel() {
    // Level 0: E + 1.
    assertEquals(106, TimerWheel.expiryTick(100, 105, 1000));
    assertEquals(101, TimerWheel.expiryTick(100, 100, 1000));
    assertEquals(162, TimerWheel.expiryTick(100, 161, 1000), "delta 61 stays at level 0");
    // Level 1 (granularity 8): delta 100 from 0.
    assertEquals(104, TimerWheel.expiryTick(0, 100, 1000));
    assertEquals(112, TimerWheel.expiryTick(0, 104, 1000), "strictly after a boundary");
    // Level 2 (granularity 64): delta 1000.
    assertEquals(1_024, TimerWheel.expiryTick(0, 1_000, 250));
    // Level 3 (granularity 512): delta 5000.
    assertEquals(5_120, TimerWheel.expiryTick(0, 5_000, 250));
    // Never early, at most one granule late, for every delta up to level 4.
    for (long d = 0; d < 40_000; d += 7) {
      long fire = TimerWheel.expiryTick(1_000, 1_000 + d, 1000);
      long gran = TimerWheel.lvlGran(TimerWheel.level(d, 1000));
      assertTrue(fire > 1_000 + d && fire <= 1_000 + d + gran, "delta " + d);
    }
    assertEquals(51, TimerWheel.expiryTick(50, 40, 1000), "already expired: next tick");
  }

  @Test
  void timerList_runsAtTickEPlusOnePlusSoftirqLatency() {
    TimerParams tp = new TimerParams(1000, 0, 3 * US, 0);
    long[] firedAt = {-1};
    ScriptedTask s = ScriptedTask.live("script");
    s.then(c -> c.runFor(CpuMode.SYSTEM, 300 * US));
    s.then(c -> {
      TimerBase base = TimerBase.onCpu(c.cpu(), tp);
      TimerList timer = new TimerList(base, () -> {
        firedAt[0] = c.now();
        c.cpu().wake(s);
      });
      assertFalse(timer.modTimer(base.jiffies() + 1), "was not pending");
      assertTrue(timer.timerPending());
      assertEquals(2, timer.fireTick());
      c.sleep();
    });
    CpuComponent cpu = run(1000, s);
    // Armed at 0.3 ms (jiffies 0) with expires 1: tick 2, plus 3 us of softirq on the CPU.
    assertEquals(2 * MS + 3 * US, firedAt[0]);
    assertEquals(3 * US, cpu.irqNs());
  }

  @Test
  void hz250_oneMsDelay_firesTwoTicksLater() {
    long[] armedAt = {-1};
    long[] firedAt = {-1};
    ScriptedTask s = ScriptedTask.live("script");
    s.then(c -> c.runFor(CpuMode.SYSTEM, MS));
    s.then(c -> {
      TimerBase base = TimerBase.onCpu(c.cpu(), noLatency(250));
      armedAt[0] = c.now();
      TimerList timer = new TimerList(base, () -> {
        firedAt[0] = c.now();
        c.cpu().wake(s);
      });
      timer.modTimer(base.jiffies() + base.clock().msecsToJiffies(1));
      c.sleep();
    });
    run(250, s);
    assertEquals(MS, armedAt[0]);
    assertEquals(8 * MS, firedAt[0], "armed in jiffy 0, expires 1, runs at tick 2");
  }

  /** Arms a timer at time 0 of a HZ 1000 CPU and applies {@code moves}; returns firing times. */
  static List<Long> firings(Consumer<TimerList> moves) {
    List<Long> fired = new ArrayList<>();
    ScriptedTask s = ScriptedTask.live("script");
    s.then(c -> {
      TimerList timer = new TimerList(TimerBase.onCpu(c.cpu(), noLatency(1000)),
          () -> fired.add(c.now()));
      moves.accept(timer);
      c.runFor(CpuMode.SYSTEM, 50 * MS);
    });
    run(1000, s);
    return fired;
  }

  @Test
  void modTimer_setsTheOnePendingExpiry_earlierOrLater() {
    assertEquals(List.of(6 * MS), firings(t -> {
      t.modTimer(10);
      assertTrue(t.modTimer(5), "was pending");
    }), "moved earlier: fires once, at 5 + 1");
    assertEquals(List.of(11 * MS), firings(t -> {
      t.modTimer(5);
      t.modTimer(10);
    }), "moved later: fires once, at 10 + 1");
    assertEquals(List.of(6 * MS), firings(t -> {
      t.timerReduce(5);
      assertTrue(t.timerReduce(10), "timer_reduce never moves a timer later");
      assertEquals(5, t.expires());
    }));
    assertEquals(List.of(4 * MS), firings(t -> {
      t.timerReduce(10);
      t.timerReduce(3);
    }), "timer_reduce moves it earlier");
    assertEquals(List.of(), firings(t -> {
      t.modTimer(5);
      assertTrue(t.delTimer());
      assertFalse(t.timerPending());
      assertFalse(t.delTimer());
    }));
    assertThrows(blksim.engine.SimulationException.class, () -> firings(t -> {
      t.addTimer(5);
      t.addTimer(6);
    }));
  }

  @Test
  void callback_mayRearmItsOwnTimer() {
    List<Long> fired = new ArrayList<>();
    ScriptedTask s = ScriptedTask.live("script");
    s.then(c -> {
      TimerBase base = TimerBase.onCpu(c.cpu(), noLatency(1000));
      TimerList[] timer = new TimerList[1];
      timer[0] = new TimerList(base, () -> {
        fired.add(c.now());
        if (fired.size() < 3) {
          timer[0].modTimer(base.jiffies() + 2);
        }
      });
      timer[0].modTimer(0);
      c.runFor(CpuMode.SYSTEM, 30 * MS);
    });
    run(1000, s);
    assertEquals(List.of(1 * MS, 4 * MS, 7 * MS), fired);
  }

  @Test
  void usleepRange_wakesAtTheHardExpiry_notOnTheTickGrid() {
    TimerParams tp = new TimerParams(250, 0, 0, 2 * US);
    HrtimerSleep sleep = new HrtimerSleep(tp);
    ScriptedTask s = ScriptedTask.live("script");
    s.then(c -> c.runFor(CpuMode.SYSTEM, 123 * US));
    s.then(c -> sleep.usleepRange(c, 100, 150));
    s.then(c -> sleep.fsleep(c, 5));
    s.then(c -> sleep.fsleep(c, 1_000));
    run(250, s);
    assertEquals(List.of(0L, 123 * US, 275 * US, 280 * US, 2_282 * US), s.stepTimes);
  }

  @Test
  void hrtimerSleep_wakesLateByTheExpiryDraw_fromTheSleepersOwnStream() {
    blksim.engine.CostDistribution late = blksim.engine.CostDistribution.uniform(10 * US,
        20 * US);
    HrtimerSleep sleep = new HrtimerSleep(noLatency(250))
        .expiry(late, new java.util.SplittableRandom(3));
    java.util.SplittableRandom ref = new java.util.SplittableRandom(3);
    long first = late.sampleNs(ref);
    long second = late.sampleNs(ref);
    ScriptedTask s = ScriptedTask.live("script");
    s.then(c -> sleep.hrtimerSleepNs(c, 100 * US));
    s.then(c -> sleep.hrtimerSleepNs(c, 100 * US));
    run(250, s);
    assertEquals(List.of(0L, 100 * US + first, 200 * US + first + second), s.stepTimes);
    assertTrue(first != second, "two draws: " + first + ", " + second);

    // A constant 0 (the default) wakes at the exact expiry and draws nothing.
    java.util.SplittableRandom untouched = new java.util.SplittableRandom(4);
    HrtimerSleep exact = new HrtimerSleep(noLatency(250))
        .expiry(blksim.engine.CostDistribution.constant(0), untouched);
    ScriptedTask e = ScriptedTask.live("exact");
    e.then(c -> exact.hrtimerSleepNs(c, 100 * US));
    run(250, e);
    assertEquals(List.of(0L, 100 * US), e.stepTimes);
    assertEquals(new java.util.SplittableRandom(4).nextLong(), untouched.nextLong());
  }

  @Test
  void msleep_isRoundedByTheWheel() {
    HrtimerSleep sleep = new HrtimerSleep(noLatency(1000));
    ScriptedTask s = ScriptedTask.live("script");
    s.then(c -> c.runFor(CpuMode.SYSTEM, 300 * US));
    s.then(c -> sleep.msleep(c, 1));
    s.then(c -> sleep.fsleep(c, 25_000));
    run(1000, s);
    // msleep(1): expires = 0 + 1 + 1, runs at tick 3. fsleep(25 ms) = msleep(25): 3+25+1+1 = 30.
    assertEquals(List.of(0L, 300 * US, 3 * MS, 30 * MS), s.stepTimes);
  }

  @Test
  void earlyWakeup_doesNotEndAnUninterruptibleSleep() {
    HrtimerSleep sleep = new HrtimerSleep(noLatency(1000));
    List<Long> times = new ArrayList<>();
    Task t = new Task("sleeper", 3, 0) {
      int pc;

      @Override
      public boolean keepsRunAlive() {
        return true;
      }

      @Override
      protected void step(TaskCpu cpu) {
        times.add(cpu.now());
        if (sleep.continueSleep(cpu)) {
          return;
        }
        switch (pc++) {
          case 0 -> {
            cpu.cpu().callAfter(100 * US, () -> cpu.cpu().wake(this));
            sleep.hrtimerSleepNs(cpu, 500 * US);
          }
          default -> cpu.exit();
        }
      }
    };
    run(1000, t);
    assertEquals(List.of(0L, 100 * US, 500 * US), times, "woken at 100 us, slept again");
  }
}
