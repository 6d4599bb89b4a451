package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.kernel.block.RequestQueueParams.Scheduler;
import blksim.kernel.device.NvmeParams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The nvme device keys: defaults, validation (exit 2 naming the key), partitionings. */
class NvmeScenarioTest {
  @TempDir Path dir;

  static final String JOB = "[j]\nioengine=psync\ndirect=1\nfilename=/dev/nvme0n1\nbs=4k\n"
      + "rw=randread\nruntime=1ms\ntime_based\n";

  /** 2 nodes x 2 cores x 2 threads = 8 CPUs, one nvme with {@code keys}. */
  Path scenario(String keys, String body) throws IOException {
    Files.writeString(dir.resolve("job.fio"), JOB);
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { sockets = 2, cores-per-llc = 2, threads-per-core = 2 }\n"
        + "  devices = [\n"
        + "    { type = nvme, name = nvme0n1" + keys + " }\n"
        + "  ]\n"
        + "  fio.job-files = [\"job.fio\"]\n"
        + body + "\n}\n");
    return p;
  }

  NvmeParams load(String keys, String body) throws IOException {
    return (NvmeParams) ScenarioLoader.load(scenario(keys, body), List.of(), Map.of())
        .devices().get(0);
  }

  InputException fails(String keys, String body) throws IOException {
    Path p = scenario(keys, body);
    return assertThrows(InputException.class, () -> ScenarioLoader.load(p, List.of(), Map.of()));
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
    for (String[] c : cases) {
      InputException e = fails(c[0], "");
      assertEquals("blksim.devices.0." + c[1], e.key(), c[0] + ": " + e.getMessage());
      assertTrue(e.getMessage().contains(c[2]), c[0] + ": " + e.getMessage());
      assertTrue(e.file().endsWith("s.conf"), e.file());
    }
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
