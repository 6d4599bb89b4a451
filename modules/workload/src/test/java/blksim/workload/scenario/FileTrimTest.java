package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.workload.fio.stats.JobStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio's trims on a regular file (io_u.c {@code do_io_u_trim()}, os/os-linux.h
 * {@code os_trim()}): an {@code ioctl(fd, BLKDISCARD)}, which a file's filesystem answers with
 * ENOTTY; the trim counts as issued and the job ends with err=25.
 */
@Timeout(60)
class FileTrimTest {
  @TempDir Path dir;

  private JobStats run(String target, String job) throws IOException {
    Path p = dir.resolve("t.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = brd, name = ram0, size = 64M } ]\n"
        + "  filesystems = [ { type = xfs, device = ram0, mount = /mnt/t } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=" + target + "\nsize=1m\nbs=4k\n" + job
        + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0).jobs().get(0);
  }

  @Test
  void trimOnAFile_failsWithEnotty_afterOneIssuedTrim() throws IOException {
    for (String engine : List.of("psync", "libaio")) {
      JobStats t = run("/mnt/t/f", "rw=randtrim\ndirect=1\nioengine=" + engine + "\niodepth=8");
      assertEquals(25, t.error(), engine + ": ENOTTY");
      assertEquals(1, t.totalIos(2), engine + ": the failed trim counts as issued");
      assertEquals(0, t.ioBytes(2), engine);
      assertEquals(0, t.totalIos(0) + t.totalIos(1), engine);
    }
    // On a block device blksim does not issue discards yet: refused, not ignored.
    InputException e = assertThrows(InputException.class,
        () -> run("/dev/ram0", "rw=randtrim\ndirect=1"));
    assertTrue(e.getMessage().contains("does not issue discards"), e.getMessage());
    e = assertThrows(InputException.class, () -> run("ram0", "rw=randtrim\ndirect=1"));
    assertTrue(e.getMessage().contains("on a block device"), e.getMessage());
  }
}
