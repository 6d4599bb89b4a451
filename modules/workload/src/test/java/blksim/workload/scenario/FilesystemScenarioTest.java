package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.kernel.fs.FilesystemParams;
import blksim.kernel.fs.XfsParams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code blksim.filesystems}: what a valid list gives, and every refusal naming its key. */
class FilesystemScenarioTest {
  @TempDir Path dir;

  private Path scenario(String filesystems, String extra) throws IOException {
    Files.writeString(dir.resolve("job.fio"), ScenarioLoaderTest.JOB);
    return Files.writeString(dir.resolve("s.conf"), "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = null_blk, name = nullb0, size = 1G },\n"
        + "              { type = null_blk, name = sdb, size = 64G },\n"
        + "              { type = brd, name = ram0, size = 4M } ]\n"
        + "  fio.job-files = [\"job.fio\"]\n"
        + "  filesystems = " + filesystems + "\n"
        + extra + "\n}\n");
  }

  private Scenario load(String filesystems, String extra) throws IOException {
    return ScenarioLoader.load(scenario(filesystems, extra), List.of(), Map.of());
  }

  private InputException fails(String filesystems) throws IOException {
    Path p = scenario(filesystems, "");
    return assertThrows(InputException.class, () -> ScenarioLoader.load(p, List.of(), Map.of()));
  }

