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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio's {@code atomic=1} (RWF_ATOMIC) against the kernel's rules: fio refuses it with an engine
 * without {@code FIO_ATOMICWRITES} (init.c); the kernel refuses a buffered atomic write and one
 * to a device without atomic limits (EOPNOTSUPP), and one whose length is not a power of two
 * within the unit limits or whose offset is not aligned to it (EINVAL).
 */
@Timeout(60)
class AtomicWriteTest {
  @TempDir Path dir;

  Scenario load(String unit, String job) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = ssd, name = sdb, size = 4G" + unit + " },"
        + " { type = ssd, name = sdc, size = 4G } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/dev/sdb\nsize=64m\n" + job + "\n\"\"\"]\n}\n");
    return ScenarioLoader.load(p, List.of(), Map.of());
  }

  InputException refused(String unit, String job, String rule) {
    InputException e = assertThrows(InputException.class, () -> load(unit, job));
    assertTrue(e.getMessage().contains(rule), e.getMessage());
    return e;
  }

  static final String UNIT = ", atomic-write-unit-max = 16k";

  @Test
  void aWriteWithinTheLimits_isAccepted_andTheFlagReachesTheJob() throws IOException {
    for (String engine : List.of("libaio", "io_uring", "pvsync2")) {
      for (String bs : List.of("4k", "16k", "512")) {
        assertTrue(load(UNIT, "rw=randwrite\ndirect=1\nioengine=" + engine + "\nbs=" + bs
            + "\natomic=1").jobs().get(0).atomic(), engine + " " + bs);
      }
    }
  }

  @Test
  void fioRefusesOtherEngines_andAJobThatDoesNotWriteIgnoresIt() throws IOException {
    InputException e = refused(UNIT, "rw=write\ndirect=1\nioengine=psync\natomic=1",
        "the engine does not support RWF_ATOMIC");
    assertEquals("atomic", e.key());
    // fixup_options(): oatomic = 0 when the job does not write, whatever the device.
    load("", "rw=randread\ndirect=1\nioengine=psync\natomic=1");
  }

  @Test
  void theKernelsEopnotsupp_bufferedOrADeviceWithoutAtomicWrites() {
    refused(UNIT, "rw=write\ndirect=0\nioengine=pvsync2\natomic=1", "EOPNOTSUPP");
    refused("", "rw=write\ndirect=1\nioengine=libaio\natomic=1", "no atomic writes");
  }

  @Test
  void theKernelsEinval_lengthAndAlignment() {
    refused(UNIT, "rw=write\ndirect=1\nioengine=libaio\nbs=32k\natomic=1", "EINVAL");
    refused(UNIT, "rw=write\ndirect=1\nioengine=libaio\nbs=12k\natomic=1", "power of two");
    refused(UNIT, "rw=write\ndirect=1\nioengine=libaio\nbs=8k\noffset=4k\natomic=1",
        "not multiples of 8192");
    refused(UNIT, "rw=randwrite\ndirect=1\nioengine=libaio\nbs=8k\nblockalign=4k\natomic=1",
        "not multiples of 8192");
    refused(UNIT, "rw=write\ndirect=1\nioengine=libaio\nbsrange=4k-8k\natomic=1",
        "several write block sizes");
  }

  @Test
  void theUnitMustBeAPowerOfTwo() {
    InputException e = refused(", atomic-write-unit-max = 12k", "rw=write", "power of two");
    assertEquals("blksim.devices.0.atomic-write-unit-max", e.key());
  }
}
