package blksim.workload.umount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.IndexedReport;
import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.fs.XfsFilesystem;
import blksim.kernel.fs.XfsLog;
import blksim.kernel.sched.CpuReport;
import blksim.kernel.sched.TaskReport;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import blksim.workload.scenario.ScenarioModelFactory;
import blksim.workload.shell.ShellReport;
import blksim.workload.shell.ShellTask;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dirty-files workload and the XFS unmount after it (kernel-model.md §15.1.5): the data is
 * written back before the log is forced, the log's writes carry REQ_PREFLUSH and REQ_FUA, the
 * final flush comes last, and the scenario keys refuse bad values.
 */
@Timeout(120)
class XfsUmountTest {
  @TempDir Path dir;

  private Path scenario(String dirty) throws IOException {
    Path p = dir.resolve("u.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1, memory = 2G }\n"
        + "  kernel { hz = 250, mode = V6_9 }\n"
        + "  devices = [ { type = ssd, name = sdb, size = 64G } ]\n"
        + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/t } ]\n"
        + "  dirty-files { " + dirty + " }\n"
        + "  max-time = 60s\n"
        + "  commands = [\"time umount /mnt/t\"]\n}\n");
    return p;
  }

  record Run(XfsFilesystem fs, ShellReport shell) {}

  private Run run(String dirty) throws IOException {
    Scenario s = ScenarioLoader.load(scenario(dirty), List.of(), Map.of());
    ScenarioModelFactory.Machine m = new ScenarioModelFactory().machine(s);
    XfsFilesystem fs = (XfsFilesystem) m.vfs().mountList().get(0).fs();
    RunOutcome out = LocalRunner.run(m.model(), Partitioning.ONE, 1, ProgressListener.NONE);
    ShellReport shell = null;
    for (IndexedReport r : out.reports()) {
      if (r.report().kind().equals(CpuReport.KIND)) {
        for (TaskReport t : CpuReport.decode(r.report().payload()).tasks()) {
          if (t.kind().equals(ShellTask.KIND)) {
            shell = ShellReport.decode(t.payload());
          }
        }
      }
    }
    assertNotNull(shell);
    return new Run(fs, shell);
  }

  @Test
  void umount_writesTheDataThenForcesTheLog_thenFlushes() throws IOException {
    Run r = run("directory = /mnt/t, files = 8, file-size = 32M, directories = 2");
    ShellReport.Result u = r.shell().results().get(0);
    assertEquals(0, u.status(), u.message());
    assertTrue(u.finished());
    List<XfsLog.Stage> st = r.fs().log().stages();
    assertEquals(List.of("xfs_log_force", "xfs_ail_push_all_sync", "xfs_log_cover",
        "xfs_log_cover", "xfs_log_cover", "xfs_log_cover", "xfs_log_unmount_write",
        "blkdev_issue_flush"), st.stream().map(XfsLog.Stage::name).toList());
    // Data before the log force: nothing dirty or under writeback when it starts.
    XfsLog.Stage force = st.get(0);
    assertEquals(0, force.dirtyPagesAtStart());
    assertEquals(0, force.writebackPagesAtStart());
    assertTrue(force.startNs() > u.startNs(), "the data writeback took time first");
    // The checkpoint of the allocations and creates: its first write flushes, its last is FUA.
    assertTrue(force.bios() >= 1 && force.preflush() == 1 && force.fua() == 1, force.toString());
    // The AIL push writes metadata in place, no flush.
    assertTrue(st.get(1).bios() > 0 && st.get(1).preflush() == 0, st.get(1).toString());
    // Each stage starts when the one before ended.
    for (int i = 1; i < st.size(); i++) {
      assertTrue(st.get(i).startNs() >= st.get(i - 1).endNs(), st.get(i).toString());
    }
    assertEquals(1, st.get(6).preflush());
    assertEquals(1, st.get(6).fua());
    assertEquals(1, st.get(7).preflush());
    assertEquals(0, st.get(7).bytes(), "the final flush is empty");
    // 4 REQ_PREFLUSH bios plus one per log force with content (§15.5): here 1 + 2 + 1 + 1.
    assertEquals(5, st.stream().mapToInt(XfsLog.Stage::preflush).sum());
    // umount returned after the last flush.
    assertTrue(u.endNs() >= st.get(7).endNs());
    // The JSON detail: every byte written, sampled.
    String d = u.detailJson();
    assertTrue(d.contains("\"written_bytes\" : " + (8L * 32 << 20) + " }\n]"), d);
    assertTrue(d.contains("\"name\" : \"xfs_log_unmount_write\""), d);
  }

  @Test
  void sparseExtents_writeOnlyTheDirtyPieces() throws IOException {
    Run r = run("directory = /mnt/t/a, files = 4, file-size = 16M, dirty-extent = 1M,"
        + " dirty-stride = 4M");
    ShellReport.Result u = r.shell().results().get(0);
    assertEquals(0, u.status(), u.message());
    assertTrue(u.detailJson().contains("\"written_bytes\" : " + (4L * 4 << 20) + " }\n]"),
        u.detailJson());
  }

  @Test
  void badKeys_areInputErrorsNamingTheKey() throws IOException {
    String[][] bad = {
        {"directory = /elsewhere, files = 1, file-size = 1M", "dirty-files.directory"},
        {"directory = /mnt/t, files = 1, file-size = 1000", "dirty-files.file-size"},
        {"directory = /mnt/t, files = 0, file-size = 1M", "dirty-files.files"},
        {"directory = /mnt/t, files = 1, file-size = 8M, dirty-extent = 2M, dirty-stride = 1M",
            "dirty-files.dirty-stride"},
        {"directory = /mnt/t, files = 3, file-size = 1G", "dirty-files.files"},
        {"directory = /mnt/t, files = many", "dirty-files.files"},
    };
    for (String[] b : bad) {
      Path p = scenario(b[0]);
      InputException e = assertThrows(InputException.class,
          () -> ScenarioLoader.load(p, List.of(), Map.of()), b[0]);
      assertTrue(e.getMessage().contains(b[1]), e.getMessage());
    }
  }
}
