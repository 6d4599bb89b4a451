package blksim.kernel.locking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.Partitioning;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.LockWaitStat;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.sched.Task;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sleeping-lock semantics, each task on a CPU of its own: 1 µs context switches, 2 µs idle exit,
 * 4 µs wakeup latency (the lookahead), HZ 250 (4 ms hand-off timeout).
 */
@Timeout(30)
class RwSemaphoreTest {
  static final SchedParams P = new SchedParams(1_000, 2_000, 4_000);
  static final LockParams NO_SPIN = LockParams.DEFAULT.withSpin(false);

  final List<String> log = new ArrayList<>();
  final List<CpuComponent> cpus = new ArrayList<>();

  LockTask task(String name) {
    LockTask t = new LockTask(name, log);
    CpuComponent c = LockTask.cpu(cpus.size(), P);
    c.addTask(t);
    cpus.add(c);
    return t;
  }

  void run() {
    LockTask.run(P, Partitioning.ONE, cpus);
  }

  /** The names of the tasks that logged {@code event}, in log order. */
  List<String> who(String event) {
    return log.stream().filter(l -> l.endsWith(" " + event)).map(l -> l.split(" ")[1])
        .collect(Collectors.toList());
  }

  long when(String name, String event) {
    return log.stream().filter(l -> l.endsWith(" " + name + " " + event))
        .mapToLong(l -> Long.parseLong(l.split(" ")[0])).findFirst().orElseThrow();
  }

  static LockTask.Op ask() {
    return (t, cpu) -> {
      t.note(cpu, "ask");
      return LockTask.Did.NOTHING;
    };
  }

  static LockWaitStat stat(Task t, String lock) {
    return t.lockAccount(lock).snapshot();
  }

  @Test
  void sleepersGetTheLockInArrivalOrder_inDState() {
    RwSemaphore l = new RwSemaphore("L", NO_SPIN);
    task("A").downWrite(l).run(100_000).upWrite(l);
    // C and D arrive before B's CPU asks, in the order D, B, C.
    LockTask b = task("B").sleepFor(20_000).downWrite(l).run(1_000).upWrite(l);
    LockTask c = task("C").sleepFor(30_000).downWrite(l).run(1_000).upWrite(l);
    LockTask d = task("D").sleepFor(10_000).downWrite(l).run(1_000).upWrite(l);
    char[] states = new char[3];
    String[] wchan = new String[1];
    task("observer").sleepFor(50_000).op((t, cpu) -> {
      states[0] = b.psState();
      states[1] = c.psState();
      states[2] = d.psState();
      wchan[0] = c.wchan();
      return LockTask.Did.NOTHING;
    });
    run();
    assertEquals(List.of("A", "D", "B", "C"), who("W+"), log.toString());
    assertEquals("DDD", new String(states), "asleep on the lock");
    assertEquals("L", wchan[0]);
    assertEquals(3, l.maxSleepers());
    for (Task t : List.of(b, c, d)) {
      LockWaitStat s = stat(t, "L");
      assertEquals(1, s.acquisitions());
      assertEquals(1, s.slept());
      assertEquals(0, s.spinNs());
      assertEquals(' ', t.wchan() == null ? ' ' : 'x', "wchan cleared");
    }
    // B waited from 20 µs until after D's turn: A's 100 µs, D's hold and two hand-offs.
    assertTrue(stat(b, "L").maxWaitNs() > 80_000, log.toString());
  }

  /**
   * Writer A holds the lock 100 µs; three readers queue at 10-30 µs, then {@code writers}
   * writers: A's release grants the readers (rwsem_mark_wake() walks the whole list). Returns
   * the times the readers took the lock.
   */
  long[] readersGrantedBehind(int writers, LockParams p) {
    log.clear();
    cpus.clear();
    RwSemaphore l = new RwSemaphore("L", p);
    task("A").downWrite(l).run(100_000).upWrite(l);
    for (int i = 1; i <= 3; i++) {
      task("R" + i).sleepFor(i * 10_000L).downRead(l).run(1_000).upRead(l);
    }
    for (int i = 0; i < writers; i++) {
      task("W" + i).sleepFor(40_000L + i * 500L).downWrite(l).run(1_000).upWrite(l);
    }
    run();
    if (p.waitLock() != null) {
      assertTrue(l.waitLock().acquisitions() >= 3 + writers, l.waitLock().toString());
    }
    return new long[] {when("R1", "R+"), when("R2", "R+"), when("R3", "R+")};
  }

