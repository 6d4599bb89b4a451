package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.sched.LockWaitStat;
import blksim.report.fio.FioJsonReporter;
import blksim.workload.fio.stats.EngineStats;
import blksim.workload.fio.stats.RunResult;
import blksim.workload.fio.stats.ThreadStat;
import java.util.LinkedHashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sleeping-lock part of {@code run --threads} and of the JSON's {@code blksim} section. */
class ThreadReportLocksTest {
  static ThreadStat thread(int cpu, int tid, String comm, char state, String wchan,
      List<LockWaitStat> locks) {
    return new ThreadStat(cpu, tid, comm, 0, 1_000_000, 2_000_000, 10, 1, 5_000, 11, 0, state,
        wchan, locks);
  }

  static RunResult run(List<ThreadStat> threads) {
    EngineStats e = new EngineStats(100, 10, 1, 10.0, 2_000_000_000L, 1_000_000, 100.0);
    return new RunResult(List.of(), List.of(), e, 0, "test", new LinkedHashMap<>(), List.of(),
        threads);
  }

  @Test
  void locksAreSummedPerLock_perGroup_andDStateThreadsNameTheirLock() {
    // Two finishers: one spun (3 µs), one slept 500 µs and still sleeps at the end.
    LockWaitStat a = new LockWaitStat("btree", 1000, 10, 8, 2, 24_000, 976_000, 600_000, 1);
    LockWaitStat b = new LockWaitStat("btree", 500, 5, 0, 5, 0, 2_000_000, 900_000, 0);
    LockWaitStat c = new LockWaitStat("i_rwsem", 4, 0, 0, 0, 0, 0, 0, 0);
    RunResult r = run(List.of(
        thread(0, 1, "kworker/u8:1", 'R', "", List.of(a, c)),
        thread(1, 2, "kworker/u8:2", 'D', "btree", List.of(b)),
        thread(1, 3, "fio", 'S', "", List.of())));
    String text = ThreadReport.text(r);
    assertTrue(text.contains("Sleeping locks"), text);
    // btree: 1500 acquisitions in 2 s, 15 contended, 8 spun, 7 slept, 0.024 ms spinning,
    // 2.976 ms asleep, (3,000,000 ns / 15) = 200 µs average, max 900 µs, 1 hand-off.
    assertTrue(text.contains(String.format("  %-24s %9s %9s %8s %8s %9s %9s %9s %9s %8s", "btree",
        "750", "15", "8", "7", "0.024", "2.976", "200.0", "900.0", "1")), text);
    assertTrue(text.contains("kworker/uN:N         btree"), text);
    assertTrue(text.contains("threads in D state at the end: 1\n    1 x kworker/uN:N on btree"),
        text);
    String json = FioJsonReporter.render(r);
    assertTrue(json.contains("\"wchan\" : \"btree\"") || json.contains("\"wchan\": \"btree\""),
        json);
    assertTrue(json.replaceAll("\\s", "").contains("\"d_state_threads\":1"), json);
    assertTrue(json.replaceAll("\\s", "").contains("\"lock\":\"btree\",\"acquisitions\":1500,"
        + "\"contended\":15,\"spun\":8,\"slept\":7,\"wait_ns\":3000000"), json);
  }

  @Test
  void noLockTaken_noLockSection() {
    RunResult r = run(List.of(thread(0, 1, "fio", 'R', "", List.of())));
    assertFalse(ThreadReport.text(r).contains("Sleeping locks"));
    assertFalse(FioJsonReporter.render(r).contains("d_state_threads"));
    assertEquals(1, r.threads().size());
  }
}
