package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.kernel.block.RequestQueueParams.Scheduler;
import blksim.kernel.device.NullBlkParams;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The null_blk device keys: defaults, validation (exit 2 naming the key), partitionings. */
class NullBlkScenarioTest extends OneDeviceScenario<NullBlkParams> {
  static final String JOB = "[global]\nioengine=psync\ndirect=1\nfilename=/dev/nullb0\nbs=4k\n"
      + "rw=randread\nruntime=1ms\ntime_based\n[j]\nnumjobs=2\n";

  NullBlkScenarioTest() {
    super("type = null_blk, name = nullb0, size = 1G", JOB);
  }

  @Test
  void defaults_arePerCpuQueuesWithTheKernelsSchedulerChoice() throws IOException {
    NullBlkParams nb = load("", "");
    assertEquals(NullBlkParams.PER_CPU, nb.submitQueues());
    assertEquals(8, nb.hwQueues(8));
    assertNull(nb.scheduler(), "auto");
    assertEquals(Scheduler.NONE, nb.schedulerFor(nb.hwQueues(8)));
    assertEquals(64, nb.nrRequestsFor(8));
    assertEquals(130_560, nb.maxBytes());
    assertEquals(64, nb.hwQueueDepth());
  }

  @Test
  void keys_areRead() throws IOException {
    NullBlkParams nb = load(", queue-mode = mq, submit-queues = 1, scheduler = mq-deadline,"
        + " nr-requests = 32, max-sectors = 64k, hw-queue-depth = 16", "");
    assertEquals(1, nb.hwQueues(8));
    assertEquals(Scheduler.MQ_DEADLINE, nb.schedulerFor(1));
    assertEquals(32, nb.nrRequestsFor(1));
    assertEquals(65_536, nb.maxBytes());
    assertEquals(Scheduler.MQ_DEADLINE, load(", submit-queues = 1", "").schedulerFor(1),
        "auto with one hardware queue: mq-deadline, as elevator_get_default()");
    assertEquals(8, load(", submit-queues = 100", "").hwQueues(8), "clamped to nr_cpu_ids");
  }

  @Test
  void badValues_failNamingTheKey() throws IOException {
    String[][] cases = {
        {", queue-mode = 0", "queue-mode", "not modelled"},
        {", queue-mode = 1", "queue-mode", "must be 2"},
        {", submit-queues = 0", "submit-queues", "per-cpu or a whole number"},
        {", submit-queues = many", "submit-queues", "per-cpu or a whole number"},
        {", scheduler = bfq", "scheduler", "bfq"},
        {", nr-requests = lots", "nr-requests", "auto or a whole number"},
        {", nr-requests = 0", "nr-requests", "must be in [1, 65536], was 0"},
        {", scheduler = none, nr-requests = 128", "nr-requests", "cannot exceed"},
        {", nr-requests = 128", "nr-requests", "cannot exceed"},
        {", max-sectors = 1000", "max-sectors", "multiple of 512"},
        {", bs = 4096, max-sectors = 2048", "max-sectors", "at least bs"},
        {", hw-queue-depth = 0", "hw-queue-depth", "must be in"},
    };
    badValuesFailNamingTheKey(cases);
  }

  @Test
  void partitionings_perCpuQueuesTakeAnySharedQueuesMustNotBeSplit() throws IOException {
    for (String p : List.of("one", "node", "llc", "cpu", "3")) {
      load("", "partitions = " + p);
    }
    // Two queues on two nodes: one per node, so partitions = node keeps each queue's CPUs.
    load(", submit-queues = 2", "partitions = node");
    load(", submit-queues = 4", "partitions = node");
    InputException e = fails(", submit-queues = 2", "partitions = cpu");
    assertEquals("blksim.partitions", e.key());
    assertTrue(e.getMessage().contains("submit-queues = per-cpu"), e.getMessage());
    fails(", submit-queues = 1", "partitions = node");
    load(", submit-queues = 1", "partitions = one");
  }

  @Test
  void sharedTags_keysAreRead_andTheSharedBitmapNeedsOnePartition() throws IOException {
    NullBlkParams nb = load(", shared-tags = on, shared-tag-bitmap = true", "partitions = one");
    assertTrue(nb.sharedTags());
    assertTrue(nb.sharedTagBitmap());
    assertTrue(!load("", "").sharedTags());
    load(", shared-tags = on", "partitions = cpu");
    InputException e = fails(", shared-tag-bitmap = on", "partitions = node");
    assertEquals("blksim.partitions", e.key());
    assertTrue(e.getMessage().contains("shared-tag-bitmap"), e.getMessage());
  }
}