  @Test
  void waitLock_walkGrowsWithTheQueue_andWakeupsAreIssuedOneAfterAnother() {
    LockParams.WaitLock wl = new LockParams.WaitLock(SpinLockParams.DEFAULT, 200, 100);
    LockParams on = NO_SPIN.withWaitLock(wl);
    long[] off2 = readersGrantedBehind(2, NO_SPIN);
    long[] off20 = readersGrantedBehind(20, NO_SPIN);
    long[] on2 = readersGrantedBehind(2, on);
    long[] on20 = readersGrantedBehind(20, on);
    // Without wait_lock the queue behind the readers changes nothing.
    assertEquals(off2[2], off20[2]);
    // With it, A's rwsem_wake() walks 5 or 23 entries (200 ns + 100 ns each) and wake_up_q()
    // wakes R1, R2, R3 one wake cost (1 µs) apart.
    assertEquals(1_000, on2[1] - on2[0], "wake_q: " + log);
    assertEquals(1_000, on2[2] - on2[1]);
    assertEquals(18 * 100, on20[0] - on2[0], "the walk over 18 more writers");
    assertTrue(on2[2] - off2[2] >= 200 + 5 * 100 + 3 * 1_000, "after the section and three"
        + " wakeups: " + (on2[2] - off2[2]));
  }

  @Test
  void readerArrivingBehindASleepingWriter_waitsForIt() {
    RwSemaphore l = new RwSemaphore("L", NO_SPIN);
    task("R1").downRead(l).run(200_000).upRead(l);
    task("W").sleepFor(10_000).downWrite(l).run(50_000).upWrite(l);
    task("R2").sleepFor(50_000).downRead(l).run(1_000).upRead(l);
    run();
    assertEquals(List.of("R1", "R2"), who("R+"));
    assertTrue(when("R2", "R+") > when("W", "W-"), "R2 queued behind W: " + log);
    assertTrue(when("W", "W+") >= when("R1", "R-"));
  }

  @Test
  void readerPreferringLock_letsTheReaderJoinPastTheWriter() {
    RwSemaphore l = new RwSemaphore("L", NO_SPIN.withReadersQueueBehindWriters(false));
    task("R1").downRead(l).run(200_000).upRead(l);
    task("W").sleepFor(10_000).downWrite(l).run(50_000).upWrite(l);
    task("R2").sleepFor(50_000).downRead(l).run(1_000).upRead(l);
    run();
    assertTrue(when("R2", "R+") < when("R1", "R-"), "joined the readers at once: " + log);
    assertTrue(when("W", "W+") > when("R1", "R-"));
  }

  @Test
  void writerSpinsWhileTheOwnerRuns_takesItAtRelease_withoutSleeping() {
    RwSemaphore l = new RwSemaphore("L", LockParams.DEFAULT);
    task("A").downWrite(l).run(50_000).upWrite(l);
    LockTask b = task("B").sleepFor(10_000).op(ask()).downWrite(l).run(1_000).upWrite(l);
    run();
    LockWaitStat s = stat(b, "L");
    assertEquals(1, s.spun());
    assertEquals(0, s.slept());
    long release = when("A", "W-");
    assertEquals(release + LockParams.DEFAULT.spinNoticeNs(), when("B", "W+"),
        "the spinner sees the release after a cache-line transfer: " + log);
    assertEquals(when("B", "W+") - when("B", "ask"), s.spinNs());
    assertEquals(1, b.nvcsw(), "only its initial sleep: no sleep on the lock");
    assertTrue(b.stimeNs() >= s.spinNs(), "spinning burns the spinner's CPU: " + b.stimeNs());
  }

