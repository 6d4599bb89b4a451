package blksim.workload.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** fio's I/O priority options (engines/cmdprio.c) as the parser and CmdPrio read them. */
@Timeout(10)
class CmdPrioTest {
  static final int RT0 = CmdPrio.ioprioValue(1, 0, 0);

  static FioJob job(String options) {
    return FioJobFile.parse("t.fio", "[j]\nfilename=/dev/sda\nioengine=libaio\n" + options,
        null, FioJobFileTest.ENV, Map.of()).get(0);
  }

  static InputException rejects(String options, String key) {
    InputException e = org.junit.jupiter.api.Assertions.assertThrows(InputException.class,
        () -> job(options));
    assertEquals("t.fio", e.file(), e.getMessage());
    assertEquals(key, e.key(), e.getMessage());
    assertTrue(e.line() > 3, e.getMessage());
    return e;
  }

  @Test
  void noPriorityOptions_noCmdPrio() {
    assertNull(job("rw=randread\n").cmdPrio());
  }

  @Test
  void percentageGivesThatShareTheCmdprioClassAndTheRestTheJobPriority() {
    CmdPrio c = job("rw=randread\nprioclass=3\ncmdprio_percentage=20\ncmdprio_class=1\n")
        .cmdPrio();
    int idle = CmdPrio.ioprioValue(3, 0, 0);
    assertEquals(List.of(idle, RT0), c.prios(0));
    SplittableRandom r = new SplittableRandom(7);
    int n = 100_000;
    int rt = 0;
    for (int i = 0; i < n; i++) {
      int p = c.pick(0, 131072, r);
      assertTrue(p == RT0 || p == idle);
      rt += p == RT0 ? 1 : 0;
    }
    assertEquals(0.20, rt / (double) n, 0.01);
    // Writes are not enabled for a randread job: no cmdprio share there.
    assertEquals(idle, c.pick(1, 131072, r));
  }

  @Test
  void bssplitSharesPerBlockSizeWithTheirOwnClasses() {
    CmdPrio c = job("rw=randrw\nbssplit=64k/40:1024k/60,1024k/100\n"
        + "cmdprio_bssplit=64k/25/1/1:64k/75/3/2:1024k/0,1024k/0\n").cmdPrio();
    int rt1 = CmdPrio.ioprioValue(1, 1, 0);
    int idle2 = CmdPrio.ioprioValue(3, 2, 0);
    assertEquals(List.of(0, rt1, idle2), c.prios(0));
    assertEquals(false, c.perPrioStats(1));
    SplittableRandom r = new SplittableRandom(3);
    int n = 40_000;
    int a = 0;
    for (int i = 0; i < n; i++) {
      int p = c.pick(0, 65536, r);
      a += p == rt1 ? 1 : 0;
      assertTrue(p == rt1 || p == idle2, "every 64k read has a cmdprio priority");
      assertEquals(0, c.pick(0, 1 << 20, r), "1m reads keep the job's priority");
    }
    assertEquals(0.25, a / (double) n, 0.015);
  }

  @Test
  void hintsAndDefaultClassRt() {
    CmdPrio c = job("rw=randread\ncmdprio_bssplit=1M/10/2/0/1:1M/90\ncmdprio=3\n").cmdPrio();
    assertEquals(List.of(0, CmdPrio.ioprioValue(2, 0, 1), CmdPrio.ioprioValue(1, 3, 0)),
        c.prios(0));
    assertEquals(1, CmdPrio.hint(CmdPrio.ioprioValue(2, 0, 1)));
  }

  @Test
  void badValuesAreRefusedWithTheirLine() {
    rejects("prio=8\n", "prio");
    rejects("prioclass=4\n", "prioclass");
    rejects("cmdprio_percentage=101\n", "cmdprio_percentage");
    rejects("cmdprio_class=0\n", "cmdprio_class");
    rejects("cmdprio_bssplit=64k/60:64k/50\n", "cmdprio_bssplit");
    rejects("cmdprio_bssplit=64k/10/1\n", "cmdprio_bssplit");
    rejects("cmdprio_percentage=10\ncmdprio_bssplit=64k/10\n", "cmdprio_bssplit");
  }

  @Test
  void prioWithASyncEngineIsRefused() {
    InputException e = org.junit.jupiter.api.Assertions.assertThrows(InputException.class,
        () -> FioJobFile.parse("t.fio", "[j]\nfilename=/dev/sda\nioengine=psync\nprio=3\n",
            null, FioJobFileTest.ENV, Map.of()));
    assertEquals("prio", e.key(), e.getMessage());
    assertEquals(4, e.line(), e.getMessage());
  }
}
