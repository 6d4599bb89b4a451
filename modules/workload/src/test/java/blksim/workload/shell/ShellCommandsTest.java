package blksim.workload.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.IndexedReport;
import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.mm.MmComponent;
import blksim.kernel.mm.MmReport;
import blksim.kernel.sched.CpuReport;
import blksim.kernel.sched.TaskReport;
import blksim.workload.scenario.ScenarioLoader;
import blksim.workload.scenario.ScenarioModelFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scenario's {@code commands}: parsing, and sync, syncfs and umount run after a buffered
 * writer, on the page cache and the flusher (kernel-model.md §9, §15.1.5).
 */
@Timeout(120)
class ShellCommandsTest {
  @TempDir Path dir;

  record Run(ShellReport shell, MmReport mm, long endNs) {}

  /** A buffered writer of 16 MiB into /mnt/t on a slow null_blk, never syncing itself. */
  private Path scenario(String commands, String job) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1, memory = 512M }\n"
        + "  kernel { hz = 250, mode = V4_3_RC1 }\n"
        + "  vm { dirty_background_bytes = 64M, dirty_bytes = 128M }\n"
        + "  devices = [ { type = null_blk, name = sdb, size = 8G, irqmode = timer,"
        + " completion-nsec = 100us, hw-queue-depth = 4 } ]\n"
        + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/t } ]\n"
        + (job == null ? "" : "  fio.jobs = [\"\"\"\n[w]\ndirectory=/mnt/t\nrw=write\nbs=64k\n"
        + "size=16m\n" + job + "\n\"\"\"]\n")
        + "  max-time = 20s\n"
        + "  commands = " + commands + "\n}\n");
    return p;
  }

  private Run run(Path p) {
    Model m = new ScenarioModelFactory().build(ScenarioLoader.load(p, List.of(), Map.of())
        .spec());
    RunOutcome out = LocalRunner.run(m, Partitioning.ONE, 1, ProgressListener.NONE);
    MmReport mm = null;
    ShellReport shell = null;
    for (IndexedReport r : out.reports()) {
      if (r.report().kind().equals(MmComponent.KIND)) {
        mm = MmReport.decode(r.report().payload());
      }
      if (r.report().kind().equals(CpuReport.KIND)) {
        for (TaskReport t : CpuReport.decode(r.report().payload()).tasks()) {
          if (t.kind().equals(ShellTask.KIND)) {
            shell = ShellReport.decode(t.payload());
          }
        }
      }
    }
    assertNotNull(shell, "the shell reported");
    return new Run(shell, mm, out.stats().simulatedTimeNs());
  }

  @Test
  void parse_takesTimeAndTheFourCommands() {
    ShellCommand c = ShellCommand.parse("  time umount /mnt/test ");
    assertEquals(ShellCommand.Kind.UMOUNT, c.kind());
    assertTrue(c.timed());
    assertEquals("/mnt/test", c.argument());
    assertEquals("time umount /mnt/test", c.text());
    assertEquals(ShellCommand.Kind.SYNCFS, ShellCommand.parse("sync -f /mnt/t/a").kind());
    assertEquals(ShellCommand.Kind.SYNCFS,
        ShellCommand.parse("sync --file-system /mnt/t").kind());
    assertEquals(ShellCommand.Kind.SYNC, ShellCommand.parse("sync").kind());
    // coreutils sleep: suffixes, fractions, and several arguments summed.
    assertEquals(1_500_000_000L, ShellCommand.parse("sleep 1.5").sleepNs());
    assertEquals(90_000_000_000L, ShellCommand.parse("sleep 1m 30s").sleepNs());
    assertEquals(7_200_000_000_000L, ShellCommand.parse("sleep 2h").sleepNs());
  }

  @Test
  void parse_refusesWhatIsNotModelled_withTheRule() {
    for (String bad : new String[] {"rm -rf /mnt/t", "umount -l /mnt/t", "umount", "sleep",
        "sleep 1x", "sync /mnt/t/file", "sync -f rel/path", "time", ""}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ShellCommand.parse(bad), bad);
      assertTrue(e.getMessage().length() > 10, e.getMessage());
    }
  }

  @Test
  void aBadCommand_isAnInputErrorNamingTheEntry() throws IOException {
    InputException e = assertThrows(InputException.class, () -> ScenarioLoader.load(
        scenario("[ sync, \"dd if=/dev/zero\" ]", ""), List.of(), Map.of()));
    assertTrue(e.getMessage().contains("commands[1]") && e.getMessage().contains("dd"),
        e.getMessage());
    Path p = scenario("[ sync ]", "");
    Files.writeString(p, Files.readString(p).replace("  commands", "  partitions = cpu\n"
        + "  commands"));
    e = assertThrows(InputException.class, () -> ScenarioLoader.load(p, List.of(), Map.of()));
    assertTrue(e.getMessage().contains("partitions"), e.getMessage());
  }

  @Test
  void umount_writesBackEveryDirtyPage_andWaitsForIt() throws IOException {
    Run r = run(scenario("[ \"time umount /mnt/t\", \"umount /mnt/t\" ]", ""));
    assertEquals(2, r.shell().results().size());
    ShellReport.Result umount = r.shell().results().get(0);
    assertEquals(0, umount.status(), umount.message());
    assertTrue(umount.timed());
    // 16 MiB was dirty (under the background threshold): all of it is written by the umount,
    // on a device that takes 100 us per request at depth 4.
    assertEquals(0, r.mm().end().dirty());
    assertEquals(0, r.mm().end().writeback());
    assertTrue(r.mm().end().nrWritten() >= 4096, "pages written: " + r.mm().end().nrWritten());
    assertTrue(umount.elapsedNs() > 1_000_000, "umount took " + umount.elapsedNs());
    assertTrue(umount.sysNs() > 0 && umount.sysNs() < umount.elapsedNs());
    // Its pages were evicted with its inodes.
    assertEquals(0, r.mm().end().filePages());
    // The second finds nothing mounted there, as util-linux says.
    ShellReport.Result again = r.shell().results().get(1);
    assertEquals(1, again.status());
    assertEquals("umount: /mnt/t: not mounted.", again.message());
    assertTrue(again.startNs() >= umount.endNs());
  }

  @Test
  void syncfsFirst_leavesTheUmountLittleToDo() throws IOException {
    Run plain = run(scenario("[ \"umount /mnt/t\" ]", ""));
    Run synced = run(scenario("[ \"sync -f /mnt/t\", \"sleep 0.01\", \"umount /mnt/t\" ]", ""));
    ShellReport.Result syncfs = synced.shell().results().get(0);
    ShellReport.Result sleep = synced.shell().results().get(1);
    ShellReport.Result umount = synced.shell().results().get(2);
    assertEquals(0, syncfs.status());
    assertTrue(sleep.elapsedNs() >= 10_000_000 && sleep.elapsedNs() < 11_000_000,
        "sleep 10ms took " + sleep.elapsedNs());
    long plainUmount = plain.shell().results().get(0).elapsedNs();
    assertTrue(syncfs.elapsedNs() > plainUmount / 2, syncfs + " vs " + plainUmount);
    // What is left is the XFS log's own writes (force, AIL push, cover, unmount record), the
    // same after a syncfs as without it; the data part is small.
    assertTrue(umount.elapsedNs() - logNs(umount) < plainUmount / 10,
        umount + " vs " + plainUmount);
  }

  /** The time an unmount spent in its XFS log stages, from its detail JSON. */
  private static long logNs(ShellReport.Result r) {
    java.util.regex.Matcher s = java.util.regex.Pattern.compile("\"start_ns\" : (\\d+)")
        .matcher(r.detailJson());
    java.util.regex.Matcher e = java.util.regex.Pattern.compile("\"end_ns\" : (\\d+)")
        .matcher(r.detailJson());
    assertTrue(s.find(), r.detailJson());
    long first = Long.parseLong(s.group(1));
    long last = first;
    while (e.find()) {
      last = Long.parseLong(e.group(1));
    }
    return last - first;
  }

  @Test
  void commandsWaitForTheWorkloads() throws IOException {
    Run r = run(scenario("[ sync ]", "end_fsync=1"));
    ShellReport.Result sync = r.shell().results().get(0);
    assertEquals(0, sync.status());
    // fio's end_fsync already wrote everything: the sync starts after the job and is short.
    assertTrue(sync.startNs() > 1_000_000, "started at " + sync.startNs());
    assertEquals(0, r.mm().end().dirty());
  }

  @Test
  void sameSeed_sameCommands() throws IOException {
    Path p = scenario("[ \"time umount /mnt/t\" ]", "");
    assertEquals(run(p).shell(), run(p).shell());
  }
}
