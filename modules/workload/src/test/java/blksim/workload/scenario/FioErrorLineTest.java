package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import blksim.engine.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An error the loader raises about a parsed fio job names the line of the option that causes
 * it (in the job's section, a [global] above it or an included file), not the section header.
 */
class FioErrorLineTest {

  @TempDir Path dir;

  InputException refused(String job) throws IOException {
    Path fio = dir.resolve("j.fio");
    Files.writeString(fio, job);
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n  devices = [ { type = ssd, name = sdb, size = 4G } ]\n"
        + "  fio.job-files = [\"" + fio + "\"]\n}\n");
    return assertThrows(InputException.class, () -> ScenarioLoader.load(p, List.of(), Map.of()));
  }

  @Test
  void bufferedAsyncEngine_namesTheIoengineLine_elseTheDirectLine_elseTheSection()
      throws IOException {
    // buffered is fio's default: the engine is what makes the job unmodelled
    InputException e = refused("[global]\nioengine=posixaio\n\n[j]\nfilename=/dev/sdb\n"
        + "rw=read\nsize=1m\n");
    assertEquals(2, e.line(), e.getMessage());
    assertEquals("ioengine", e.key());
    e = refused("[j]\nfilename=/dev/sdb\nrw=read\nsize=1m\nioengine=posixaio\ndirect=0\n");
    assertEquals(5, e.line(), e.getMessage());
    assertEquals("ioengine", e.key());
  }

  @Test
  void aDeviceRefusal_namesTheFilenameLine() throws IOException {
    InputException e = refused("[j]\nrw=read\nsize=1m\nfilename=/dev/sdz\n");
    assertEquals(4, e.line(), e.getMessage());
    assertEquals("filename", e.key());
  }

  @Test
  void severalBlockDevicesInOneJob_areRefusedNamingTheFilenameLine_notSilentlyOneOfThem()
      throws IOException {
    // fio spreads one job's I/O over all its files (file_service_type); blksim's device job
    // has one device, so a second one would get no I/O: refused rather than dropped.
    Path fio = dir.resolve("two.fio");
    Files.writeString(fio, "[j]\nrw=randread\nsize=1m\nfilename=/dev/sdb:/dev/sdc\n");
    Path p = dir.resolve("two.conf");
    Files.writeString(p, "blksim {\n  devices = [ { type = ssd, name = sdb, size = 4G },"
        + " { type = ssd, name = sdc, size = 4G } ]\n  fio.job-files = [\"" + fio + "\"]\n}\n");
    InputException e = assertThrows(InputException.class,
        () -> ScenarioLoader.load(p, List.of(), Map.of()));
    assertEquals(4, e.line(), e.getMessage());
    assertEquals("filename", e.key());
    org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("/dev/sdc"),
        e.getMessage());
  }
}
