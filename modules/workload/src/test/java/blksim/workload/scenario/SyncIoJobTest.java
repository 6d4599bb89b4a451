package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** fio's {@code sync}: accepted where O_SYNC changes nothing modelled, refused elsewhere. */
class SyncIoJobTest {
  @TempDir Path dir;

  Scenario load(String devices, String extra, String jobs) throws IOException {
    Files.writeString(dir.resolve("job.fio"), jobs);
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n devices = [ " + devices + " ]\n" + extra
        + " fio.job-files = [\"job.fio\"]\n}\n");
    return ScenarioLoader.load(p, List.of(), Map.of());
  }

  static final String SSD = "{ type = ssd, name = sdb, size = 1G }";
  static final String JOB = "[j]\nfilename=/dev/sdb\nrw=randwrite\nbs=4k\nsize=1M\n";

  @Test
  void directWrites_toADeviceWithoutWriteCache_areAccepted() throws IOException {
    for (String v : new String[] {"1", "sync", "dsync", "0", "none"}) {
      Scenario s = load(SSD, "", JOB + "direct=1\nsync=" + v + "\n");
      assertEquals(1, s.jobs().size(), v);
    }
    load(SSD, "", "[j]\nfilename=/dev/sdb\nrw=randread\nsize=1M\nsync=1\n"); // no writes
  }

  @Test
  void bufferedOrFilesOrBadValue_areRefusedWithTheLine() {
    InputException buffered = assertThrows(InputException.class,
        () -> load(SSD, "", JOB + "sync=1\n"));
    assertTrue(buffered.getMessage().contains("job.fio:6") && buffered.getMessage()
        .contains("buffered O_SYNC"), buffered.getMessage());
    InputException files = assertThrows(InputException.class, () -> load(SSD,
        " filesystems = [ { type = xfs, device = sdb, mount = /mnt } ]\n",
        "[j]\nfilename=/mnt/f\nrw=write\nsize=1M\ndirect=1\nsync=1\n"));
    assertTrue(files.getMessage().contains("files"), files.getMessage());
    InputException bad = assertThrows(InputException.class,
        () -> load(SSD, "", JOB + "direct=1\nsync=yes\n"));
    assertTrue(bad.getMessage().contains("must be one of none, 0, sync, 1, dsync"),
        bad.getMessage());
  }
}
