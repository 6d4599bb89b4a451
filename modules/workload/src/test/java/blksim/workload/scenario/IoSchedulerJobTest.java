package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.kernel.block.RequestQueueParams.Scheduler;
import blksim.kernel.device.NullBlkParams;
import blksim.kernel.device.SsdDeviceParams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** fio's {@code ioscheduler}: the job's device takes that scheduler, as its key would give. */
class IoSchedulerJobTest {
  @TempDir Path dir;

  Scenario load(String devices, String jobs) throws IOException {
    Files.writeString(dir.resolve("job.fio"), jobs);
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n devices = [ " + devices + " ]\n"
        + " fio.job-files = [\"job.fio\"]\n}\n");
    return ScenarioLoader.load(p, List.of(), Map.of());
  }

  static final String SSD = "{ type = ssd, name = sdb, size = 1G }";
  static final String JOB = "[j]\nfilename=/dev/sdb\nrw=randread\nbs=4k\nsize=1M\n";

  @Test
  void ssd_takesTheJobsScheduler_andItsAutoDepth() throws IOException {
    SsdDeviceParams plain = (SsdDeviceParams) load(SSD, JOB).devices().get(0);
    assertEquals(Scheduler.MQ_DEADLINE, plain.queue().scheduler(), "the ssd's default");
    SsdDeviceParams none = (SsdDeviceParams) load(SSD, JOB + "ioscheduler=none\n").devices()
        .get(0);
    assertEquals(Scheduler.NONE, none.queue().scheduler());
    SsdDeviceParams keyed = (SsdDeviceParams) load(
        "{ type = ssd, name = sdb, size = 1G, scheduler = none }", JOB).devices().get(0);
    assertEquals(keyed.queue(), none.queue(), "as the scheduler key would make it");
    SsdDeviceParams dl = (SsdDeviceParams) load(
        "{ type = ssd, name = sdb, size = 1G, scheduler = none }",
        JOB + "ioscheduler=deadline\n").devices().get(0);
    assertEquals(Scheduler.MQ_DEADLINE, dl.queue().scheduler());
  }

  @Test
  void nullBlk_takesIt_too() throws IOException {
    NullBlkParams nb = (NullBlkParams) load("{ type = null_blk, name = nullb0 }",
        "[j]\nfilename=/dev/nullb0\nrw=randread\nsize=1M\nioscheduler=mq-deadline\n")
        .devices().get(0);
    assertEquals(Scheduler.MQ_DEADLINE, nb.schedulerFor(32));
  }

  @Test
  void bioBasedDevice_unknownScheduler_andDisagreement_areRefused() {
    InputException zram = assertThrows(InputException.class, () -> load(
        "{ type = zram, name = zram0, size = 64M }",
        "[j]\nfilename=/dev/zram0\nrw=randread\nsize=1M\nioscheduler=none\n"));
    assertTrue(zram.getMessage().contains("job.fio:5") && zram.getMessage().contains("bio-based"),
        zram.getMessage());
    InputException bfq = assertThrows(InputException.class,
        () -> load(SSD, JOB + "ioscheduler=bfq\n"));
    assertTrue(bfq.getMessage().contains("ioscheduler=bfq is not modelled"), bfq.getMessage());
    InputException two = assertThrows(InputException.class, () -> load(SSD,
        JOB + "ioscheduler=none\n[k]\nfilename=/dev/sdb\nrw=read\nsize=1M\n"
        + "ioscheduler=mq-deadline\n"));
    assertTrue(two.getMessage().contains("one scheduler per device"), two.getMessage());
  }
}
