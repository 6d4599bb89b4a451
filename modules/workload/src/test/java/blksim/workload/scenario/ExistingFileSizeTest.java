package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.workload.fio.FioJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code filename=} file with no size (fio's {@code examples/butterfly.fio}): fio runs on the
 * existing file at its own size ({@code get_file_sizes()}); blksim takes the file as left by an
 * earlier run with a default size, and still refuses a directory job without one, as fio does.
 */
@Timeout(60)
class ExistingFileSizeTest {
  @TempDir Path dir;

  Scenario load(String job) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = ssd, name = sdb, size = 4G } ]\n"
        + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/t } ]\n"
        + "  fio.jobs = [\"\"\"\n" + job + "\n\"\"\"]\n}\n");
    return ScenarioLoader.load(p, List.of(), Map.of());
  }

  @Test
  void aNamedFileWithoutSize_isTakenAsExisting_withTheDefaultSize() throws IOException {
    Scenario s = load("[global]\nfilename=/mnt/t/testfile\nbs=4k\n[forward]\nrw=read\n"
        + "[backward]\nrw=read:-8k\n");
    for (FioJob j : s.jobs()) {
      assertEquals(ScenarioLoader.EXISTING_FILE_BYTES, j.sizeBytes(), j.name());
    }
    // A size given stands.
    assertEquals(1 << 20, load("[j]\nfilename=/mnt/t/f\nsize=1m\n").jobs().get(0).sizeBytes());
  }

  @Test
  void aDirectoryJobWithoutSize_isStillRefused() {
    // fio lays those files out itself and needs a size: "you need to specify size=".
    InputException e = assertThrows(InputException.class,
        () -> load("[j]\ndirectory=/mnt/t\nrw=read\n"));
    assertTrue(e.getMessage().contains("job 'j': size is needed"), e.getMessage());
  }

  @Test
  void fillDevice_withoutSize_takesTheFilesystemsCapacity_aSizeGivenStands() throws IOException {
    // fio's fixup_options(): fill_device with no size sets size to -1, capped by what the
    // target holds; on files that is the filesystem (get_fs_free_counts()), here its 4 GiB disk.
    assertEquals(4L << 30, load("[j]\nfilename=/mnt/t/f\nrw=write\nfill_fs=1\n")
        .jobs().get(0).sizeBytes());
    assertTrue(load("[j]\nfilename=/mnt/t/f\nrw=write\nfill_device=1\n").jobs().get(0)
        .fillDevice());
    assertEquals(1 << 20, load("[j]\nfilename=/mnt/t/f\nrw=write\nfill_device=1\nsize=1m\n")
        .jobs().get(0).sizeBytes());
    // Without fill_device a file with no size is the default existing file.
    assertEquals(ScenarioLoader.EXISTING_FILE_BYTES,
        load("[j]\nfilename=/mnt/t/f\nrw=write\n").jobs().get(0).sizeBytes());
  }
}