  @Test
  void writerOnAReaderOwnedLock_spinsOnceThenQueues_andTheLockBecomesNonSpinnable() {
    RwSemaphore l = new RwSemaphore("L", LockParams.DEFAULT);
    task("R").downRead(l).run(300_000).upRead(l);
    LockTask b = task("B").sleepFor(10_000).op(ask()).downWrite(l).run(1_000).upWrite(l);
    LockTask c = task("C").sleepFor(100_000).op(ask()).downWrite(l).run(1_000).upWrite(l);
    run();
    LockWaitStat sb = stat(b, "L");
    // rwsem_rspin_threshold() with one reader: (20 + 1) / 2 µs, then rwsem_set_nonspinnable()
    // and the writer queues (rwsem_down_write_slowpath() spins once); before the fix it spun
    // again and again for the whole 300 µs.
    assertEquals(10_500, sb.spinNs(), log.toString());
    assertEquals(1, sb.slept(), log.toString());
    LockWaitStat sc = stat(c, "L");
    assertEquals(0, sc.spinNs(), "RWSEM_NONSPINNABLE: C does not spin on the reader: " + log);
    assertEquals(1, sc.slept());
    assertEquals(1, l.nonSpinnableSet());
    assertTrue(when("B", "W+") > when("R", "R-"));
    assertTrue(when("C", "W+") > when("B", "W-"), "FIFO: " + log);
  }

  @Test
  void spinnerSleepsOnceTheOwnerBlocks() {
    RwSemaphore l = new RwSemaphore("L", LockParams.DEFAULT);
    // A holds L, runs 30 µs, then blocks 100 µs still holding it.
    task("A").downWrite(l).run(30_000).sleepFor(100_000).run(5_000).upWrite(l);
    LockTask b = task("B").sleepFor(10_000).op(ask()).downWrite(l).run(1_000).upWrite(l);
    run();
    LockWaitStat s = stat(b, "L");
    assertEquals(1, s.slept(), log.toString());
    // Spun from its request until A left its CPU, 30 µs after taking L, plus the notice.
    assertEquals(when("A", "W+") + 30_000 + LockParams.DEFAULT.spinNoticeNs() - when("B", "ask"),
        s.spinNs(), log.toString());
    assertTrue(when("B", "W+") > when("A", "W-"));
    assertEquals(s.maxWaitNs(), s.spinNs() + s.sleepNs());
  }

  @Test
  void starvedSleeper_getsTheHandOffAfterTheWaitTimeout() {
    RwSemaphore l = new RwSemaphore("L", LockParams.DEFAULT);
    // C first holds L asleep, so B (10 µs) and then D (30 µs) queue as sleepers. Then C takes
    // L again and again, 2 µs after each release: B, woken at each release, needs the wakeup
    // latency (4 µs) to run and finds L stolen every time, until its wait timeout passes.
    LockTask c = task("C").downWrite(l).sleepFor(50_000).upWrite(l);
    for (int i = 0; i < 500; i++) {
      c.run(2_000).downWrite(l).run(20_000).upWrite(l);
    }
    LockTask b = task("B").sleepFor(10_000).downWrite(l).run(1_000).upWrite(l);
    task("D").sleepFor(30_000).downWrite(l).run(1_000).upWrite(l);
    run();
    assertTrue(who("W+").indexOf("B") < who("W+").indexOf("D"), "FIFO among the sleepers");
    LockWaitStat s = stat(b, "L");
    assertEquals(1, s.handoffs(), log.toString().substring(0, 2000));
    long waited = s.maxWaitNs();
    // RWSEM_WAIT_TIMEOUT = 1 jiffy at HZ 250: more than 4 ms and at most 8 ms + one hold.
    // time_after(jiffies, timeout): the flag is set at the first wakeup after 2 jiffies.
    assertTrue(waited > 4_000_000 && waited < 8_200_000, "waited " + waited);
    assertTrue(l.handoffs() >= 1);
  }

