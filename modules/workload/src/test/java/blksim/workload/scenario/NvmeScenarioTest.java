package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.kernel.block.RequestQueueParams.Scheduler;
import blksim.kernel.device.NvmeParams;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The nvme device keys: defaults, validation (exit 2 naming the key), partitionings. */
class NvmeScenarioTest extends OneDeviceScenario<NvmeParams> {
  static final String JOB = "[j]\nioengine=psync\ndirect=1\nfilename=/dev/nvme0n1\nbs=4k\n"
      + "rw=randread\nruntime=1ms\ntime_based\n";

  NvmeScenarioTest() {
    super("type = nvme, name = nvme0n1", JOB);
  }

  @Test
  void defaults_areNvmePcisAndThePm9a3s() throws IOException {
    NvmeParams n = load("", "");
    assertEquals(8, n.hwQueues(8));
    assertEquals(128, n.hwQueues(512));
    assertEquals(1023, n.tagsPerQueue());
    assertNull(n.scheduler(), "auto");
    assertEquals(Scheduler.NONE, n.schedulerFor(8));
    assertEquals(1023, n.nrRequestsFor(8), "without a scheduler, the driver tags");
    assertEquals(512 * 1024, n.maxBytes());
    assertEquals(128, n.maxSegments());
    assertEquals(7_680_000_000_000L, n.sizeBytes());
    assertEquals(NvmeParams.DEFAULT_DRIVE, n.drive().withQueueDepth(65536));
    assertEquals(900, n.submitCostNs());
    assertEquals(1000, n.completionCostNs());
  }

  @Test
  void keys_areRead() throws IOException {
    NvmeParams n = load(", io-queues = 2, io-queue-depth = 64, scheduler = mq-deadline,"
        + " nr-requests = 32, max-sectors = 128k, channels = 8, read-latency = 50us", "");
    assertEquals(2, n.hwQueues(8));
    assertEquals(63, n.tagsPerQueue());
    assertEquals(Scheduler.MQ_DEADLINE, n.schedulerFor(2));
    assertEquals(32, n.nrRequestsFor(2));
    assertEquals(128 * 1024, n.maxBytes());
    assertEquals(8, n.drive().channels());
    assertEquals(50_000, n.drive().readLatencyNs());
    assertEquals(Scheduler.MQ_DEADLINE, load(", io-queues = 1", "").schedulerFor(1),
        "auto with one hardware queue: mq-deadline, as elevator_get_default()");
  }

  @Test
  void badValues_failNamingTheKey() throws IOException {
    String[][] cases = {
        {", io-queue-depth = 0", "io-queue-depth", "must be in"},
        {", io-queue-depth = 1", "io-queue-depth", "must be in"},
        {", io-queues = 0", "io-queues", "must be in"},
        {", scheduler = bfq", "scheduler", "bfq"},
        {", scheduler = kyber", "scheduler", "kyber"},
        {", nr-requests = lots", "nr-requests", "auto or a whole number"},
        {", scheduler = none, nr-requests = 2000", "nr-requests", "cannot exceed"},
        {", nr-requests = 2000", "nr-requests", "auto with 8 hardware queues"},
        {", max-sectors = 1000", "max-sectors", "multiple of 512"},
        {", channels = 0", "channels", "must be in"},
        {", page-size = 3k", "page-size", "power of two"},
        {", bs = 1024", "bs", "512 or 4096"},
    };
    badValuesFailNamingTheKey(cases);
  }

  @Test
  void partitionings_theSharedMediaModelNeedsOnePartition() throws IOException {
    load("", "partitions = one");
    for (String p : List.of("node", "llc", "cpu", "2")) {
      InputException e = fails("", "partitions = " + p);
      assertEquals("blksim.partitions", e.key());
      assertTrue(e.getMessage().contains("media model"), e.getMessage());
    }
  }
}