  @Test
  void aJobWithNoFilenameOrDirectory_usesTheFilesystemAtTheRoot_elseSaysWhy() throws IOException {
    // fio's add_job(): such a job's files are $jobname.$jobnum.$filenum in the working
    // directory, which blksim takes as / of the scenario.
    String fs = "[ { type = xfs, device = sdb, mount = \"/\" } ]";
    Path p = scenario(fs, "");
    Files.writeString(dir.resolve("job.fio"), "[w]\nrw=write\nsize=1m\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    assertTrue(s.onFilesystem(s.jobs().get(0)));
    assertEquals("/", s.jobs().get(0).directory());
    Path none = scenario("[]", "");
    Files.writeString(dir.resolve("job.fio"), "[w]\nrw=write\nsize=1m\n");
    InputException e = assertThrows(InputException.class,
        () -> ScenarioLoader.load(none, List.of(), Map.of()));
    assertTrue(e.getMessage().contains("job 'w': filename is needed (or directory=): as fio, the"
        + " job's files (w.0.0, ...) go in the working directory /, which is in no filesystem"),
        e.getMessage());
  }

  @Test
  void noFilesystems_isAnEmptyList() throws IOException {
    assertEquals(List.of(), load("[]", "").filesystems());
  }

  @Test
  void xfsFilesystems_takeTheirKeysAndDefaults_andSurviveTheSpecText() throws IOException {
    Scenario s = load("[ { type = xfs, device = /dev/sdb, mount = \"/mnt/test/\" },\n"
        + "  { type = xfs, device = nullb0, mount = /mnt/ro, options = \"noatime,ro\",\n"
        + "    ag-count = 8, p-contig = 0.5, jump-blocks = 16 } ]",
        "costs.xfs.create = 20us");
    assertEquals(2, s.filesystems().size());
    FilesystemParams a = s.filesystems().get(0);
    assertEquals("sdb", a.device());
    assertEquals("/mnt/test", a.mountPoint());
    assertFalse(a.readOnly());
    assertEquals(new XfsParams(0, 0.9, 8, 25_000, 20_000, 10_000), a.xfs());
    FilesystemParams b = s.filesystems().get(1);
    assertTrue(b.readOnly());
    assertEquals(List.of("noatime", "ro"), b.options());
    assertEquals(new XfsParams(8, 0.5, 16, 25_000, 20_000, 10_000), b.xfs());
    assertEquals(s.filesystems(), ScenarioLoader.fromSpec(s.spec()).filesystems());
    // mkfs on 64 GiB: 4 AGs (calc_default_ag_geometry), a mounted-later filesystem.
    assertEquals("xfs", a.mkfs(64L << 30).type());
  }

  @Test
  void optionsAsAList_lastOfRoRwWins() throws IOException {
    Scenario s = load("[ { type = xfs, device = sdb, mount = /mnt/t, options = [ro, rw] } ]",
        "");
    assertFalse(s.filesystems().get(0).readOnly());
  }

  @Test
  void unknownType_namesTheTypeKey() throws IOException {
    InputException e = fails("[ { type = ext4, device = sdb, mount = /mnt/t } ]");
    assertEquals("blksim.filesystems.0.type", e.key());
    assertTrue(e.getMessage().contains("unknown filesystem type 'ext4'"), e.getMessage());
  }

  @Test
  void filesystemOnAMissingDevice_namesTheDeviceKey() throws IOException {
    InputException e = fails("[ { type = xfs, device = sdz, mount = /mnt/t } ]");
    assertEquals("blksim.filesystems.0.device", e.key());
    assertTrue(e.getMessage().contains("no device named 'sdz'"), e.getMessage());
    assertTrue(e.getMessage().contains("/dev/sdb"), "lists the devices: " + e.getMessage());
  }

  @Test
  void twoFilesystemsOnOneDevice_areRefused() throws IOException {
    InputException e = fails("[ { type = xfs, device = sdb, mount = /mnt/a },"
        + " { type = xfs, device = /dev/sdb, mount = /mnt/b } ]");
    assertEquals("blksim.filesystems.1.device", e.key());
    assertTrue(e.getMessage().contains("already holds the filesystem mounted at /mnt/a"),
        e.getMessage());
  }

  @Test
  void relativeOrRepeatedMountPoints_areRefused() throws IOException {
    InputException rel = fails("[ { type = xfs, device = sdb, mount = mnt/a } ]");
    assertEquals("blksim.filesystems.0.mount", rel.key());
    assertTrue(rel.getMessage().contains("absolute"), rel.getMessage());
    InputException twice = fails("[ { type = xfs, device = sdb, mount = /mnt/a },"
        + " { type = xfs, device = nullb0, mount = \"/mnt/./a/\" } ]");
    assertEquals("blksim.filesystems.1.mount", twice.key());
    assertTrue(twice.getMessage().contains("/mnt/a is already the mount point"),
        twice.getMessage());
  }

  @Test
  void unknownMountOptionOrKey_isRefused() throws IOException {
    InputException opt = fails("[ { type = xfs, device = sdb, mount = /mnt/a,"
        + " options = \"ro,nobarrier\" } ]");
    assertEquals("blksim.filesystems.0.options", opt.key());
    assertTrue(opt.getMessage().contains("unknown mount option 'nobarrier'"), opt.getMessage());
    InputException key = fails("[ { type = xfs, device = sdb, mount = /mnt/a, agcount = 4 } ]");
    assertEquals("blksim.filesystems.0.agcount", key.key());
    assertTrue(key.getMessage().contains("ag-count"), "lists the known keys: "
        + key.getMessage());
  }

  @Test
  void impossibleGeometry_orTooSmallDevice_isRefused() throws IOException {
    // 64 GiB = 16,777,216 blocks in 5,000 AGs: ceil(3,355.4) = 3,356 blocks < 4,096 (16 MiB).
    InputException ag = fails("[ { type = xfs, device = sdb, mount = /mnt/a,"
        + " ag-count = 5000 } ]");
    assertEquals("blksim.filesystems.0.ag-count", ag.key());
    assertTrue(ag.getMessage().contains("16 MiB to 1 TiB"), ag.getMessage());
    InputException small = fails("[ { type = xfs, device = ram0, mount = /mnt/a } ]");
    assertEquals("blksim.filesystems.0.device", small.key());
    assertTrue(small.getMessage().contains("at least 16 MiB"), small.getMessage());
    InputException p = fails("[ { type = xfs, device = sdb, mount = /mnt/a, p-contig = 1.5 } ]");
    assertEquals("blksim.filesystems.0.p-contig", p.key());
  }

  @Test
  void filesystemsNotAList_orAnElementNotAnObject_isRefused() throws IOException {
    assertEquals("blksim.filesystems", fails("xfs").key());
    assertEquals("blksim.filesystems.0", fails("[ xfs ]").key());
    assertEquals("blksim.filesystems.0.type", fails("[ { device = sdb } ]").key());
  }
}