  @Test
  void mutexExcludes_andHandsOffAtTheFirstFailedWakeup() {
    Mutex m = new Mutex("M", LockParams.DEFAULT);
    int[] holders = new int[1];
    int[] max = new int[1];
    List<LockTask> ts = new ArrayList<>();
    for (int k = 0; k < 4; k++) {
      LockTask t = task("T" + k);
      t.run(k * 3_000L);
      for (int i = 0; i < 50; i++) {
        t.lock(m).op((x, cpu) -> {
          max[0] = Math.max(max[0], ++holders[0]);
          return LockTask.Did.NOTHING;
        }).run(15_000).op((x, cpu) -> {
          holders[0]--;
          return LockTask.Did.NOTHING;
        }).unlock(m).run(1_000);
      }
      ts.add(t);
    }
    run();
    assertEquals(1, max[0], "one holder at a time");
    assertEquals(200, who("M+").size());
    long slept = ts.stream().mapToLong(t -> stat(t, "M").slept()).sum();
    long handoffs = ts.stream().mapToLong(t -> stat(t, "M").handoffs()).sum();
    assertTrue(handoffs <= slept, handoffs + " " + slept);
    // No waiter starves for the rwsem's 4 ms: the mutex hands off at once.
    long maxWait = ts.stream().mapToLong(t -> stat(t, "M").maxWaitNs()).max().orElseThrow();
    assertTrue(maxWait < 4_000_000, "max wait " + maxWait);
  }

  @Test
  void mutexSleeper_isHandedTheLockAfterOneFailedWakeup_notAfterTheTimeout() {
    Mutex m = new Mutex("M", LockParams.DEFAULT);
    // As in the rwsem starvation test: C re-takes M 2 µs after each release.
    LockTask c = task("C").lock(m).sleepFor(50_000).unlock(m);
    for (int i = 0; i < 100; i++) {
      c.run(2_000).lock(m).run(20_000).unlock(m);
    }
    LockTask b = task("B").sleepFor(10_000).lock(m).run(1_000).unlock(m);
    run();
    LockWaitStat s = stat(b, "M");
    assertEquals(1, s.handoffs(), log.toString());
    // Woken at C's first release (~51 µs), finds M re-taken, sets the flag, spins on C and gets
    // M at C's next release.
    assertTrue(s.maxWaitNs() < 100_000, "waited " + s.maxWaitNs());
  }

  /** A contended run: 6 CPUs, writers and readers on one rwsem, mixed holds. */
  private List<String> contendedRun(Partitioning parts) {
    log.clear();
    cpus.clear();
    RwSemaphore l = new RwSemaphore("L", LockParams.DEFAULT);
    for (int k = 0; k < 6; k++) {
      LockTask t = task("T" + k);
      t.run(k * 1_700L);
      for (int i = 0; i < 40; i++) {
        if ((i + k) % 3 == 0) {
          t.downRead(l).run(7_000 + k * 300L).upRead(l);
        } else {
          t.downWrite(l).run(5_000 + k * 500L).upWrite(l);
        }
        t.run(3_000 + (i % 5) * 1_000L);
        if (i % 7 == k) {
          t.sleepFor(20_000);
        }
      }
    }
    LockTask.run(P, parts, cpus);
    List<String> out = new ArrayList<>(log);
    for (CpuComponent c : cpus) {
      for (Task t : c.tasks()) {
        out.add(t.comm() + " " + t.stat());
      }
    }
    return out;
  }

  @Test
  void sameSeedSameResult_andASplitLockFailsLoudly() {
    List<String> a = contendedRun(Partitioning.ONE);
    List<String> b = contendedRun(Partitioning.ONE);
    assertEquals(a, b);
    assertTrue(a.stream().filter(s -> s.endsWith("+")).count() == 240);
    // The lock is shared kernel state: its users must share a partition. Split, the first
    // spin end sent across partitions breaks the lookahead and the run fails.
    RuntimeException e =
        assertThrows(RuntimeException.class, () -> contendedRun(Partitioning.parse("2")));
    String all = e + " " + e.getCause();
    assertTrue(all.contains("lookahead"), all);
  }
}
